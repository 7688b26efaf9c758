// The vendor's rules as Athena / Glue and BigQuery definitions, ready to paste: an external table per table and
// prefix (v1, v2), and a view per table with the app's logical table (latest copy; newest version of each row).
// The order is the core's (deliverySortKey); the engines only sort by it. What SQL cannot know is said in notes.
import { INITIAL, SUCCESS_MARKER, tablePrefix } from '../bucket-key'
import { CATALOG, type CatalogTable, qualifiedName } from '../catalog'
import type { ConnectionConfig } from '../connection-config'
import { dateOf } from '../dates'
import { deliverySortKey } from '../delivery-order'
import { type Folder, type Inventory, isReady, latestReady, versionAt } from '../inventory'
import { isArchived } from '../listing'
import { PARTITION_COLUMNS } from '../logical-table-sql'
import { FIRST_V2_DELIVERY } from '../schedule'
import type { ColumnSpec } from './column-types'
import { ATHENA } from './athena'
import { BIGQUERY } from './bigquery'

export type WarehouseEngine = 'athena' | 'bigquery'

/** Which grammar a statement is written in: Athena's DDL is Hive's, its views Trino's; BigQuery's is GoogleSQL. */
export type StatementDialect = 'hive' | 'trino' | 'bigquery'

export interface WarehouseStatement {
  readonly dialect: StatementDialect
  /** "schema.table" the statement is for, or null (a database). */
  readonly table: string | null
  /** `pinned`: a query (shown as a comment in the text) reading exactly the latest ready copy the app saw. */
  readonly kind: 'database' | 'external_table' | 'view' | 'pinned'
  /** The object it creates (`database.name`), or null for a pinned query. */
  readonly creates: string | null
  readonly sql: string
}

export type WarehouseDdl =
  | { readonly ok: true; readonly text: string; readonly notes: readonly string[]; readonly statements: readonly WarehouseStatement[] }
  | { readonly ok: false; readonly message: string }

export interface WarehouseDdlInput {
  readonly engine: WarehouseEngine
  /** Where the export lives, `s3://bucket[/prefix]` or `gs://bucket[/prefix]`; null for a local folder (a placeholder is written). */
  readonly location: string | null
  /** One database (Athena) or dataset (BigQuery) for every table; null: one per vendor schema, named as it. */
  readonly database: string | null
  /** One table (`table` or `schema.table`); null: the whole export. */
  readonly table: string | null
  readonly inventory: Inventory
  /** Each logical table's columns as DuckDB gives them, by "schema.table", or why they are unknown. */
  readonly columns: ReadonlyMap<string, readonly ColumnSpec[] | { readonly unknown: string }>
  /** The evaluation instant: the latest ready copy the pinned queries name, archived objects. */
  readonly now: number
  /** Data files found not to be readable Parquet (the app leaves them out; a warehouse fails on them). */
  readonly unreadable?: ReadonlySet<string>
}

/** What each engine writes differently; the views' logic (below) is the same for both. */
export interface WarehouseDialect {
  readonly name: string
  readonly scheme: 's3' | 'gs'
  readonly ddlDialect: StatementDialect
  readonly viewDialect: StatementDialect
  /** The column naming the file a row came from (compared as a whole path: within one folder, that is file-name order). */
  readonly fileColumn: string
  readonly nullString: string
  ident(name: string): string
  /** A table or view name in view SQL. */
  table(database: string, name: string): string
  createDatabase(database: string): string
  externalTable(t: ExternalTableSpec): { sql: string; caveats: string[] }
  createView(database: string, name: string, body: string): string
  /** Engine-wide notes: what the engine cannot see or does differently from the app. */
  readonly notes: readonly string[]
}

export interface ExternalTableSpec {
  readonly database: string
  readonly name: string
  readonly columns: readonly ColumnSpec[]
  /** The table prefix, ending with "/": `s3://bucket/prefix/v2/schema/table/`. */
  readonly location: string
  /** In the vendor's order; every one a string. */
  readonly partitions: readonly { readonly name: string; readonly projection: Projection }[]
}

export type Projection =
  { readonly kind: 'enum'; readonly values: readonly string[] } | { readonly kind: 'date'; readonly from: string; readonly toNow: boolean; readonly to: string }

const HOURS = Array.from({ length: 24 }, (_, h) => String(h).padStart(2, '0'))

// The order of delivery, read off the core's own sort key for each kind of folder: never restated here.
const RANK_INITIAL = deliverySortKey({ version: 'v1', partition: { kind: 'etl', date: INITIAL, hour: null, initial: true } })[0]
const RANK_V1 = deliverySortKey({ version: 'v1', partition: { kind: 'etl', date: '2026-01-01', hour: null, initial: false } })[0]
const RANK_V2 = deliverySortKey({ version: 'v2', partition: { kind: 'etl', date: '2026-01-01', hour: '00', initial: false } })[0]
const NO_HOUR = deliverySortKey({ version: 'v1', partition: { kind: 'snapshot', date: '2026-01-01', hour: null } })[2]
if (![RANK_INITIAL, RANK_V1, RANK_V2].every((r) => Number.isInteger(r) && r >= 0 && r <= 9))
  throw new Error('delivery ranks must be single digits (the copy key compares them as text)')

/** A copy's place in delivery order as one string (rank/date/hour), as the full-table views compute it in SQL: single-digit
 * ranks and fixed-width dates and hours make string order the delivery order. */
export function copyKey(f: Pick<Folder['ref'], 'version' | 'partition'>): string {
  return deliverySortKey(f).join('/')
}

const quote = (v: string): string => `'${v.replaceAll("'", "''")}'`

function findTable(name: string): CatalogTable | undefined {
  return CATALOG.find((t) => t.table === name || qualifiedName(t) === name)
}

function placeholder(engine: WarehouseEngine): string {
  return engine === 'athena' ? 's3://YOUR_BUCKET/YOUR_PREFIX' : 'gs://YOUR_BUCKET/YOUR_PREFIX'
}

/** Where a connection's export lives as a warehouse names it (`s3://bucket/prefix`, `gs://bucket/prefix`); null for a local folder. */
export function warehouseLocation(c: ConnectionConfig): string | null {
  return c.provider === 'local' ? null : `${c.provider === 's3' ? 's3' : 'gs'}://${c.bucket}/${c.prefix}`.replace(/\/+$/, '')
}

/** Why the engine cannot read the export at `location` (Athena reads S3, BigQuery Cloud Storage), or null when it can. The CLI's words name its flag; the window's do not. */
export function engineMismatch(engine: WarehouseEngine, location: string | null, forCli = false): string | null {
  const d = engine === 'athena' ? ATHENA : BIGQUERY
  if (location === null || location.startsWith(`${d.scheme}://`)) return null
  const otherName = d.scheme === 's3' ? 'BigQuery' : 'Athena'
  const other = forCli ? `${otherName} (--engine ${otherName.toLowerCase()})` : otherName
  return `${d.name} reads ${d.scheme === 's3' ? 'S3' : 'Cloud Storage'}, and this export is at ${location}: generate the ${other} definitions instead.`
}

/** The definitions for one table or the whole export. */
export function warehouseDdl(input: WarehouseDdlInput): WarehouseDdl {
  const d = input.engine === 'athena' ? ATHENA : BIGQUERY
  const mismatch = engineMismatch(input.engine, input.location)
  if (mismatch) return { ok: false, message: mismatch }
  const tables = input.table === null ? CATALOG : [findTable(input.table)].filter((t): t is CatalogTable => t !== undefined)
  if (tables.length === 0)
    return {
      ok: false,
      message: `${input.table} is not a table of the catalog: give one of the 19 names, e.g. claudia_messages or datamart_claudia.claudia_messages.`
    }
  const root = (input.location ?? placeholder(input.engine)).replace(/\/+$/, '')
  const notes: string[] = []
  if (input.location === null)
    notes.push(`This connection is a local folder: replace ${root} with where the export lives in ${d.scheme === 's3' ? 'S3' : 'Cloud Storage'}.`)
  notes.push(...d.notes)
  const statements: WarehouseStatement[] = []
  const databases = [...new Set(tables.map((t) => input.database ?? t.schema))]
  for (const db of databases) statements.push({ dialect: d.ddlDialect, table: null, kind: 'database', creates: db, sql: d.createDatabase(db) })
  for (const t of tables) {
    const r = tableStatements(d, input, t, `${root}/`)
    statements.push(...r.statements)
    notes.push(...r.notes)
  }
  return { ok: true, text: render(d, input, root, statements, notes), notes, statements }
}

function render(d: WarehouseDialect, input: WarehouseDdlInput, root: string, statements: readonly WarehouseStatement[], notes: readonly string[]): string {
  const head = [
    `-- ${d.name} definitions for ${root}/ (${input.table ?? 'every table'}), generated by Export Explorer from the bucket as of ${new Date(input.now).toISOString()}.`,
    `-- Run the statements one at a time, in order. Notes:`,
    ...notes.map((n) => `--   * ${n}`)
  ]
  const body = statements.map((s) =>
    s.kind === 'pinned'
      ? `-- Or read exactly the latest ready copy the app saw (until the next delivery):\n${s.sql
          .split('\n')
          .map((l) => `--   ${l}`)
          .join('\n')}`
      : `${s.sql};`
  )
  return `${head.join('\n')}\n\n${body.join('\n\n')}\n`
}

/** The newest ready folder and the folders without _SUCCESS that SQL would read as if ready. */
function unreadyFolders(inv: Inventory, t: CatalogTable, latest: Folder | null): Folder[] {
  const out: Folder[] = []
  for (const f of inv.folders.values()) {
    if (f.ref.schema !== t.schema || f.ref.table !== t.table || isReady(f) || f.dataFiles.length === 0) continue
    if (t.mode === 'parts' || !latest || copyKey(f.ref) > copyKey(latest.ref)) out.push(f)
  }
  return out.sort((a, b) => (a.ref.prefix < b.ref.prefix ? -1 : 1))
}

function tableStatements(d: WarehouseDialect, input: WarehouseDdlInput, t: CatalogTable, root: string): { statements: WarehouseStatement[]; notes: string[] } {
  const qn = qualifiedName(t)
  const db = input.database ?? t.schema
  const inv = input.inventory
  const known = input.columns.get(qn)
  if (!known || 'unknown' in known)
    return {
      statements: [],
      notes: [
        `${qn}: no definition written, its columns are unknown (${known && 'unknown' in known ? known.unknown : 'not read'}). Open the table in the app once its files can be read, then generate again.`
      ]
    }
  const notes: string[] = []
  const partitionNames = t.mode === 'parts' ? ['etl_date', 'etl_hour'] : ['snapshot_date', 'snapshot_hour']
  const own = known.filter((c) => (PARTITION_COLUMNS as readonly string[]).includes(c.name) && t.mode === 'full')
  if (own.length > 0)
    notes.push(`${qn}: its files have a column named ${own.map((c) => c.name).join(', ')}, which is also a partition column: rename it in the definition.`)
  // The parts tables' logical views add etl_date and etl_hour (the partition columns here); the rest are the files'.
  const columns = known.filter((c) => !(t.mode === 'parts' && (PARTITION_COLUMNS as readonly string[]).includes(c.name)))
  const folders = [...inv.folders.values()].filter((f) => f.ref.schema === t.schema && f.ref.table === t.table)
  const v1Dates = [...new Set(folders.filter((f) => f.ref.version === 'v1').map((f) => f.ref.partition.date))].sort()
  const v2Dates = [...new Set(folders.filter((f) => f.ref.version === 'v2').map((f) => f.ref.partition.date))].sort()
  const onV1 = versionAt(inv, { now: input.now }) === 'v1'
  const withV1 = v1Dates.length > 0 || onV1
  const statements: WarehouseStatement[] = []
  const caveats = new Set<string>()
  const external = (version: 'v1' | 'v2', partitions: ExternalTableSpec['partitions']): string => {
    const name = `${t.table}_${version}`
    const e = d.externalTable({ database: db, name, columns, location: `${root}${tablePrefix(t, version)}`, partitions })
    for (const c of e.caveats) caveats.add(c)
    statements.push({ dialect: d.ddlDialect, table: qn, kind: 'external_table', creates: `${db}.${name}`, sql: e.sql })
    return name
  }
  const firstV2 = v2Dates[0] ?? dateOf(FIRST_V2_DELIVERY)
  const v2Date: Projection = {
    kind: 'date',
    from: firstV2 < dateOf(FIRST_V2_DELIVERY) ? firstV2 : dateOf(FIRST_V2_DELIVERY),
    toNow: true,
    to: dateOf(input.now)
  }
  const hours: Projection = { kind: 'enum', values: HOURS }
  let v1Name: string | null = null
  if (withV1) {
    // v1 no longer changes after the switch: its dates are enumerated (with __initial__, which no date projection holds).
    const v1First: Projection =
      t.mode === 'parts'
        ? { kind: 'enum', values: [INITIAL, ...v1Dates.filter((x) => x !== INITIAL)] }
        : { kind: 'date', from: v1Dates[0] ?? dateOf(input.now), toNow: onV1, to: v1Dates.at(-1) ?? dateOf(input.now) }
    v1Name = external('v1', [{ name: partitionNames[0] as string, projection: v1First }])
    if (onV1 && t.mode === 'parts')
      notes.push(
        `${qn}: the bucket is still on v1, so the v1 table's etl_date values are the days delivered so far: generate again after each daily delivery until the switch (after it, v1 no longer changes).`
      )
  }
  const v2Name = external('v2', [
    { name: partitionNames[0] as string, projection: v2Date },
    { name: partitionNames[1] as string, projection: hours }
  ])
  for (const c of caveats) notes.push(`${qn}: ${c}.`)
  const cols = columns.map((c) => d.ident(c.name))
  const v1 = v1Name === null ? null : d.table(db, v1Name)
  const v2 = d.table(db, v2Name)
  const body = t.mode === 'full' ? fullView(d, cols, v1, v2) : partsView(d, t, cols, v1, v2)
  statements.push({ dialect: d.viewDialect, table: qn, kind: 'view', creates: `${db}.${t.table}`, sql: d.createView(db, t.table, body) })

  const asOf = { now: input.now, ...(input.unreadable ? { unreadable: input.unreadable } : {}) }
  const latest = t.mode === 'full' ? latestReady(inv, t, asOf) : null
  if (latest) {
    const p = latest.ref.partition
    const from = latest.ref.version === 'v1' ? v1 : v2
    if (from) {
      const where = [
        `${d.ident(partitionNames[0] as string)} = ${quote(p.date)}`,
        ...(p.hour === null ? [] : [`${d.ident(partitionNames[1] as string)} = ${quote(p.hour)}`])
      ]
      statements.push({
        dialect: d.viewDialect,
        table: qn,
        kind: 'pinned',
        creates: null,
        sql: `SELECT ${cols.join(', ')}\nFROM ${from}\nWHERE ${where.join(' AND ')}`
      })
    }
    if (latest.dataFiles.length === 0)
      notes.push(
        `${qn}: its latest ready copy ${latest.ref.prefix} holds no Parquet file (no rows, for the app); SQL cannot see an empty folder, so the view reads the copy before it.`
      )
  }
  const unready = unreadyFolders(inv, t, latest)
  if (unready.length > 0) {
    const list = unready
      .slice(0, 3)
      .map((f) => f.ref.prefix)
      .join(', ')
    notes.push(
      `${qn}: ${unready.length} folder(s) without ${SUCCESS_MARKER} hold files the view reads as if ready (${list}${unready.length > 3 ? ', …' : ''})${t.mode === 'full' ? '; the pinned query reads the latest ready copy instead' : ''}.`
    )
  }
  const broken = folders.flatMap((f) => f.dataFiles).filter((o) => input.unreadable?.has(o.key))
  if (broken.length > 0)
    notes.push(
      `${qn}: ${broken.length} file(s) are not readable Parquet (${broken[0]?.key}${broken.length > 1 ? ', …' : ''}): the app leaves them out${t.mode === 'full' ? ' and reads the previous readable copy' : ''}; ${d.name} fails any query that reads one: ask the vendor to deliver it again, or delete it.`
    )
  const archived = folders.flatMap((f) => f.dataFiles).filter((o) => isArchived(o, input.now))
  if (archived.length > 0)
    notes.push(
      `${qn}: ${archived.length} object(s) are in an archive storage class (${archived[0]?.key}${archived.length > 1 ? ', …' : ''}); ${d.name === 'Athena' ? 'Athena skips them without an error, so their rows are missing (a key may show an older version)' : 'restore them before reading'}.`
    )
  // What each engine reads of the files the app ignores: Athena (Hive) skips names starting with _ or . and reads the
  // rest, Parquet or not; BigQuery's *.parquet pattern skips what is not Parquet but may match a hidden name.
  const hidden = (key: string): boolean => /^[_.]/.test(key.slice(key.lastIndexOf('/') + 1))
  const strays = inv.ignored.filter(
    (x) =>
      x.folder.schema === t.schema &&
      x.folder.table === t.table &&
      (d.scheme === 's3' ? !hidden(x.object.key) : hidden(x.object.key) && x.object.key.endsWith('.parquet'))
  )
  if (strays.length > 0) {
    const what =
      d.scheme === 's3'
        ? 'Athena reads every file whose name does not start with _ or ., so one that is not Parquet fails the query: remove it'
        : 'the app skips them (a name starting with _ or .), but the uris pattern *.parquet matches them: check whether BigQuery reads them, and remove them if it does'
    notes.push(`${qn}: ${strays.length} file(s) the app ignores are in its folders (${strays[0]?.object.key}${strays.length > 1 ? ', …' : ''}): ${what}.`)
  }
  if (onV1 && folders.some((f) => f.ref.version === 'v2')) {
    notes.push(`${qn}: its v2 folders do not count yet for the app (the bucket is not on v2), but the view reads them.`)
  }
  return { statements, notes }
}

/** A full table: the newest copy present, by the delivery sort key (rank, date, hour) written as one comparable string. */
function fullView(d: WarehouseDialect, cols: readonly string[], v1: string | null, v2: string): string {
  const copy = d.ident('ee_copy')
  const date = d.ident('snapshot_date')
  const arms = [
    ...(v1 === null ? [] : [`  SELECT ${cols.join(', ')}, '${RANK_V1}/' || ${date} || '/${NO_HOUR}' AS ${copy}\n  FROM ${v1}`]),
    `  SELECT ${cols.join(', ')}, '${RANK_V2}/' || ${date} || '/' || ${d.ident('snapshot_hour')} AS ${copy}\n  FROM ${v2}`
  ]
  const copies = d.ident('ee_copies')
  return `WITH ${copies} AS (\n${arms.join('\n  UNION ALL\n')}\n)\nSELECT ${cols.join(', ')}\nFROM ${copies}\nWHERE ${copy} = (SELECT max(${copy}) FROM ${copies})`
}

/** A parts table: the union of v1 and v2; for a keyed table the row of the latest folder, then the last file. */
function partsView(d: WarehouseDialect, t: CatalogTable, cols: readonly string[], v1: string | null, v2: string): string {
  const [etlDate, etlHour] = [d.ident('etl_date'), d.ident('etl_hour')]
  const [rank, date, hour, file] = ['ee_rank', 'ee_date', 'ee_hour', 'ee_file'].map((n) => d.ident(n)) as [string, string, string, string]
  const keyed = t.keyColumn !== null
  const order = keyed
    ? (r: string, h: string): string => `, ${r} AS ${rank}, ${etlDate} AS ${date}, ${h} AS ${hour}, ${d.fileColumn} AS ${file}`
    : (): string => ''
  const arms = [
    ...(v1 === null
      ? []
      : [
          `SELECT ${cols.join(', ')}, ${etlDate}, ${d.nullString} AS ${etlHour}${order(`CASE WHEN ${etlDate} = '${INITIAL}' THEN ${RANK_INITIAL} ELSE ${RANK_V1} END`, `'${NO_HOUR}'`)}\nFROM ${v1}`
        ]),
    `SELECT ${cols.join(', ')}, ${etlDate}, ${etlHour}${order(String(RANK_V2), etlHour)}\nFROM ${v2}`
  ]
  const union = arms.join('\nUNION ALL\n')
  if (!keyed) return union
  const key = d.ident(t.keyColumn as string)
  const newest = d.ident('ee_newest')
  const out = [...cols, etlDate, etlHour].join(', ')
  const indent = (s: string, n: number): string =>
    s
      .split('\n')
      .map((l) => `${' '.repeat(n)}${l}`)
      .join('\n')
  return (
    `SELECT ${out}\nFROM (\n` +
    `  SELECT ${out},\n    row_number() OVER (PARTITION BY ${key} ORDER BY ${rank} DESC, ${date} DESC, ${hour} DESC, ${file} DESC) AS ${newest}\n` +
    `  FROM (\n${indent(union, 4)}\n  ) AS ${d.ident('ee_versions')}\n) AS ${d.ident('ee_ranked')}\n` +
    `WHERE ${key} IS NULL OR ${newest} = 1`
  )
}
