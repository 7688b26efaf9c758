// The SQL of the compacted mirror (DuckDB dialect). Building a segment: the files of its folders with, per row, what
// the rules need (the folder's delivery-order key, the file's rank in its folder, the row's position, when the
// folder became ready, and where it came from). Reading it: the same logical table and `__versions` as the raw
// files give (newest version per key by folder, then file name, then row position; "as of" by the folders
// included), for native DuckDB and DuckDB-WASM 0.9.1 alike.
import type { CatalogTable } from './catalog'
import { freshName, storedName, takenNames } from './bookkeeping-columns'
import { type FileRegistration, provenanceNames } from './logical-table-sql'
import { identityTag } from './identity-tag'
import type { MirroredSegment, MirrorRead, SegmentPlan } from './mirror-plan'
import { quoteIdent, quoteLiteral } from './sql-quote'
import { NEWEST_FIRST, type SupersededPart, withoutSuperseded } from './mirror-superseded'

/** The mirror's own columns in every segment (a vendor's column is stored apart from them: storedName). `_prefix`,
 * `_etl_date`, `_etl_hour` and `_file` are the `__versions` columns. */
export const MIRROR_COLUMNS = ['__ee_order', '__ee_file_rank', '__ee_row', '__ee_ready_at', '_prefix', '_etl_date', '_etl_hour', '_file'] as const

const nullable = (v: string | null): string => (v === null ? 'CAST(NULL AS VARCHAR)' : quoteLiteral(v))

/**
 * Native DuckDB: the rows of a segment, with the mirror's columns, in delivery order. Null when it has no file.
 * `columns`: the vendor's columns of its files; each is stored under storedName, apart from the mirror's own. A file
 * with a column named file_row_number refuses that option: the row's position is then its place in the read (a
 * streaming window: files one after the other, each in row order), which orders a file's rows alike. `oneSchema`: every
 * file has the same schema (the frame check's tags agree), so DuckDB binds the first one's, not each file's: without
 * it, a file whose columns or types differ would be cast to the first one's, so it is only for files known alike.
 */
export function segmentBuildSql(
  segment: SegmentPlan,
  locate: (key: string) => string,
  columns: readonly string[],
  opts: { readonly oneSchema?: boolean } = {}
): string | null {
  const files = segment.folders.flatMap((f) => f.files.map((x) => ({ folder: f, file: x })))
  if (files.length === 0) return null
  const taken = takenNames(columns)
  const filename = freshName('__ee_filename', taken)
  const position = freshName('__ee_position', taken)
  const fileRowNumber = !taken.has('file_row_number')
  const list = files.map((x) => quoteLiteral(locate(x.file.object.key))).join(', ')
  const values = files
    .map(({ folder, file }) => {
      const p = folder.folder.ref.partition
      const name = file.object.key.slice(file.object.key.lastIndexOf('/') + 1)
      return `(${quoteLiteral(locate(file.object.key))}, ${folder.order}::BIGINT, ${file.fileRank}, ${folder.readyAt}::BIGINT, ${quoteLiteral(folder.folder.ref.prefix)}, ${quoteLiteral(p.date)}, ${nullable(p.hour)}, ${quoteLiteral(name)})`
    })
    .join(', ')
  const vendor = columns.map((c) => `r.${quoteIdent(c)} AS ${quoteIdent(storedName(c))}`).join(', ')
  const read = `read_parquet([${list}], union_by_name = ${opts.oneSchema !== true}, hive_partitioning = false, filename = ${quoteLiteral(filename)}${fileRowNumber ? ', file_row_number = true' : ''})`
  const pos = fileRowNumber ? 'file_row_number' : 'row_number() OVER ()'
  return (
    `SELECT ${vendor}${vendor ? ', ' : ''}f.__ee_order, f.__ee_file_rank, r.${quoteIdent(position)} AS __ee_row, f.__ee_ready_at, f._prefix, f._etl_date, f._etl_hour, f._file ` +
    `FROM (SELECT *, ${pos} AS ${quoteIdent(position)} FROM ${read}) r ` +
    `JOIN (VALUES ${values}) f(__ee_location, __ee_order, __ee_file_rank, __ee_ready_at, _prefix, _etl_date, _etl_hour, _file) ON r.${quoteIdent(filename)} = f.__ee_location ` +
    `ORDER BY f.__ee_order, f.__ee_file_rank, __ee_row`
  )
}

export interface MirrorTableSql {
  readonly sql: string
  readonly registrations: readonly FileRegistration[]
}

/** Where the byte server and the file store find the mirror's segment files among bucket keys. */
export const MIRROR_KEY_PREFIX = 'mirror/'

/** A segment's key: its file in the mirror folder, under MIRROR_KEY_PREFIX. */
export const mirrorKey = (s: MirroredSegment): string => `${MIRROR_KEY_PREFIX}${s.file}`

/** Segment files as the engine must know them: `<base><tag>.parquet`, the key being the segment's file in the mirror. */
function registrations(selection: MirrorRead, base: string): FileRegistration[] {
  return selection.segments.map((s) => ({ name: `${base}${identityTag(`${s.file}\u0000${s.identity}`)}.parquet`, key: mirrorKey(s) }))
}

/** A superseded list file's registered name: beside the segments' folder, never under their glob. */
const supersededName = (base: string, part: SupersededPart): string => `${base.replace(/\/$/, '')}.superseded/${identityTag(part.file)}.parquet`

/** A superseded list file's key among bucket keys, as a segment's (mirrorKey). */
export const supersededKey = (part: SupersededPart): string => `${MIRROR_KEY_PREFIX}${part.file}`

function readSegments(base: string, selection: MirrorRead): string {
  const held = selection.segments.flatMap((s) => s.folders.map((f) => f.order))
  const conditions: string[] = []
  if (held.some((o) => o > selection.maxOrder)) conditions.push(`__ee_order <= ${selection.maxOrder}`)
  if (selection.excludedOrders.length > 0) conditions.push(`__ee_order NOT IN (${selection.excludedOrders.join(', ')})`)
  const where = conditions.length > 0 ? ` WHERE ${conditions.join(' AND ')}` : ''
  // The included folders' columns only: as of an hour before a column was added, the view does not have it.
  const columns = [...selection.columns.map(storedName), ...MIRROR_COLUMNS].map(quoteIdent).join(', ')
  return `SELECT ${columns} FROM read_parquet(${quoteLiteral(`${base}*.parquet`)}, union_by_name = true, hive_partitioning = false)${where}`
}

/**
 * The rows of the folders no segment holds yet, from their raw files in a segment's shape (mirrorShapedGlobSql), and
 * their vendor columns: read beside the segments, combined by name, under the one rule.
 */
export interface RawRows {
  readonly sql: string
  readonly columns: readonly string[]
}

/** Every row version read: the segments', and the raw folders' beside them. */
function readRows(base: string, selection: MirrorRead, raw: RawRows | null): string {
  const segments = readSegments(base, selection)
  return raw ? `SELECT * FROM (${segments}) UNION ALL BY NAME SELECT * FROM (${raw.sql})` : segments
}

/** The vendor's columns read, in order of first appearance: the segments', then any the raw folders add. */
function columnsRead(selection: MirrorRead, raw: RawRows | null): string[] {
  const seen = new Set(selection.columns)
  return [...selection.columns, ...(raw?.columns ?? []).filter((c) => !seen.has(c))]
}

/** The vendor's columns under their own names, from the names a segment stores them under. */
const vendorColumns = (columns: readonly string[]): string => columns.map((c) => `${quoteIdent(storedName(c))} AS ${quoteIdent(c)}`).join(', ')

/**
 * The logical parts table from its segments (and, where the mirror is behind, the raw folders beside them: `raw`).
 * `etl_date` and `etl_hour` come from the folder, as Spark's partition discovery gives them, unless the vendor's data
 * has a column of that name (then the data's is kept).
 */
export function mirrorLogicalSql(table: Pick<CatalogTable, 'keyColumn'>, selection: MirrorRead, base: string, raw: RawRows | null = null): MirrorTableSql {
  const columns = columnsRead(selection, raw)
  const vendor = new Set(columns)
  const added = [...(vendor.has('etl_date') ? [] : ['_etl_date AS etl_date']), ...(vendor.has('etl_hour') ? [] : ['_etl_hour AS etl_hour'])]
  const projection = [vendorColumns(columns), ...added].filter(Boolean).join(', ')
  const rows = readRows(base, selection, raw)
  if (table.keyColumn === null) return { sql: `SELECT ${projection} FROM (${rows})`, registrations: registrations(selection, base) }
  const key = quoteIdent(storedName(table.keyColumn))
  const keep = `${key} IS NULL OR row_number() OVER (PARTITION BY ${key} ORDER BY ${NEWEST_FIRST}) = 1`
  const list = selection.superseded
  if (list) {
    // Every row but the versions the list names: the same rows as the window below, without ranking every key's versions.
    const files = list.parts.map((part) => ({ name: supersededName(base, part), key: supersededKey(part) }))
    const kept = withoutSuperseded(
      readSegments(base, selection),
      files.map((f) => f.name)
    )
    // Raw folders beside them are all newer (mirrorRead gives a list only then): a key they hold has its newest version
    // there, so the segments keep only the keys they do not hold, and only their own few rows are ranked.
    const sql = raw
      ? `SELECT ${projection} FROM (SELECT * FROM (${kept}) __ee_k WHERE __ee_k.${key} IS NULL OR NOT EXISTS (SELECT 1 FROM (${raw.sql}) __ee_n WHERE __ee_n.${key} = __ee_k.${key}) ` +
        `UNION ALL BY NAME SELECT * FROM (${raw.sql}) QUALIFY ${keep})`
      : `SELECT ${projection} FROM (${kept})`
    return { sql, registrations: [...registrations(selection, base), ...files] }
  }
  return { sql: `SELECT ${projection} FROM (${rows}) QUALIFY ${keep}`, registrations: registrations(selection, base) }
}

/** Every row version from the segments (and the raw folders beside them), with `_prefix`, `_etl_date`, `_etl_hour` and
 * `_file` (provenanceNames). */
export function mirrorVersionsSql(selection: MirrorRead, base: string, raw: RawRows | null = null): MirrorTableSql {
  const columns = columnsRead(selection, raw)
  const n = provenanceNames(columns)
  const from = `_prefix AS ${quoteIdent(n.prefix)}, _etl_date AS ${quoteIdent(n.date)}, _etl_hour AS ${quoteIdent(n.hour)}, _file AS ${quoteIdent(n.file)}`
  const select = [vendorColumns(columns), from].filter(Boolean).join(', ')
  return { sql: `SELECT ${select} FROM (${readRows(base, selection, raw)})`, registrations: registrations(selection, base) }
}
