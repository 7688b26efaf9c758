// The timeline analysis: from a listing, the manifests' texts and "now", every delivery hour's manifest
// state, every table's cell state and the findings, in the one vocabulary of DESIGN.md.
import { type Version, folderPrefix, manifestKey } from './bucket-key'
import { CATALOG, type CatalogTable, qualifiedName } from './catalog'
import { dateOf, hourOf, instantOf, isValidDate, parseInstant } from './dates'
import { deliveryInstant } from './delivery-order'
import { manifestFacts } from './delivery-facts'
import { DEFAULT_MONITOR_THRESHOLDS, type DeliveryFacts, type MonitorConfig, type VolumePoint, monitorDeliveries } from './delivery-monitors'
import { countText } from './counts'
import { lowerBound, upperBound } from './sorted-search'
import { durationText } from './durations'
import { unreadableFileNote } from './bucket-views'
import { type Folder, type Inventory, foldersForLogicalTable, inventoryAt, isReady, unreadableLeftOut } from './inventory'
import { isArchived } from './listing'
import { type ParsedManifest, parseManifest } from './manifest'
import {
  DAY_MS,
  DELIVERED_THROUGH_LAG_MS,
  DUE_AFTER_MS,
  type Era,
  FAILED_AFTER_MS,
  HOURLY_RETENTION_MS,
  HOUR_MS,
  PENDING_CATCH_UP_MS,
  V1_DELIVERY_HOUR,
  eraOf,
  isDeliveryHour
} from './schedule'

export type CellState =
  | 'ready'
  | 'late'
  | 'in_flight'
  | 'failed'
  | 'pending'
  | 'missing'
  | 'pruned'
  | 'no_delivery'
  | 'not_due'
  /** A ready folder with no Parquet file (a full table's copy with no rows). */
  | 'empty'
  /** A ready folder holding a file that cannot be read: a full table passes the copy over, a parts table leaves the file out. */
  | 'unreadable'
  /** A ready folder holding an object in an archive storage class: left out until restored. */
  | 'archived'

/** Every cell state, from the most to the least alarming: a zoomed-out view shows the first one of its hours. */
export const CELL_STATES: readonly CellState[] = [
  'missing',
  'failed',
  'unreadable',
  'pending',
  'archived',
  'empty',
  'late',
  'in_flight',
  'ready',
  'pruned',
  'not_due',
  'no_delivery'
]

/** The states of a folder holding _SUCCESS: delivered, whatever a reader can make of it. */
export const DELIVERED_STATES: readonly CellState[] = ['ready', 'late', 'empty', 'unreadable', 'archived']
/** The states of a usable copy: delivered with data, every file readable and online (the headline's "N usable"). */
export const USABLE_STATES: readonly CellState[] = ['ready', 'late']
/** The states of a copy a full table reads when it is the latest: usable, or ready with no rows. */
const READ_AS_COPY: readonly CellState[] = ['ready', 'late', 'empty']
export type ManifestState = 'complete' | 'incomplete' | 'absent' | 'malformed' | 'not_due'

export type FindingKind =
  | 'missing'
  | 'failed'
  | 'late'
  | 'pending_not_caught_up'
  | 'manifest_mismatch'
  | 'manifest_malformed'
  | 'manifest_absent'
  | 'archived'
  | 'delivered_through_lag'
  /** A key that breaks the layout, or a file no table reads. */
  | 'ignored_key'
  /** A folder dated where its version delivers nothing (a v1 folder after the switch, a v2 folder before it). */
  | 'off_schedule'
  /** The manifest contradicts itself or its key: complete with tables missing, a full table pending, a table in two lists, another hour. */
  | 'manifest_contradiction'
  /** Anything else the manifest parser noted: a table the catalog does not know, a field of the wrong type, an entry it could not read. */
  | 'manifest_warning'
  /** A ready copy of a full table that holds no Parquet file: the table reads as empty, with the previous copy's columns. */
  | 'empty_copy'
  /** A data file a logical table needs that is not readable Parquet (empty, cut short, damaged footer): left out. */
  | 'corrupt_file'
  /** Nothing (no folder, no manifest) for 6 hours or more: one finding for those hours instead of one `missing` per table and hour. */
  | 'feed_stopped'
  /** A delivery's rows or bytes far from the table's own recent history (delivery-monitors.ts). */
  | 'volume_anomaly'
  /** A column added (info), dropped or retyped (warning) between a table's consecutive deliveries, said once. */
  | 'schema_change'

export type Severity = 'error' | 'warning' | 'info'

export const FINDING_SEVERITY: Readonly<Record<FindingKind, Severity>> = {
  missing: 'error',
  failed: 'error',
  pending_not_caught_up: 'error',
  corrupt_file: 'error',
  feed_stopped: 'error',
  late: 'warning',
  manifest_mismatch: 'warning',
  manifest_malformed: 'warning',
  manifest_absent: 'warning',
  archived: 'warning',
  delivered_through_lag: 'warning',
  manifest_contradiction: 'warning',
  manifest_warning: 'warning',
  empty_copy: 'warning',
  volume_anomaly: 'warning',
  /** The worst it can be: an added column is said as 'info' on the finding itself. */
  schema_change: 'warning',
  ignored_key: 'info',
  off_schedule: 'info'
}

export interface Finding {
  readonly kind: FindingKind
  readonly severity: Severity
  /** Delivery date (or "__initial__"); null when the finding belongs to no delivery. */
  readonly date: string | null
  readonly hour: string | null
  /** The catalog's table name; null for a finding about a whole hour or an unknown key. */
  readonly table: string | null
  /** The bucket key behind it: a folder (ending "/"), a file or a manifest. */
  readonly key: string
  readonly message: string
  /** Null while open; else how it resolved, decided from the whole history (never from what a view shows). */
  readonly resolved: Resolution | null
}

/** How a finding resolved: it was only late; a later copy of the full table is read instead; a later delivery of the
 * parts table brought its rows (its delivered_through reached the hour); the feed resumed after a stop. `at` is that later hour (UTC ms). */
export type Resolution =
  | { readonly how: 'arrived_late' }
  | { readonly how: 'superseded'; readonly at: number }
  | { readonly how: 'caught_up'; readonly at: number }
  | { readonly how: 'resumed'; readonly at: number }

/** "As of about the start of the hour": how far before it a later delivered_through may stop and still cover the hour. */
const CAUGHT_UP_SLACK_MS = 5 * 60_000

/** A feed that delivered nothing (no folder, no manifest) for this long is one `feed_stopped`. */
export const FEED_STOPPED_AFTER_MS = 6 * HOUR_MS

export interface TimelineHour {
  readonly start: number
  readonly date: string
  readonly hour: string
  readonly era: Era
  /** Null for hours when no delivery was scheduled (v1's other hours, the switch gap). */
  readonly manifest: ManifestState | null
  readonly manifestKey: string | null
  readonly manifestWarnings: readonly string[]
  /** Cell state per catalog table name. */
  readonly cells: Readonly<Record<string, CellState>>
}

export interface Timeline {
  readonly version: Version
  readonly hours: readonly TimelineHour[]
  readonly findings: readonly Finding[]
  /** Each table's deliveries (catalog name) beside their usual band, oldest first: the volume chart's and the
   * inspector's figures (delivery-monitors.ts), every delivery the footers or manifests gave, not only the range's. */
  readonly volumes: ReadonlyMap<string, readonly VolumePoint[]>
}

/** A manifest's text, or why it could not be read. */
export type ManifestText = string | { readonly error: string }

export interface TimelineOptions {
  readonly now: number
  /** First hour (UTC ms); default: the day of the earliest dated folder or manifest. */
  readonly from?: number
  /** Last hour (UTC ms), inclusive; default and upper bound: the hour holding `now`. */
  readonly to?: number
  /** Parsed manifests kept between analyses (by key and text): a refresh parses only what is new. */
  readonly parsedCache?: Map<string, { readonly text: ManifestText | undefined; readonly parsed: ParsedManifest }>
  /** Data files found not to be readable Parquet, by key (main checks their frame): each one a logical table needs is a `corrupt_file`. */
  readonly unreadable?: ReadonlySet<string>
  /** Why each is not readable, in the finding's words when known ("its footer claims 16777225 bytes, more than the 8 MiB allowed"). */
  readonly unreadableWhy?: ReadonlyMap<string, string>
  /** Each table's deliveries from their footers (delivery-facts.ts): judged by the volume and schema monitors. */
  readonly deliveries?: readonly DeliveryFacts[]
  /** The monitors' thresholds (defaults, and per table). */
  readonly monitors?: MonitorConfig
}

const floorHour = (t: number): number => Math.floor(t / HOUR_MS) * HOUR_MS
const cellKey = (table: string, instant: number): string => `${table}|${instant}`
const fmtTime = (t: number): string => new Date(t).toISOString().slice(11, 16)

/** The prefix that delivers in an era (none in the switch gap). */
export function expectedVersion(era: Era): Version | null {
  return era === 'v1' ? 'v1' : era === 'v2' ? 'v2' : null
}

interface Index {
  /** Folder of each (table, delivery hour), only where its version delivers in that era. */
  readonly cells: Map<string, Folder>
  /** Full tables: the latest hour of each day holding a ready copy, by "table|date". */
  readonly lastReadyOfDay: Map<string, number>
  /** Parts tables: sorted hours with a ready folder, by table. */
  readonly readyHours: Map<string, number[]>
  readonly offSchedule: Folder[]
  readonly earliest: number | null
}

function buildIndex(inv: Inventory): Index {
  const cells = new Map<string, Folder>()
  const lastReadyOfDay = new Map<string, number>()
  const readyHours = new Map<string, number[]>()
  const offSchedule: Folder[] = []
  let earliest: number | null = null
  for (const f of inv.folders.values()) {
    const at = deliveryInstant(f.ref)
    if (at === null || !f.ref.catalog) continue
    earliest = earliest === null ? at : Math.min(earliest, at)
    if (expectedVersion(eraOf(at)) !== f.ref.version || !isDeliveryHour(at)) {
      offSchedule.push(f)
      continue
    }
    const table = f.ref.table
    cells.set(cellKey(table, at), f)
    if (!isReady(f)) continue
    if (f.ref.mode === 'full') {
      const dk = `${table}|${f.ref.partition.date}`
      lastReadyOfDay.set(dk, Math.max(lastReadyOfDay.get(dk) ?? -Infinity, at))
    } else {
      const list = readyHours.get(table) ?? []
      list.push(at)
      readyHours.set(table, list)
    }
  }
  for (const list of readyHours.values()) list.sort((a, b) => a - b)
  for (const m of inv.manifests.values()) {
    const at = instantOf(m.ref.date, m.ref.hour ?? 7)
    earliest = earliest === null ? at : Math.min(earliest, at)
  }
  return { cells, lastReadyOfDay, readyHours, offSchedule, earliest }
}

function readManifest(key: string, text: ManifestText | undefined, version: Version, date: string, hour: string | null): ParsedManifest {
  if (text === undefined) return { state: 'malformed', manifest: null, warnings: ['listed but not read; refresh to read it'], issues: [] }
  if (typeof text !== 'string') return { state: 'malformed', manifest: null, warnings: [`could not be read: ${text.error}`], issues: [] }
  return parseManifest(text, { version, date, hour: version === 'v1' ? null : hour })
}

/** A manifest parsed once per text: from the cache when its text is the same, else parsed and kept there. */
function cachedManifest(
  cache: TimelineOptions['parsedCache'],
  key: string,
  text: ManifestText | undefined,
  version: Version,
  date: string,
  hour: string | null
): ParsedManifest {
  const cached = cache?.get(key)
  if (cached && cached.text === text) return cached.parsed
  const parsed = readManifest(key, text, version, date, hour)
  cache?.set(key, { text, parsed })
  return parsed
}

export function analyzeTimeline(listed: Inventory, manifestTexts: ReadonlyMap<string, ManifestText>, opts: TimelineOptions): Timeline {
  const { now } = opts
  // Objects written after `now` do not exist yet: no _SUCCESS, manifest or folder from the future.
  const inv = inventoryAt(listed, now)
  const idx = buildIndex(inv)
  const last = Math.min(floorHour(opts.to ?? now), floorHour(now))
  // Nothing was due before the export's first delivery: the timeline starts on that day at the earliest, and the
  // hours of that day before the first delivery are no delivery.
  const firstDelivery = idx.earliest ?? -Infinity
  const firstDay = idx.earliest !== null ? instantOf(dateOf(idx.earliest)) : null
  const first = opts.from !== undefined ? Math.max(floorHour(opts.from), firstDay ?? -Infinity) : (firstDay ?? last + HOUR_MS)
  const hours: TimelineHour[] = []
  const findings: Finding[] = []
  const inRange = (t: number | null): boolean => t === null || (t >= first && t <= last)
  const add = (kind: FindingKind, date: string | null, hour: string | null, table: string | null, key: string, message: string): void => {
    findings.push({ kind, severity: FINDING_SEVERITY[kind], date, hour, table, key, message, resolved: null })
  }
  /** Due delivery hours where nothing at all arrived (no folder of any table, no manifest), in order. */
  const silent: number[] = []
  /** Rows each ready folder's manifest gives (by folder prefix): checked against the footers by the monitors. */
  const manifestRows = new Map<string, number>()
  /** Parts tables: each ready delivery's `delivered_through` (UTC ms) from its manifest, by table, in hour order. */
  const through = new Map<string, { readonly at: number; readonly through: number }[]>()

  for (let t = first; t <= last; t += HOUR_MS) {
    const date = dateOf(t)
    const hour = hourOf(t)
    const era = eraOf(t)
    const cells: Record<string, CellState> = {}
    if (!isDeliveryHour(t) || t < firstDelivery) {
      for (const c of CATALOG) cells[c.table] = 'no_delivery'
      hours.push({ start: t, date, hour, era, manifest: null, manifestKey: null, manifestWarnings: [], cells })
      continue
    }
    const version = expectedVersion(era) as Version
    const due = now >= t + DUE_AFTER_MS
    const mKey = manifestKey(version, date, version === 'v1' ? null : hour)
    const listed = inv.manifests.has(mKey)
    const text = listed ? manifestTexts.get(mKey) : undefined
    const parsed = listed ? cachedManifest(opts.parsedCache, mKey, text, version, date, hour) : null
    const manifestState: ManifestState = parsed ? parsed.state : due ? 'absent' : 'not_due'
    const m = parsed?.manifest ?? null
    const listedIn = (list: 'delivered' | 'missing' | 'pending', c: CatalogTable) => m?.[list].find((e) => e.name === qualifiedName(c))
    if (manifestState === 'malformed')
      add(
        'manifest_malformed',
        date,
        hour,
        null,
        mKey,
        `The manifest ${mKey} cannot be used: ${parsed?.warnings.join('; ')}. Cell states come from the folders alone; tell the vendor.`
      )
    if (parsed && manifestState !== 'malformed') {
      for (const issue of parsed.issues) {
        const kind = issue.kind === 'contradiction' ? 'manifest_contradiction' : 'manifest_warning'
        add(
          kind,
          date,
          hour,
          issue.table,
          mKey,
          `${mKey}: ${issue.message}. ${kind === 'manifest_contradiction' ? 'The folders and the lists are read the safe way; tell the vendor the manifest contradicts itself.' : 'Nothing else is affected; tell the vendor if it persists.'}`
        )
      }
    }
    if (manifestState === 'absent')
      add(
        'manifest_absent',
        date,
        hour,
        null,
        mKey,
        `No manifest at ${mKey}, ${durationText(now - t)} after the hour began. Cell states come from the folders alone.`
      )

    if (due && !listed && CATALOG.every((c) => !idx.cells.has(cellKey(c.table, t)))) silent.push(t)
    for (const c of CATALOG) {
      const folder = idx.cells.get(cellKey(c.table, t))
      const prefix = folder?.ref.prefix ?? folderPrefix(c, version, date, version === 'v1' ? null : hour)
      let state: CellState
      // The manifest's word: a table it lists as pending or missing is that, even beside a folder still without
      // _SUCCESS (a full table cannot be pending: listed so, it is missing).
      const saysPending = listedIn('pending', c) !== undefined
      const saysMissing = listedIn('missing', c) !== undefined || (c.mode === 'full' && saysPending)
      const partial = folder && !folder.marker ? ` ${folder.ref.prefix} exists without _SUCCESS and is never read.` : ''
      if (folder && isReady(folder)) {
        const at = Date.parse(folder.marker.lastModified)
        const late = at > t + DUE_AFTER_MS
        state = readyFolderState(folder, c, late, now, opts.unreadable)
        if (late)
          add(
            'late',
            date,
            hour,
            c.table,
            folder.marker.key,
            `_SUCCESS was written at ${fmtTime(at)} UTC, ${durationText(at - t)} after the hour began (due within 40 min). The data is complete; only its arrival was late.`
          )
        if (c.mode === 'full' && folder.dataFiles.length === 0) {
          add(
            'empty_copy',
            date,
            hour,
            c.table,
            folder.ref.prefix,
            `${folder.ref.prefix} is ready (_SUCCESS) but holds no Parquet file: while it is the latest copy, ${qualifiedName(c)} reads as a table with no rows, with the columns of the previous copy that has files. Ask the vendor whether the table was really empty.`
          )
        }
      } else if (c.mode === 'parts' && saysPending) {
        state = 'pending'
        const caughtUp = (idx.readyHours.get(c.table) ?? []).find((h) => h > t)
        if ((caughtUp === undefined || caughtUp > t + PENDING_CATCH_UP_MS) && now >= t + PENDING_CATCH_UP_MS) {
          const when =
            caughtUp === undefined ? 'and no later hour has delivered it yet' : `and it was only caught up at ${dateOf(caughtUp)} ${hourOf(caughtUp)}:00`
          add(
            'pending_not_caught_up',
            date,
            hour,
            c.table,
            mKey,
            `The manifest lists ${c.table} as pending, ${when}: more than 6 hours.${partial} Its newest rows are not in the logical table; ask the vendor.`
          )
        }
      } else if (saysMissing) {
        state = 'missing'
        const list = listedIn('missing', c) ? 'tables_missing' : 'tables_pending (a table delivered in full cannot be pending)'
        const head = folder
          ? `${prefix} has no _SUCCESS and the hour's manifest lists it in ${list}: it is missing.`
          : `${prefix} is missing: the hour's manifest lists it in ${list}.`
        add(
          'missing',
          date,
          hour,
          c.table,
          prefix,
          `${head} ${c.mode === 'full' ? 'The previous ready hour stays the latest copy.' : 'Its rows should come in a later hour.'} If no later hour brings it, ask the vendor.`
        )
      } else if (folder) {
        if (now < t + FAILED_AFTER_MS) {
          state = 'in_flight'
        } else {
          state = 'failed'
          add(
            'failed',
            date,
            hour,
            c.table,
            prefix,
            `${prefix} has no _SUCCESS ${durationText(now - t)} after its hour began: the delivery failed and the folder is never read. The previous ready copy stays in use; report it to the vendor if no later hour makes up for it.`
          )
        }
      } else if (!due) {
        state = 'not_due'
      } else if (c.mode === 'full' && era === 'v2' && t < now - HOURLY_RETENTION_MS && (idx.lastReadyOfDay.get(`${c.table}|${date}`) ?? -Infinity) > t) {
        state = 'pruned'
      } else {
        state = 'missing'
        const why = listedIn('delivered', c) ? ' although the manifest lists it as delivered' : ''
        add(
          'missing',
          date,
          hour,
          c.table,
          prefix,
          `${prefix} is missing${why}: no folder, and neither retention, the switch gap nor the manifest explains it. ${c.mode === 'full' ? 'The previous ready hour stays the latest copy.' : 'Check whether a later hour brought its rows.'} Ask the vendor.`
        )
      }
      cells[c.table] = state
      const dt = c.mode === 'parts' && DELIVERED_STATES.includes(state) ? listedIn('delivered', c)?.deliveredThrough : undefined
      if (dt !== undefined && !Number.isNaN(parseInstant(dt))) through.set(c.table, [...(through.get(c.table) ?? []), { at: t, through: parseInstant(dt) }])

      if (m) checkManifestEntry(c, state, folder, prefix, mKey, t, date, hour, m, add)
      const saidRows = m?.delivered.find((e) => e.name === qualifiedName(c))?.rows
      if (folder && saidRows !== undefined) manifestRows.set(folder.ref.prefix, saidRows)
    }
    hours.push({
      start: t,
      date,
      hour,
      era,
      manifest: manifestState,
      manifestKey: parsed || due ? mKey : null,
      manifestWarnings: parsed?.warnings ?? [],
      cells
    })
  }

  for (const f of idx.offSchedule) {
    const at = deliveryInstant(f.ref)
    if (!inRange(at)) continue
    add(
      'off_schedule',
      f.ref.partition.date,
      f.ref.partition.hour,
      f.ref.table,
      f.ref.prefix,
      `${f.ref.prefix} is dated where ${f.ref.version}/ delivers nothing (v1/ receives nothing after Nov 2, 2026; v2/ starts Nov 3, 2026 03:00 UTC). It is not shown on the timeline.`
    )
  }
  // What a logical table leaves out now is said whatever the range: an archived or unreadable file of last month
  // still makes the table incomplete today.
  archivedFindings(inv, now, add)
  if (opts.unreadable && opts.unreadable.size > 0) unreadableFindings(inv, opts.unreadable, opts.unreadableWhy, add)
  for (const { object, folder, reason } of inv.ignored) {
    if (inRange(deliveryInstant(folder)))
      add(
        'ignored_key',
        folder.partition.date,
        folder.partition.hour,
        folder.table,
        object.key,
        `${object.key}: ${reason}. Nothing to do unless you expected it to be read.`
      )
  }
  for (const { object, reason } of inv.unrecognized)
    add('ignored_key', null, null, null, object.key, `${object.key} does not fit the export's layout (${reason}); it is not read.`)

  const history = new History(idx, now, opts.unreadable)
  const stopped = feedStopped(silent, history, now)
  const folded = foldStoppedHours(findings, stopped)
  for (const run of stopped) {
    const last = run.resumedAt === null ? null : run.resumedAt
    const since = lastBefore(history.readyArrivals, run.from)
    folded.push({
      kind: 'feed_stopped',
      severity: FINDING_SEVERITY.feed_stopped,
      date: dateOf(run.from),
      hour: hourOf(run.from),
      table: null,
      key: manifestKey(expectedVersion(eraOf(run.from)) ?? 'v2', dateOf(run.from), eraOf(run.from) === 'v1' ? null : hourOf(run.from)),
      message:
        `Nothing arrived ${since === null ? 'at all' : `after the delivery of ${hourWords(since)}`}: no folder and no manifest for ${countText(run.hours, 'delivery hour')} ` +
        `(${hourWords(run.from)} to ${hourWords(run.to)}${last === null ? ', and still nothing' : `; deliveries resumed at ${hourWords(last)}`}). ` +
        (last === null
          ? 'The export has stopped: ask the vendor whether it is running. Each table and hour is not listed one by one.'
          : 'Check that the parts tables caught up (their delivered_through); full tables read their newest copy.'),
      resolved: last === null ? null : { how: 'resumed', at: last }
    })
  }
  historyManifestRows(inv, manifestTexts, opts, first, manifestRows)
  const monitored = deliveryMonitors(inv, opts, manifestRows)
  folded.push(...monitored.findings.filter((f) => inRange(findingHour(f))))
  const resolvedFindings = folded.map((f) => (f.resolved ? f : { ...f, resolved: resolutionOf(f, idx, history, through) }))
  resolvedFindings.sort(
    (a, b) =>
      (a.date ?? '').localeCompare(b.date ?? '') ||
      (a.hour ?? '').localeCompare(b.hour ?? '') ||
      (a.table ?? '').localeCompare(b.table ?? '') ||
      a.kind.localeCompare(b.kind)
  )
  return { version: inv.version, hours, findings: resolvedFindings, volumes: monitored.volumes }
}

const hourWords = (t: number): string => `${dateOf(t)} ${hourOf(t)}:00 UTC`

interface StoppedRun {
  readonly from: number
  /** The last silent hour of the run. */
  readonly to: number
  readonly hours: number
  /** The next delivery hour where something arrived, or null while the feed is still stopped. */
  readonly resumedAt: number | null
}

/** Runs of silent delivery hours lasting 6 hours or more (to the next hour that delivered, or to now). */
function feedStopped(silent: readonly number[], history: History, now: number): StoppedRun[] {
  const runs: StoppedRun[] = []
  let i = 0
  while (i < silent.length) {
    const from = silent[i] as number
    let j = i
    // Consecutive delivery hours: nothing delivered in between (a v1 day's other hours deliver nothing anyway).
    while (j + 1 < silent.length && nextDeliveryHour(silent[j] as number) === silent[j + 1]) j++
    const to = silent[j] as number
    const resumedAt = firstAfter(history.arrivals, to)
    const end = resumedAt ?? now
    if (end - from >= FEED_STOPPED_AFTER_MS) runs.push({ from, to, hours: j - i + 1, resumedAt })
    i = j + 1
  }
  return runs
}

function nextDeliveryHour(t: number): number {
  let u = t + HOUR_MS
  while (!isDeliveryHour(u)) u += HOUR_MS
  return u
}

/** Drops the per-table `missing` and per-hour `manifest_absent` findings of the stopped runs' hours (one finding says them). */
function foldStoppedHours(findings: readonly Finding[], runs: readonly StoppedRun[]): Finding[] {
  if (runs.length === 0) return [...findings]
  const inRun = (t: number | null): boolean => t !== null && runs.some((r) => t >= r.from && t <= r.to)
  return findings.filter((f) => !((f.kind === 'missing' || f.kind === 'manifest_absent') && inRun(findingHour(f))))
}

/**
 * The rows the manifests of the hours just before the range give (as far back as the monitors' history reaches): a
 * range that starts late (doctor --since, the CLI timeline's 48 hours) still judges its first deliveries against
 * the copies before it, whose footers are not read. Into `rows`, by folder prefix, for ready folders only.
 */
function historyManifestRows(inv: Inventory, texts: ReadonlyMap<string, ManifestText>, opts: TimelineOptions, first: number, rows: Map<string, number>): void {
  const c = opts.monitors
  const days = Math.max(DEFAULT_MONITOR_THRESHOLDS.days, c?.all?.days ?? 0, ...Object.values(c?.tables ?? {}).map((t) => t.days ?? 0))
  const from = first - (days + 1) * DAY_MS
  for (const [key, { ref }] of inv.manifests) {
    if (!isValidDate(ref.date)) continue
    const t = instantOf(ref.date, ref.hour ?? V1_DELIVERY_HOUR)
    if (t < from || t >= first) continue
    const text = texts.get(key)
    if (typeof text !== 'string') continue
    const parsed = cachedManifest(opts.parsedCache, key, text, ref.version, ref.date, ref.hour)
    for (const e of parsed.manifest?.delivered ?? []) {
      const table = CATALOG.find((x) => qualifiedName(x) === e.name)
      if (!table || e.rows === undefined) continue
      const folder = inv.folders.get(folderPrefix(table, ref.version, ref.date, ref.version === 'v1' ? null : ref.hour))
      if (folder && isReady(folder) && !rows.has(folder.ref.prefix)) rows.set(folder.ref.prefix, e.rows)
    }
  }
}

/** The volume and schema monitors over the deliveries the bucket held at `now` (with the rows their hour's manifest
 * gives, for the hours in range), each layout's apart (a v1 daily
 * folder and a v2 hourly one hold different spans of rows: one is no history for the other). */
function deliveryMonitors(
  inv: Inventory,
  opts: TimelineOptions,
  manifestRows: ReadonlyMap<string, number>
): { findings: Finding[]; volumes: Map<string, VolumePoint[]> } {
  const fromFooters = (opts.deliveries ?? []).filter((d) => inv.folders.has(d.key)).map((d) => ({ ...d, manifestRows: manifestRows.get(d.key) ?? null }))
  const held = [...fromFooters, ...manifestFacts(inv, manifestRows, new Set(fromFooters.map((d) => d.key)), opts.unreadable)]
  const isFull = (table: string): boolean => CATALOG.find((c) => c.table === table)?.mode !== 'parts'
  const findings: Finding[] = []
  const volumes = new Map<string, VolumePoint[]>()
  for (const v of ['v1/', 'v2/'] as const) {
    const m = monitorDeliveries(
      held.filter((d) => d.key.startsWith(v)),
      { isFull, ...(opts.monitors ? { config: opts.monitors } : {}) }
    )
    findings.push(...m.findings)
    for (const [table, points] of m.volumes) volumes.set(table, [...(volumes.get(table) ?? []), ...points])
  }
  return { findings, volumes }
}

/** How a finding resolved, from the whole history: a full table's problem by a later copy it reads, a parts table's
 * missing or pending rows by a later delivery whose delivered_through covers the hour (a pending table by its next
 * ready delivery, as the manifest promised), a late arrival by itself. Null while open. */
function resolutionOf(
  f: Finding,
  idx: Index,
  history: History,
  through: ReadonlyMap<string, readonly { readonly at: number; readonly through: number }[]>
): Resolution | null {
  if (f.kind === 'late') return { how: 'arrived_late' }
  const t = findingHour(f)
  const c = f.table === null ? undefined : CATALOG.find((x) => x.table === f.table)
  if (t === null || !c) return null
  if (c.mode === 'full') {
    if (!['missing', 'failed', 'empty_copy', 'corrupt_file', 'manifest_mismatch', 'archived'].includes(f.kind)) return null
    const next = history.nextCopyRead(c, t)
    return next === null ? null : { how: 'superseded', at: next }
  }
  if (f.kind === 'pending_not_caught_up') {
    const next = firstAfter(idx.readyHours.get(c.table) ?? [], t)
    return next === null ? null : { how: 'caught_up', at: next }
  }
  if (f.kind === 'missing' || f.kind === 'failed' || f.kind === 'delivered_through_lag') {
    // A delivery holds the rows as of about the start of its hour: a later one delivered through that moment brings them.
    const later = (through.get(c.table) ?? []).find((x) => x.at > t && x.through >= t - CAUGHT_UP_SLACK_MS)
    return later === undefined ? null : { how: 'caught_up', at: later.at }
  }
  return null
}

/** Sorted lists over the whole history, built once per analysis: what the resolutions and the stopped feed look up. */
class History {
  private readonly copies = new Map<string, number[]>()
  /** Delivery hours at which some table's folder exists, ascending (a folder without _SUCCESS arrived too). */
  readonly arrivals: readonly number[]
  /** Delivery hours at which some table's folder is ready, ascending. */
  readonly readyArrivals: readonly number[]

  constructor(
    private readonly idx: Index,
    private readonly now: number,
    private readonly unreadable: ReadonlySet<string> | undefined
  ) {
    const all = new Set<number>()
    const ready = new Set<number>()
    for (const f of idx.cells.values()) {
      const at = deliveryInstant(f.ref) as number
      all.add(at)
      if (isReady(f)) ready.add(at)
    }
    this.arrivals = [...all].sort((a, b) => a - b)
    this.readyArrivals = [...ready].sort((a, b) => a - b)
  }

  /** The first hour after `t` holding a copy the full table reads when it is the latest (ready, every file readable and online). */
  nextCopyRead(c: CatalogTable, t: number): number | null {
    let list = this.copies.get(c.table)
    if (!list) {
      list = []
      for (const f of this.idx.cells.values())
        if (f.ref.table === c.table && isReady(f) && READ_AS_COPY.includes(readyFolderState(f, c, false, this.now, this.unreadable)))
          list.push(deliveryInstant(f.ref) as number)
      list.sort((a, b) => a - b)
      this.copies.set(c.table, list)
    }
    return firstAfter(list, t)
  }
}

/** The first value of an ascending list greater than `t`, or null. */
const firstAfter = (list: readonly number[], t: number): number | null => list[upperBound(list, t)] ?? null

/** The last value of an ascending list less than `t`, or null. */
const lastBefore = (list: readonly number[], t: number): number | null => list[lowerBound(list, t) - 1] ?? null

/** A ready folder's state: the one that matters most to a reader of the table (unreadable, archived, empty, late, ready). */
function readyFolderState(folder: Folder, c: CatalogTable, late: boolean, now: number, unreadable: ReadonlySet<string> | undefined): CellState {
  if (unreadable && folder.dataFiles.some((o) => unreadable.has(o.key))) return 'unreadable'
  if (folder.dataFiles.some((o) => isArchived(o, now))) return 'archived'
  if (c.mode === 'full' && folder.dataFiles.length === 0) return 'empty'
  return late ? 'late' : 'ready'
}

type Add = (kind: FindingKind, date: string | null, hour: string | null, table: string | null, key: string, message: string) => void

function checkManifestEntry(
  c: CatalogTable,
  state: CellState,
  folder: Folder | undefined,
  prefix: string,
  mKey: string,
  t: number,
  date: string,
  hour: string,
  m: NonNullable<ParsedManifest['manifest']>,
  add: Add
): void {
  const name = qualifiedName(c)
  const delivered = m.delivered.find((e) => e.name === name)
  const saysAbsent = m.missing.some((e) => e.name === name) || m.pending.some((e) => e.name === name)
  const ready = DELIVERED_STATES.includes(state)
  if (!delivered && !saysAbsent) {
    add('manifest_mismatch', date, hour, c.table, mKey, `${mKey} does not mention ${name} in tables_delivered, tables_missing or tables_pending.`)
    return
  }
  if (saysAbsent && ready) {
    add(
      'manifest_mismatch',
      date,
      hour,
      c.table,
      mKey,
      `${mKey} lists ${name} as not delivered, yet ${prefix} is ready. The folder is read; the manifest is wrong.`
    )
  }
  if (delivered && (state === 'missing' || state === 'failed')) {
    const what = folder ? 'has no _SUCCESS' : 'does not exist'
    add(
      'manifest_mismatch',
      date,
      hour,
      c.table,
      mKey,
      `${mKey} lists ${name} as delivered, but ${prefix} ${what}. The previous ready copy stays in use; tell the vendor the manifest is wrong.`
    )
  }
  if (!delivered || !folder || !ready) return
  if (delivered.path !== undefined && delivered.path !== folder.ref.prefix) {
    add('manifest_mismatch', date, hour, c.table, mKey, `${mKey} gives ${name}'s path as ${delivered.path}, but it was delivered at ${folder.ref.prefix}.`)
  }
  if (delivered.files !== undefined && delivered.files !== folder.dataFiles.length) {
    add(
      'manifest_mismatch',
      date,
      hour,
      c.table,
      prefix,
      `${mKey} says ${name} has ${countText(delivered.files, 'file')}, but ${prefix} holds ${countText(folder.dataFiles.length, 'Parquet file')}. A file may be missing: compare with the vendor.`
    )
  }
  if (c.mode === 'parts' && delivered.deliveredThrough !== undefined) {
    const through = parseInstant(delivered.deliveredThrough)
    if (t - through > DELIVERED_THROUGH_LAG_MS) {
      add(
        'delivered_through_lag',
        date,
        hour,
        c.table,
        mKey,
        `${name} was delivered only through ${new Date(through).toISOString().slice(0, 19).replace('T', ' ')} UTC, ${durationText(t - through)} before its hour began: recent rows are not in yet.`
      )
    }
  }
}

function archivedFindings(inv: Inventory, now: number, add: Add): void {
  for (const c of CATALOG) {
    for (const f of foldersForLogicalTable(inv, c)) {
      const archived = f.dataFiles.filter((o) => isArchived(o, now))
      if (archived.length === 0) continue
      const cls = [...new Set(archived.map((o) => o.storageClass))].join(', ')
      add(
        'archived',
        f.ref.partition.date,
        f.ref.partition.hour,
        c.table,
        archived[0]?.key ?? f.ref.prefix,
        `${archived.length} of ${countText(f.dataFiles.length, 'file')} in ${f.ref.prefix} ${archived.length === 1 ? 'is' : 'are'} in ${cls} and cannot be read until restored, so ${qualifiedName(c)} lacks the rows of ${archived.length === 1 ? 'that file' : 'those files'} until then. Restore ${archived.length === 1 ? 'it' : 'them'} (Tables → Restore…, or S3 RestoreObject) and wait for the restore to finish.`
      )
    }
  }
}

/** One `corrupt_file` per unreadable file a logical table needs (a full table's copies passed over, a parts table's files
 * left out), at its folder's hour, saying what the table reads instead. */
function unreadableFindings(inv: Inventory, unreadable: ReadonlySet<string>, why: ReadonlyMap<string, string> | undefined, add: Add): void {
  for (const c of CATALOG) {
    const out = unreadableLeftOut(inv, c, { unreadable })
    const files = [...out.copies.flatMap((x) => x.files.map((o) => ({ o, folder: x.folder }))), ...out.files.map((o) => ({ o, folder: folderOf(inv, o.key) }))]
    if (files.length === 0) continue
    const note = unreadableFileNote(inv, c, out, { unreadable }) ?? ''
    for (const { o, folder } of files) {
      if (!folder) continue
      add(
        'corrupt_file',
        folder.ref.partition.date,
        folder.ref.partition.hour,
        c.table,
        o.key,
        `${o.key} is not a readable Parquet file (${why?.get(o.key) ?? (o.size === 0 ? 'zero bytes' : 'cut short, or its footer or pages are damaged')}). ${note}`
      )
    }
  }
}

function folderOf(inv: Inventory, key: string): Folder | undefined {
  return inv.folders.get(key.slice(0, key.lastIndexOf('/') + 1))
}

/** findingHour's answers by date and hour: a year holds 8,784 of them, and a broken year tens of thousands of findings,
 * each read by several views of the timeline (a date's check and parse was a tenth of the year's drawing). */
const hourOfFinding = new Map<string, number | null>()

/** The timeline hour a finding belongs to (a v1 date's delivery hour when it has none), or null. */
export function findingHour(f: Pick<Finding, 'date' | 'hour'>): number | null {
  if (f.date === null) return null
  const id = f.hour === null ? f.date : `${f.date}|${f.hour}`
  const known = hourOfFinding.get(id)
  if (known !== undefined) return known
  const t = isValidDate(f.date) ? instantOf(f.date, f.hour ?? V1_DELIVERY_HOUR) : null
  if (hourOfFinding.size >= 100_000) hourOfFinding.clear()
  hourOfFinding.set(id, t)
  return t
}
