// The volume and schema monitors: planted anomalies found at their hour with their kind, severity and words; steady
// and noisy histories raise nothing.
import { describe, expect, it } from 'vitest'
import { deliveryFacts, manifestFacts } from '../../src/shared/delivery-facts'
import { buildInventory } from '../../src/shared/inventory'
import {
  type DeliveryFacts,
  DEFAULT_MONITOR_THRESHOLDS,
  monitorDeliveries,
  monitorFindings,
  schemaChanges,
  thresholdsFor
} from '../../src/shared/delivery-monitors'

const H = 3_600_000
const T0 = Date.UTC(2026, 10, 1)
const COLS = [
  { name: 'id', type: 'BIGINT' },
  { name: 'name', type: 'VARCHAR' }
]

function day(i: number): { date: string; hour: string; instant: number } {
  const instant = T0 + i * H
  const iso = new Date(instant).toISOString()
  return { date: iso.slice(0, 10), hour: iso.slice(11, 13), instant }
}

/** A month of hourly deliveries of one table, rows from `rows(i)`, with a deterministic jitter. */
function month(table: string, rows: (i: number) => number, over: (i: number, d: DeliveryFacts) => DeliveryFacts = (_, d) => d): DeliveryFacts[] {
  return Array.from({ length: 30 * 24 }, (_, i) => {
    const r = Math.round(rows(i))
    const d: DeliveryFacts = { table, ...day(i), key: `${table}/${i}/`, rows: r, bytes: 1000 + r * 40, columns: COLS, files: r > 0 ? 1 : 0, manifestRows: r }
    return over(i, d)
  })
}

const jitter = (i: number): number => ((i * 7919) % 101) - 50
const opts = { isFull: (t: string) => t === 'users' }

describe('volume monitors', () => {
  it('a clean noisy month raises nothing', () => {
    const parts = month('messages', (i) => 2000 + 10 * jitter(i) + 600 * Math.sin(((i % 24) / 24) * 2 * Math.PI))
    const full = month('users', (i) => 5000 + Math.floor(i / 24) * 20 + jitter(i))
    expect(monitorFindings([...parts, ...full], opts)).toEqual([])
  })

  it('a shrunken full copy is a warning at its hour, with the figure, the band and how; the next usual copy resolves it', () => {
    const full = month('users', (i) => (i === 400 ? 250 : 5000 + jitter(i)))
    const f = monitorFindings(full, opts)
    expect(f).toHaveLength(1)
    const a = f[0]!
    expect(a).toMatchObject({ kind: 'volume_anomaly', severity: 'warning', table: 'users', ...{ date: day(400).date, hour: day(400).hour } })
    expect(a.message).toMatch(/250 rows; usual [\d,]+–[\d,]+ \(median of the same hour on the last 7 days ± 3 MAD\)/)
    expect(a.resolved).toEqual({ how: 'superseded', at: day(401).instant })
  })

  it("each delivery's volume point is what the finding says: its rows outside its band, the others inside or unjudged", () => {
    const full = month('users', (i) => (i === 400 ? 250 : 5000 + jitter(i)))
    const { findings, volumes } = monitorDeliveries(full, opts)
    const points = volumes.get('users') ?? []
    expect(points).toHaveLength(full.length)
    expect(points.map((p) => p.instant)).toEqual(full.map((d) => d.instant))
    // Too little history at first: no band, never anomalous.
    expect(points.slice(0, DEFAULT_MONITOR_THRESHOLDS.minHistory).every((p) => p.rowsBand === null && !p.anomalous)).toBe(true)
    const out = points.filter((p) => p.anomalous)
    expect(out.map((p) => p.instant)).toEqual([day(400).instant])
    const band = out[0]?.rowsBand
    expect(band && out[0]!.rows < band.low).toBe(true)
    expect(findings.filter((f) => f.kind === 'volume_anomaly').map((f) => f.message)[0]).toContain(
      `usual ${band?.low.toLocaleString('en-US')}–${band?.high.toLocaleString('en-US')}`
    )
    for (const p of points.filter((x) => x.rowsBand && !x.anomalous)) expect(p.rows >= p.rowsBand!.low && p.rows <= p.rowsBand!.high).toBe(true)
  })

  it('a parts hour with no rows where the table always has some is a warning that stays open', () => {
    const parts = month(
      'messages',
      (i) => 2000 + jitter(i),
      (i, d) => (i === 500 ? { ...d, rows: 0, bytes: 300 } : d)
    )
    const f = monitorFindings(parts, opts)
    expect(f.map((x) => [x.kind, x.hour, x.resolved])).toEqual([
      ['volume_anomaly', day(500).hour, null],
      ['manifest_mismatch', day(500).hour, null]
    ])
    expect(f[0]!.message).toMatch(/^messages .* 0 rows; usual/)
  })

  it('a young parts table is judged only for an hour with no rows; a young full table against its previous copies', () => {
    const parts = month(
      'messages',
      (i) => 2000 + jitter(i) + 900 * Math.sin(((i % 24) / 24) * 2 * Math.PI),
      (i, d) => (i === 30 ? { ...d, rows: 0 } : d)
    )
    expect(
      monitorFindings(parts, opts)
        .filter((x) => x.kind === 'volume_anomaly')
        .map((x) => x.key)
    ).toEqual(['messages/30/'])
    const full = monitorFindings(
      month('users', (i) => (i === 10 ? 100 : 5000)),
      opts
    )
    expect(full[0]!.message).toContain(
      '100 rows; usual 2,500–15,000 (median of the 6 deliveries before it (the same hour on earlier days and the 6 previous) ± 3 MAD)'
    )
  })

  it('a jump far above the usual is found', () => {
    const f = monitorFindings(
      month('messages', (i) => (i === 600 ? 40000 : 2000 + jitter(i))),
      opts
    )
    expect(f.filter((x) => x.kind === 'volume_anomaly').map((x) => x.hour)).toEqual([day(600).hour])
  })

  it('an empty copy (no file) or one with an unreadable file is not judged twice; too little history is not judged', () => {
    const full = month(
      'users',
      () => 5000,
      (i, d) => (i === 300 ? { ...d, rows: 0, files: 0 } : i === 301 ? { ...d, rows: 10, hasUnreadable: true } : d)
    )
    expect(monitorFindings(full, opts).filter((x) => x.kind === 'volume_anomaly')).toEqual([])
    expect(
      monitorFindings(
        month('users', (i) => (i === 3 ? 1 : 5000)),
        opts
      )
    ).toEqual([])
  })

  it('thresholds per table, changed by the connection', () => {
    const data = month('messages', (i) => (i === 600 ? 7000 : 2000 + jitter(i)))
    expect(monitorFindings(data, opts)).toHaveLength(1)
    expect(monitorFindings(data, { ...opts, config: { tables: { messages: { maxRatio: 4 } } } })).toHaveLength(0)
    expect(thresholdsFor('x', { all: { days: 3 } })).toEqual({ ...DEFAULT_MONITOR_THRESHOLDS, days: 3 })
  })
})

describe('schema monitors', () => {
  it('a dropped and a retyped column are warnings, an added one is info, each said once at the first delivery that shows it', () => {
    const data = month(
      'users',
      () => 5000,
      (i, d) =>
        i >= 200 && i < 300
          ? { ...d, columns: [{ name: 'id', type: 'VARCHAR' }, ...COLS.slice(1)] }
          : i >= 300
            ? { ...d, columns: [COLS[0]!, { name: 'email', type: 'VARCHAR' }] }
            : d
    )
    const f = monitorFindings(data, opts)
    expect(f.map((x) => [x.kind, x.severity, x.hour, x.date])).toEqual([
      ['schema_change', 'warning', day(200).hour, day(200).date],
      ['schema_change', 'warning', day(300).hour, day(300).date],
      ['schema_change', 'info', day(300).hour, day(300).date],
      ['schema_change', 'warning', day(300).hour, day(300).date]
    ])
    expect(f[0]!.message).toContain('column id retyped from BIGINT to VARCHAR')
    expect(f.map((x) => x.message).join('\n')).toMatch(/column email \(VARCHAR\) added[\s\S]*column name \(VARCHAR\) dropped/)
  })

  it('the same columns in another order are no change', () => {
    expect(schemaChanges(COLS, [...COLS].reverse())).toEqual([])
  })
})

describe('manifest rows', () => {
  it('rows the footers disagree with are a manifest_mismatch naming both figures', () => {
    const f = monitorFindings(
      month(
        'users',
        () => 5000,
        (i, d) => (i === 100 ? { ...d, manifestRows: 5100 } : d)
      ),
      opts
    )
    expect(f).toHaveLength(1)
    expect(f[0]).toMatchObject({ kind: 'manifest_mismatch', severity: 'warning', hour: day(100).hour })
    expect(f[0]!.message).toContain('the manifest says 5,100 rows, the files\u2019 footers hold 5,000'.replace('\u2019', "'"))
  })
})

describe('deliveryFacts: each ready folder from the footers already read', () => {
  const at = '2026-11-05T03:30:00.000Z'
  const obj = (key: string, size: number): { key: string; size: number; lastModified: string } => ({ key, size, lastModified: at })
  const base = 'v2/datamart_claudia/claudia_messages/etl_date=2026-11-05/'
  const inv = buildInventory(
    [
      obj('v2/_manifests/snapshot_date=2026-11-05/snapshot_hour=03/manifest.json', 10),
      obj(`${base}etl_hour=03/part-0.parquet`, 100),
      obj(`${base}etl_hour=03/part-1.parquet`, 50),
      obj(`${base}etl_hour=03/_SUCCESS`, 0),
      obj(`${base}etl_hour=04/part-0.parquet`, 70),
      obj(`${base}etl_hour=04/_SUCCESS`, 0),
      obj(`${base}etl_hour=05/part-0.parquet`, 70),
      obj(`${base}etl_hour=05/part-1.parquet`, 70),
      obj(`${base}etl_hour=05/_SUCCESS`, 0),
      // Not ready: never judged.
      obj(`${base}etl_hour=06/part-0.parquet`, 70)
    ],
    { now: Date.parse('2026-11-05T08:00:00Z') }
  )
  const facts = new Map([
    [`${base}etl_hour=03/part-0.parquet`, { rows: 7, columns: COLS }],
    [`${base}etl_hour=03/part-1.parquet`, { rows: 5, columns: COLS }],
    [`${base}etl_hour=05/part-0.parquet`, { rows: 3, columns: COLS }],
    [`${base}etl_hour=06/part-0.parquet`, { rows: 3, columns: COLS }]
  ])

  it('sums rows and bytes per folder, leaves out a folder whose footers are not all known, and marks an unreadable file', () => {
    const got = deliveryFacts(inv, facts, new Set([`${base}etl_hour=05/part-1.parquet`]))
    expect(got.map((d) => [d.key.slice(base.length), d.hour, d.rows, d.bytes, d.files, d.hasUnreadable])).toEqual([
      ['etl_hour=03/', '03', 12, 150, 2, false],
      ['etl_hour=05/', '05', 3, 140, 2, true]
    ])
    expect(got[0]?.columns).toEqual(COLS)
  })

  it('a ready folder whose footers are not known is judged on the rows its manifest gives, with no columns', () => {
    const have = new Set(deliveryFacts(inv, facts).map((d) => d.key))
    const rows = new Map([
      [`${base}etl_hour=04/`, 9],
      [`${base}etl_hour=03/`, 12],
      [`${base}etl_hour=06/`, 4]
    ])
    const got = manifestFacts(inv, rows, have)
    expect(got.map((d) => [d.key.slice(base.length), d.rows, d.manifestRows, d.columns])).toEqual([['etl_hour=04/', 9, 9, null]])
  })
})
