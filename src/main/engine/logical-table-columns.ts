// The columns of each logical table as native DuckDB types them, for the Athena / BigQuery definitions (issue 15):
// from the table's view where it has one, else from the readable files it would read (archived ones left out).
import { CATALOG, qualifiedName } from '../../shared/catalog'
import { type AsOf, type Inventory, foldersForLogicalTable } from '../../shared/inventory'
import { isArchived } from '../../shared/listing'
import { quoteIdent, quoteLiteral } from '../../shared/sql-quote'
import type { ColumnSpec } from '../../shared/warehouse-ddl/column-types'
import type { FileStore } from '../store/file-store'
import type { BucketEngine } from './open-bucket-engine'
import { errorMessage } from '../../shared/error-message'

export type TableColumns = ReadonlyMap<string, readonly ColumnSpec[] | { readonly unknown: string }>

export async function logicalTableColumns(
  opened: BucketEngine,
  store: FileStore,
  inventory: Inventory,
  opts: AsOf & { readonly now: number }
): Promise<TableColumns> {
  const out = new Map<string, readonly ColumnSpec[] | { readonly unknown: string }>()
  const describe = async (sql: string): Promise<ColumnSpec[]> => {
    const { columns } = await opened.engine.selectAll(`SELECT * FROM (${sql}) LIMIT 0`)
    return columns.names.map((name, i) => ({ name, type: String(columns.types[i]) }))
  }
  for (const t of CATALOG) {
    const qn = qualifiedName(t)
    if (opened.views.created.includes(qn)) {
      out.set(qn, await describe(`SELECT * FROM ${quoteIdent(t.schema)}.${quoteIdent(t.table)}`))
      continue
    }
    // No view (an archived or unreadable file, say): its columns are still those of the files that can be read.
    const why = opened.views.problems.find((p) => p.table === qn)?.message ?? 'it has no view'
    const files = foldersForLogicalTable(inventory, t, opts)
      .flatMap((f) => f.dataFiles)
      .filter((o) => !isArchived(o, opts.now) && !opts.unreadable?.has(o.key))
    const { paths } = files.length > 0 ? await store.ensure(files) : { paths: new Map<string, string>() }
    const base = `${opened.engine.fileBase}__columns/${t.schema}/${t.table}/`
    const links = files
      .filter((o) => paths.has(o.key))
      .map((o, i) => ({ name: `${base}${String(i).padStart(9, '0')}.parquet`, key: o.key, path: paths.get(o.key) as string }))
    if (links.length === 0) {
      out.set(qn, { unknown: why })
      continue
    }
    try {
      await opened.engine.link(links)
      out.set(qn, await describe(`SELECT * FROM read_parquet(${quoteLiteral(`${base}*.parquet`)}, union_by_name = true, hive_partitioning = false)`))
    } catch (e) {
      out.set(qn, { unknown: `${why}; its readable files could not be read either: ${errorMessage(e)}` })
    }
  }
  return out
}
