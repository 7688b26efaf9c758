// The calls between the renderer and main, one entry per call, the same over Electron IPC and over the web host's
// HTTP: each call's arguments (a schema: what a renderer sends is never trusted) and its answer.
import * as v from 'valibot'
import { type ConnectionConfig, CONNECTION_ID, ConnectionDraftSchema } from '../connection-config'
import { RESTORE_MAX_DAYS, RESTORE_TIERS } from '../restore-plan'
import type {
  ConnectionVerdictView,
  ConnectionsView,
  EngineSource,
  ExportJob,
  HistoryEntry,
  HourDetail,
  MirrorStatusView,
  Overview,
  RefreshStatus,
  RestorePlanView,
  RestoreStatusView,
  TimelineView
} from './views'

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
export const ARGS = {
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

/** A connection from the form: no id when new; a static S3 key's secret comes apart, never stored in it. */
/** What the connection form sends (the arguments of connectionSave and connectionTest). */
export type ConnectionInput = ArgsOf<'connectionSave'>

export const API_NAMES = Object.keys(ARGS) as readonly ApiName[]

export const isApiName = (name: string): name is ApiName => Object.prototype.hasOwnProperty.call(ARGS, name)
