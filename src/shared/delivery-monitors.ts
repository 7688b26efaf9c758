// Volume and schema monitors: each table's deliveries (rows, bytes, columns from the Parquet footers already read, and
// the manifest's rows) judged against the table's own recent history, as `volume_anomaly`, `schema_change` and `manifest_mismatch`.
import { formatBytes, numberText } from './counts'
import type { Finding, FindingKind } from './timeline'

/** The kinds the monitors find (a manifest's rows or files that disagree with the folder are one): what the
 * timeline marks on a cell, over its state. */
export const MONITOR_KINDS: readonly FindingKind[] = ['volume_anomaly', 'schema_change', 'manifest_mismatch']

const HOUR_MS = 3_600_000
const DAY_MS = 24 * HOUR_MS

/** What the footers and the manifest say of one table's delivery (one folder). */
export interface DeliveryFacts {
  /** The catalog's table name. */
  readonly table: string
  readonly date: string
  readonly hour: string
  /** The delivery's instant (UTC ms): history is what came before it. */
  readonly instant: number
  /** The folder (ending "/"). */
  readonly key: string
  /** Rows in the folder's readable data files (their footers' sum). */
  readonly rows: number
  /** Bytes of its data files (the listing's sizes). */
  readonly bytes: number
  /** Columns and types of its files (the first file's footer), or null when no file was read. */
  readonly columns: readonly { readonly name: string; readonly type: string }[] | null
  /** The manifest's `rows` for the table, when it gives them. */
  readonly manifestRows?: number | null
  /** Files in the folder; a folder with none (an empty copy) is said by `empty_copy`, never judged here twice. */
  readonly files: number
  /** Whether a file of the folder is unreadable: `corrupt_file` says so, the volume is not judged on a part of it. */
  readonly hasUnreadable?: boolean
}

/** How a table's volume is judged; a connection may change any of them, per table. */
export interface MonitorThresholds {
  /** Deliveries of history needed before judging. */
  readonly minHistory: number
  /** How many MADs (scaled to a standard deviation, × 1.4826) from the median is still usual. */
  readonly madFactor: number
  /** The band is never narrower than this share of the median either side (steady tables have a MAD of 0). */
  readonly minRelativeBand: number
  /** Nor, for rows, narrower than this many square roots of the median (plus 2): a count's own noise, which a
   * table of a few rows an hour has far above its share. */
  readonly countNoise: number
  /** Nor reaching less than this many times the median above it: hours of events vary by half and more (later
   * versions of rows land together), so only a jump far above the usual is out of it. */
  readonly maxRatio: number
  /** The same hour of day on this many earlier days. */
  readonly days: number
  /** And this many previous deliveries, while the same hour has too little history. */
  readonly trailing: number
  /** A parts table judged on its trailing hours (a daily rhythm they do not know) is out of the usual only this many
   * times below or above their median, or with no rows where each had some. */
  readonly youngRatio: number
}

export const DEFAULT_MONITOR_THRESHOLDS: MonitorThresholds = {
  minHistory: 5,
  madFactor: 3,
  minRelativeBand: 0.5,
  countNoise: 3,
  maxRatio: 3,
  days: 7,
  trailing: 6,
  youngRatio: 4
}

/** A connection's setting: defaults for all tables, and per table (catalog name). */
export interface MonitorConfig {
  readonly all?: Partial<MonitorThresholds>
  readonly tables?: Readonly<Record<string, Partial<MonitorThresholds>>>
}

export function thresholdsFor(table: string, config: MonitorConfig = {}): MonitorThresholds {
  return { ...DEFAULT_MONITOR_THRESHOLDS, ...config.all, ...config.tables?.[table] }
}

export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b)
  const m = s.length >> 1
  return s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2
}

/**
 * The usual range of a figure: median ± max(k × 1.4826 × MAD, share × median[, c × √median + 2 for a count]), never
 * below 0 (nor below 1 for a count that was never 0), and reaching at least maxRatio × median.
 */
export interface UsualBand {
  readonly low: number
  readonly high: number
  readonly median: number
  readonly n: number
  /** How it was computed, in plain words. */
  readonly how: string
}

export function usualBand(history: readonly number[], t: MonitorThresholds, what: string, count = false): UsualBand {
  const m = median(history)
  const mad = median(history.map((x) => Math.abs(x - m)))
  const half = Math.max(t.madFactor * 1.4826 * mad, t.minRelativeBand * m, count ? t.countNoise * Math.sqrt(m) + 2 : 0)
  return {
    // A count whose every delivery had some is not usual at none: an hour with no rows is out of the band.
    low: Math.max(count && history.every((x) => x > 0) ? 1 : 0, Math.floor(m - half)),
    high: Math.ceil(Math.max(m + half, m * t.maxRatio)),
    median: m,
    n: history.length,
    how: `median of ${what} ± ${t.madFactor} MAD`
  }
}

/**
 * The deliveries a delivery is judged against, and their words. The same hour of day on the last days when there are
 * enough of them (a daily rhythm is then no alarm); else those with the trailing deliveries before it (a young table).
 */
export function historyOf(sorted: readonly DeliveryFacts[], i: number, t: MonitorThresholds): { list: DeliveryFacts[]; what: string } {
  const d = sorted[i] as DeliveryFacts
  const sameHour: DeliveryFacts[] = []
  const since = d.instant - t.days * DAY_MS
  for (let j = i - 1; j >= 0 && (sorted[j] as DeliveryFacts).instant >= since; j--) {
    const h = sorted[j] as DeliveryFacts
    if (judgeable(h) && (d.instant - h.instant) % DAY_MS === 0) sameHour.push(h)
  }
  if (sameHour.length >= t.minHistory) return { list: sameHour, what: `the same hour on the last ${sameHour.length} days` }
  const picked = new Set<DeliveryFacts>(sameHour)
  for (let j = i - 1, n = 0; j >= 0 && n < t.trailing; j--) {
    const h = sorted[j] as DeliveryFacts
    if (judgeable(h)) {
      picked.add(h)
      n++
    }
  }
  return { list: [...picked], what: `the ${picked.size} deliveries before it (the same hour on earlier days and the ${t.trailing} previous)` }
}

function judgeable(d: DeliveryFacts): boolean {
  return d.files > 0 && !d.hasUnreadable
}

export interface VolumeJudgement {
  readonly rows: number
  readonly bytes: number
  readonly rowsBand: UsualBand | null
  readonly bytesBand: UsualBand | null
  readonly anomalous: boolean
}

/** One delivery's figures beside the usual band (null bands: too little history, or not judged). */
export function judgeVolume(sorted: readonly DeliveryFacts[], i: number, t: MonitorThresholds, full: boolean): VolumeJudgement {
  const d = sorted[i] as DeliveryFacts
  const { list: h, what } = judgeable(d) ? historyOf(sorted, i, t) : { list: [], what: '' }
  const unjudged = { rows: d.rows, bytes: d.bytes, rowsBand: null, bytesBand: null, anomalous: false }
  if (h.length < t.minHistory) return unjudged
  const rowsBand = usualBand(
    h.map((x) => x.rows),
    t,
    what,
    true
  )
  const bytesBand = usualBand(
    h.map((x) => x.bytes),
    t,
    what
  )
  const out = (v: number, b: UsualBand): boolean => v < b.low || v > b.high
  // A parts table's hours follow a daily rhythm the trailing hours do not know: until the same hour has its history,
  // only an hour far off their median (youngRatio), or with no rows where each had some, is out of the usual.
  if (!full && !what.startsWith('the same hour')) {
    const m = rowsBand.median
    const far = d.rows * t.youngRatio < m || d.rows > m * t.youngRatio || (d.rows === 0 && rowsBand.low > 0)
    return { rows: d.rows, bytes: d.bytes, rowsBand, bytesBand, anomalous: far && out(d.rows, rowsBand) }
  }
  return { rows: d.rows, bytes: d.bytes, rowsBand, bytesBand, anomalous: out(d.rows, rowsBand) || (rowsBand.median > 0 && out(d.bytes, bytesBand)) }
}

/** "912 rows; usual 1,800–2,400 (median of … ± 3 MAD)". */
export function volumeWords(j: VolumeJudgement): string {
  if (!j.rowsBand || !j.bytesBand) return `${numberText(j.rows)} rows (too little history to judge)`
  const rowsOut = j.rows < j.rowsBand.low || j.rows > j.rowsBand.high
  const r = `${numberText(j.rows)} rows; usual ${numberText(j.rowsBand.low)}–${numberText(j.rowsBand.high)}`
  const b = `${formatBytes(j.bytes)}; usual ${formatBytes(j.bytesBand.low)}–${formatBytes(j.bytesBand.high)}`
  return `${rowsOut ? r : b} (${j.rowsBand.how})`
}

export interface MonitorOptions {
  readonly config?: MonitorConfig
  /** Whether a table is delivered as full copies (a later usual copy then resolves an anomaly: it is read instead). */
  readonly isFull: (table: string) => boolean
}

/** One delivery as the volume chart and the hour inspector show it: its figures, the usual band it was judged
 * against (null: too little history, or not judged), and whether it is out of it. */
export interface VolumePoint {
  readonly table: string
  readonly instant: number
  readonly key: string
  readonly rows: number
  readonly bytes: number
  readonly rowsBand: UsualBand | null
  readonly bytesBand: UsualBand | null
  readonly anomalous: boolean
}

/** Each table's deliveries judged once, oldest first: what the findings and the volume points are read from. */
function judgeTables(
  all: readonly DeliveryFacts[],
  opts: MonitorOptions
): { table: string; full: boolean; sorted: DeliveryFacts[]; judged: VolumeJudgement[] }[] {
  const byTable = new Map<string, DeliveryFacts[]>()
  for (const d of all) {
    const list = byTable.get(d.table) ?? []
    list.push(d)
    byTable.set(d.table, list)
  }
  return [...byTable].map(([table, list]) => {
    const sorted = list.sort((a, b) => a.instant - b.instant)
    const t = thresholdsFor(table, opts.config)
    const full = opts.isFull(table)
    return { table, full, sorted, judged: sorted.map((_, i) => judgeVolume(sorted, i, t, full)) }
  })
}

/**
 * The monitors over every table's deliveries: their findings, and each delivery's volume beside its band (by table,
 * oldest first). A volume anomaly of a full table resolves (superseded) at the next copy that is usual again, since
 * that copy is read instead; a parts table's stays open (its rows stay in the table). A schema change is said once, at
 * the first delivery that shows it, and stays as information of record (never resolves).
 */
export function monitorDeliveries(all: readonly DeliveryFacts[], opts: MonitorOptions): { findings: Finding[]; volumes: Map<string, VolumePoint[]> } {
  const findings: Finding[] = []
  const volumes = new Map<string, VolumePoint[]>()
  for (const { table, full, sorted, judged } of judgeTables(all, opts)) {
    volumes.set(
      table,
      sorted.map((d, i) => {
        const j = judged[i] as VolumeJudgement
        return { table, instant: d.instant, key: d.key, rows: d.rows, bytes: d.bytes, rowsBand: j.rowsBand, bytesBand: j.bytesBand, anomalous: j.anomalous }
      })
    )
    let prevColumns: DeliveryFacts['columns'] = null
    sorted.forEach((d, i) => {
      const j = judged[i] as VolumeJudgement
      const base = { date: d.date, hour: d.hour, table, key: d.key }
      if (j.anomalous) {
        let resolved: Finding['resolved'] = null
        if (full) {
          const k = sorted.findIndex(
            (x, m) => m > i && judgeable(x) && (judged[m] as VolumeJudgement).rowsBand !== null && !(judged[m] as VolumeJudgement).anomalous
          )
          if (k >= 0) resolved = { how: 'superseded', at: (sorted[k] as DeliveryFacts).instant }
        }
        findings.push({
          kind: 'volume_anomaly',
          severity: 'warning',
          ...base,
          message: `${table} ${d.date} ${d.hour}:00: ${volumeWords(j)}. ${full ? 'The copy is read as it is; check it with the vendor.' : 'The hour is read as it is; check it with the vendor.'}`,
          resolved
        })
      }
      if (d.manifestRows != null && judgeable(d) && d.manifestRows !== d.rows) {
        findings.push({
          kind: 'manifest_mismatch',
          severity: 'warning',
          ...base,
          message: `${table} ${d.date} ${d.hour}:00: the manifest says ${numberText(d.manifestRows)} rows, the files' footers hold ${numberText(d.rows)}. The files are read; tell the vendor.`,
          resolved: null
        })
      }
      if (d.columns && judgeable(d)) {
        if (prevColumns)
          findings.push(
            ...schemaChanges(prevColumns, d.columns).map((c) => ({ ...c, ...base, message: `${table} ${d.date} ${d.hour}:00: ${c.message}`, resolved: null }))
          )
        prevColumns = d.columns
      }
    })
  }
  return { findings, volumes }
}

/** The monitors' findings alone (monitorDeliveries). */
export function monitorFindings(all: readonly DeliveryFacts[], opts: MonitorOptions): Finding[] {
  return monitorDeliveries(all, opts).findings
}

/** Columns added (info), dropped or retyped (warning) from one delivery's columns to the next. */
export function schemaChanges(
  before: readonly { readonly name: string; readonly type: string }[],
  after: readonly { readonly name: string; readonly type: string }[]
): { kind: 'schema_change'; severity: 'info' | 'warning'; message: string }[] {
  const was = new Map(before.map((c) => [c.name, c.type]))
  const now = new Map(after.map((c) => [c.name, c.type]))
  const out: { kind: 'schema_change'; severity: 'info' | 'warning'; message: string }[] = []
  const say = (severity: 'info' | 'warning', message: string): void => void out.push({ kind: 'schema_change', severity, message })
  for (const [name, type] of now) {
    const old = was.get(name)
    if (old === undefined) say('info', `column ${name} (${type}) added; earlier rows read it as NULL.`)
    else if (old !== type) say('warning', `column ${name} retyped from ${old} to ${type}; the logical table reads the widest type, check queries on it.`)
  }
  for (const [name, type] of was) if (!now.has(name)) say('warning', `column ${name} (${type}) dropped; later rows read it as NULL.`)
  return out
}
