// The calls between the renderer and main, one entry per call, the same over Electron IPC and over the web host's
// HTTP: each call's arguments (a schema: what a renderer sends is never trusted) and its answer (a schema too, from
// which the type main returns and the renderer reads derives; tests check main's answers against it).
import * as v from 'valibot'
import { type ConnectionConfig, CONNECTION_ID, ConnectionDraftSchema, ConnectionSchema } from '../connection-config'
import { RESTORE_MAX_DAYS, RESTORE_TIERS } from '../restore-plan'
import { list, shape } from './answer-schema'
import { MonitorThresholdsSchema } from './core-values'
import { CATALOG } from '../catalog'
import { secretLookingField } from './secret-fields'
import {
  ConnectionVerdictViewSchema,
  ConnectionsViewSchema,
  EngineSourceSchema,
  ExportJobSchema,
  FollowSettingsViewSchema,
  HistoryEntrySchema,
  HourDetailSchema,
  MirrorStatusViewSchema,
  MonitorThresholdsViewSchema,
  FOLLOW_TARGET_KINDS,
  NOTIFY_SETTINGS,
  OverviewSchema,
  RefreshStatusSchema,
  RestorePlanViewSchema,
  RestoreStatusViewSchema,
  TableVolumeViewSchema,
  TimelineViewSchema,
  FINDINGS_OF_MAX
} from './views'

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
/** The longest webhook URL or command a follow target takes. */
export const FOLLOW_TARGET_MAX = 2000
const targetId = v.pipe(v.string('id must be a target of the Follow panel'), v.regex(/^[\w-]{1,64}$/, 'id must be a target of the Follow panel'))
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

/** A saved connection as main answers it: never with a field that looks like a secret (its key's secret stays in the store). */
const savedConnection = v.custom<ConnectionConfig>(
  (x) => v.is(ConnectionSchema, x) && secretLookingField(x, '') === null,
  'a saved connection, without a field that looks like a secret'
)
const history = shape({ entries: list(HistoryEntrySchema) })

/** Each call: its arguments, what a renderer sends, never trusted, parsed into exactly this (unknown fields refused);
 * and its answer, what main gives back (exactly these fields). */
export const CALLS = {
  overview: { args: none, answer: OverviewSchema },
  timeline: {
    args: args({
      fromHours: wholeNumber(`fromHours must be a whole number of hours from 1 to ${TIMELINE_MAX_HOURS}`, 1, TIMELINE_MAX_HOURS),
      /** The findings list the renderer holds (an answer's findingsOf): the same list is not sent again. */
      findingsOf: v.optional(
        v.pipe(v.string('findingsOf must be a string'), v.maxLength(FINDINGS_OF_MAX, `findingsOf must be at most ${FINDINGS_OF_MAX} characters`))
      )
    }),
    answer: TimelineViewSchema
  },
  hour: { args: args({ start: hour('start') }), answer: HourDetailSchema },
  /** One table's deliveries of the last fromHours, beside their usual band (the volume monitor's figures). */
  tableVolume: {
    args: args({
      table: v.pipe(v.string('table must be schema.table'), v.regex(/^[A-Za-z_]\w{0,127}\.[A-Za-z_]\w{0,127}$/, 'table must be schema.table')),
      fromHours: wholeNumber(`fromHours must be a whole number of hours from 1 to ${TIMELINE_MAX_HOURS}`, 1, TIMELINE_MAX_HOURS)
    }),
    answer: TableVolumeViewSchema
  },
  connections: { args: none, answer: ConnectionsViewSchema },
  connectionGet: { args: byId, answer: savedConnection },
  connectionSave: { args: connectionInput, answer: shape({ id: connectionId }) },
  connectionTest: { args: connectionInput, answer: ConnectionVerdictViewSchema },
  connectionOpen: { args: byId, answer: ConnectionsViewSchema },
  connectionDelete: { args: byId, answer: ConnectionsViewSchema },
  awsProfiles: { args: none, answer: shape({ profiles: list(v.string()), error: v.nullable(v.string()) }) },
  refresh: { args: args({ full: v.boolean('full must be true or false') }), answer: RefreshStatusSchema },
  refreshStatus: { args: none, answer: RefreshStatusSchema },
  refreshCancel: { args: none, answer: RefreshStatusSchema },
  engineSource: { args: args({ asOf }), answer: EngineSourceSchema },
  exportDefaults: { args: none, answer: shape({ directory: v.string(), dialog: v.boolean() }) },
  chooseSavePath: {
    args: args({
      defaultName: v.pipe(v.string(), v.regex(/^[\w .()-]{1,200}$/, 'defaultName must be a plain file name')),
      format
    }),
    answer: shape({ path: v.nullable(v.string()) })
  },
  exportStart: {
    args: args({ sql, format, path: absPath, overwrite: v.boolean('overwrite must be true or false'), asOf }),
    answer: ExportJobSchema
  },
  exportStatus: { args: args({ id: exportId }), answer: ExportJobSchema },
  exportCancel: { args: args({ id: exportId }), answer: ExportJobSchema },
  showInFolder: { args: args({ path: absPath }), answer: shape({ shown: v.boolean() }) },
  history: { args: none, answer: history },
  historyAdd: {
    args: args({ sql, asOf, rows: nullableCount, ms: nullableCount, error: v.nullable(v.string('error must be null or text')) }),
    answer: history
  },
  /** Athena / Glue or BigQuery definitions of one table (or every one) of the open connection, with their notes. */
  ddl: {
    args: args({
      engine: v.picklist(['athena', 'bigquery'], 'engine must be athena or bigquery'),
      table: v.nullable(v.pipe(v.string(DDL_TABLE_WORDS), v.regex(/^[A-Za-z_][\w.]{0,200}$/, DDL_TABLE_WORDS))),
      database: v.nullable(v.pipe(v.string(DATABASE_WORDS), v.regex(/^[A-Za-z_]\w{0,127}$/, DATABASE_WORDS)))
    }),
    answer: shape({ text: v.string(), notes: list(v.string()) })
  },
  /** What restoring a table's archived files (table null: every table's) would do, before starting. */
  restorePlan: { args: restoreArgs, answer: RestorePlanViewSchema },
  /** Starts the bulk restore of that plan; refused while another restore of the connection runs. */
  restoreStart: { args: restoreArgs, answer: RestoreStatusViewSchema },
  restoreStatus: { args: none, answer: RestoreStatusViewSchema },
  /** The open connection's local mirror: build progress, per-table state and disk use, limit. */
  mirrorStatus: { args: none, answer: MirrorStatusViewSchema },
  /** Stops the running build; what it built stays, and the next refresh (or mirrorResume) goes on from there. */
  mirrorCancel: { args: none, answer: MirrorStatusViewSchema },
  /** Starts the build again from where it stopped (cancelled, or at the limit after it was raised). */
  mirrorResume: { args: none, answer: MirrorStatusViewSchema },
  /** Removes the mirror and the files downloaded for it; the next refresh builds it again. */
  mirrorClear: { args: none, answer: MirrorStatusViewSchema },
  /** Sets the connection's disk limit in bytes, or (null) goes back to the default share of the free space. */
  mirrorSetLimit: {
    args: args({ bytes: v.nullable(wholeNumber('bytes must be null (the default) or a whole number of bytes', 0, Number.MAX_SAFE_INTEGER)) }),
    answer: MirrorStatusViewSchema
  },
  /** The open connection's volume monitor thresholds. */
  monitorThresholds: { args: none, answer: MonitorThresholdsViewSchema },
  /** Sets one table's thresholds (table: its catalog name), or every table's (null); thresholds null: the defaults. */
  monitorSetThresholds: {
    args: args({
      table: v.nullable(
        v.picklist(
          CATALOG.map((c) => c.table),
          'table must be null (every table) or a table of the catalog'
        )
      ),
      thresholds: v.nullable(MonitorThresholdsSchema)
    }),
    answer: MonitorThresholdsViewSchema
  },
  /** The open connection's follow settings (desktop notifications). */
  followSettings: { args: none, answer: FollowSettingsViewSchema },
  followSetNotify: {
    args: args({ notify: v.picklist(NOTIFY_SETTINGS, `notify must be one of ${NOTIFY_SETTINGS.join(', ')}`) }),
    answer: FollowSettingsViewSchema
  },
  /** Adds a target to the open connection: a webhook (http or https; its URL goes to the secret store) or a command. */
  followTargetAdd: {
    args: args({
      kind: v.picklist(FOLLOW_TARGET_KINDS, `kind must be one of ${FOLLOW_TARGET_KINDS.join(', ')}`),
      value: v.pipe(
        v.string('value must be the webhook URL or the command'),
        v.trim(),
        v.minLength(1, 'value must be the webhook URL or the command'),
        v.maxLength(FOLLOW_TARGET_MAX, `value must be at most ${FOLLOW_TARGET_MAX} characters`),
        v.regex(/^[^\0\r\n]*$/, 'value must be one line')
      )
    }),
    answer: FollowSettingsViewSchema
  },
  followTargetRemove: { args: args({ id: targetId }), answer: FollowSettingsViewSchema },
  /** Sends a payload marked as a test to one target; the answer lists it with the target's answer. */
  followTargetTest: { args: args({ id: targetId }), answer: FollowSettingsViewSchema }
} as const satisfies { readonly [name: string]: { readonly args: v.GenericSchema; readonly answer: v.GenericSchema } }

export type ApiName = keyof typeof CALLS
export type ArgsOf<N extends ApiName> = v.InferOutput<(typeof CALLS)[N]['args']>
export type ResultOf<N extends ApiName> = v.InferOutput<(typeof CALLS)[N]['answer']>
/** Each call's answer, by name. */
export type ApiResults = { readonly [N in ApiName]: ResultOf<N> }
export type RestoreArgs = ArgsOf<'restorePlan'>

/** What the connection form sends (the arguments of connectionSave and connectionTest): no id when new; a static S3
 * key's secret comes apart, never stored in the connection. */
export type ConnectionInput = ArgsOf<'connectionSave'>

export const API_NAMES = Object.keys(CALLS) as readonly ApiName[]

export const isApiName = (name: string): name is ApiName => Object.prototype.hasOwnProperty.call(CALLS, name)
