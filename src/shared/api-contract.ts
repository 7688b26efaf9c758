// The typed contract between the renderer and main: one entry per call, the same over Electron IPC and
// over the web host's HTTP. Plain data only; a secret may travel to main (typed into a form), never back.
import type { Version } from './bucket-key'
import { type ConnectionConfig, isConnectionId, validateConnection } from './connection-config'
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
  /** One character per table of `TimelineView.tables`, in order: an index into CELL_STATES. */
  readonly cells: string
}

export interface TimelineView {
  readonly tables: readonly { readonly schema: string; readonly table: string }[]
  readonly hours: readonly TimelineHourView[]
  readonly findings: readonly Finding[]
}

/** Encodes a row of cell states for the wire (a year of hours is 8,760 rows). */
export function encodeCells(tables: readonly string[], cells: Readonly<Record<string, CellState>>): string {
  return tables.map((t) => String(CELL_STATES.indexOf(cells[t] ?? 'no_delivery'))).join('')
}

export function decodeCell(cells: string, tableIndex: number): CellState {
  return CELL_STATES[Number(cells[tableIndex])] ?? 'no_delivery'
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
export interface ConnectionInput {
  readonly connection: ConnectionConfig
  readonly secretAccessKey?: string
}

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
  /** none: not built yet; stopped: cancelled, or at the disk limit (message says which and what to do). */
  readonly state: 'none' | 'building' | 'ready' | 'cancelled' | 'limit' | 'error'
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

export interface ExportJob {
  readonly id: string
  readonly path: string
  readonly format: 'csv' | 'parquet'
  readonly running: boolean
  readonly done: boolean
  /** Rows written (when done) or processed so far (while running). */
  readonly rows: number
  /** How far along, 0–100, where the engine can tell. */
  readonly percent: number | null
  /** Bytes of the file written so far (what moves while DuckDB cannot tell how far along it is); the file's size when done. */
  readonly bytes: number
  readonly error: string | null
}

export interface HistoryEntry {
  readonly sql: string
  readonly at: string
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
export interface RestoreJobView {
  readonly table: string | null
  readonly tier: RestoreTier
  readonly days: number
  readonly startedAt: string
  /** When S3 was last asked how far the restores are (HEAD of each key not done), and when it is asked next. */
  readonly checkedAt: string | null
  readonly nextCheck: string | null
  /** When every key was done or failed and the listing was brought up to date; null while it runs. */
  readonly finishedAt: string | null
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
export interface ApiContract {
  overview: { args: Record<string, never>; result: Overview }
  timeline: { args: { fromHours: number }; result: TimelineView }
  hour: { args: { start: string }; result: HourDetail }
  connections: { args: Record<string, never>; result: ConnectionsView }
  connectionGet: { args: { id: string }; result: ConnectionConfig }
  connectionSave: { args: ConnectionInput; result: { id: string } }
  connectionTest: { args: ConnectionInput; result: ConnectionVerdictView }
  connectionOpen: { args: { id: string }; result: ConnectionsView }
  connectionDelete: { args: { id: string }; result: ConnectionsView }
  awsProfiles: { args: Record<string, never>; result: { profiles: readonly string[]; error: string | null } }
  refresh: { args: { full: boolean }; result: RefreshStatus }
  refreshStatus: { args: Record<string, never>; result: RefreshStatus }
  refreshCancel: { args: Record<string, never>; result: RefreshStatus }
  engineSource: { args: { asOf: string | null }; result: EngineSource }
  exportDefaults: { args: Record<string, never>; result: { directory: string; dialog: boolean } }
  chooseSavePath: { args: { defaultName: string; format: 'csv' | 'parquet' }; result: { path: string | null } }
  exportStart: { args: { sql: string; format: 'csv' | 'parquet'; path: string; overwrite: boolean; asOf: string | null }; result: ExportJob }
  exportStatus: { args: { id: string }; result: ExportJob }
  exportCancel: { args: { id: string }; result: ExportJob }
  showInFolder: { args: { path: string }; result: { shown: boolean } }
  history: { args: Record<string, never>; result: { entries: readonly HistoryEntry[] } }
  historyAdd: { args: { sql: string; rows: number | null; ms: number | null; error: string | null }; result: { entries: readonly HistoryEntry[] } }
  /** Athena / Glue or BigQuery definitions of one table (or every one) of the open connection, with their notes. */
  ddl: { args: { engine: 'athena' | 'bigquery'; table: string | null; database: string | null }; result: { text: string; notes: readonly string[] } }
  /** What restoring a table's archived files (table null: every table's) would do, before starting. */
  restorePlan: { args: RestoreArgs; result: RestorePlanView }
  /** Starts the bulk restore of that plan; refused while another restore of the connection runs. */
  restoreStart: { args: RestoreArgs; result: RestoreStatusView }
  restoreStatus: { args: Record<string, never>; result: RestoreStatusView }
  /** The open connection's local mirror: build progress, per-table state and disk use, limit. */
  mirrorStatus: { args: Record<string, never>; result: MirrorStatusView }
  /** Stops the running build; what it built stays, and the next refresh (or mirrorResume) goes on from there. */
  mirrorCancel: { args: Record<string, never>; result: MirrorStatusView }
  /** Starts the build again from where it stopped (cancelled, or at the limit after it was raised). */
  mirrorResume: { args: Record<string, never>; result: MirrorStatusView }
  /** Removes the mirror and the files downloaded for it; the next refresh builds it again. */
  mirrorClear: { args: Record<string, never>; result: MirrorStatusView }
  /** Sets the connection's disk limit in bytes, or (null) goes back to the default share of the free space. */
  mirrorSetLimit: { args: { bytes: number | null }; result: MirrorStatusView }
}

export interface RestoreArgs {
  readonly table: string | null
  readonly tier: RestoreTier
  readonly days: number
}

export type ApiName = keyof ApiContract
export type ArgsOf<N extends ApiName> = ApiContract[N]['args']
export type ResultOf<N extends ApiName> = ApiContract[N]['result']

type Check = (obj: Record<string, unknown>) => string | null

const none: Check = (o) => (Object.keys(o).length === 0 ? null : 'this call takes no arguments')
const onlyKeys = (o: Record<string, unknown>, keys: readonly string[]): string | null => {
  const extra = Object.keys(o).filter((k) => !keys.includes(k))
  return extra.length ? `unexpected argument ${extra.join(', ')}` : null
}
const id: Check = (o) => onlyKeys(o, ['id']) ?? (isConnectionId(o['id']) ? null : 'id must be a connection id (1 to 64 letters, digits, "-" or "_")')
/** Field names that hold a secret; a connection never does (its static key's secret travels apart, in secretAccessKey). */
const SECRET_LOOKING = /secret|password|passwd|token|private.?key|credential/i
function secretLookingField(v: unknown, path: string): string | null {
  if (typeof v !== 'object' || v === null) return null
  for (const [k, x] of Object.entries(v)) {
    if (k !== 'secretRef' && SECRET_LOOKING.test(k)) return `${path}${k}`
    const deeper = secretLookingField(x, `${path}${k}.`)
    if (deeper) return deeper
  }
  return null
}
const connectionInput: Check = (o) => {
  const extra = onlyKeys(o, ['connection', 'secretAccessKey'])
  if (extra) return extra
  const c = o['connection']
  const secretField = secretLookingField(c, '')
  if (secretField)
    return `connection: the field ${secretField} looks like a secret, and a connection is saved in plain text; a static key's secret goes in secretAccessKey (kept in the secret store)`
  // A new connection has no id yet and a static key no secretRef yet: main assigns both.
  const filled = typeof c === 'object' && c !== null ? { id: 'new', ...(c as object) } : c
  const auth = (filled as { auth?: { kind?: string } } | null)?.auth
  const withRef = auth?.kind === 'static' ? { ...(filled as object), auth: { secretRef: 'pending', ...auth } } : filled
  const r = validateConnection(withRef)
  if (!r.ok) return `connection: ${r.reason}`
  const s = o['secretAccessKey']
  if (s !== undefined && (typeof s !== 'string' || s.length > 1024)) return 'secretAccessKey must be a string'
  return null
}

const HOUR_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:00:00(\.000)?Z$/
const asOf = (v: unknown): boolean => v === null || (typeof v === 'string' && HOUR_RE.test(v))
const format = (v: unknown): boolean => v === 'csv' || v === 'parquet'
const absPath = (v: unknown): boolean => typeof v === 'string' && v.length < 4096 && (v.startsWith('/') || /^[A-Za-z]:[\\/]/.test(v)) && !v.includes('\0')
const sql = (v: unknown): boolean => typeof v === 'string' && v.trim().length > 0 && v.length <= 1_000_000
const nullableNumber = (v: unknown): boolean => v === null || (typeof v === 'number' && Number.isFinite(v) && v >= 0)

const restoreArgs: Check = (o) =>
  onlyKeys(o, ['table', 'tier', 'days']) ??
  (!(o['table'] === null || (typeof o['table'] === 'string' && /^[A-Za-z_]\w{0,127}\.[A-Za-z_]\w{0,127}$/.test(o['table'])))
    ? 'table must be null (every table) or schema.table'
    : !(RESTORE_TIERS as readonly unknown[]).includes(o['tier'])
      ? `tier must be one of ${RESTORE_TIERS.join(', ')}`
      : !(typeof o['days'] === 'number' && Number.isInteger(o['days']) && o['days'] >= 1 && o['days'] <= RESTORE_MAX_DAYS)
        ? `days must be a whole number from 1 to ${RESTORE_MAX_DAYS}`
        : null)

const CHECKS: { readonly [N in ApiName]: Check } = {
  overview: none,
  connections: none,
  awsProfiles: none,
  refreshStatus: none,
  refreshCancel: none,
  timeline: (o) =>
    onlyKeys(o, ['fromHours']) ??
    (typeof o['fromHours'] === 'number' && Number.isInteger(o['fromHours']) && o['fromHours'] >= 1 && o['fromHours'] <= 24 * 800
      ? null
      : 'fromHours must be a whole number of hours from 1 to 19200'),
  hour: (o) => onlyKeys(o, ['start']) ?? (typeof o['start'] === 'string' && HOUR_RE.test(o['start']) ? null : 'start must be an hour, YYYY-MM-DDTHH:00:00Z'),
  connectionGet: id,
  connectionOpen: id,
  connectionDelete: id,
  connectionSave: connectionInput,
  connectionTest: connectionInput,
  refresh: (o) => onlyKeys(o, ['full']) ?? (typeof o['full'] === 'boolean' ? null : 'full must be true or false'),
  engineSource: (o) => onlyKeys(o, ['asOf']) ?? (asOf(o['asOf']) ? null : 'asOf must be null or an hour, YYYY-MM-DDTHH:00:00Z'),
  exportDefaults: none,
  chooseSavePath: (o) =>
    onlyKeys(o, ['defaultName', 'format']) ??
    (typeof o['defaultName'] === 'string' && /^[\w .()-]{1,200}$/.test(o['defaultName']) && format(o['format'])
      ? null
      : 'defaultName must be a plain file name and format csv or parquet'),
  exportStart: (o) =>
    onlyKeys(o, ['sql', 'format', 'path', 'overwrite', 'asOf']) ??
    (!sql(o['sql'])
      ? 'sql must be a query'
      : !format(o['format'])
        ? 'format must be csv or parquet'
        : !absPath(o['path'])
          ? 'path must be an absolute file path'
          : typeof o['overwrite'] !== 'boolean'
            ? 'overwrite must be true or false'
            : !asOf(o['asOf'])
              ? 'asOf must be null or an hour'
              : null),
  exportStatus: (o) => onlyKeys(o, ['id']) ?? (typeof o['id'] === 'string' && /^[\w-]{1,64}$/.test(o['id']) ? null : 'id must be an export id'),
  exportCancel: (o) => onlyKeys(o, ['id']) ?? (typeof o['id'] === 'string' && /^[\w-]{1,64}$/.test(o['id']) ? null : 'id must be an export id'),
  showInFolder: (o) => onlyKeys(o, ['path']) ?? (absPath(o['path']) ? null : 'path must be an absolute file path'),
  history: none,
  ddl: (o) =>
    onlyKeys(o, ['engine', 'table', 'database']) ??
    (o['engine'] !== 'athena' && o['engine'] !== 'bigquery'
      ? 'engine must be athena or bigquery'
      : !(o['table'] === null || (typeof o['table'] === 'string' && /^[A-Za-z_][\w.]{0,200}$/.test(o['table'])))
        ? 'table must be null or a table name (schema.table or table)'
        : !(o['database'] === null || (typeof o['database'] === 'string' && /^[A-Za-z_]\w{0,127}$/.test(o['database'])))
          ? 'database must be null or a name of letters, digits and _ (at most 128)'
          : null),
  restorePlan: (o) => restoreArgs(o),
  restoreStart: (o) => restoreArgs(o),
  restoreStatus: none,
  mirrorStatus: none,
  mirrorCancel: none,
  mirrorResume: none,
  mirrorClear: none,
  mirrorSetLimit: (o) =>
    onlyKeys(o, ['bytes']) ??
    (o['bytes'] === null || (typeof o['bytes'] === 'number' && Number.isInteger(o['bytes']) && o['bytes'] >= 0 && o['bytes'] <= Number.MAX_SAFE_INTEGER)
      ? null
      : 'bytes must be null (the default) or a whole number of bytes'),
  historyAdd: (o) =>
    onlyKeys(o, ['sql', 'rows', 'ms', 'error']) ??
    (sql(o['sql']) && nullableNumber(o['rows']) && nullableNumber(o['ms']) && (o['error'] === null || typeof o['error'] === 'string')
      ? null
      : 'a history entry needs sql, rows, ms and error')
}

export const API_NAMES = Object.keys(CHECKS) as readonly ApiName[]

export const isApiName = (name: string): name is ApiName => Object.prototype.hasOwnProperty.call(CHECKS, name)

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
  const reason = CHECKS[name](obj)
  return reason === null ? { ok: true, args: obj as ArgsOf<N> } : { ok: false, reason: `${name}: ${reason}` }
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
