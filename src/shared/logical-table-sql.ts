// The SQL (DuckDB dialect) that builds each logical table from its ready files. The rules decide the order
// of rows here, in TypeScript, and hand the engine plain integers: the engine never infers partition values
// (hive_partitioning=false) and never breaks a tie on its own.
import type { CatalogTable } from './catalog'
import { compareFileNames, deliveryOrderKey } from './delivery-order'
import { type Folder, writtenAt } from './inventory'
import { identityTag, objectIdentity } from './identity-tag'
import { freshName, storedName, takenNames } from './bookkeeping-columns'
import { quoteIdent, quoteLiteral } from './sql-quote'

/** Where the engine finds a file: a local path or a URL of the byte server. */
export type Locate = (key: string) => string

export type LogicalTableSql =
  | { readonly ok: true; readonly sql: string; readonly files: number }
  | { readonly ok: false; readonly reason: 'no_ready_copy' | 'no_files'; readonly message: string }

/** Columns a parts table's logical view adds, as Spark's partition discovery gives them to the vendor's job (strings). */
export const PARTITION_COLUMNS = ['etl_date', 'etl_hour'] as const

/**
 * The rows with etl_date and etl_hour of their folder, by their rank in `files` (a relation of rank, _etl_date,
 * _etl_hour). A NATURAL LEFT JOIN per column: when the files hold a column of that name, it is a join column and the
 * data's value is kept (nothing is added); otherwise the folder's value is added. Both DuckDB versions run it.
 */
function withPartitionColumns(rows: string, files: string): string {
  return (
    `(${rows}) NATURAL LEFT JOIN (SELECT ${RANK}, _etl_date AS etl_date FROM ${files}) ` +
    `NATURAL LEFT JOIN (SELECT ${RANK}, _etl_hour AS etl_hour FROM ${files})`
  )
}

// Internal column names; prefixed so they cannot meet a vendor column.
const LOC = '__ee_location'
const RANK = '__ee_rank'

interface RankedFile {
  readonly key: string
  readonly location: string
  readonly folder: Folder
  /** Position in delivery order across all files: folder order, then file name within a folder. */
  readonly rank: number
}

/** Files of the folders (already in delivery order), each with its global rank. */
function rankFiles(folders: readonly Folder[], locate: Locate): RankedFile[] {
  const out: RankedFile[] = []
  for (const folder of folders) {
    const files = [...folder.dataFiles].sort((a, b) => compareFileNames(a.key, b.key))
    for (const f of files) out.push({ key: f.key, location: locate(f.key), folder, rank: out.length })
  }
  return out
}

function readParquet(files: readonly RankedFile[], withProvenance: boolean): string {
  const list = files.map((f) => quoteLiteral(f.location)).join(', ')
  const extra = withProvenance ? ', filename = true, file_row_number = true' : ''
  return `read_parquet([${list}], union_by_name = true, hive_partitioning = false${extra})`
}

function nullableLiteral(v: string | null): string {
  return v === null ? 'CAST(NULL AS VARCHAR)' : quoteLiteral(v)
}

function fileTable(files: readonly RankedFile[]): string {
  const rows = files.map((f) => `(${quoteLiteral(f.location)}, ${f.rank}, ${folderValues(f)})`)
  return `__ee_files(${LOC}, ${RANK}, _prefix, _etl_date, _etl_hour, _file) AS (VALUES ${rows.join(', ')})`
}

/** A full table whose latest copy holds no Parquet file comes with the copy to take columns from (foldersForLogicalTable). */
function emptyCopyColumnsFrom(table: Pick<CatalogTable, 'mode'>, folders: readonly Folder[]): Folder | null {
  return table.mode === 'full' && folders.length === 2 && folders[0]?.dataFiles.length === 0 ? (folders[1] ?? null) : null
}

/** The same table with no rows: a ready copy without files is an empty table, not the previous copy. */
function withoutRows<T extends { readonly ok: boolean }>(q: T): T {
  return 'sql' in q && typeof q.sql === 'string' ? { ...q, sql: `SELECT * FROM (${q.sql}) LIMIT 0` } : q
}

function emptyFolders(table: Pick<CatalogTable, 'schema' | 'table'>, folders: readonly Folder[]): LogicalTableSql {
  if (folders.length === 0) {
    return { ok: false, reason: 'no_ready_copy', message: `${table.schema}.${table.table} has no ready folder (none holds _SUCCESS) in the bucket yet.` }
  }
  return {
    ok: false,
    reason: 'no_files',
    message: `${table.schema}.${table.table}: the ready folder ${folders[0]?.ref.prefix ?? ''} holds no .parquet file and no earlier ready copy has one, so its columns are unknown. Ask the vendor for a copy with files.`
  }
}

/**
 * The logical table: for a full table, its latest ready copy (pass exactly that folder); for a parts table,
 * the union of every ready folder (pass them in delivery order) with, for a keyed table, one row per key: the
 * one from the latest folder, ties broken by file name, then row position. Rows whose key is NULL are all kept.
 */
export function logicalTableSql(
  table: Pick<CatalogTable, 'schema' | 'table' | 'mode' | 'keyColumn'>,
  folders: readonly Folder[],
  locate: Locate
): LogicalTableSql {
  const columnsFrom = emptyCopyColumnsFrom(table, folders)
  if (columnsFrom) return withoutRows(logicalTableSql(table, [columnsFrom], locate))
  const files = rankFiles(folders, locate)
  if (files.length === 0) return emptyFolders(table, folders)
  if (table.mode === 'full') return { ok: true, sql: `SELECT * FROM ${readParquet(files, false)}`, files: files.length }
  const ranked = `SELECT __ee_rows.*, __ee_files.${RANK} FROM __ee_rows JOIN __ee_files ON __ee_rows.filename = __ee_files.${LOC}`
  const rows = `WITH ${fileTable(files)}, __ee_rows AS (SELECT * FROM ${readParquet(files, true)}) SELECT * FROM ${withPartitionColumns(ranked, '__ee_files')}`
  const keep = table.keyColumn === null ? '' : ` QUALIFY ${keyedLatest(table.keyColumn)}`
  return { ok: true, sql: `SELECT * EXCLUDE (filename, file_row_number, ${RANK}) FROM (${rows})${keep}`, files: files.length }
}

/** The row that stands for its key: from the latest folder, ties broken by file name, then row position; NULL keys all kept. */
function keyedLatest(keyColumn: string): string {
  const key = quoteIdent(keyColumn)
  return `${key} IS NULL OR row_number() OVER (PARTITION BY ${key} ORDER BY ${RANK} DESC, file_row_number DESC) = 1`
}

/** Every row of a parts table from every ready folder, with _prefix, _etl_date, _etl_hour and _file. */
export function versionsSql(table: Pick<CatalogTable, 'schema' | 'table'>, folders: readonly Folder[], locate: Locate): LogicalTableSql {
  const files = rankFiles(folders, locate)
  if (files.length === 0) return emptyFolders(table, folders)
  const sql =
    `WITH ${fileTable(files)}, __ee_rows AS (SELECT * FROM ${readParquet(files, true)}) ` +
    `SELECT * EXCLUDE (filename, file_row_number, ${LOC}, ${RANK}) ` +
    `FROM __ee_rows JOIN __ee_files ON __ee_rows.filename = __ee_files.${LOC}`
  return { ok: true, sql, files: files.length }
}

/** A file the engine must know under a generated name before running glob SQL. */
export interface FileRegistration {
  readonly name: string
  readonly key: string
}

export type GlobTableSql =
  | { readonly ok: true; readonly sql: string; readonly files: number; readonly registrations: readonly FileRegistration[]; readonly setup: readonly string[] }
  | { readonly ok: false; readonly reason: 'no_ready_copy' | 'no_files'; readonly message: string }

// DuckDB-WASM's parser runs out of stack on SQL holding a thousand literals (a year of hourly folders is ~9,000
// files). So each file is registered as `<base><rank>.parquet`, read with one glob, and its rank is read back
// from its name: the order is still decided here, by the rule.
const rankFromName = (filenameColumn: string): string => `CAST(regexp_extract(${filenameColumn}, '([0-9]+)\\.parquet$', 1) AS BIGINT)`

/** What differs between the engines reading glob SQL. DuckDB 1.x can name the file column, so a vendor column
 * called `filename` is left alone; DuckDB-WASM 1.28 (0.9.1) only has `filename = true`. */
export interface GlobDialect {
  /** The column holding each row's file name: "filename" (0.9.1) or a name of ours such as "__ee_filename". */
  readonly filenameColumn: string
}
const WASM_DIALECT: GlobDialect = { filenameColumn: 'filename' }

// A name holds the object's identity (key and ETag) as well as its rank, so a name never stands for two
// different objects: an engine may cache a file's Parquet metadata by name across queries and refreshes.
function globRegistrations(folders: readonly Folder[], base: string): { files: RankedFile[]; registrations: FileRegistration[] } {
  const files = rankFiles(folders, (k) => k)
  const identity = new Map(folders.flatMap((f) => f.dataFiles.map((o) => [o.key, objectIdentity(o)] as const)))
  return {
    files,
    registrations: files.map((f) => ({ name: `${base}${identityTag(identity.get(f.key) ?? f.key)}-${String(f.rank).padStart(9, '0')}.parquet`, key: f.key }))
  }
}

/** The glob of a table's registered files (`<base><tag>-<rank>.parquet`). */
export const globOf = (base: string): string => `${base}*.parquet`

/** One read of a table's files: one glob, or, where the engine reads them in groups (SqlEngine.readPlan: DuckDB-WASM
 * 0.9.1 and files that disagree on a column's type), each group apart, combined by name (the wider type per column). */
function readGlob(
  globs: readonly string[],
  provenance: { readonly filename: string | null; readonly fileRowNumber: boolean } | null,
  dialect: GlobDialect
): string {
  const named = dialect.filenameColumn === 'filename' ? 'true' : quoteLiteral(provenance?.filename ?? dialect.filenameColumn)
  const extra = `${provenance?.filename ? `, filename = ${named}` : ''}${provenance?.fileRowNumber ? ', file_row_number = true' : ''}`
  const reads = globs.map((g) => `read_parquet(${quoteLiteral(g)}, union_by_name = true, hive_partitioning = false${extra})`)
  return reads.length === 1 ? (reads[0] as string) : `(${reads.map((r) => `SELECT * FROM ${r}`).join(' UNION ALL BY NAME ')})`
}

/** The statement giving the vendor's columns of a table's registered files (DESCRIBE: the first column is the name),
 * which the parts views need to keep their own columns apart (partsGlobSql). */
export const globColumnsSql = (globs: readonly string[]): string => `DESCRIBE SELECT * FROM ${readGlob(globs, null, WASM_DIALECT)}`

/**
 * A parts table's rows with, per row, its file's rank and its position in the read, under names no vendor column has.
 * read_parquet's `filename` and `file_row_number` options refuse a file holding a column of that name (both engines:
 * "Using filename option on file with column named filename is not supported"), so then: the position is
 * row_number() OVER () (a streaming window: the files are read one after the other, each in row order, on either
 * engine), and the rank, where the file name cannot be had (DuckDB-WASM 0.9.1 cannot name its column), is the file
 * whose rows start at or before the position (an ASOF join on each file's row count, files in the glob's name order).
 */
function rankedRows(globs: readonly string[], dialect: GlobDialect, taken: Set<string>): { sql: string; rank: string; position: string; drop: string[] } {
  const vendor = new Set(taken)
  const rank = freshName(RANK, taken)
  const position = freshName('__ee_row', taken)
  const namedFile = dialect.filenameColumn !== 'filename'
  const filename = namedFile ? freshName(dialect.filenameColumn, taken) : vendor.has('filename') ? null : 'filename'
  const fileRowNumber = !vendor.has('file_row_number')
  const read = readGlob(globs, { filename, fileRowNumber }, dialect)
  const drop = [...(filename ? [filename] : []), ...(fileRowNumber ? ['file_row_number'] : []), rank, position]
  const pos = fileRowNumber ? 'file_row_number' : 'row_number() OVER ()'
  if (filename)
    return {
      sql: `SELECT *, ${rankFromName(quoteIdent(filename))} AS ${quoteIdent(rank)}, ${pos} AS ${quoteIdent(position)} FROM ${read}`,
      rank,
      position,
      drop
    }
  // Positions follow one glob's name order: files read in groups must give their names (guardForWasm groups none without).
  if (globs.length !== 1) throw new Error('A table whose files are read in groups needs their file names, and its files have a column named filename.')
  const rows = `SELECT *, row_number() OVER () AS ${quoteIdent(position)} FROM ${read}`
  const perFile = `SELECT file_name, sum(row_group_num_rows) AS n FROM (SELECT DISTINCT file_name, row_group_id, row_group_num_rows FROM parquet_metadata(${quoteLiteral(globs[0] as string)})) GROUP BY file_name HAVING sum(row_group_num_rows) > 0`
  const starts = `SELECT ${rankFromName('file_name')} AS __ee_r, sum(n) OVER (ORDER BY file_name ROWS UNBOUNDED PRECEDING) - n + 1 AS __ee_start FROM (${perFile})`
  const sql = `SELECT __ee_d.*, __ee_s.__ee_r AS ${quoteIdent(rank)} FROM (${rows}) __ee_d ASOF JOIN (${starts}) __ee_s ON __ee_d.${quoteIdent(position)} >= __ee_s.__ee_start`
  return { sql, rank, position, drop }
}

/** The row that stands for its key: from the latest folder, ties broken by file name, then row position; NULL keys all kept. */
function keyedLatestBy(keyColumn: string, rank: string, position: string): string {
  const key = quoteIdent(keyColumn)
  return `${key} IS NULL OR row_number() OVER (PARTITION BY ${key} ORDER BY ${quoteIdent(rank)} DESC, ${quoteIdent(position)} DESC) = 1`
}

/** The names `<table>__versions` gives where each row came from: `_prefix`, `_etl_date`, `_etl_hour`, `_file`, each
 * with one more leading underscore where the vendor has a column of that name (theirs is kept as it is). */
export function provenanceNames(columns: readonly string[]): { readonly prefix: string; readonly date: string; readonly hour: string; readonly file: string } {
  const taken = takenNames(columns)
  return { prefix: freshName('_prefix', taken), date: freshName('_etl_date', taken), hour: freshName('_etl_hour', taken), file: freshName('_file', taken) }
}

/** logicalTableSql for an engine that reads registered files by glob (DuckDB-WASM). `base` is a name prefix such as
 * "ee/claudia_messages/". `columns`: the vendor's columns of those files (globColumnsSql), for a parts table. */
export function logicalTableGlobSql(
  table: Pick<CatalogTable, 'schema' | 'table' | 'mode' | 'keyColumn'>,
  folders: readonly Folder[],
  base: string,
  dialect: GlobDialect = WASM_DIALECT,
  /** Parts tables: the table `setup` fills with each file's folder (shared with the versions view). */
  filesTable = `__ee_files_${table.table}`,
  columns: readonly string[] = [],
  /** The globs the registered files are read through (SqlEngine.readPlan); the one of `base` by default. */
  globs: readonly string[] = [globOf(base)]
): GlobTableSql {
  const columnsFrom = emptyCopyColumnsFrom(table, folders)
  if (columnsFrom) return withoutRows(logicalTableGlobSql(table, [columnsFrom], base, dialect, filesTable, columns, globs))
  const { files, registrations } = globRegistrations(folders, base)
  if (files.length === 0) return emptyFolders(table, folders) as GlobTableSql
  if (table.mode === 'full') return { ok: true, sql: `SELECT * FROM ${readGlob(globs, null, dialect)}`, files: files.length, registrations, setup: [] }
  const t = quoteIdent(filesTable)
  const taken = takenNames(columns)
  const vendor = new Set(taken)
  const rows = rankedRows(globs, dialect, taken)
  // etl_date and etl_hour of the folder, as Spark's partition discovery gives them, unless the data has its own.
  const date = freshName('__ee_etl_date', taken)
  const hour = freshName('__ee_etl_hour', taken)
  const withFolder = `SELECT __ee_x.*, __ee_f._etl_date AS ${quoteIdent(date)}, __ee_f._etl_hour AS ${quoteIdent(hour)} FROM (${rows.sql}) __ee_x JOIN ${t} __ee_f ON __ee_f.${RANK} = __ee_x.${quoteIdent(rows.rank)}`
  const added = [...(vendor.has('etl_date') ? [] : [`${quoteIdent(date)} AS etl_date`]), ...(vendor.has('etl_hour') ? [] : [`${quoteIdent(hour)} AS etl_hour`])]
  const keep = table.keyColumn === null ? '' : ` QUALIFY ${keyedLatestBy(table.keyColumn, rows.rank, rows.position)}`
  const drop = [...rows.drop, date, hour].map(quoteIdent).join(', ')
  const sql = `SELECT * EXCLUDE (${drop})${added.map((a) => `, ${a}`).join('')} FROM (${withFolder})${keep}`
  return { ok: true, sql, files: files.length, registrations, setup: filesTableSetup(t, files) }
}

/** Statements that create table `t` and fill it with one row per file (inserts of 100 rows: the WASM parser's stack). */
function fileRowsSetup(t: string, columns: string, files: readonly RankedFile[], row: (f: RankedFile) => string): string[] {
  const setup = [`CREATE OR REPLACE TABLE ${t} (${columns})`]
  for (let i = 0; i < files.length; i += 100)
    setup.push(
      `INSERT INTO ${t} VALUES ${files
        .slice(i, i + 100)
        .map(row)
        .join(', ')}`
    )
  return setup
}

/** A file's folder as its row in a files table: prefix, etl_date, etl_hour and file name. */
const folderValues = (f: RankedFile): string =>
  `${quoteLiteral(f.folder.ref.prefix)}, ${quoteLiteral(f.folder.ref.partition.date)}, ${nullableLiteral(f.folder.ref.partition.hour)}, ${quoteLiteral(f.key.slice(f.key.lastIndexOf('/') + 1))}`

/** Statements that fill a table with each file's rank and folder. */
function filesTableSetup(t: string, files: readonly RankedFile[]): string[] {
  return fileRowsSetup(
    t,
    `${RANK} BIGINT, _prefix VARCHAR, _etl_date VARCHAR, _etl_hour VARCHAR, _file VARCHAR`,
    files,
    (f) => `(${f.rank}, ${folderValues(f)})`
  )
}

/** versionsSql for a glob engine: provenance comes from a table filled by `setup` (inserts of 100 rows). */
export function versionsGlobSql(
  table: Pick<CatalogTable, 'schema' | 'table'>,
  folders: readonly Folder[],
  base: string,
  filesTable: string,
  dialect: GlobDialect = WASM_DIALECT,
  /** The vendor's columns of those files (globColumnsSql). */
  columns: readonly string[] = [],
  /** The globs the registered files are read through (SqlEngine.readPlan); the one of `base` by default. */
  globs: readonly string[] = [globOf(base)]
): GlobTableSql {
  const { files, registrations } = globRegistrations(folders, base)
  if (files.length === 0) return emptyFolders(table, folders) as GlobTableSql
  const t = quoteIdent(filesTable)
  const setup = filesTableSetup(t, files)
  const names = provenanceNames(columns)
  const rows = rankedRows(globs, dialect, takenNames([...columns, ...Object.values(names)]))
  const from = `__ee_f._prefix AS ${quoteIdent(names.prefix)}, __ee_f._etl_date AS ${quoteIdent(names.date)}, __ee_f._etl_hour AS ${quoteIdent(names.hour)}, __ee_f._file AS ${quoteIdent(names.file)}`
  const joined = `SELECT __ee_x.*, ${from} FROM (${rows.sql}) __ee_x JOIN ${t} __ee_f ON __ee_f.${RANK} = __ee_x.${quoteIdent(rows.rank)}`
  const sql = `SELECT * EXCLUDE (${rows.drop.map(quoteIdent).join(', ')}) FROM (${joined})`
  return { ok: true, sql, files: files.length, registrations, setup }
}

/**
 * The rows of ready folders' files in a mirror segment's shape (segmentBuildSql's: each vendor column under storedName,
 * then the mirror's own columns), for a glob engine: the folders the mirror does not hold yet, read beside its segments
 * under the same rule (mirror-sql.ts). `columns`: the vendor's columns of those files (globColumnsSql).
 */
export function mirrorShapedGlobSql(
  folders: readonly Folder[],
  base: string,
  filesTable: string,
  dialect: GlobDialect = WASM_DIALECT,
  columns: readonly string[] = [],
  globs: readonly string[] = [globOf(base)]
): GlobTableSql {
  const { files, registrations } = globRegistrations(folders, base)
  if (files.length === 0) return { ok: false, reason: 'no_files', message: 'The folders hold no .parquet file.' }
  const t = quoteIdent(filesTable)
  // A file's rank in its folder by name (the rule's tie-break within a folder), as a segment records it.
  const firstOfFolder = new Map<Folder, number>()
  for (const f of files) if (!firstOfFolder.has(f.folder)) firstOfFolder.set(f.folder, f.rank)
  const setup = fileRowsSetup(
    t,
    `${RANK} BIGINT, __ee_order BIGINT, __ee_file_rank BIGINT, __ee_ready_at BIGINT, _prefix VARCHAR, _etl_date VARCHAR, _etl_hour VARCHAR, _file VARCHAR`,
    files,
    (f) =>
      `(${f.rank}, ${deliveryOrderKey(f.folder.ref)}, ${f.rank - (firstOfFolder.get(f.folder) ?? 0)}, ${f.folder.marker ? writtenAt(f.folder.marker) : 0}, ${folderValues(f)})`
  )
  const rows = rankedRows(globs, dialect, takenNames(columns))
  const vendor = columns.map((c) => `__ee_x.${quoteIdent(c)} AS ${quoteIdent(storedName(c))}`)
  const own = `__ee_f.__ee_order, __ee_f.__ee_file_rank, __ee_x.${quoteIdent(rows.position)} AS __ee_row, __ee_f.__ee_ready_at, __ee_f._prefix, __ee_f._etl_date, __ee_f._etl_hour, __ee_f._file`
  const sql = `SELECT ${[...vendor, own].join(', ')} FROM (${rows.sql}) __ee_x JOIN ${t} __ee_f ON __ee_f.${RANK} = __ee_x.${quoteIdent(rows.rank)}`
  return { ok: true, sql, files: files.length, registrations, setup }
}

/**
 * Engine errors name files by their registered names (`ee/<schema>/<table>/<rank>.parquet`); users know them by
 * bucket key. Returns a function that rewrites a message accordingly.
 */
export function registeredNamesToKeys(keysByName: ReadonlyMap<string, string>): (message: string) => string {
  return (message) => message.replace(/ee\/[^\s'"]*?\/(?:[0-9a-z]+-)?\d{9}\.parquet/g, (name) => keysByName.get(name) ?? name)
}
