// Schemas of the core's values that travel inside answers (a finding, a parsed manifest, a listed object, a mirrored
// segment, a restore plan's figures): each compiles only while its output is exactly the core's own type.
import * as v from 'valibot'
import type { Version } from '../bucket-key'
import type { MonitorConfig, MonitorThresholds } from '../delivery-monitors'
import { JOB_STATES, type JobStatus } from '../job-state'
import type { ListedObject } from '../listing'
import type { Manifest, ManifestTableEntry } from '../manifest'
import type { LeftOut, MirroredSegment } from '../mirror-plan'
import type { SupersededList } from '../mirror-superseded'
import { RESTORE_TIERS, type RestorePlan } from '../restore-plan'
import { CELL_STATES, type CellState, FINDING_SEVERITY, type Finding, type FindingKind, type ManifestState, type Severity } from '../timeline'
import { count, exactly, instant, list, shape } from './answer-schema'

export const VersionSchema = exactly<Version>()(v.picklist(['v1', 'v2']))
export const CellStateSchema = exactly<CellState>()(v.picklist(CELL_STATES))
export const ManifestStateSchema = exactly<ManifestState>()(v.picklist(['complete', 'incomplete', 'absent', 'malformed', 'not_due']))
export const SeveritySchema = exactly<Severity>()(v.picklist(['error', 'warning', 'info']))
const FINDING_KINDS = Object.keys(FINDING_SEVERITY) as FindingKind[]
export const RestoreTierSchema = v.picklist(RESTORE_TIERS)

/** A job's state and when it started and ended: spread into the schema of each job's view. */
export const JOB_STATUS_FIELDS = { state: v.picklist(JOB_STATES), startedAt: v.nullable(instant), endedAt: v.nullable(instant) }
exactly<JobStatus>()(shape(JOB_STATUS_FIELDS))

const at = v.number()
export const FindingSchema = exactly<Finding>()(
  shape({
    kind: v.picklist(FINDING_KINDS),
    severity: SeveritySchema,
    date: v.nullable(v.string()),
    hour: v.nullable(v.string()),
    table: v.nullable(v.string()),
    key: v.string(),
    message: v.string(),
    resolved: v.nullable(
      v.union([
        shape({ how: v.literal('arrived_late') }),
        shape({ how: v.literal('superseded'), at }),
        shape({ how: v.literal('caught_up'), at }),
        shape({ how: v.literal('resumed'), at })
      ])
    )
  })
)

const extra = v.pipe(v.record(v.string(), v.unknown()), v.readonly())
const ManifestTableEntrySchema = exactly<ManifestTableEntry>()(
  shape({
    name: v.string(),
    known: v.boolean(),
    mode: v.optional(v.string()),
    path: v.optional(v.string()),
    format: v.optional(v.string()),
    files: v.optional(v.number()),
    rows: v.optional(v.number()),
    deliveredThrough: v.optional(v.string()),
    extra
  })
)
export const ManifestSchema = exactly<Manifest>()(
  shape({
    snapshotDate: v.nullable(v.string()),
    snapshotHour: v.nullable(v.string()),
    complete: v.nullable(v.boolean()),
    delivered: list(ManifestTableEntrySchema),
    missing: list(ManifestTableEntrySchema),
    pending: list(ManifestTableEntrySchema),
    extra
  })
)

export const ListedObjectSchema = exactly<ListedObject>()(
  shape({
    key: v.string(),
    size: count,
    lastModified: v.string(),
    etag: v.optional(v.string()),
    storageClass: v.optional(v.string()),
    restore: v.optional(shape({ ongoing: v.boolean(), expiry: v.optional(v.string()) }))
  })
)

const LeftOutSchema = exactly<LeftOut>()(
  shape({ key: v.string(), size: count, storageClass: v.nullable(v.string()), reason: v.optional(v.picklist(['archived', 'unreadable'])) })
)
export const MirroredSegmentSchema = exactly<MirroredSegment>()(
  shape({
    table: v.string(),
    period: v.string(),
    identity: v.string(),
    file: v.string(),
    rows: count,
    bytes: count,
    columns: list(v.string()),
    types: v.pipe(v.record(v.string(), v.string()), v.readonly()),
    columnSets: list(list(v.string())),
    folders: list(
      shape({ prefix: v.string(), order: v.number(), readyAt: v.number(), columnSet: count, leftOut: list(LeftOutSchema), identity: v.optional(v.string()) })
    )
  })
)

export const SupersededListSchema = exactly<SupersededList>()(
  shape({
    table: v.string(),
    parts: list(shape({ file: v.string(), rows: count, bytes: count })),
    newest: v.pipe(v.number(), v.integer()),
    digest: v.string()
  })
)

/** A restore plan's figures and words (all of it but the files: those stay in main). */
export const RESTORE_PLAN_FIELDS = {
  table: v.nullable(v.string()),
  tier: RestoreTierSchema,
  days: count,
  count,
  bytes: count,
  dates: list(v.string()),
  classes: list(shape({ storageClass: v.string(), name: v.string(), count, bytes: count, delay: v.nullable(v.string()) })),
  readDirectly: shape({ count, bytes: count }),
  problem: v.nullable(v.string()),
  summary: v.string()
}
exactly<Omit<RestorePlan, 'files'>>()(shape(RESTORE_PLAN_FIELDS))

/** Each monitor threshold a connection may set, with the range it may take (outside it the monitor says nonsense). */
const threshold = (what: string, min: number, max: number, whole = false) =>
  v.pipe(
    v.number(`${what} must be a number`),
    v.check((x) => !whole || Number.isInteger(x), `${what} must be a whole number`),
    v.minValue(min, `${what} must be from ${min} to ${max}`),
    v.maxValue(max, `${what} must be from ${min} to ${max}`)
  )
const THRESHOLDS = {
  minHistory: threshold('minHistory', 1, 60, true),
  madFactor: threshold('madFactor', 0.5, 20),
  minRelativeBand: threshold('minRelativeBand', 0, 5),
  countNoise: threshold('countNoise', 0, 20),
  maxRatio: threshold('maxRatio', 1, 100),
  days: threshold('days', 1, 60, true),
  trailing: threshold('trailing', 1, 168, true),
  youngRatio: threshold('youngRatio', 1, 100)
}
/** Every threshold (the defaults as main answers them). */
export const AllMonitorThresholdsSchema = exactly<MonitorThresholds>()(shape(THRESHOLDS))
/** Some thresholds (what a connection sets): unknown names refused. */
export const MonitorThresholdsSchema = exactly<Partial<MonitorThresholds>>()(
  v.pipe(
    v.strictObject(
      v.partial(v.object(THRESHOLDS)).entries,
      'thresholds must be an object of minHistory, madFactor, minRelativeBand, countNoise, maxRatio, days, trailing, youngRatio'
    ),
    v.readonly()
  )
)
/** A connection's monitor thresholds' fields: for every table, and per table (its catalog name). */
export const MONITOR_CONFIG_FIELDS = {
  all: v.optional(MonitorThresholdsSchema),
  tables: v.optional(v.pipe(v.record(v.string(), MonitorThresholdsSchema), v.readonly()))
}
export const MonitorConfigSchema = exactly<MonitorConfig>()(shape(MONITOR_CONFIG_FIELDS))
