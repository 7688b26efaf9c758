// What DuckDB-WASM 0.9.1 (the query pane's engine) cannot read although native DuckDB can, said per table
// before it breaks anything: a table whose files disagree on a column's Parquet type (INT32 in older files,
// INT64 in newer ones) fails there with "INTERNAL Error: SetMin or SetMax called with Value that does not match
// statistics' column value" once Parquet metadata is cached, and an INTERNAL error invalidates the whole
// database, every other table with it. Wraps the engine handed to createBucketViews, which records a table whose
// registration fails as a problem with this message, and goes on with the next table. (A vendor column named like a
// bookkeeping column is no problem: logical-table-sql.ts names its own columns apart from the table's.)
import type { SqlEngine } from '../../../shared/bucket-views'
import { quoteIdent, quoteLiteral } from '../../../shared/sql-quote'

interface SchemaRow {
  readonly file_name: string
  readonly name: string
  readonly type: string | null
  readonly converted_type: string | null
  readonly logical_type: string | null
  readonly num_children: number | bigint | null
  readonly scale: number | bigint | null
  readonly precision: number | bigint | null
}

/** One leaf column of one file: its path (struct fields joined by '.') and its type as Parquet stores it. */
export interface FileColumn {
  readonly file: string
  readonly column: string
  readonly type: string
}

/** The type of a Parquet leaf as a reader sees it: physical type, with its converted/logical annotation. */
function typeOf(r: SchemaRow): string {
  const logical = r.logical_type ?? ''
  const annotation = r.converted_type ?? /^(\w+?)Type\(/.exec(logical)?.[1]?.toUpperCase() ?? ''
  const decimal = annotation === 'DECIMAL' ? `(${String(r.precision)},${String(r.scale)})` : ''
  // A timestamp that is UTC-adjusted reads as TIMESTAMP WITH TIME ZONE, another type.
  const utc = /isAdjustedToUTC=(1|true)/i.test(logical) ? ' UTC' : ''
  return `${r.type ?? '?'}${annotation ? ` (${annotation}${decimal}${utc})` : ''}`
}

/** Leaf columns per file, from parquet_schema rows (each file's schema in order, groups with num_children). */
export function leafColumns(rows: readonly SchemaRow[]): FileColumn[] {
  const out: FileColumn[] = []
  let file = ''
  let stack: { name: string; left: number }[] = []
  for (const r of rows) {
    if (r.file_name !== file) {
      file = r.file_name
      // The first element of a file's schema is its root.
      stack = [{ name: '', left: Number(r.num_children ?? 0) }]
      continue
    }
    while (stack.length > 1 && (stack[stack.length - 1] as { left: number }).left === 0) stack.pop()
    const parent = stack[stack.length - 1]
    if (parent) parent.left--
    const path = [...stack.slice(1).map((s) => s.name), r.name].join('.')
    const children = Number(r.num_children ?? 0)
    if (children > 0 && r.type === null) stack.push({ name: r.name, left: children })
    else out.push({ file, column: path, type: typeOf(r) })
  }
  return out
}

/** Columns whose type differs across files: per column, the files of each type. */
export function typeConflicts(columns: readonly FileColumn[]): { column: string; byType: Map<string, string[]> }[] {
  const byColumn = new Map<string, Map<string, string[]>>()
  for (const c of columns) {
    const types = byColumn.get(c.column) ?? new Map<string, string[]>()
    byColumn.set(c.column, types)
    types.set(c.type, [...(types.get(c.type) ?? []), c.file])
  }
  return [...byColumn].filter(([, t]) => t.size > 1).map(([column, byType]) => ({ column, byType: inDeliveryOrder(byType) }))
}

// Engine names end with the file's rank in delivery order (`…-000000012.parquet`): oldest files, and the type
// they hold, first.
const rankOf = (name: string): number => Number(/(\d+)\.parquet$/.exec(name)?.[1] ?? Number.MAX_SAFE_INTEGER)
function inDeliveryOrder(byType: Map<string, string[]>): Map<string, string[]> {
  const sorted = [...byType].map(([t, files]) => [t, [...files].sort((a, b) => rankOf(a) - rankOf(b))] as const)
  return new Map(sorted.sort((a, b) => rankOf(a[1][0] ?? '') - rankOf(b[1][0] ?? '')))
}

const listFiles = (keys: readonly string[]): string => `${keys.slice(0, 3).join(', ')}${keys.length > 3 ? ` and ${keys.length - 3} more` : ''}`

/** The words that mark a table refused for disagreeing column types (the mirror, one type per column, opens it). */
export const TYPE_CONFLICT_MARK = 'cannot be opened in the query pane: its files disagree on column types'

/** The message for a table whose files disagree on column types (bucket keys, not engine names). */
export function typeConflictMessage(table: string, conflicts: ReturnType<typeof typeConflicts>, keyOf: (name: string) => string): string {
  const parts = conflicts.slice(0, 3).map(({ column, byType }) => {
    const each = [...byType].map(([type, files]) => `${type} in ${files.length} file${files.length === 1 ? '' : 's'} (${listFiles(files.map(keyOf))})`)
    return `column ${column} is ${each.join(', but ')}`
  })
  return (
    `${table} ${TYPE_CONFLICT_MARK}: ${parts.join('; ')}${conflicts.length > 3 ? `; and ${conflicts.length - 3} more columns` : ''}. ` +
    `DuckDB-WASM 0.9.1, this pane's engine, fails on such a set of files ("SetMin or SetMax called with Value that does not match statistics' column value") ` +
    `and then stops reading every table; native DuckDB 1.5, the command-line tool's engine, combines them (the wider type). ` +
    `Query this table with the command-line tool; the other tables open here as usual.`
  )
}

/** The engine as createBucketViews should see it in the pane: registrations checked, view failures explained. */
export function guardForWasm(engine: SqlEngine & { query(sql: string): Promise<Record<string, unknown>[]> }): SqlEngine {
  const keys = new Map<string, string>()
  // A view left from an earlier listing would read the new files through its glob (and 0.9.1 fail on them):
  // a refused table has no view at all.
  const viewsOf = (table: string): string[] => {
    const [schema = '', name = ''] = table.split('.')
    return [`${quoteIdent(schema)}.${quoteIdent(name)}`, quoteIdent(name), quoteIdent(`${name}__versions`)]
  }
  const drop = async (views: readonly string[]): Promise<void> => {
    for (const v of views) await engine.query(`DROP VIEW IF EXISTS ${v}`).catch(() => [])
  }
  return {
    async register(files) {
      await engine.register(files)
      for (const f of files) keys.set(f.name, f.key)
      const first = files[0]
      if (!first) return
      // Names are `ee/<schema>/<table>/<tag>-<rank>.parquet`, one folder per table (see logical-table-sql.ts):
      // one glob reads exactly this table's files, and the footers read here are the ones the view reads next.
      const dir = first.name.slice(0, first.name.lastIndexOf('/') + 1)
      const table = dir.split('/').filter(Boolean).slice(-2).join('.')
      const rows = (await engine.query(`SELECT * FROM parquet_schema(${quoteLiteral(`${dir}*.parquet`)})`)) as unknown as SchemaRow[]
      const conflicts = typeConflicts(leafColumns(rows))
      if (conflicts.length > 0) {
        await drop(viewsOf(table))
        throw new Error(typeConflictMessage(table, conflicts, (n) => keys.get(n) ?? n))
      }
    },
    query: (sql) => engine.query(sql)
  }
}
