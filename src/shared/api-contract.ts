// The typed contract between the renderer and main: one entry per call, the same over Electron IPC and
// over the web host's HTTP. Plain data only; a secret may travel to main (typed into a form), never back.
import type { Version } from './bucket-key'
import type { JobState, JobStatus } from './job-state'
import * as v from 'valibot'
import { type ConnectionConfig, CONNECTION_ID, ConnectionDraftSchema, schemaReason } from './connection-config'
import type { ListedObject } from './listing'
import type { MirroredSegment } from './mirror-plan'
import { RESTORE_MAX_DAYS, RESTORE_TIERS, type RestorePlan, type RestoreTier } from './restore-plan'
import type { Manifest } from './manifest'
import { CELL_STATES, type CellState, type Finding, type ManifestState, type Severity } from './timeline'

export interface TableStatus {
  readonly schema: string
  readonly table: string
  readonly mode: 'full' | 'parts'
  /** Latest ready copy (full) or newest ready folder (parts): its delivery hour, UTC ISO. */
  readonly newest: string | null
  readonly newestPrefix: string | null
  /** Ready folders: copies of a full table, parts of a parts table. */
  readonly folders: number
  /** Which copy it reads and why, where a rule makes it differ from the newest (copyReadNote); null otherwise. */
  readonly note: string | null
  /** Archived files it needs: restoring them completes it. */
  readonly restorable: boolean
}

export interface Overview {
  readonly connectionId: string
  readonly location: string
  readonly version: Version
  /** v1 → v2 switch in progress: v2 manifests exist but v1 still delivered within the last week. */
  readonly switching: boolean
  /** Evaluation instant (UTC ISO). */
  readonly now: string
  /** The newest hour whose manifest is complete. */
  readonly lastCompleteHour: string | null
  readonly tables: readonly TableStatus[]
  readonly findings: Readonly<Record<Severity, number>>
  /** Problems met while listing (a prefix that could not be listed, …), for the user. */
  readonly problems: readonly string[]
}

export interface TimelineHourView {
  readonly start: string
  readonly era: 'v1' | 'gap' | 'v2'
  readonly manifest: ManifestState | null
  /** One character per table of `TimelineView.tables`, in order: an index into CELL_STATES, in base 36. */
  readonly cells: string
}

export interface TimelineView {
  readonly tables: readonly { readonly schema: string; readonly table: string }[]
  readonly hours: readonly TimelineHourView[]
  readonly findings: readonly Finding[]
}

/** Encodes a row of cell states for the wire (a year of hours is 8,760 rows). */
export function encodeCells(tables: readonly string[], cells: Readonly<Record<string, CellState>>): string {
  return tables.map((t) => CELL_STATES.indexOf(cells[t] ?? 'no_delivery').toString(36)).join('')
}

/** The index into CELL_STATES of one table's cell (no_delivery's when the row is shorter). */
export function cellStateIndex(cells: string, tableIndex: number): number {
  const ch = cells[tableIndex]
  const i = ch === undefined ? -1 : parseInt(ch, 36)
  return i >= 0 && i < CELL_STATES.length ? i : CELL_STATES.indexOf('no_delivery')
}

export function decodeCell(cells: string, tableIndex: number): CellState {
  return CELL_STATES[cellStateIndex(cells, tableIndex)] as CellState
}

export interface HourTable {
  readonly schema: string
  readonly table: string
  readonly state: CellState
  /** The folder this hour's delivery uses (whether or not it exists). */
  readonly prefix: string
  readonly files: readonly {
    readonly key: string
    readonly size: number
    readonly lastModified: string
    readonly storageClass: string | null
    readonly rows: number | null
    readonly rowsError?: string
  }[]
  /** When _SUCCESS was written, or null when there is none. */
  readonly success: string | null
  /** From the manifest, for a parts table. */
  readonly deliveredThrough: string | null
}

export interface HourDetail {
  readonly start: string
  readonly era: 'v1' | 'gap' | 'v2'
  readonly manifest: {
    readonly key: string | null
    readonly state: ManifestState | null
    readonly warnings: readonly string[]
    readonly raw: string | null
    /** The parsed fields, when the manifest could be parsed. */
    readonly parsed: Manifest | null
  } | null
  readonly tables: readonly HourTable[]
  readonly findings: readonly Finding[]
}

export interface ConnectionSummary {
  readonly id: string
  readonly name: string
  readonly provider: 's3' | 'gcs' | 'local'
  /** Where it points, e.g. s3://bucket/prefix/. */
  readonly location: string
  /** The built-in demo bucket: cannot be edited or deleted. */
  readonly builtin: boolean
}

export interface ConnectionsView {
  readonly active: string | null
  readonly connections: readonly ConnectionSummary[]
  /** Saved connections that could not be read. */
  readonly problems: readonly string[]
  /** Why a secret key cannot be saved here, or null when it can. */
  readonly secretStorage: string | null
}

export interface RefreshStatus {
  readonly running: boolean
  readonly progress: { readonly prefixesDone: number; readonly prefixesTotal: number; readonly objects: number } | null
  /** Increases each time a refresh completes: the renderer reloads what it shows. */
  readonly generation: number
  readonly lastRefreshed: string | null
  readonly lastError: string | null
  readonly nextAuto: string | null
}

/** "Test connection": green is an export that opens as it is; amber is not, but names where it is instead; red cannot be used. */
export interface ConnectionVerdictView {
  readonly level: 'green' | 'amber' | 'red'
  /** level === 'green'. */
  readonly ok: boolean
  /** What was found and what to do, in plain words (no error codes). */
  readonly message: string
  readonly version: Version | null
  /** The prefix (S3, GCS) or folder (local) to use instead, best first: each offered as "Use …". */
  readonly useInstead: readonly string[]
  /** The provider's own words (an error code, a status), for a tooltip. */
  readonly detail: string | null
}

/** A connection from the form: no id when new; a static S3 key's secret comes apart, never stored in it. */
/** What the connection form sends (the arguments of connectionSave and connectionTest). */
export type ConnectionInput = ArgsOf<'connectionSave'>

/** What the renderer's engine needs to build the same views: the byte server and the objects the views read. */
export interface EngineSource {
  /** Byte-server URL prefix (token included): append encodeURIComponent(key). */
  readonly base: string
  readonly objects: readonly ListedObject[]
  /** The compacted mirror's segments: parts tables read them (served by the byte server under "mirror/<file>"). */
  readonly mirror: readonly MirroredSegment[]
  readonly now: number
  /** Changes whenever the views must be rebuilt (another connection, a refresh, another "as of"). */
  readonly version: string
  /** Tables the bucket holds that the catalog does not know, with their folder counts (never read). */
  readonly unknownTables: readonly { readonly name: string; readonly folders: number }[]
}

/** The local mirror's build under way: how far along, and the time left estimated from the rate so far. */
export interface MirrorProgressView {
  readonly table: string
  readonly tables: number
  readonly tablesTotal: number
  readonly folders: number
  readonly foldersTotal: number
  readonly files: number
  readonly filesTotal: number
  /** Bytes of the bucket's files read into the mirror (downloaded, or already held whole), of those this build reads. */
  readonly bytes: number
  readonly bytesTotal: number
  readonly segments: number
  readonly segmentsTotal: number
  readonly startedAt: string
  /** Seconds left at the rate so far; null until there is a rate to go by. */
  readonly secondsLeft: number | null
}

/** One parts table in the mirror: folders held of those the rules read (it reads the mirror once it holds all), and disk use. */
export interface MirrorTableView {
  readonly table: string
  readonly folders: number
  readonly foldersTotal: number
  readonly segments: number
  readonly bytes: number
}

/** The open connection's local mirror (issue 13): its build, what it holds, what it costs, and its limit. */
export interface MirrorStatusView {
  /** idle: not built yet; running: building; done: built; cancelled: stopped by the user or at the disk limit
   * (atLimit says which; message says what to do); failed: the build met an error. */
  readonly state: JobState
  readonly atLimit: boolean
  readonly message: string | null
  readonly progress: MirrorProgressView | null
  readonly tables: readonly MirrorTableView[]
  /** Bytes on disk: the compacted segments, the bucket's files downloaded whole, and both. */
  readonly usage: { readonly mirror: number; readonly downloaded: number; readonly total: number }
  /** The disk this connection's mirror may use: chosen, or the default share of the free space. */
  readonly limit: { readonly bytes: number; readonly chosen: boolean } | null
  /** The last build that ended: segments built, kept, removed, and those that could not be built. */
  readonly last: {
    readonly built: number
    readonly kept: number
    readonly removed: number
    readonly problems: readonly { readonly table: string; readonly period: string; readonly message: string }[]
  } | null
}

export interface ExportJob extends JobStatus {
  readonly id: string
  readonly path: string
  readonly format: 'csv' | 'parquet'
  /** Rows written (when done) or processed so far (while running). */
  readonly rows: number
  /** How far along, 0–100, where the engine can tell. */
  readonly percent: number | null
  /** Bytes of the file written so far (what moves while DuckDB cannot tell how far along it is); the file's size when done. */
  readonly bytes: number
  readonly error: string | null
  /** The connection it read (null until it is open) and the "as of" it read (null: latest): what the file holds. */
  readonly connection: string | null
  readonly asOf: string | null
}

export interface HistoryEntry {
  readonly sql: string
  readonly at: string
  /** The connection it ran on and the "as of" it read (null: latest): a result means nothing without them. */
  readonly connection: string | null
  readonly asOf: string | null
  readonly rows: number | null
  readonly ms: number | null
  readonly error: string | null
}

/** A restore plan as the renderer sees it: the figures and words, a few keys for example (not every key). */
export interface RestorePlanView extends Omit<RestorePlan, 'files'> {
  readonly provider: 's3' | 'gcs' | 'local'
  /** The first keys it would restore, for the user to recognise. */
  readonly sample: readonly string[]
  /** What this kind of connection says of archive classes (GCS: read directly, no restore), or null. */
  readonly note: string | null
}

/** Where one key of a restore is: not asked yet, asked (S3 accepted it), S3 says in progress, readable, or failed. */
export type RestoreKeyState = 'waiting' | 'requested' | 'in_progress' | 'done' | 'failed'
export const RESTORE_KEY_STATES: readonly RestoreKeyState[] = ['waiting', 'requested', 'in_progress', 'done', 'failed']

/** The connection's bulk restore (kept in the data folder: it survives a restart). */
export interface RestoreJobView extends JobStatus {
  readonly table: string | null
  readonly tier: RestoreTier
  readonly days: number
  /** When S3 was last asked how far the restores are (HEAD of each key not done), and when it is asked next. */
  readonly checkedAt: string | null
  readonly nextCheck: string | null
  // state: running until every key was done or failed and the listing was brought up to date (endedAt), then done.
  readonly total: number
  readonly bytes: number
  readonly counts: Readonly<Record<RestoreKeyState, number>>
  /** Keys that failed, with why (at most 20). */
  readonly failed: readonly { readonly key: string; readonly message: string }[]
  /** The last problem met while checking (a network failure: checked again at the next interval), or null. */
  readonly lastError: string | null
}

export interface RestoreStatusView {
  readonly provider: 's3' | 'gcs' | 'local'
  readonly job: RestoreJobView | null
  readonly note: string | null
}

/** Each call: its arguments and its result. */
/** Each call's answer (main's own values: typed, not validated). Each call's arguments are a schema, ARGS below. */
export interface ApiResults {
  overview: Overview
  timeline: TimelineView
  hour: HourDetail
  connections: ConnectionsView
  connectionGet: ConnectionConfig
  connectionSave: { id: string }
  connectionTest: ConnectionVerdictView
  connectionOpen: ConnectionsView
  connectionDelete: ConnectionsView
  awsProfiles: { profiles: readonly string[]; error: string | null }
  refresh: RefreshStatus
  refreshStatus: RefreshStatus
  refreshCancel: RefreshStatus
  engineSource: EngineSource
  exportDefaults: { directory: string; dialog: boolean }
  chooseSavePath: { path: string | null }
  exportStart: ExportJob
  exportStatus: ExportJob
  exportCancel: ExportJob
  showInFolder: { shown: boolean }
  history: { entries: readonly HistoryEntry[] }
  historyAdd: { entries: readonly HistoryEntry[] }
  /** Athena / Glue or BigQuery definitions of one table (or every one) of the open connection, with their notes. */
  ddl: { text: string; notes: readonly string[] }
  /** What restoring a table's archived files (table null: every table's) would do, before starting. */
  restorePlan: RestorePlanView
  /** Starts the bulk restore of that plan; refused while another restore of the connection runs. */
  restoreStart: RestoreStatusView
  restoreStatus: RestoreStatusView
  /** The open connection's local mirror: build progress, per-table state and disk use, limit. */
  mirrorStatus: MirrorStatusView
  /** Stops the running build; what it built stays, and the next refresh (or mirrorResume) goes on from there. */
  mirrorCancel: MirrorStatusView
  /** Starts the build again from where it stopped (cancelled, or at the limit after it was raised). */
  mirrorResume: MirrorStatusView
  /** Removes the mirror and the files downloaded for it; the next refresh builds it again. */
  mirrorClear: MirrorStatusView
  /** Sets the connection's disk limit in bytes, or (null) goes back to the default share of the free space. */
  mirrorSetLimit: MirrorStatusView
}

/** The longest timeline a call may ask for, in hours: 400 days (the service's cap). */
export const TIMELINE_MAX_HOURS = 24 * 400

const HOUR_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:00:00(\.000)?Z$/
/** A call's arguments: these fields exactly; an unknown one or a missing one is said by name. */
const args = <E extends v.ObjectEntries>(entries: E) =>
  v.strictObject(entries, (issue) => {
    const key = String(issue.path?.at(-1)?.key ?? '')
    if (issue.expected === 'never') return `unexpected argument ${key}`
    return issue.received === 'undefined' ? `the argument ${key} is missing` : 'arguments must be an object'
  })
const none = v.strictObject({}, 'this call takes no arguments')
const hour = (what: string) =>
  v.pipe(v.string(`${what} must be an hour, YYYY-MM-DDTHH:00:00Z`), v.regex(HOUR_RE, `${what} must be an hour, YYYY-MM-DDTHH:00:00Z`))
const AS_OF_WORDS = 'asOf must be null or an hour, YYYY-MM-DDTHH:00:00Z'
const asOf = v.nullable(v.pipe(v.string(AS_OF_WORDS), v.regex(HOUR_RE, AS_OF_WORDS)))
const format = v.picklist(['csv', 'parquet'], 'format must be csv or parquet')
const absPath = v.pipe(
  v.string('path must be an absolute file path'),
  v.check((x) => x.length < 4096 && (x.startsWith('/') || /^[A-Za-z]:[\\/]/.test(x)) && !x.includes('\0'), 'path must be an absolute file path')
)
const sql = v.pipe(
  v.string('sql must be a query'),
  v.check((x) => x.trim().length > 0 && x.length <= 1_000_000, 'sql must be a query (at most 1,000,000 characters)')
)
const wholeNumber = (what: string, min: number, max: number) => v.pipe(v.number(what), v.integer(what), v.minValue(min, what), v.maxValue(max, what))
const nullableCount = v.nullable(v.pipe(v.number('rows and ms must be null or a number'), v.finite(), v.minValue(0, 'rows and ms must not be negative')))
const ID_WORDS = 'id must be a connection id (1 to 64 letters, digits, "-" or "_")'
const connectionId = v.pipe(v.string(ID_WORDS), v.regex(CONNECTION_ID, ID_WORDS))
const exportId = v.pipe(v.string('id must be an export id'), v.regex(/^[\w-]{1,64}$/, 'id must be an export id'))
const TABLE_WORDS = 'table must be null (every table) or schema.table'
const schemaTable = v.nullable(v.pipe(v.string(TABLE_WORDS), v.regex(/^[A-Za-z_]\w{0,127}\.[A-Za-z_]\w{0,127}$/, TABLE_WORDS)))
const restoreArgs = args({
  table: schemaTable,
  tier: v.picklist(RESTORE_TIERS, `tier must be one of ${RESTORE_TIERS.join(', ')}`),
  days: wholeNumber(`days must be a whole number from 1 to ${RESTORE_MAX_DAYS}`, 1, RESTORE_MAX_DAYS)
})
const connectionInput = args({
  connection: ConnectionDraftSchema,
  secretAccessKey: v.optional(v.pipe(v.string('secretAccessKey must be a string'), v.maxLength(1024, 'secretAccessKey must be at most 1024 characters')))
})
const byId = args({ id: connectionId })
const DDL_TABLE_WORDS = 'table must be null or a table name (schema.table or table)'
const DATABASE_WORDS = 'database must be null or a name of letters, digits and _ (at most 128)'

/** Each call's arguments: what a renderer sends, never trusted, parsed into exactly this (unknown fields refused). */
const ARGS = {
  overview: none,
  timeline: args({ fromHours: wholeNumber(`fromHours must be a whole number of hours from 1 to ${TIMELINE_MAX_HOURS}`, 1, TIMELINE_MAX_HOURS) }),
  hour: args({ start: hour('start') }),
  connections: none,
  connectionGet: byId,
  connectionSave: connectionInput,
  connectionTest: connectionInput,
  connectionOpen: byId,
  connectionDelete: byId,
  awsProfiles: none,
  refresh: args({ full: v.boolean('full must be true or false') }),
  refreshStatus: none,
  refreshCancel: none,
  engineSource: args({ asOf }),
  exportDefaults: none,
  chooseSavePath: args({
    defaultName: v.pipe(v.string(), v.regex(/^[\w .()-]{1,200}$/, 'defaultName must be a plain file name')),
    format
  }),
  exportStart: args({ sql, format, path: absPath, overwrite: v.boolean('overwrite must be true or false'), asOf }),
  exportStatus: args({ id: exportId }),
  exportCancel: args({ id: exportId }),
  showInFolder: args({ path: absPath }),
  history: none,
  historyAdd: args({ sql, asOf, rows: nullableCount, ms: nullableCount, error: v.nullable(v.string('error must be null or text')) }),
  ddl: args({
    engine: v.picklist(['athena', 'bigquery'], 'engine must be athena or bigquery'),
    table: v.nullable(v.pipe(v.string(DDL_TABLE_WORDS), v.regex(/^[A-Za-z_][\w.]{0,200}$/, DDL_TABLE_WORDS))),
    database: v.nullable(v.pipe(v.string(DATABASE_WORDS), v.regex(/^[A-Za-z_]\w{0,127}$/, DATABASE_WORDS)))
  }),
  restorePlan: restoreArgs,
  restoreStart: restoreArgs,
  restoreStatus: none,
  mirrorStatus: none,
  mirrorCancel: none,
  mirrorResume: none,
  mirrorClear: none,
  mirrorSetLimit: args({
    bytes: v.nullable(wholeNumber('bytes must be null (the default) or a whole number of bytes', 0, Number.MAX_SAFE_INTEGER))
  })
} as const satisfies { readonly [N in keyof ApiResults]: v.GenericSchema }

export type ApiName = keyof ApiResults
export type ArgsOf<N extends ApiName> = v.InferOutput<(typeof ARGS)[N]>
export type ResultOf<N extends ApiName> = ApiResults[N]
export type RestoreArgs = ArgsOf<'restorePlan'>

/** Field names that hold a secret; a connection never does (its static key's secret travels apart, in secretAccessKey). */
const SECRET_LOOKING = /secret|password|passwd|token|private.?key|credential/i
function secretLookingField(x: unknown, path: string): string | null {
  if (typeof x !== 'object' || x === null) return null
  for (const [k, y] of Object.entries(x)) {
    if (k !== 'secretRef' && SECRET_LOOKING.test(k)) return `${path}${k}`
    const deeper = secretLookingField(y, `${path}${k}.`)
    if (deeper) return deeper
  }
  return null
}

export const API_NAMES = Object.keys(ARGS) as readonly ApiName[]

export const isApiName = (name: string): name is ApiName => Object.prototype.hasOwnProperty.call(ARGS, name)

/** Limits on any call's arguments, checked before their shape: the deepest argument (a connection's auth) is 3
 * levels down, the largest a 1,000,000-character SQL. */
export const ARG_LIMITS = { depth: 8, values: 2000, chars: 1_100_000 } as const

/** Why a value is too deep or too large to be arguments, walking at most ARG_LIMITS.values values. */
function sizeProblem(args: unknown): string | null {
  const stack: [unknown, number][] = [[args, 0]]
  let values = 0
  let chars = 0
  while (stack.length > 0) {
    const [v, depth] = stack.pop() as [unknown, number]
    if (++values > ARG_LIMITS.values) return `arguments hold more than ${ARG_LIMITS.values} values`
    if (typeof v === 'string') chars += v.length
    if (chars > ARG_LIMITS.chars) return `arguments hold more than ${ARG_LIMITS.chars} characters`
    if (typeof v !== 'object' || v === null) continue
    if (depth >= ARG_LIMITS.depth) return `arguments are nested more than ${ARG_LIMITS.depth} levels deep`
    for (const [k, x] of Object.entries(v)) {
      chars += k.length
      stack.push([x, depth + 1])
    }
  }
  return null
}

/** Checks a call's arguments as they arrive from a renderer (never trusted); returns them or the reason. */
export function validateArgs<N extends ApiName>(name: N, args: unknown): { ok: true; args: ArgsOf<N> } | { ok: false; reason: string } {
  if (!isApiName(name)) return { ok: false, reason: `no call named ${String(name)}` }
  const obj = typeof args === 'object' && args !== null && !Array.isArray(args) ? (args as Record<string, unknown>) : null
  if (!obj) return { ok: false, reason: 'arguments must be an object' }
  const tooBig = sizeProblem(obj)
  if (tooBig) return { ok: false, reason: `${name}: ${tooBig}` }
  // Said by name rather than dropped: a secret in a saved connection's fields would be written in plain text.
  const secretField = name === 'connectionSave' || name === 'connectionTest' ? secretLookingField(obj['connection'], '') : null
  if (secretField)
    return {
      ok: false,
      reason: `${name}: connection: the field ${secretField} looks like a secret, and a connection is saved in plain text; a static key's secret goes in secretAccessKey (kept in the secret store)`
    }
  const r = v.safeParse(ARGS[name] as v.GenericSchema<unknown, ArgsOf<N>>, obj)
  if (r.success) return { ok: true, args: r.output }
  // Where the problem is, unless the words already name the field ("engine must be athena or bigquery").
  const path = r.issues[0]?.path ?? []
  const words = schemaReason(r.issues)
  const where = path.map((p) => String(p.key)).join('.')
  const named = path.length > 0 && words.includes(String(path[path.length - 1]?.key))
  return { ok: false, reason: `${name}: ${where && !named ? `${where}: ` : ''}${words}` }
}

/** The IPC channel of a call. */
export const channelOf = (name: ApiName): string => `export-explorer:${name}`

/** Messages main pushes to the renderer, beside the calls: each name and its payload. */
export interface ApiEvents {
  /** A refresh started or listed more folders. */
  refreshProgress: RefreshStatus
  /** A refresh ended (done, failed or cancelled): the status says which, and its generation. */
  refreshDone: RefreshStatus
  /** An export's job changed (rows so far, done, failed, cancelled). */
  exportProgress: ExportJob
  /** The connection's bulk restore changed (keys requested, checked, done; the listing brought up to date). */
  restoreProgress: RestoreStatusView
  /** The local mirror's build moved on, ended, stopped, or the mirror was cleared. */
  mirrorProgress: MirrorStatusView
}

export type EventName = keyof ApiEvents
export type EventOf<E extends EventName> = ApiEvents[E]
export const EVENT_NAMES: readonly EventName[] = ['refreshProgress', 'refreshDone', 'exportProgress', 'restoreProgress', 'mirrorProgress']

/** The preload's subscription method of an event: refreshProgress → onRefreshProgress. */
export const subscriptionOf = (name: EventName): `on${Capitalize<EventName>}` =>
  `on${name.charAt(0).toUpperCase()}${name.slice(1)}` as `on${Capitalize<EventName>}`

/** The IPC channel of a pushed event (main → renderer). */
export const eventChannelOf = (name: EventName): string => `export-explorer:event:${name}`
