// The answers main gives and the renderer shows (the views of the open connection, its jobs, its saved
// connections), as schemas from which their types derive: plain data as they travel over IPC and HTTP.
import * as v from 'valibot'
import type { UsualBand } from '../delivery-monitors'
import type { Finding, Severity } from '../timeline'
import { count, exactly, instant, list, shape } from './answer-schema'
import {
  CellStateSchema,
  FindingSchema,
  JOB_STATUS_FIELDS,
  ListedObjectSchema,
  ManifestSchema,
  ManifestStateSchema,
  MirroredSegmentSchema,
  SupersededListSchema,
  AllMonitorThresholdsSchema,
  MONITOR_CONFIG_FIELDS,
  RESTORE_PLAN_FIELDS,
  RestoreTierSchema,
  VersionSchema
} from './core-values'

const era = v.picklist(['v1', 'gap', 'v2'])
const provider = v.picklist(['s3', 'gcs', 'local'])
const tableName = { schema: v.string(), table: v.string() }
/** The longest name of a findings list (a UUID is 36 characters). */
export const FINDINGS_OF_MAX = 64

export const TableStatusSchema = shape({
  ...tableName,
  mode: v.picklist(['full', 'parts']),
  /** Latest ready copy (full) or newest ready folder (parts): its delivery hour, UTC ISO. */
  newest: v.nullable(instant),
  newestPrefix: v.nullable(v.string()),
  /** Ready folders: copies of a full table, parts of a parts table. */
  folders: count,
  /** Which copy it reads and why, where a rule makes it differ from the newest (copyReadNote); null otherwise. */
  note: v.nullable(v.string()),
  /** Archived files it needs: restoring them completes it. */
  restorable: v.boolean()
})
export type TableStatus = v.InferOutput<typeof TableStatusSchema>

export const OverviewSchema = shape({
  connectionId: v.string(),
  location: v.string(),
  version: VersionSchema,
  /** v1 → v2 switch in progress: v2 manifests exist but v1 still delivered within the last week. */
  switching: v.boolean(),
  /** Evaluation instant (UTC ISO). */
  now: instant,
  /** The newest hour whose manifest is complete. */
  lastCompleteHour: v.nullable(instant),
  tables: list(TableStatusSchema),
  findings: exactly<Readonly<Record<Severity, number>>>()(shape({ error: count, warning: count, info: count })),
  /** Problems met while listing (a prefix that could not be listed, …), for the user. */
  problems: list(v.string())
})
export type Overview = v.InferOutput<typeof OverviewSchema>

export const TimelineHourViewSchema = shape({
  start: instant,
  era,
  manifest: v.nullable(ManifestStateSchema),
  /** One character per table of `TimelineView.tables`, in order: an index into CELL_STATES, in base 36 (cell-encoding.ts). */
  cells: v.string()
})
export type TimelineHourView = v.InferOutput<typeof TimelineHourViewSchema>

export const TimelineViewSchema = shape({
  tables: list(shape(tableName)),
  hours: list(TimelineHourViewSchema),
  /** Every finding of the export; null when the call said it holds this list already (findingsOf). */
  findings: v.nullable(list(FindingSchema)),
  /** Names this list of findings: it stays while an analysis finds the same ones (a refresh with nothing new), so a
   * year of findings crosses once, not at every range or refresh. */
  findingsOf: v.pipe(v.string(), v.maxLength(FINDINGS_OF_MAX))
})
/** The timeline as the call answers it: without its findings when the caller holds them. */
export type TimelineAnswer = v.InferOutput<typeof TimelineViewSchema>
/** The timeline with its findings: what the deliveries view, the incidents and the headline read. */
export type TimelineView = Omit<TimelineAnswer, 'findings' | 'findingsOf'> & { readonly findings: readonly Finding[] }

/** The usual range a delivery's rows or bytes were judged against (delivery-monitors.ts). */
const UsualBandSchema = exactly<UsualBand>()(
  shape({ low: count, high: count, median: v.pipe(v.number(), v.finite(), v.minValue(0)), n: count, how: v.string() })
)

/** One delivery's volume beside its usual bands (null: too little history to judge). */
export const VolumePointViewSchema = shape({
  /** The delivery's hour, UTC ISO. */
  start: instant,
  /** Its folder. */
  key: v.string(),
  rows: count,
  bytes: count,
  rowsBand: v.nullable(UsualBandSchema),
  bytesBand: v.nullable(UsualBandSchema),
  anomalous: v.boolean()
})
export type VolumePointView = v.InferOutput<typeof VolumePointViewSchema>

/** A table's deliveries in a range, oldest first: the Tables view's chart of rows per delivery. */
export const TableVolumeViewSchema = shape({ ...tableName, points: list(VolumePointViewSchema) })
export type TableVolumeView = v.InferOutput<typeof TableVolumeViewSchema>

export const HourTableSchema = shape({
  ...tableName,
  state: CellStateSchema,
  /** The folder this hour's delivery uses (whether or not it exists). */
  prefix: v.string(),
  files: list(
    shape({
      key: v.string(),
      size: count,
      lastModified: v.string(),
      storageClass: v.nullable(v.string()),
      rows: v.nullable(count),
      rowsError: v.optional(v.string())
    })
  ),
  /** When _SUCCESS was written, or null when there is none. */
  success: v.nullable(v.string()),
  /** From the manifest, for a parts table. */
  deliveredThrough: v.nullable(v.string()),
  /** The delivery's rows and bytes beside the table's usual band, when the monitors judged it. */
  volume: v.nullable(VolumePointViewSchema)
})
export type HourTable = v.InferOutput<typeof HourTableSchema>

export const HourDetailSchema = shape({
  start: instant,
  era,
  manifest: v.nullable(
    shape({
      key: v.nullable(v.string()),
      state: v.nullable(ManifestStateSchema),
      warnings: list(v.string()),
      raw: v.nullable(v.string()),
      /** The parsed fields, when the manifest could be parsed. */
      parsed: v.nullable(ManifestSchema)
    })
  ),
  tables: list(HourTableSchema),
  findings: list(FindingSchema)
})
export type HourDetail = v.InferOutput<typeof HourDetailSchema>

export const ConnectionSummarySchema = shape({
  id: v.string(),
  name: v.string(),
  provider,
  /** Where it points, e.g. s3://bucket/prefix/. */
  location: v.string(),
  /** The built-in demo bucket: cannot be edited or deleted. */
  builtin: v.boolean()
})
export type ConnectionSummary = v.InferOutput<typeof ConnectionSummarySchema>

export const ConnectionsViewSchema = shape({
  active: v.nullable(v.string()),
  connections: list(ConnectionSummarySchema),
  /** Saved connections that could not be read. */
  problems: list(v.string()),
  /** Why a secret key cannot be saved here, or null when it can. */
  secretStorage: v.nullable(v.string())
})
export type ConnectionsView = v.InferOutput<typeof ConnectionsViewSchema>

export const RefreshStatusSchema = shape({
  running: v.boolean(),
  progress: v.nullable(shape({ prefixesDone: count, prefixesTotal: count, objects: count })),
  /** Increases each time a refresh completes: the renderer reloads what it shows. */
  generation: count,
  lastRefreshed: v.nullable(instant),
  lastError: v.nullable(v.string()),
  /** When the app checks next by itself (a refresh at the due time, or a poll of the due hour's manifest). */
  nextAuto: v.nullable(instant)
})
export type RefreshStatus = v.InferOutput<typeof RefreshStatusSchema>

/** "Test connection": green is an export that opens as it is; amber is not, but names where it is instead; red cannot be used. */
export const ConnectionVerdictViewSchema = shape({
  level: v.picklist(['green', 'amber', 'red']),
  /** level === 'green'. */
  ok: v.boolean(),
  /** What was found and what to do, in plain words (no error codes). */
  message: v.string(),
  version: v.nullable(VersionSchema),
  /** The prefix (S3, GCS) or folder (local) to use instead, best first: each offered as "Use …". */
  useInstead: list(v.string()),
  /** The provider's own words (an error code, a status), for a tooltip. */
  detail: v.nullable(v.string())
})
export type ConnectionVerdictView = v.InferOutput<typeof ConnectionVerdictViewSchema>

/** What the renderer's engine needs to build the same views: the byte server and the objects the views read. */
export const EngineSourceSchema = shape({
  /** Byte-server URL prefix (token included): append encodeURIComponent(key). */
  base: v.string(),
  objects: list(ListedObjectSchema),
  /** The compacted mirror's segments: parts tables read them (served by the byte server under "mirror/<file>"). */
  mirror: list(MirroredSegmentSchema),
  /** The mirror's superseded lists (served like segments): a keyed table whose list fits reads through it. */
  superseded: list(SupersededListSchema),
  now: v.number(),
  /** Changes whenever the views must be rebuilt (another connection, a refresh, another "as of"). */
  version: v.string(),
  /** Tables the bucket holds that the catalog does not know, with their folder counts (never read). */
  unknownTables: list(shape({ name: v.string(), folders: count }))
})
export type EngineSource = v.InferOutput<typeof EngineSourceSchema>

/** The local mirror's build under way: how far along, and the time left estimated from the rate so far. */
export const MirrorProgressViewSchema = shape({
  table: v.string(),
  tables: count,
  tablesTotal: count,
  folders: count,
  foldersTotal: count,
  files: count,
  filesTotal: count,
  /** Bytes of the bucket's files read into the mirror (downloaded, or already held whole), of those this build reads. */
  bytes: count,
  bytesTotal: count,
  segments: count,
  segmentsTotal: count,
  startedAt: instant,
  /** Seconds left at the rate so far; null until there is a rate to go by. */
  secondsLeft: v.nullable(v.number())
})
export type MirrorProgressView = v.InferOutput<typeof MirrorProgressViewSchema>

/** One parts table in the mirror: folders held of those the rules read (it reads the mirror once it holds all), and disk use. */
export const MirrorTableViewSchema = shape({ table: v.string(), folders: count, foldersTotal: count, segments: count, bytes: count })
export type MirrorTableView = v.InferOutput<typeof MirrorTableViewSchema>

/** The open connection's local mirror (issue 13): its build, what it holds, what it costs, and its limit. */
export const MirrorStatusViewSchema = shape({
  /** idle: not built yet; running: building; done: built; cancelled: stopped by the user or at the disk limit
   * (atLimit says which; message says what to do); failed: the build met an error. */
  state: JOB_STATUS_FIELDS.state,
  atLimit: v.boolean(),
  message: v.nullable(v.string()),
  progress: v.nullable(MirrorProgressViewSchema),
  tables: list(MirrorTableViewSchema),
  /** Bytes on disk: the compacted segments, the bucket's files downloaded whole, and both. */
  usage: shape({ mirror: count, downloaded: count, total: count }),
  /** The disk this connection's mirror may use: chosen, or the default share of the free space. */
  limit: v.nullable(shape({ bytes: count, chosen: v.boolean() })),
  /** The last build that ended: segments built, kept, removed, and those that could not be built. */
  last: v.nullable(
    shape({
      built: count,
      kept: count,
      removed: count,
      problems: list(shape({ table: v.string(), period: v.string(), message: v.string() }))
    })
  )
})
export type MirrorStatusView = v.InferOutput<typeof MirrorStatusViewSchema>

export const ExportJobSchema = shape({
  ...JOB_STATUS_FIELDS,
  id: v.string(),
  path: v.string(),
  format: v.picklist(['csv', 'parquet']),
  /** Rows written (when done) or processed so far (while running). */
  rows: count,
  /** How far along, 0–100, where the engine can tell. */
  percent: v.nullable(v.pipe(v.number(), v.minValue(0), v.maxValue(100))),
  /** Bytes of the file written so far (what moves while DuckDB cannot tell how far along it is); the file's size when done. */
  bytes: count,
  error: v.nullable(v.string()),
  /** The connection it read (null until it is open) and the "as of" it read (null: latest): what the file holds. */
  connection: v.nullable(v.string()),
  asOf: v.nullable(v.string())
})
export type ExportJob = v.InferOutput<typeof ExportJobSchema>

export const HistoryEntrySchema = shape({
  sql: v.string(),
  at: instant,
  /** The connection it ran on and the "as of" it read (null: latest): a result means nothing without them. */
  connection: v.nullable(v.string()),
  asOf: v.nullable(instant),
  rows: v.nullable(v.number()),
  ms: v.nullable(v.number()),
  error: v.nullable(v.string())
})
export type HistoryEntry = v.InferOutput<typeof HistoryEntrySchema>

/** A restore plan as the renderer sees it: the figures and words, a few keys for example (not every key). */
export const RestorePlanViewSchema = shape({
  ...RESTORE_PLAN_FIELDS,
  provider,
  /** The first keys it would restore, for the user to recognise. */
  sample: list(v.string()),
  /** What this kind of connection says of archive classes (GCS: read directly, no restore), or null. */
  note: v.nullable(v.string())
})
export type RestorePlanView = v.InferOutput<typeof RestorePlanViewSchema>

/** Where one key of a restore is: not asked yet, asked (S3 accepted it), S3 says in progress, readable, or failed. */
export const RESTORE_KEY_STATES = ['waiting', 'requested', 'in_progress', 'done', 'failed'] as const
export type RestoreKeyState = (typeof RESTORE_KEY_STATES)[number]

/** The connection's bulk restore (kept in the data folder: it survives a restart). */
export const RestoreJobViewSchema = shape({
  // state: running until every key was done or failed and the listing was brought up to date (endedAt), then done.
  ...JOB_STATUS_FIELDS,
  table: v.nullable(v.string()),
  tier: RestoreTierSchema,
  days: count,
  /** When S3 was last asked how far the restores are (HEAD of each key not done), and when it is asked next. */
  checkedAt: v.nullable(instant),
  nextCheck: v.nullable(instant),
  total: count,
  bytes: count,
  counts: exactly<Readonly<Record<RestoreKeyState, number>>>()(shape({ waiting: count, requested: count, in_progress: count, done: count, failed: count })),
  /** Keys that failed, with why (at most 20). */
  failed: list(shape({ key: v.string(), message: v.string() })),
  /** The last problem met while checking (a network failure: checked again at the next interval), or null. */
  lastError: v.nullable(v.string())
})
export type RestoreJobView = v.InferOutput<typeof RestoreJobViewSchema>

export const RestoreStatusViewSchema = shape({ provider, job: v.nullable(RestoreJobViewSchema), note: v.nullable(v.string()) })
export type RestoreStatusView = v.InferOutput<typeof RestoreStatusViewSchema>

/** Which incident changes the open connection's desktop notifications tell: errors (the default), every change, or none. */
export const NOTIFY_SETTINGS = ['errors', 'all', 'never'] as const
export type NotifySetting = (typeof NOTIFY_SETTINGS)[number]

/** What a follow target is: a webhook (its URL a secret, in the secret store) or a command run as the user. */
export const FOLLOW_TARGET_KINDS = ['webhook', 'command'] as const
export type FollowTargetKind = (typeof FOLLOW_TARGET_KINDS)[number]

/** One thing told to a target: when, what (an incident change's summary, or the test), and its answer or error. */
export const FollowDeliverySchema = shape({ at: instant, summary: v.string(), test: v.boolean(), ok: v.boolean(), answer: v.string() })
export type FollowDelivery = v.InferOutput<typeof FollowDeliverySchema>

/** A target as the renderer sees it: a webhook by its origin and path only (its query may hold a token), a command whole. */
export const FollowTargetViewSchema = shape({
  id: v.string(),
  kind: v.picklist(FOLLOW_TARGET_KINDS),
  name: v.string(),
  /** The changes it was not told yet (failed, told again after the next refresh). */
  pending: count,
  /** The last failure, until a delivery succeeds; null when all is well. */
  problem: v.nullable(v.string()),
  /** The last deliveries, newest first. */
  deliveries: list(FollowDeliverySchema)
})
export type FollowTargetView = v.InferOutput<typeof FollowTargetViewSchema>

/** How the app follows the open connection for the user (issue 22): what its desktop notifications tell, its targets. */
export const FollowSettingsViewSchema = shape({
  connectionId: v.string(),
  notify: v.picklist(NOTIFY_SETTINGS),
  targets: list(FollowTargetViewSchema),
  /** Why a webhook cannot be saved here (no keychain), or null. */
  secretStorage: v.nullable(v.string())
})
export type FollowSettingsView = v.InferOutput<typeof FollowSettingsViewSchema>

/** The open connection's monitor thresholds: the defaults, and those it set for every table (all) and per table. */
export const MonitorThresholdsViewSchema = shape({ connectionId: v.string(), defaults: AllMonitorThresholdsSchema, ...MONITOR_CONFIG_FIELDS })
export type MonitorThresholdsView = v.InferOutput<typeof MonitorThresholdsViewSchema>
