// The core against a generated bucket: the timeline reports exactly the planted faults, and the logical
// tables computed by the core's SQL on native DuckDB match the generator's own truth.
import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { listLocalFolder, readLocalBucket } from '../helpers/local-bucket'
import { type RefreshedBucket, findingInputs } from '../../src/main/bucket/refresh-pipeline'
import { type Expected, planDemoBucket } from '../../src/main/demo-bucket/demo-plan'
import { ANOMALY_TABLES, DROPPED_COLUMN, plantMonitorAnomalies } from '../../src/main/demo-bucket/plant-anomalies'
import { CATALOG, type CatalogTable } from '../../src/shared/catalog'
import { buildInventory, foldersForLogicalTable, latestReady, readyPartsFolders } from '../../src/shared/inventory'
import { logicalTableSql, versionsSql } from '../../src/shared/logical-table-sql'
import { quoteIdent, quoteLiteral } from '../../src/shared/sql-quote'
import { analyzeTimeline } from '../../src/shared/timeline'
import { type Demo, generateDemo } from '../helpers/demo'
import { type Db, openDb } from '../helpers/duckdb'

let demo: Demo
let snap: RefreshedBucket
let db: Db

beforeAll(async () => {
  demo = await generateDemo({ seed: 7, days: 9 })
  snap = await readLocalBucket(demo.bucketDir)
  db = await openDb()
})
afterAll(async () => {
  db?.close()
  await demo?.cleanup()
})

const table = (name: string): CatalogTable => CATALOG.find((t) => t.table === name) as CatalogTable
const fault = (f: { kind: string; date: string | null; hour: string | null; table: string | null; key: string }): string =>
  [f.kind, f.date, f.hour, f.table, f.key].join(' | ')

function logicalSql(t: CatalogTable): string {
  const q = logicalTableSql(t, foldersForLogicalTable(snap.inventory, t, { unreadable: snap.unreadable }), (k) => join(demo.bucketDir, k))
  if (!q.ok) throw new Error(q.message)
  return q.sql
}

describe('timeline analysis of the generated bucket', () => {
  it('reports exactly the planted faults (the monitors included: its two schema changes, and no volume anomaly)', () => {
    const tl = analyzeTimeline(snap.inventory, snap.manifests, { now: Date.parse(demo.expected.now), ...findingInputs(snap) })
    expect(tl.findings.map(fault).sort()).toEqual(demo.expected.faults.map(fault).sort())
  })

  it('gives the same analysis with parsed manifests kept between runs, and re-parses a manifest whose text changed', () => {
    const now = Date.parse(demo.expected.now)
    const plain = analyzeTimeline(snap.inventory, snap.manifests, { now })
    const parsedCache = new Map()
    expect(analyzeTimeline(snap.inventory, snap.manifests, { now, parsedCache })).toEqual(plain)
    expect(parsedCache.size).toBeGreaterThan(100)
    expect(analyzeTimeline(snap.inventory, snap.manifests, { now, parsedCache })).toEqual(plain)
    // The malformed manifest is re-sent whole: the next analysis reads the new text, not the cached parse.
    const h = demo.expected.planted_hours['malformedManifest']!
    const key = [...snap.manifests.keys()].find((k) => k.includes(`snapshot_date=${h.date}/snapshot_hour=${h.hour}/`))!
    const other = [...snap.manifests.entries()].find(([k, t]) => k !== key && k.startsWith('v2/') && typeof t === 'string' && t.includes('"complete": true'))!
    const fixed = new Map(snap.manifests)
    fixed.set(
      key,
      (other[1] as string)
        .replace(/\d{4}-\d{2}-\d{2}/g, h.date)
        .replaceAll(/"snapshot_hour": "\d\d"/g, `"snapshot_hour": "${h.hour}"`)
        .replaceAll(/snapshot_hour=\d\d/g, `snapshot_hour=${h.hour}`)
    )
    const again = analyzeTimeline(snap.inventory, fixed, { now, parsedCache })
    expect(again.findings.filter((f) => f.kind === 'manifest_malformed')).toEqual([])
    expect(again).toEqual(analyzeTimeline(snap.inventory, fixed, { now }))
  })

  it('gives the planted cells their states and recognises retention', () => {
    // With the files the frame check found unreadable, as the app and the CLI analyse it.
    const tl = analyzeTimeline(snap.inventory, snap.manifests, { now: Date.parse(demo.expected.now), unreadable: snap.unreadable })
    const byHour = new Map(tl.hours.map((h) => [`${h.date} ${h.hour}`, h]))
    for (const c of demo.expected.cells) expect({ ...c, state: byHour.get(`${c.date} ${c.hour}`)?.cells[c.table] }).toEqual(c)
    // Folders without _SUCCESS: failed where no manifest speaks; missing where the hour's manifest lists the table missing.
    expect(demo.expected.partial_folders.map((p) => p.state).sort()).toEqual(['failed', 'missing'])
    for (const p of demo.expected.partial_folders) {
      expect(snap.inventory.folders.get(p.prefix)?.marker, p.prefix).toBeNull()
      expect(byHour.get(`${p.date} ${p.hour}`)?.cells[p.table], p.prefix).toBe(p.state)
      expect(tl.findings.find((f) => f.key === p.prefix)?.message, p.prefix).toMatch(/no _SUCCESS/)
    }
    const pruned = tl.hours.reduce((n, h) => n + Object.values(h.cells).filter((s) => s === 'pruned').length, 0)
    expect(pruned).toBe(demo.expected.pruned_cells)
    expect(pruned).toBeGreaterThan(0)
    const malformed = demo.expected.planted_hours['malformedManifest']!
    const hour = byHour.get(`${malformed.date} ${malformed.hour}`)
    expect(hour?.manifest).toBe('malformed')
    expect(hour?.manifestWarnings.join(' ')).toMatch(/not valid JSON/)
    // The switch gap and v1's other hours are not deliveries.
    expect(byHour.get('2026-11-02 12')?.cells['claudia_messages']).toBe('no_delivery')
    expect(byHour.get('2026-11-02 07')?.cells['claudia_messages']).toBe('ready')
    expect(byHour.get('2026-11-03 03')?.era).toBe('v2')
  })

  it('reads v2 from the manifests, not the clock', () => {
    expect(snap.inventory.version).toBe('v2')
  })
})

describe('logical tables computed by the core SQL', () => {
  it('picks the latest ready copy of every full table', () => {
    for (const t of CATALOG.filter((c) => c.mode === 'full')) {
      const f = latestReady(snap.inventory, t, { unreadable: snap.unreadable })
      const want = demo.expected.latest_ready[t.table]
      expect(f ? { prefix: f.ref.prefix, snapshot_date: f.ref.partition.date, snapshot_hour: f.ref.partition.hour } : null, t.table).toEqual(want)
    }
  })

  it('counts rows and distinct keys as the generator planted them', async () => {
    for (const t of CATALOG) {
      const e = demo.expected.tables[t.table]!
      const key = t.keyColumn ?? (t.mode === 'parts' ? 'message_id' : null)
      const [row] = await db.rows(`SELECT count(*)::INTEGER AS n${key ? `, count(DISTINCT ${quoteIdent(key)})::INTEGER AS k` : ''} FROM (${logicalSql(t)})`)
      expect(row?.['n'], t.table).toBe(e.rows)
      if (e.distinct_keys !== null) expect(row?.['k'], t.table).toBe(e.distinct_keys)
      if (t.mode === 'parts') {
        const folders = readyPartsFolders(snap.inventory, t)
        expect(folders.length, t.table).toBe(e.ready_folders)
        expect(folders.at(-1)?.ref.prefix).toBe(e.newest_folder?.prefix)
      }
    }
  })

  it('keeps the newest version of every tracked row', async () => {
    for (const nv of demo.expected.newest_values) {
      const rows = await db.rows(
        `SELECT ${quoteIdent(nv.column)} AS v FROM (${logicalSql(table(nv.table))}) WHERE ${quoteIdent(nv.key_column)} = ${quoteLiteral(nv.key)}`
      )
      expect(rows, nv.key).toEqual([{ v: nv.value }])
    }
  })

  it('combines files by column name: a column added later is NULL in older rows', async () => {
    const ca = demo.expected.column_added
    const [row] = await db.rows(`SELECT count(${quoteIdent(ca.column)})::INTEGER AS n FROM (${logicalSql(table(ca.table))})`)
    expect(row?.['n']).toBe(ca.non_null_in_logical_table)
    expect(ca.non_null_in_logical_table).toBeGreaterThan(0)
  })

  it('reads a column whose type changed part-way as the wider type, every row kept', async () => {
    const tc = demo.expected.type_change
    const [row] = await db.rows(
      `SELECT typeof(${quoteIdent(tc.column)}) AS type, sum(${quoteIdent(tc.column)})::DOUBLE AS s FROM (${logicalSql(table(tc.table))}) GROUP BY 1`
    )
    expect(row).toEqual({ type: tc.logical_type, s: tc.sum_in_logical_table })
    const before = snap.inventory.folders.get(tc.from_prefix)
    expect(before?.dataFiles.length).toBeGreaterThan(0)
  })

  it('the switch: a full table missing in the first v2 hour reads its newest v1 copy as of that hour', () => {
    const sf = demo.expected.switch_fallback
    expect(latestReady(snap.inventory, table(sf.table), { asOf: Date.parse(sf.as_of) })?.ref.prefix).toBe(sf.latest_prefix)
  })

  it("a file cut short in a full table's newest copy: the previous readable copy is read, and it is a corrupt_file finding", async () => {
    const cf = demo.expected.corrupt_file
    const t = table(cf.table)
    expect([...snap.unreadable]).toEqual([cf.key])
    expect(latestReady(snap.inventory, t)?.ref.prefix).toBe(cf.prefix)
    expect(cf.reads_prefix).not.toBe(cf.prefix)
    expect(foldersForLogicalTable(snap.inventory, t, { unreadable: snap.unreadable }).map((f) => f.ref.prefix)).toEqual([cf.reads_prefix])
    const [row] = await db.rows(`SELECT count(*)::INTEGER AS n FROM (${logicalSql(t)})`)
    expect(row?.['n']).toBe(demo.expected.tables[cf.table]!.rows)
    const tl = analyzeTimeline(snap.inventory, snap.manifests, { now: Date.parse(demo.expected.now), unreadable: snap.unreadable })
    expect(tl.findings.find((f) => f.kind === 'corrupt_file')?.message).toContain(`the previous readable ready copy ${cf.reads_prefix} is read instead`)
  })

  it('an empty ready copy: as of its hour the table has no rows and the columns of the copy before', async () => {
    const ec = demo.expected.empty_copy
    const t = table(ec.table)
    const folders = foldersForLogicalTable(snap.inventory, t, { asOf: Date.parse(ec.as_of) })
    expect(folders[0]?.ref.prefix).toBe(ec.prefix)
    const q = logicalTableSql(t, folders, (k) => join(demo.bucketDir, k))
    if (!q.ok) throw new Error(q.message)
    expect(await db.rows(`SELECT count(*)::INTEGER AS n FROM (${q.sql})`)).toEqual([{ n: 0 }])
    expect((await db.rows(`DESCRIBE SELECT * FROM (${q.sql})`)).map((r) => r['column_name'])).toEqual(ec.columns)
  })

  it('keeps partition values as strings in the versions view', async () => {
    const t = table('claudia_messages')
    const q = versionsSql(t, readyPartsFolders(snap.inventory, t), (k) => join(demo.bucketDir, k))
    if (!q.ok) throw new Error(q.message)
    const [row] = await db.rows(
      `SELECT count(*)::INTEGER AS n, count(DISTINCT _prefix)::INTEGER AS folders, typeof(any_value(_etl_hour)) AS hour_type, ` +
        `count(*) FILTER (WHERE _etl_date = '__initial__')::INTEGER AS initial, count(*) FILTER (WHERE _etl_hour = '03')::INTEGER AS h03 FROM (${q.sql})`
    )
    expect(row).toMatchObject({
      n: demo.expected.tables['claudia_messages']!.versions,
      folders: demo.expected.tables['claudia_messages']!.ready_folders,
      hour_type: 'VARCHAR'
    })
    expect(row?.['initial']).toBeGreaterThan(0)
    expect(row?.['h03']).toBeGreaterThan(0)
  })

  it('never reads a folder without _SUCCESS nor a stray non-Parquet file', async () => {
    const t = table('claudia_csat')
    const failedHour = demo.expected.planted_hours['failedFolder']!
    const prefixes = foldersForLogicalTable(snap.inventory, t).map((f) => f.ref.prefix)
    expect(prefixes.some((p) => p.includes(`snapshot_date=${failedHour.date}/snapshot_hour=${failedHour.hour}/`))).toBe(false)
    const conv = foldersForLogicalTable(snap.inventory, table('claudia_conversation'))[0]!
    expect(conv.ignored.map((o) => o.key.split('/').pop())).toEqual(['part-00000.parquet.crc'])
    expect(conv.dataFiles).toHaveLength(2)
  })

  it('a key with quotes and SQL in its file name cannot change the query', async () => {
    const t = table('cloud_chat_tags')
    const f = latestReady(snap.inventory, t)!
    const evil = `part-1'); DROP TABLE x; --".parquet`
    const dir = join(demo.dir, 'evil-bucket', f.ref.prefix)
    await mkdir(dir, { recursive: true })
    await copyFile(join(demo.bucketDir, f.dataFiles[0]!.key), join(dir, evil))
    await copyFile(join(demo.bucketDir, f.marker!.key), join(dir, '_SUCCESS'))
    const root = join(demo.dir, 'evil-bucket')
    await mkdir(join(root, 'v2/_manifests/snapshot_date=2026-11-03/snapshot_hour=03'), { recursive: true })
    await writeFile(join(root, 'v2/_manifests/snapshot_date=2026-11-03/snapshot_hour=03/manifest.json'), '{}')
    const inv = buildInventory(await listLocalFolder(root))
    const q = logicalTableSql(t, foldersForLogicalTable(inv, t), (k) => join(root, k))
    if (!q.ok) throw new Error(q.message)
    const [row] = await db.rows(`SELECT count(*)::INTEGER AS n FROM (${q.sql})`)
    expect(row?.['n']).toBe(demo.expected.tables['cloud_chat_tags']!.rows)
  })
})

describe('the generator', () => {
  it('is deterministic for a seed and differs across seeds', async () => {
    const a = planDemoBucket({ seed: 7, days: 9, scale: 1, v1Days: 5 }).expected
    const b = planDemoBucket({ seed: 7, days: 9, scale: 1, v1Days: 5 }).expected
    const c = planDemoBucket({ seed: 8, days: 9, scale: 1, v1Days: 5 }).expected
    expect(JSON.stringify(a)).toBe(JSON.stringify(b))
    expect(JSON.stringify(a.newest_values)).not.toBe(JSON.stringify(c.newest_values))
    const written = JSON.parse(await readFile(join(demo.dir, 'expected.json'), 'utf8'))
    expect(written).toEqual(JSON.parse(JSON.stringify(a)))
  })

  it('writes every table of the catalog, with tenant_id in each', async () => {
    for (const t of CATALOG) {
      const [row] = await db.rows(`SELECT count(tenant_id)::INTEGER AS n FROM (${logicalSql(t)})`)
      expect(row?.['n'], t.table).toBe(demo.expected.tables[t.table]!.rows)
    }
  })
})

describe('an export that starts mid-day (--start)', () => {
  let mid: Demo
  beforeAll(async () => {
    mid = await generateDemo({ seed: 11, days: 8, start: Date.UTC(2026, 10, 3, 14) })
  }, 120_000)
  afterAll(async () => {
    await mid?.cleanup()
  })

  it('nothing is due before its first delivery: no finding before 14:00, the hours before it are no delivery, and the truth holds', async () => {
    const s = await readLocalBucket(mid.bucketDir)
    const tl = analyzeTimeline(s.inventory, s.manifests, { now: Date.parse(mid.expected.now), ...findingInputs(s) })
    expect(mid.expected.first_delivery).toBe('2026-11-03T14:00:00Z')
    expect(tl.hours[0]?.start).toBe(Date.UTC(2026, 10, 3))
    expect(tl.findings.map(fault).sort()).toEqual(mid.expected.faults.map(fault).sort())
    const byHour = new Map(tl.hours.map((h) => [`${h.date} ${h.hour}`, h]))
    for (const c of mid.expected.cells) expect({ ...c, state: byHour.get(`${c.date} ${c.hour}`)?.cells[c.table] }).toEqual(c)
    expect(byHour.get('2026-11-03 13')?.cells['claudia_messages']).toBe('no_delivery')
    // Everything delivered before the start arrives in the first delivery: the logical tables are whole.
    for (const t of CATALOG) {
      const q = logicalTableSql(t, foldersForLogicalTable(s.inventory, t, { unreadable: s.unreadable }), (k) => join(mid.bucketDir, k))
      if (!q.ok) throw new Error(q.message)
      const [row] = await db.rows(`SELECT count(*)::INTEGER AS n FROM (${q.sql})`)
      expect(row?.['n'], t.table).toBe(mid.expected.tables[t.table]!.rows)
    }
    expect(latestReady(s.inventory, table(mid.expected.switch_fallback.table), { asOf: Date.parse(mid.expected.switch_fallback.as_of) })).toBeNull()
  })
})

describe('the monitors on a bucket with planted anomalies (--anomalies)', () => {
  let copy: Demo
  let planted: Expected
  let s: RefreshedBucket
  beforeAll(async () => {
    // What writeDemoBucket's `anomalies` does after writing, on a copy of the run's bucket of the same plan (writing
    // one anew costs a minute of DuckDB): plant, then add what was planted to the faults.
    copy = await generateDemo({ days: 8 })
    const faults = await plantMonitorAnomalies(copy.bucketDir, planDemoBucket({ seed: 7, days: 8, scale: 1, v1Days: 5 }))
    planted = { ...copy.expected, faults: [...copy.expected.faults, ...faults] }
    s = await readLocalBucket(copy.bucketDir)
  }, 180_000)
  afterAll(async () => {
    await copy?.cleanup()
  })

  it('finds each at its hour (a shrunken full copy, an hour with no rows, a dropped column and its return), and nothing else', () => {
    const tl = analyzeTimeline(s.inventory, s.manifests, { now: Date.parse(planted.now), ...findingInputs(s) })
    expect(tl.findings.map(fault).sort()).toEqual(planted.faults.map(fault).sort())
    const monitors = tl.findings.filter((f) => f.kind === 'volume_anomaly' || f.kind === 'schema_change')
    const of = (table: string, kind: string): string[] => monitors.filter((f) => f.table === table && f.kind === kind).map((f) => f.message)
    // The full copy shrunk to a twentieth: read from the manifest's rows (its footers are not read), against the copies before it.
    expect(of(ANOMALY_TABLES.shrunk, 'volume_anomaly')).toEqual([
      expect.stringMatching(/: [\d,]+ rows; usual [\d,]+–[\d,]+ \(median of .*\)\. The copy is read as it is/)
    ])
    expect(of(ANOMALY_TABLES.empty, 'volume_anomaly')).toEqual([
      expect.stringMatching(/: 0 rows; usual 1–[\d,]+ \(median of the same hour on the last \d days/)
    ])
    expect(of(ANOMALY_TABLES.dropped, 'schema_change')).toEqual([
      expect.stringMatching(new RegExp(`column ${DROPPED_COLUMN} \\(VARCHAR\\) dropped`)),
      expect.stringMatching(new RegExp(`column ${DROPPED_COLUMN} \\(VARCHAR\\) added`))
    ])
    // Kept in step with the files: the planted hours are no manifest mismatch.
    expect(tl.findings.filter((f) => f.kind === 'manifest_mismatch' && f.message.includes(' rows'))).toEqual([])
  })

  it('judges a range that starts at the shrunken copy against the copies before it (their manifests, outside the range)', () => {
    const shrunk = planted.faults.find((f) => f.kind === 'volume_anomaly' && f.table === ANOMALY_TABLES.shrunk)!
    const from = Date.parse(`${shrunk.date}T${shrunk.hour}:00:00Z`)
    const tl = analyzeTimeline(s.inventory, s.manifests, { now: Date.parse(planted.now), from, ...findingInputs(s) })
    expect(tl.findings.filter((f) => f.kind === 'volume_anomaly' && f.table === ANOMALY_TABLES.shrunk).map((f) => [f.date, f.hour])).toEqual([
      [shrunk.date, shrunk.hour]
    ])
  })
})
