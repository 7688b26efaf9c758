// One incremental export (`export --since-last`, a watch's file per hour): the table's folders new since a cursor,
// read by the same rules as the logical table on a bucket seen through those folders alone (src/shared/incremental-export.ts),
// written like any export (whole or not at all), and only then the cursor moved. A keyed parts table's rows that
// replace a version exported before name that version's folder in a last column, `_ee_supersedes`.
import { freshName, takenNames } from '../../shared/bookkeeping-columns'
import type { CatalogTable } from '../../shared/catalog'
import { errorMessage } from '../../shared/error-message'
import type { ExportFormat } from '../../shared/export-format'
import {
  type ExportCursor,
  type IncrementalPlan,
  cursorAfter,
  cursorMismatch,
  decodeCursor,
  incrementalPlan,
  inventoryWith,
  partitionText
} from '../../shared/incremental-export'
import type { Folder, Inventory } from '../../shared/inventory'
import { quoteIdent, quoteLiteral } from '../../shared/sql-quote'
import type { BucketEngine } from '../engine/open-bucket-engine'
import type { QueryProgress } from '../engine/native-engine'
import { SavedStateFile, type SavedStateFormat } from '../files/saved-state-file'
import { ExportError, exportQuery } from './export-to-file'

/** The cursor's file: null until the first run. */
export const CURSOR_FORMAT: SavedStateFormat<ExportCursor | null> = {
  empty: () => null,
  decode: (parsed) => {
    const d = decodeCursor(parsed)
    return { value: d.cursor, problems: d.problems }
  },
  encode: (v) => `${JSON.stringify(v)}\n`
}

/** The column that names the folder of the version a row replaces (null: a key not exported before). */
export const SUPERSEDES_COLUMN = '_ee_supersedes'

export interface IncrementalInput {
  readonly table: CatalogTable
  readonly where: string | null
  readonly inventory: Inventory
  readonly unreadable?: ReadonlySet<string>
  readonly now: number
  readonly target: string
  readonly format: ExportFormat
  readonly overwrite?: boolean
  readonly cursor: SavedStateFile<ExportCursor | null>
  /** The cursor's name, as the closing line says it. */
  readonly cursorName: string
  /** Restricts the new folders (a watch writes one delivery hour per file): the plan's folders the file holds. */
  readonly only?: (fresh: readonly Folder[]) => readonly Folder[]
  /** Opens native DuckDB with the table's views on `inventory` (the CLI's engine, with its store and mirror). */
  open(inventory: Inventory): Promise<BucketEngine>
  readonly signal?: AbortSignal
  readonly onProgress?: (p: QueryProgress) => void
}

export interface IncrementalResult {
  readonly rows: number
  readonly plan: IncrementalPlan
  /** Rows that replace a version exported before (keyed parts tables). */
  readonly superseding: number
  /** What the cursor file said of itself (damaged, kept aside), for the user. */
  readonly notices: readonly string[]
}

const where = (w: string | null): string => (w ? ` WHERE (${w})` : '')

/** Writes the rows new since the cursor to `target` (atomically), then moves the cursor; a failure moves nothing. */
export async function exportSinceLast(input: IncrementalInput): Promise<IncrementalResult> {
  const { table: t, inventory, cursor: file } = input
  const read = await file.read()
  const mismatch = cursorMismatch(read.value, t, input.where, input.cursorName)
  if (mismatch) throw new ExportError(mismatch)
  const opts = { now: input.now, ...(input.unreadable ? { unreadable: input.unreadable } : {}) }
  let plan = incrementalPlan(inventory, t, read.value, opts)
  if (plan.mode === 'parts' && input.only) plan = { ...plan, fresh: input.only(plan.fresh) }
  const name = `${quoteIdent(t.schema)}.${quoteIdent(t.table)}`
  let superseding = 0
  let sql: string
  let opened: BucketEngine | null = null
  try {
    if (plan.mode === 'full') {
      opened = await input.open(inventory)
      sql = plan.copy ? `SELECT * FROM ${name}${where(input.where)}` : `SELECT * FROM ${name} WHERE false`
    } else {
      // No new folder: the newest ready one gives the columns of an empty file.
      const newest = plan.exported.at(-1)
      const reads = plan.fresh.length > 0 ? plan.fresh : newest ? [newest] : []
      opened = await input.open(inventoryWith(inventory, t, reads))
      const rows = plan.fresh.length > 0 ? `SELECT * FROM ${name}${where(input.where)}` : `SELECT * FROM ${name} WHERE false`
      if (t.keyColumn === null) sql = rows
      else {
        const previous = plan.fresh.length > 0 && plan.exported.length > 0 ? await previousVersions(input, opened, plan.exported, t.keyColumn) : []
        superseding = previous.length
        sql = await withSupersedes(opened, rows, name, t.keyColumn, previous)
      }
    }
    const { rows } = await exportQuery(opened.engine, sql, input.target, {
      format: input.format,
      ...(input.overwrite ? { overwrite: true } : {}),
      ...(input.signal ? { signal: input.signal } : {}),
      ...(input.onProgress ? { onProgress: input.onProgress } : {})
    })
    // Only now, with the file in its place, does the cursor move.
    const next = cursorAfter(read.value, plan, t, input.where, input.now)
    await file
      .update(() => next)
      .catch((e: unknown) => {
        throw new CursorNotSaved(input.target, e)
      })
    const kept = file.problems()
    return { rows, plan, superseding, notices: kept.length > 0 ? kept : read.problems }
  } finally {
    await opened?.engine.close()
  }
}

/** The file is in place but its cursor could not be saved: the next run exports the same folders again. */
export class CursorNotSaved extends Error {
  constructor(
    readonly target: string,
    cause: unknown
  ) {
    super(`${target} was written, but its cursor could not be saved (${errorMessage(cause)}): the next run exports the same folders again`)
  }
}

/** The new rows' keys that were exported before, each with the folder of the version exported (the newest among the
 * folders exported before, by the same rule and filter). */
async function previousVersions(
  input: IncrementalInput,
  fresh: BucketEngine,
  exported: readonly Folder[],
  keyColumn: string
): Promise<{ key: string; folder: string }[]> {
  const name = `${quoteIdent(input.table.schema)}.${quoteIdent(input.table.table)}`
  const key = quoteIdent(keyColumn)
  const keys = (await fresh.engine.selectAll(`SELECT ${key} FROM ${name}${where(input.where)}`, { asText: true })).rows
    .map((r) => r[0])
    .filter((k): k is string => typeof k === 'string')
  if (keys.length === 0) return []
  const old = await input.open(inventoryWith(input.inventory, input.table, exported))
  try {
    const list = `[${keys.map(quoteLiteral).join(', ')}]`
    const filter = `${input.where ? `(${input.where}) AND ` : ''}CAST(${key} AS VARCHAR) IN (SELECT unnest(${list}))`
    const got = await old.engine.selectAll(`SELECT ${key}, "etl_date", "etl_hour" FROM ${name} WHERE ${filter}`, { asText: true })
    return got.rows.map((r) => {
      const [k, date, hour] = r as [string, string | null, string | null]
      // The folder as its path says it: the v1 daily folders have no hour.
      const folder = exported.find((f) => f.ref.partition.date === date && (f.ref.partition.hour ?? null) === (hour ?? null))
      return { key: k, folder: folder ? partitionText(folder.ref) : `etl_date=${date ?? ''}${hour ? `/etl_hour=${hour}` : ''}` }
    })
  } finally {
    await old.engine.close()
  }
}

/** The rows with a last column naming the folder of the version each replaces (a name no column of the table has). */
async function withSupersedes(
  opened: BucketEngine,
  rows: string,
  name: string,
  keyColumn: string,
  previous: readonly { key: string; folder: string }[]
): Promise<string> {
  const columns = (await opened.engine.selectAll(`SELECT * FROM ${name} LIMIT 0`)).columns.names
  const column = quoteIdent(freshName(SUPERSEDES_COLUMN, takenNames(columns)))
  if (previous.length === 0) return `SELECT *, CAST(NULL AS VARCHAR) AS ${column} FROM (${rows})`
  const values = previous.map((p) => `(${quoteLiteral(p.key)}, ${quoteLiteral(p.folder)})`).join(', ')
  return `SELECT __ee_n.*, __ee_p.folder AS ${column} FROM (${rows}) __ee_n LEFT JOIN (VALUES ${values}) __ee_p(k, folder) ON CAST(__ee_n.${quoteIdent(keyColumn)} AS VARCHAR) = __ee_p.k`
}
