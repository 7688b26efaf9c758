// The generator's model of a bucket: which deliveries happened, which faults were planted, which rows and
// row versions went into which folder, and (from that model alone, never from the core) the truth that a
// correct reader must find: expected.json.
import { type CellValue, DEMO_TABLES, type DemoTable, TENANTS, plausibleValue, sentence } from './demo-tables'
import { Random } from './random'
import { tablePrefix } from '../../shared/bucket-key'
import { lowerBound } from '../../shared/sorted-search'

const HOUR = 3_600_000
const MIN = 60_000
const DAY = 24 * HOUR
/** The vendor's switch: last v1 daily delivery and first v2 hourly delivery (spec, "The switch"). */
const LAST_V1 = Date.UTC(2026, 10, 2, 7)
const FIRST_V2 = Date.UTC(2026, 10, 3, 3)

export interface DemoOptions {
  readonly seed: number
  /** Days of hourly v2 deliveries (at least 8, so that 7-day retention has pruned something). */
  readonly days: number
  /** Multiplies row counts. */
  readonly scale: number
  /** Daily v1 deliveries before the switch (at least 3). */
  readonly v1Days: number
  /** The export's first delivery (a v2 hour, UTC ms): nothing exists before it, and everything that arrived
   * before it comes in it. Absent: the export starts with v1's __initial__ load. */
  readonly start?: number
  /** Plant the monitors' anomalies once written (plant-anomalies.ts): a shrunken full copy, an hour with no rows, a
   * dropped column. Absent: a clean bucket, in which the monitors find only the schema changes planned here. */
  readonly anomalies?: boolean
}

export const DEFAULT_DEMO_OPTIONS: DemoOptions = { seed: 7, days: 10, scale: 1, v1Days: 5 }

type Status = 'ok' | 'absent' | 'missing_declared' | 'pending' | 'failed' | 'in_flight' | 'pruned' | 'empty' | 'before_start'

/** Delivered and ready (an empty copy is ready too: _SUCCESS, no file). */
const isReadyStatus = (s: Status): boolean => s === 'ok' || s === 'empty'

export interface Delivery {
  readonly index: number
  readonly kind: 'initial' | 'v1' | 'v2'
  /** Data as of this instant; for v1 and v2 also the delivery hour's start. */
  readonly cutoff: number
  readonly date: string
  readonly hour: string | null
  /** v2 hour number from the first v2 delivery. */
  readonly h: number | null
}

export interface FileWrite {
  readonly key: string
  /** Full tables: rows created before the folder's cutoff, part k of n; parts tables: rows assigned to this file. */
  readonly part: number
  readonly parts: number
  readonly mtime: number
}

export interface FolderWrite {
  readonly table: DemoTable
  readonly delivery: Delivery
  readonly prefix: string
  readonly files: FileWrite[]
  readonly marker: number | null
  /** Columns written (a column added later is absent from earlier files). */
  readonly columns: readonly string[]
  /** Columns written with another type than the table's (a type that changed part-way). */
  readonly casts: Readonly<Record<string, string>>
}

export interface TextWrite {
  readonly key: string
  readonly text: string
  readonly mtime: number
}

export interface RowVersion {
  readonly table: DemoTable
  readonly key: string
  readonly values: Record<string, CellValue>
  readonly arrival: number
  /** Order inside its folder's files; defaults to arrival. */
  orderHint: number
  forcedFile: number | null
  delivery: Delivery | null
  file: number
  seq: number
}

export interface FullRow {
  readonly values: Record<string, CellValue>
  readonly created: number
}

export interface Fault {
  readonly kind: string
  readonly date: string | null
  readonly hour: string | null
  readonly table: string | null
  readonly key: string
}

export interface Expected {
  readonly generator: DemoOptions
  readonly now: string
  readonly version: 'v2'
  readonly latest_ready: Record<string, { prefix: string; snapshot_date: string; snapshot_hour: string } | null>
  readonly tables: Record<
    string,
    {
      mode: 'full' | 'parts'
      rows: number
      distinct_keys: number | null
      versions: number | null
      ready_folders: number | null
      newest_folder: { prefix: string; etl_date: string; etl_hour: string | null } | null
    }
  >
  readonly newest_values: { table: string; key_column: string; key: string; column: string; value: CellValue }[]
  /** claudia_messages' logical table (newest version per key) counted by tenant_id and send_at's UTC day. */
  readonly messages_by_tenant_day: Record<string, Record<string, number>>
  readonly column_added: { table: string; column: string; from_prefix: string; non_null_in_logical_table: number }
  /** A column written as another type from a folder on: the logical table reads it as the wider type, every row kept. */
  readonly type_change: {
    table: string
    column: string
    from_prefix: string
    type_before: string
    type_after: string
    logical_type: string
    sum_in_logical_table: number
  }
  /** The switch: a full table missing in the first v2 hour reads its newest v1 copy as of that hour. */
  readonly switch_fallback: { table: string; as_of: string; latest_prefix: string | null }
  /** The export's first delivery hour; the hours of its day before it are no delivery (nothing was due). */
  readonly first_delivery: string
  /** A ready copy without a Parquet file: as of its hour the table has no rows and the columns of the copy before. */
  readonly empty_copy: { table: string; prefix: string; as_of: string; columns: string[] }
  /** A file cut short in a full table's newest ready copy: the table reads the previous readable copy (`reads_prefix`). */
  readonly corrupt_file: { table: string; key: string; prefix: string; reads_prefix: string }
  readonly faults: Fault[]
  readonly cells: { date: string; hour: string; table: string; state: string }[]
  readonly pruned_cells: number
  /** Folders without _SUCCESS, and the state their cell must have. */
  readonly partial_folders: { prefix: string; date: string; hour: string; table: string; state: string }[]
  readonly planted_hours: Record<string, { date: string; hour: string }>
}

export interface DemoPlan {
  readonly options: DemoOptions
  readonly now: number
  readonly fullRows: Map<string, FullRow[]>
  readonly versions: Map<string, RowVersion[]>
  readonly folders: FolderWrite[]
  readonly texts: TextWrite[]
  readonly storageClasses: Record<string, string>
  /** Copies of a data file under a hidden name (Spark and Hive readers skip it; so must every reader). */
  readonly hiddenCopies: readonly { readonly from: string; readonly to: string; readonly mtime: number }[]
  /** Data files written cut short (half their bytes): not readable Parquet. */
  readonly corruptFiles: readonly string[]
  readonly addedColumn: { table: string; column: string; fromIndex: number }
  readonly expected: Expected
}

const iso = (t: number): string => new Date(t).toISOString().replace('.000Z', 'Z')
const dateOf = (t: number): string => new Date(t).toISOString().slice(0, 10)
const hourOf = (t: number): string => String(new Date(t).getUTCHours()).padStart(2, '0')

function tableByName(name: string): DemoTable {
  const t = DEMO_TABLES.find((x) => x.table === name)
  if (!t) throw new Error(`generator: no table ${name}`)
  return t
}

function prefixOf(t: DemoTable, d: Delivery): string {
  const base = tablePrefix(t, d.kind === 'v2' ? 'v2' : 'v1')
  if (t.mode === 'full') return d.kind === 'v2' ? `${base}snapshot_date=${d.date}/snapshot_hour=${d.hour}/` : `${base}snapshot_date=${d.date}/`
  if (d.kind === 'initial') return `${base}etl_date=__initial__/`
  return d.kind === 'v2' ? `${base}etl_date=${d.date}/etl_hour=${d.hour}/` : `${base}etl_date=${d.date}/`
}

export function planDemoBucket(options: DemoOptions): DemoPlan {
  const { seed, days, scale, v1Days } = options
  if (!Number.isInteger(days) || days < 8) throw new Error('--days must be a whole number of at least 8 (7-day retention must have pruned something)')
  if (!Number.isInteger(v1Days) || v1Days < 3) throw new Error('v1 history needs at least 3 days')
  if (!(scale > 0)) throw new Error('--scale must be positive')
  const rng = new Random(seed)

  // Deliveries, oldest first: __initial__, v1 daily at 07:00, v2 hourly from Nov 3 03:00.
  const deliveries: Delivery[] = []
  const firstV1 = LAST_V1 - (v1Days - 1) * DAY
  deliveries.push({ index: 0, kind: 'initial', cutoff: firstV1 - DAY, date: '__initial__', hour: null, h: null })
  for (let k = 0; k < v1Days; k++) {
    const t = firstV1 + k * DAY
    deliveries.push({ index: deliveries.length, kind: 'v1', cutoff: t, date: dateOf(t), hour: null, h: null })
  }
  const H = days * 24
  for (let h = 0; h < H; h++) {
    const t = FIRST_V2 + h * HOUR
    deliveries.push({ index: deliveries.length, kind: 'v2', cutoff: t, date: dateOf(t), hour: hourOf(t), h })
  }
  const v2 = (h: number): Delivery => deliveries[1 + v1Days + h] as Delivery
  const v1 = (k: number): Delivery => deliveries[1 + k] as Delivery
  const E = H - 1
  const lastT = v2(E).cutoff
  const now = lastT + 50 * MIN
  // The export's first v2 hour (0 without --start).
  const start = options.start ?? -Infinity
  const h0 = options.start === undefined ? 0 : (options.start - FIRST_V2) / HOUR
  if (!Number.isInteger(h0) || h0 < 0 || h0 > E - 161) {
    throw new Error(
      `--start must be a whole hour from ${iso(FIRST_V2)} (the first v2 delivery) to ${iso(v2(E - 161).cutoff)}, so that every planted case comes after it; use more --days for a later start`
    )
  }

  // Planted faults, all within the last 7 days so retention cannot hide them.
  const at = {
    stuckPendingFrom: E - 6,
    missingHour: E - 30,
    missingAndPending: E - 50,
    failedFolder: E - 70,
    lateHour: E - 90,
    malformedManifest: E - 110,
    throughLag: E - 130,
    filesMismatch: E - 150,
    manifestAbsent: E - 160,
    inFlight: E,
    emptyCopy: E - 40,
    contradiction: E - 120,
    hiddenFile: E - 20,
    corruptFile: E
  }
  // Not in `at`: the first v2 hour may fall in a day retention has pruned (its finding is a manifest's, kept).
  const firstV2Missing = h0
  const T = {
    inFlight: tableByName('cloud_chat_agent_metrics'),
    stuck: tableByName('cloud_chat_messages'),
    declaredMissing: tableByName('cloud_chat_tags'),
    caughtUpPending: tableByName('claudia_prompt_revision'),
    failed: tableByName('claudia_csat'),
    lag: tableByName('claudia_messages'),
    mismatch: tableByName('cloud_chat_contacts'),
    twoFiles: tableByName('claudia_conversation'),
    stray: tableByName('claudia_conversation'),
    empty: tableByName('cloud_chat_outbound_events'),
    contradiction: tableByName('claudia_contents'),
    hidden: tableByName('cloud_chat_messages'),
    firstV2Missing: tableByName('cloud_chat_team_metrics'),
    corrupt: tableByName('cloud_chat_conversations_custom_fields')
  }

  const status = (t: DemoTable, d: Delivery): Status => {
    if (d.cutoff < start) return 'before_start'
    if (d.kind !== 'v2' || d.h === null) return 'ok'
    const h = d.h
    if (h === at.missingHour) return 'absent'
    if (t === T.stuck && h >= at.stuckPendingFrom) return 'pending'
    if (h === at.missingAndPending && t === T.declaredMissing) return 'missing_declared'
    if (h === at.missingAndPending && t === T.caughtUpPending) return 'pending'
    if (h === at.failedFolder && t === T.failed) return 'failed'
    if (h === at.inFlight && t === T.inFlight) return 'in_flight'
    if (h === at.emptyCopy && t === T.empty) return 'empty'
    if (h === firstV2Missing && t === T.firstV2Missing) return 'missing_declared'
    return 'ok'
  }

  // Retention: for days that ended more than 7 days before now, full tables keep only their last ready hour.
  const keptHour = new Map<string, number>()
  for (const t of DEMO_TABLES) {
    if (t.mode !== 'full') continue
    for (let h = 0; h < H; h++) {
      const d = v2(h)
      if (isReadyStatus(status(t, d))) keptHour.set(`${t.table}|${d.date}`, h)
    }
  }
  const prunedDay = (d: Delivery): boolean => Date.parse(`${d.date}T00:00:00Z`) + DAY <= now - 7 * DAY
  const finalStatus = (t: DemoTable, d: Delivery): Status => {
    const s = status(t, d)
    if (s === 'ok' && t.mode === 'full' && d.kind === 'v2' && prunedDay(d) && keptHour.get(`${t.table}|${d.date}`) !== d.h) return 'pruned'
    return s
  }
  for (const [name, h] of Object.entries(at)) {
    if (prunedDay(v2(h))) throw new Error(`generator: planted ${name} fell in a pruned day`)
  }

  // Full tables: rows created at a steady pace; a copy holds every row created before its cutoff.
  const historyStart = deliveries[0]!.cutoff - 7 * DAY
  const fullRows = new Map<string, FullRow[]>()
  for (const t of DEMO_TABLES) {
    if (t.mode !== 'full') continue
    const rows: FullRow[] = []
    let n = 0
    for (let hourStart = historyStart; hourStart < lastT; hourStart += HOUR) {
      const count = Math.max(1, Math.round(t.ratePerHour * scale))
      for (let i = 0; i < count; i++) {
        const created = hourStart + rng.int(0, HOUR / 1000 - 1) * 1000
        const values: Record<string, CellValue> = {}
        for (const c of t.columns) {
          if (c.name === t.idColumn) values[c.name] = `${t.idColumn.replace(/_id$/, '')}_${String(++n).padStart(7, '0')}`
          else if (c.name === 'tenant_id') values[c.name] = rng.pick(TENANTS)
          else if (c.name === 'created_at' || c.name === 'updated_at') values[c.name] = created
          else values[c.name] = plausibleValue(c, rng, created)
        }
        rows.push({ values, created })
      }
    }
    fullRows.set(t.table, rows)
  }

  // Parts tables: each event arrives once; keyed tables also get later versions of some rows.
  const versions = new Map<string, RowVersion[]>()
  const addedColumn = { table: 'claudia_messages', column: 'model_name', fromIndex: v2(h0 + 48).index }
  const typeChange = { table: 'claudia_messages', column: 'tokens', from: 'BIGINT', to: 'DOUBLE', fromIndex: v2(h0 + 60).index }
  const makeValues = (t: DemoTable, key: string, event: number, updated: number, version: number): Record<string, CellValue> => {
    const values: Record<string, CellValue> = {}
    for (const c of t.columns) {
      if (c.name === t.idColumn) values[c.name] = key
      else if (c.name === 'tenant_id') values[c.name] = TENANTS[Number(key.replace(/\D/g, '')) % TENANTS.length] as string
      else if (c.name === 'send_at' || c.name === 'created_at') values[c.name] = event
      else if (c.name === 'updated_at') values[c.name] = updated
      else if (c.name === 'content' || c.name === 'body') values[c.name] = `${sentence(rng, 5)} (v${version})`
      else if (c.name === 'revision_number') values[c.name] = version
      else values[c.name] = plausibleValue(c, rng, event)
    }
    if (t.table === addedColumn.table) values[addedColumn.column] = rng.pick(['claudia-3', 'claudia-3.5', 'claudia-4'])
    return values
  }
  const newVersion = (t: DemoTable, key: string, event: number, arrival: number, version: number, updated = arrival): RowVersion => ({
    table: t,
    key,
    values: makeValues(t, key, event, updated, version),
    arrival,
    orderHint: arrival,
    forcedFile: null,
    delivery: null,
    file: 0,
    seq: 0
  })
  for (const t of DEMO_TABLES) {
    if (t.mode !== 'parts') continue
    const list: RowVersion[] = []
    const prefix = t.idColumn.replace(/_id$/, '')
    let n = 0
    for (let hourStart = historyStart; hourStart < lastT; hourStart += HOUR) {
      const count = rng.int(Math.round(t.ratePerHour * scale * 0.5), Math.round(t.ratePerHour * scale * 1.5))
      for (let i = 0; i < count; i++) {
        const event = hourStart + rng.int(0, HOUR / 1000 - 1) * 1000
        const key = `${prefix}_${String(++n).padStart(7, '0')}`
        list.push(newVersion(t, key, event, event, 1))
        if (t.dedupeKey && rng.chance(0.06)) {
          let arrival = event
          const updates = rng.int(1, 3)
          for (let u = 0; u < updates; u++) {
            arrival += rng.int(1, 72) * HOUR + rng.int(0, 3599) * 1000
            if (arrival >= lastT) break
            list.push(newVersion(t, key, event, arrival, u + 2))
          }
        }
      }
    }
    versions.set(t.table, list)
  }

  // Tracked rows: version histories across __initial__, v1 and v2 that a wrong rule would get wrong.
  const msgs = tableByName('claudia_messages')
  const revs = tableByName('claudia_prompt_revision')
  const inWindow = (d: Delivery, minutesBefore = 10): number => d.cutoff - (d.kind === 'initial' ? 3 * DAY : minutesBefore * MIN)
  const tracked: { table: DemoTable; key: string }[] = []
  const track = (t: DemoTable, key: string, at: Delivery[], tweak?: (vs: RowVersion[]) => void): void => {
    const event = inWindow(at[0] as Delivery, 30)
    const vs = at.map((d, i) => newVersion(t, key, event, i === 0 ? event : inWindow(d, 20 - i), i + 1))
    tweak?.(vs)
    versions.get(t.table)!.push(...vs)
    tracked.push({ table: t, key })
  }
  const initial = deliveries[0] as Delivery
  track(msgs, 'message_tracked_a', [initial, v1(1), v2(5), v2(E - 20)])
  track(msgs, 'message_tracked_b', [initial, v1(2)])
  track(msgs, 'message_tracked_c', [v1(0), v2(10), v2(60)])
  // Re-sent later with an older updated_at: the later folder still wins.
  track(msgs, 'message_tracked_d', [v2(20), v2(30)], (vs) => {
    vs[1]!.values['updated_at'] = (vs[0]!.values['updated_at'] as number) - DAY
  })
  // Twice in one folder, in two files: the row in the later file wins, whatever its updated_at.
  track(msgs, 'message_tracked_e', [v2(40), v2(40)], (vs) => {
    vs[0]!.forcedFile = 1
    vs[1]!.forcedFile = 0
  })
  // Twice in one file: the later row wins.
  track(msgs, 'message_tracked_f', [v2(41), v2(41)], (vs) => {
    vs[0]!.orderHint = vs[1]!.arrival + 1000
  })
  track(revs, 'prompt_revision_tracked_a', [initial, v1(1), v2(7)])
  track(revs, 'prompt_revision_tracked_b', [v2(12), v2(at.missingAndPending)])
  for (const d of [v2(5), v2(10), v2(20), v2(30), v2(40), v2(41), v2(60), v2(7), v2(12), v2(E - 20)]) {
    // Before --start a tracked version comes in the first delivery, with the others.
    if (status(msgs, d) !== 'ok' && status(msgs, d) !== 'before_start')
      throw new Error(`generator: a tracked delivery (${d.date} ${d.hour}) is not delivered; use more --days`)
  }

  // Assign each version to the first delivery of its table, at or after its arrival, that delivered.
  for (const [name, list] of versions) {
    const t = tableByName(name)
    const open = deliveries.filter((d) => status(t, d) === 'ok')
    for (const v of list) {
      v.delivery = open.find((d) => d.cutoff > v.arrival) ?? null
    }
  }

  // Folders, files and times.
  const folders: FolderWrite[] = []
  const jitter = (): number => rng.int(0, 600) * 1000
  const timesFor = (d: Delivery): { data: number; marker: number } => {
    const start = d.kind === 'initial' ? d.cutoff + HOUR : d.cutoff
    if (d.h === at.lateHour) return { data: start + 50 * MIN, marker: start + 55 * MIN + jitter() / 10 }
    return { data: start + 10 * MIN + jitter() / 2, marker: start + 18 * MIN + jitter() }
  }
  const byFolder = new Map<string, RowVersion[]>()
  for (const [, list] of versions) {
    for (const v of list) {
      if (!v.delivery) continue
      const p = prefixOf(v.table, v.delivery)
      const arr = byFolder.get(p) ?? []
      arr.push(v)
      byFolder.set(p, arr)
    }
  }
  const twoFileFolders = new Set([prefixOf(msgs, v2(40))])
  for (const t of DEMO_TABLES) {
    for (const d of deliveries) {
      if (t.mode === 'full' && d.kind === 'initial') continue
      const s = finalStatus(t, d)
      if (s !== 'ok' && s !== 'empty' && s !== 'failed' && s !== 'in_flight') continue
      const prefix = prefixOf(t, d)
      const times = timesFor(d)
      let columns = t.columns.map((c) => c.name)
      if (t.table === addedColumn.table && d.index >= addedColumn.fromIndex) columns = [...columns, addedColumn.column]
      let parts = t === T.twoFiles || twoFileFolders.has(prefix) ? 2 : 1
      if (t.mode === 'parts') {
        // An hour in which nothing arrived is still delivered: a folder with _SUCCESS and no file.
        const rows = (byFolder.get(prefix) ?? []).sort((a, b) => a.orderHint - b.orderHint)
        parts = Math.min(parts, rows.length)
        rows.forEach((v, i) => {
          v.file = v.forcedFile !== null && v.forcedFile < parts ? v.forcedFile : Math.floor((i * parts) / rows.length)
        })
        const seqs = new Array<number>(parts).fill(0)
        for (const v of rows) v.seq = seqs[v.file]!++
      }
      const files: FileWrite[] = []
      if (s !== 'empty')
        for (let k = 0; k < parts; k++) files.push({ key: `${prefix}part-${String(k).padStart(5, '0')}.parquet`, part: k, parts, mtime: times.data + k * 1000 })
      const casts: Record<string, string> = t.table === typeChange.table && d.index >= typeChange.fromIndex ? { [typeChange.column]: typeChange.to } : {}
      folders.push({ table: t, delivery: d, prefix, files, marker: isReadyStatus(s) ? times.marker : null, columns, casts })
    }
  }
  const folderByPrefix = new Map(folders.map((f) => [f.prefix, f]))

  // Manifests (v1 daily, v2 hourly), a stray file, and an archived object.
  const texts: TextWrite[] = []
  const faults: Fault[] = []
  const qn = (t: DemoTable): string => `${t.schema}.${t.table}`
  // Row counts per copy and per folder, computed once (a year of hours would make a scan per hour slow).
  const createdSorted = new Map([...fullRows].map(([name, rows]) => [name, rows.map((r) => r.created).sort((a, b) => a - b)]))
  const perFolder = new Map<string, number>()
  for (const [name, list] of versions)
    for (const v of list) if (v.delivery) perFolder.set(`${name}|${v.delivery.index}`, (perFolder.get(`${name}|${v.delivery.index}`) ?? 0) + 1)
  const countBefore = (sorted: number[], cutoff: number): number => lowerBound(sorted, cutoff)
  const rowsIn = (t: DemoTable, d: Delivery): number =>
    finalStatus(t, d) === 'empty' ? 0 : t.mode === 'full' ? countBefore(createdSorted.get(t.table)!, d.cutoff) : (perFolder.get(`${t.table}|${d.index}`) ?? 0)
  for (const d of deliveries) {
    // The failed folder's hour has no manifest either: the vendor's job stopped before writing it. (A manifest
    // listing the table missing would make the cell missing: the manifest's word beats a partial folder.)
    if (d.kind === 'initial' || d.cutoff < start || d.h === at.missingHour || d.h === at.manifestAbsent || d.h === at.failedFolder) continue
    const delivered: Record<string, unknown>[] = []
    const missing: string[] = []
    const pending: string[] = []
    for (const t of DEMO_TABLES) {
      const s = finalStatus(t, d)
      if (s === 'pending') pending.push(qn(t))
      else if (s === 'missing_declared' || s === 'failed' || s === 'in_flight') missing.push(qn(t))
      else {
        const prefix = prefixOf(t, d)
        const f = folderByPrefix.get(prefix)
        const entry: Record<string, unknown> = {
          schema: t.schema,
          table: t.table,
          mode: t.mode,
          path: prefix,
          format: 'parquet',
          files: f?.files.length ?? (t === T.twoFiles ? 2 : 1),
          rows: rowsIn(t, d)
        }
        if (d.h === at.filesMismatch && t === T.mismatch) entry['files'] = 2
        if (d.kind === 'v2' && t.mode === 'parts') entry['delivered_through'] = iso(d.cutoff - (d.h === at.throughLag && t === T.lag ? 3 * HOUR : 2000))
        delivered.push(entry)
      }
    }
    const body: Record<string, unknown> = { snapshot_date: d.date }
    if (d.kind === 'v2') body['snapshot_hour'] = d.hour
    body['complete'] = missing.length === 0 && pending.length === 0
    // A manifest that contradicts itself: complete, yet it lists a table it also delivered as missing.
    if (d.h === at.contradiction) {
      missing.push(qn(T.contradiction))
      body['complete'] = true
    }
    body['tables_delivered'] = delivered
    body['tables_missing'] = missing
    if (d.kind === 'v2') body['tables_pending'] = pending
    body['generated_by'] = 'export-explorer demo generator'
    let text = JSON.stringify(body, null, 2)
    const key =
      d.kind === 'v2' ? `v2/_manifests/snapshot_date=${d.date}/snapshot_hour=${d.hour}/manifest.json` : `v1/_manifests/snapshot_date=${d.date}/manifest.json`
    if (d.h === at.malformedManifest) text = text.slice(0, Math.floor(text.length / 2))
    texts.push({ key, text, mtime: timesFor(d).marker + 2 * MIN })
  }
  const strayKey = `${prefixOf(T.stray, v2(E))}part-00000.parquet.crc`
  texts.push({ key: strayKey, text: 'crc32c:8f3a12bc\n', mtime: timesFor(v2(E)).data })
  // The oldest folder of claudia_messages (v1's first day; the first delivery with --start) went to GLACIER.
  const archivedDelivery = options.start === undefined ? v1(0) : v2(h0)
  const archivedKey = `${prefixOf(msgs, archivedDelivery)}part-00000.parquet`
  const storageClasses = { [archivedKey]: 'GLACIER' }
  // A temporary file the vendor's job left behind: real Parquet (a copy of the folder's data) under a hidden name.
  const hiddenFolder = folderByPrefix.get(prefixOf(T.hidden, v2(at.hiddenFile)))
  if (!hiddenFolder?.files[0]) throw new Error('generator: the hidden-file folder has no data file; use another seed or hour')
  const hiddenKey = `${hiddenFolder.prefix}_temporary-part-00000.parquet`
  const hiddenCopies = [{ from: hiddenFolder.files[0].key, to: hiddenKey, mtime: hiddenFolder.files[0].mtime }]
  // An upload cut short in a full table's newest ready copy (its _SUCCESS written all the same).
  const corruptKey = folderByPrefix.get(prefixOf(T.corrupt, v2(at.corruptFile)))?.files[0]?.key
  if (!corruptKey) throw new Error('generator: the corrupt-file copy has no data file; use another seed or hour')
  const passedOver = (t: DemoTable, h: number): boolean => t === T.corrupt && h === at.corruptFile

  // The truth.
  const hourOfH = (h: number): { date: string; hour: string } => ({ date: v2(h).date, hour: v2(h).hour as string })
  const fault = (kind: string, h: number | null, table: DemoTable | null, key: string, date?: string): void => {
    const dh = h === null ? { date: date ?? null, hour: null } : hourOfH(h)
    faults.push({ kind, date: dh.date, hour: dh.hour, table: table?.table ?? null, key })
  }
  const mKey = (h: number): string => `v2/_manifests/snapshot_date=${v2(h).date}/snapshot_hour=${v2(h).hour}/manifest.json`
  fault('manifest_absent', at.missingHour, null, mKey(at.missingHour))
  for (const t of DEMO_TABLES) fault('missing', at.missingHour, t, prefixOf(t, v2(at.missingHour)))
  fault('missing', at.missingAndPending, T.declaredMissing, prefixOf(T.declaredMissing, v2(at.missingAndPending)))
  fault('failed', at.failedFolder, T.failed, prefixOf(T.failed, v2(at.failedFolder)))
  fault('manifest_absent', at.failedFolder, null, mKey(at.failedFolder))
  // The last hour's manifest lists the table still in flight as missing: its word is the cell's state.
  fault('missing', at.inFlight, T.inFlight, prefixOf(T.inFlight, v2(at.inFlight)))
  for (const t of DEMO_TABLES) {
    fault('late', at.lateHour, t, `${prefixOf(t, v2(at.lateHour))}_SUCCESS`)
  }
  fault('manifest_malformed', at.malformedManifest, null, mKey(at.malformedManifest))
  fault('delivered_through_lag', at.throughLag, T.lag, mKey(at.throughLag))
  fault('manifest_mismatch', at.filesMismatch, T.mismatch, prefixOf(T.mismatch, v2(at.filesMismatch)))
  fault('manifest_absent', at.manifestAbsent, null, mKey(at.manifestAbsent))
  fault('pending_not_caught_up', at.stuckPendingFrom, T.stuck, mKey(at.stuckPendingFrom))
  fault('ignored_key', E, T.stray, strayKey)
  fault('ignored_key', at.hiddenFile, T.hidden, hiddenKey)
  fault('empty_copy', at.emptyCopy, T.empty, prefixOf(T.empty, v2(at.emptyCopy)))
  fault('manifest_contradiction', at.contradiction, null, mKey(at.contradiction))
  fault('manifest_contradiction', at.contradiction, T.contradiction, mKey(at.contradiction))
  fault('manifest_mismatch', at.contradiction, T.contradiction, mKey(at.contradiction))
  fault('missing', firstV2Missing, T.firstV2Missing, prefixOf(T.firstV2Missing, v2(firstV2Missing)))
  fault('corrupt_file', at.corruptFile, T.corrupt, corruptKey)
  if (options.start === undefined) fault('archived', null, msgs, archivedKey, v1(0).date)
  else fault('archived', h0, msgs, archivedKey)
  // The column added and the column retyped, said once (schema_change) at the first delivered folder that shows each.
  for (const change of [addedColumn, typeChange]) {
    let h = (deliveries[change.fromIndex] as Delivery).h as number
    while (!folderByPrefix.has(prefixOf(msgs, v2(h)))) h++
    fault('schema_change', h, msgs, prefixOf(msgs, v2(h)))
  }

  const latest_ready: Expected['latest_ready'] = {}
  const tables: Expected['tables'] = {}
  for (const t of DEMO_TABLES) {
    if (t.mode === 'full') {
      let best: Delivery | null = null
      // A copy holding an unreadable file is passed over for the previous readable one.
      for (let h = 0; h < H; h++) if (isReadyStatus(finalStatus(t, v2(h))) && !passedOver(t, h)) best = v2(h)
      latest_ready[t.table] = best ? { prefix: prefixOf(t, best), snapshot_date: best.date, snapshot_hour: best.hour as string } : null
      tables[t.table] = { mode: 'full', rows: best ? rowsIn(t, best) : 0, distinct_keys: null, versions: null, ready_folders: null, newest_folder: null }
      continue
    }
    const delivered = versions.get(t.table)!.filter((v) => v.delivery !== null)
    const readyFolders = new Set(delivered.map((v) => v.delivery as Delivery))
    const newest = [...readyFolders].sort((a, b) => b.index - a.index)[0] ?? null
    const keys = new Set(delivered.map((v) => v.key))
    tables[t.table] = {
      mode: 'parts',
      rows: t.dedupeKey ? keys.size : delivered.length,
      distinct_keys: keys.size,
      versions: delivered.length,
      ready_folders: readyFolders.size,
      newest_folder: newest ? { prefix: prefixOf(t, newest), etl_date: newest.date, etl_hour: newest.hour } : null
    }
  }
  // The newest version of a key: latest delivery, then later file, then later row.
  const newestOf = (t: DemoTable, key: string): RowVersion => {
    const vs = versions.get(t.table)!.filter((v) => v.key === key && v.delivery !== null)
    vs.sort((a, b) => a.delivery!.index - b.delivery!.index || a.file - b.file || a.seq - b.seq)
    return vs[vs.length - 1] as RowVersion
  }
  const newest_values = tracked.map(({ table, key }) => ({
    table: table.table,
    key_column: table.idColumn,
    key,
    column: 'content',
    value: newestOf(table, key).values['content'] ?? null
  }))
  let nonNull = 0
  let tokensSum = 0
  const messages_by_tenant_day: Record<string, Record<string, number>> = {}
  for (const t of [msgs]) {
    const latest = new Map<string, RowVersion>()
    for (const v of versions.get(t.table)!) {
      if (!v.delivery) continue
      const cur = latest.get(v.key)
      if (!cur || cur.delivery!.index < v.delivery.index || (cur.delivery === v.delivery && (cur.file < v.file || (cur.file === v.file && cur.seq < v.seq))))
        latest.set(v.key, v)
    }
    for (const v of latest.values()) if (v.delivery!.index >= addedColumn.fromIndex) nonNull++
    for (const v of latest.values()) tokensSum += Number(v.values[typeChange.column] ?? 0)
    for (const v of latest.values()) {
      const tenant = String(v.values['tenant_id'])
      const day = new Date(Number(v.values['send_at'])).toISOString().slice(0, 10)
      const byDay = (messages_by_tenant_day[tenant] ??= {})
      byDay[day] = (byDay[day] ?? 0) + 1
    }
  }

  const cells: Expected['cells'] = []
  const cell = (h: number, t: DemoTable, state: string): void => {
    cells.push({ ...hourOfH(h), table: t.table, state })
  }
  for (const t of DEMO_TABLES) cell(at.missingHour, t, 'missing')
  for (let h = at.stuckPendingFrom; h <= E; h++) cell(h, T.stuck, 'pending')
  cell(at.missingAndPending, T.caughtUpPending, 'pending')
  cell(at.missingAndPending, T.declaredMissing, 'missing')
  cell(at.failedFolder, T.failed, 'failed')
  cell(at.inFlight, T.inFlight, 'missing')
  cell(at.emptyCopy, T.empty, 'empty')
  cell(at.contradiction, T.contradiction, 'ready')
  cell(at.corruptFile, T.corrupt, 'unreadable')
  cell(firstV2Missing, T.firstV2Missing, 'missing')
  if (options.start === undefined) cells.push({ date: archivedDelivery.date, hour: hourOf(archivedDelivery.cutoff), table: msgs.table, state: 'archived' })
  else cell(h0, msgs, 'archived')
  // Nothing was due before the export's first delivery, on its first day either.
  const firstDelivery = options.start ?? v1(0).cutoff
  for (let t = Date.parse(`${dateOf(firstDelivery)}T00:00:00Z`); t < firstDelivery; t += HOUR)
    cells.push({ date: dateOf(t), hour: hourOf(t), table: T.failed.table, state: 'no_delivery' })
  for (const t of DEMO_TABLES) cell(at.lateHour, t, 'late')
  let pruned = 0
  for (const t of DEMO_TABLES) {
    for (let h = 0; h < H; h++) {
      if (finalStatus(t, v2(h)) !== 'pruned') continue
      pruned++
      if (h === 0 || h === 30) cell(h, t, 'pruned')
    }
  }

  const planted_hours: Record<string, { date: string; hour: string }> = {}
  for (const [name, h] of Object.entries(at)) planted_hours[name] = hourOfH(h)
  planted_hours['firstV2Missing'] = hourOfH(firstV2Missing)
  // As of 50 minutes past an hour: its copies are ready (_SUCCESS by :28), the next hour's are not.
  const asOfHour = (h: number): string => iso(v2(h).cutoff + 50 * MIN)

  const expected: Expected = {
    generator: options,
    now: iso(now),
    version: 'v2',
    latest_ready,
    tables,
    newest_values,
    messages_by_tenant_day,
    column_added: { table: addedColumn.table, column: addedColumn.column, from_prefix: prefixOf(msgs, v2(h0 + 48)), non_null_in_logical_table: nonNull },
    type_change: {
      table: typeChange.table,
      column: typeChange.column,
      from_prefix: prefixOf(msgs, v2(h0 + 60)),
      type_before: typeChange.from,
      type_after: typeChange.to,
      logical_type: 'DOUBLE',
      sum_in_logical_table: tokensSum
    },
    first_delivery: iso(firstDelivery),
    switch_fallback: {
      table: T.firstV2Missing.table,
      as_of: asOfHour(firstV2Missing),
      latest_prefix: options.start === undefined ? prefixOf(T.firstV2Missing, v1(v1Days - 1)) : null
    },
    empty_copy: {
      table: T.empty.table,
      prefix: prefixOf(T.empty, v2(at.emptyCopy)),
      as_of: asOfHour(at.emptyCopy),
      columns: T.empty.columns.map((c) => c.name)
    },
    corrupt_file: {
      table: T.corrupt.table,
      key: corruptKey,
      prefix: prefixOf(T.corrupt, v2(at.corruptFile)),
      reads_prefix: latest_ready[T.corrupt.table]?.prefix ?? ''
    },
    faults,
    cells,
    pruned_cells: pruned,
    partial_folders: [
      { prefix: prefixOf(T.failed, v2(at.failedFolder)), ...hourOfH(at.failedFolder), table: T.failed.table, state: 'failed' },
      { prefix: prefixOf(T.inFlight, v2(at.inFlight)), ...hourOfH(at.inFlight), table: T.inFlight.table, state: 'missing' }
    ],
    planted_hours
  }
  return { options, now, fullRows, versions, folders, texts, storageClasses, hiddenCopies, corruptFiles: [corruptKey], addedColumn, expected }
}
