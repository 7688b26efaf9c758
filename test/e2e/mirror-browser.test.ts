// The renderer's engine (DuckDB-WASM 0.9.1 in Debian's Chromium) on the compacted mirror, through the byte server:
// every parts table and its __versions, now and "as of" an hour, hold exactly the rows native DuckDB gives on the raw
// files under the same rules; and it opens them from a few segment files, where the raw path needs one per file.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { refreshBucketIndex } from '../../src/main/bucket/bucket-index'
import { LocalFolderProvider } from '../../src/main/bucket/local-provider'
import { type ByteServer, startByteServer } from '../../src/main/byte-server/byte-server'
import { type BucketEngine, openBucketEngine } from '../../src/main/engine/open-bucket-engine'
import { fileStoreFor } from '../../src/main/store/connection-files'
import { ConnectionMirror } from '../../src/main/mirror/connection-mirror'
import { type MirroredSegment, mirrorRead } from '../../src/shared/mirror-plan'
import { MIRROR_KEY_PREFIX } from '../../src/shared/mirror-sql'
import { objectsForViews } from '../../src/shared/bucket-views'
import { CATALOG } from '../../src/shared/catalog'
import { buildInventory } from '../../src/shared/inventory'
import type { ListedObject } from '../../src/shared/listing'
import { quoteIdent, quoteLiteral } from '../../src/shared/sql-quote'
import { openDb } from '../helpers/duckdb'
import { launchChromium } from '../helpers/chromium'
import { type Demo, generateDemo } from '../helpers/demo'
import { enginePage } from '../helpers/engine-page'
import { serveFolder } from '../helpers/static-server'
import { copyTree } from '../helpers/copy-tree'

let demo: Demo
let work: string
let bucket: string
let bytes: ByteServer
let page: { origin: string; close(): Promise<void> }
let mirror: ConnectionMirror
let objects: ReadonlyMap<string, ListedObject>
/** Requests the byte server answered for the mirror's files (segments and superseded lists). */
let segmentRequests = 0
const PARTS = CATALOG.filter((t) => t.mode === 'parts')
const now = (): number => Date.parse(demo.expected.now)

beforeAll(async () => {
  demo = await generateDemo({ days: 8 })
  work = await mkdtemp(join(tmpdir(), 'ee-mirror-browser-'))
  bucket = join(work, 'bucket')
  await copyTree(demo.bucketDir, bucket)
  await writeFile(join(bucket, '.export-explorer', 'storage-classes.json'), '{}')
  const provider = new LocalFolderProvider(bucket)
  objects = (await refreshBucketIndex(provider, null, { now: now() })).index.objects
  mirror = new ConnectionMirror(join(work, 'data'), 'c', provider)
  // Built two hours back, then hour by hour: each new hour adds a file to the keyed tables' superseded lists, which the
  // renderer reads together.
  for (const back of [2, 1, 0]) {
    const at = now() - back * 3_600_000
    await mirror.update(async () => ({ inventory: buildInventory(objects.values(), { now: at }), now: at }))
  }
  await mirror.segments()
  expect(Math.max(...(await mirror.superseded()).map((l) => l.parts.length))).toBeGreaterThan(1)
  page = await serveFolder(await enginePage(work))
  const store = fileStoreFor(provider, join(work, 'data'), 'c')
  bytes = await startByteServer({
    provider,
    lookup: (k) => {
      if (!k.startsWith(MIRROR_KEY_PREFIX)) return objects.get(k)
      segmentRequests++
      return mirror.object(k)
    },
    cacheDir: join(work, 'cache'),
    allowOrigin: page.origin,
    store: mirror.heldFiles(store)
  })
}, 300_000)
afterAll(async () => {
  await page?.close()
  await bytes?.close()
  await demo?.cleanup()
  if (work) await rm(work, { recursive: true, force: true })
})

/** Every row of a view as text, columns by name, sorted: the same in both engines for the demo's types. */
function rowsSql(view: string, columns: readonly string[]): string {
  const cols = [...columns].sort().map((c) => `coalesce(CAST(${quoteIdent(c)} AS VARCHAR), '∅')`)
  return `SELECT ${cols.join(" || '|' || ")} AS r FROM ${quoteIdent(view)} ORDER BY r`
}

async function nativeRows(be: BucketEngine, view: string): Promise<{ columns: string[]; rows: string[] }> {
  const columns = (await be.engine.selectAll(`DESCRIBE SELECT * FROM ${quoteIdent(view)}`)).rows.map((r) => String(r[0]))
  const rows = (await be.engine.selectAll(rowsSql(view, columns))).rows.map((r) => String(r[0]))
  return { columns, rows }
}

/** Per parts table, the segments a mirror behind the listing has not built: its newest, and one in the middle. */
function missedSegments(segments: readonly MirroredSegment[]): MirroredSegment[] {
  return PARTS.flatMap((t) => {
    const mine = segments.filter((s) => s.table === `${t.schema}.${t.table}` && s.rows > 0)
    return [mine[mine.length - 1], mine[Math.floor(mine.length / 2)]].filter((s): s is MirroredSegment => s !== undefined)
  })
}

describe('the renderer on the mirror', () => {
  it('a session whose engine started ahead (the app warms it once idle) opens its views on that engine', async () => {
    const inventory = buildInventory(objects.values(), { now: now() })
    const browser = await launchChromium()
    try {
      const tab = await browser.newPage()
      await tab.goto(`${page.origin}/index.html`)
      await tab.waitForFunction(() => typeof window.runSessionTimings === 'function')
      const out = await tab.evaluate((cfg) => window.runSessionTimings(cfg), {
        objects: objectsForViews(inventory, {}),
        base: bytes.url(''),
        now: now(),
        sql: PARTS.map((t) => `SELECT count(*)::INTEGER AS n FROM ${quoteIdent(t.table)}`),
        mirror: await mirror.segments(),
        superseded: await mirror.superseded(),
        warm: true
      })
      // One engine, started ahead and taken by the views: their files' URLs are the byte server's.
      expect([out.starts, out.generation]).toEqual([1, 1])
      expect(out.results).toEqual(PARTS.map((t) => [{ n: demo.expected.tables[t.table]!.rows }]))
    } finally {
      await browser.close()
    }
  })
  // Now: the segments held whole in the engine's memory; as of an hour: with no memory for them, read over HTTP; and a
  // mirror behind the listing (its newest segment and one in the middle not built yet), whose folders missing are read
  // from their raw files beside the segments.
  for (const [asOfHoursBack, whole, behind] of [
    [null, true, false],
    [30, false, false],
    [null, true, true]
  ] as const) {
    it(`gives the parts tables exactly what native DuckDB gives on the raw files${asOfHoursBack ? `, as of ${asOfHoursBack} hours earlier` : ''}, segments ${whole ? 'held whole' : 'read over HTTP'}${behind ? ', the mirror behind the listing' : ''}`, async () => {
      const asOf = asOfHoursBack === null ? undefined : now() - asOfHoursBack * 3_600_000
      const provider = new LocalFolderProvider(bucket)
      const inventory = buildInventory(objects.values(), { now: now() })
      const raw = await openBucketEngine(fileStoreFor(provider, join(work, 'data'), 'c'), inventory, objects, join(work, 'engine-raw'), {
        now: now(),
        ...(asOf !== undefined ? { asOf } : {})
      })
      const want: Record<string, { columns: string[]; rows: string[] }> = {}
      try {
        for (const t of PARTS) for (const v of [t.table, `${t.table}__versions`]) want[v] = await nativeRows(raw, v)
      } finally {
        await raw.engine.close()
      }
      const views = Object.keys(want)
      const sql = views.map((v) => rowsSql(v, (want[v] as { columns: string[] }).columns))
      const built = await mirror.segments()
      const superseded = await mirror.superseded()
      const segments = behind ? built.filter((s) => !missedSegments(built).includes(s)) : built
      const reads = PARTS.map((t) => mirrorRead(inventory, t, segments, asOf !== undefined ? { asOf } : {}, superseded))
      const selected = reads.reduce((n, r) => n + (r?.segments.length ?? 0), 0)
      // Behind: every parts table reads folders from raw files beside its segments.
      expect(reads.map((r) => (r?.raw.length ?? 0) > 0)).toEqual(PARTS.map(() => behind))
      // Now, each keyed table reads every row but those its superseded list names; as of an hour, or with raw folders
      // beside the segments, it ranks the versions.
      expect(reads.filter((r) => r?.superseded).length).toBe(asOf === undefined && !behind ? PARTS.filter((t) => t.keyColumn !== null).length : 0)
      const lists = reads.reduce((n, r) => n + (r?.superseded?.parts.length ?? 0), 0)
      segmentRequests = 0
      const browser = await launchChromium()
      try {
        const tab = await browser.newPage()
        await tab.goto(`${page.origin}/index.html`)
        await tab.waitForFunction(() => typeof window.runViews === 'function')
        const out = await tab.evaluate((cfg) => window.runViews(cfg), {
          objects: objectsForViews(inventory, asOf !== undefined ? { asOf } : {}),
          base: bytes.url(''),
          now: now(),
          sql,
          mirror: { segments, superseded },
          ...(asOf !== undefined ? { asOf } : {}),
          ...(whole ? {} : { wholeFileBudgetBytes: 0 })
        })
        // (The demo's planted corrupt file belongs to a full table; the parts tables must all open.)
        expect((out.problems as { table: string }[]).filter((p) => PARTS.some((t) => p.table.endsWith(t.table)))).toEqual([])
        views.forEach((v, i) => {
          const got = out.results[i] as { r: string }[] | { error: string }
          expect([v, Array.isArray(got) ? got.map((x) => x.r) : got]).toEqual([v, (want[v] as { rows: string[] }).rows])
        })
        // The parts tables came from a handful of segment files, not from one request per delivered file.
        const partsFiles = PARTS.reduce(
          (n, t) => n + [...objects.values()].filter((o) => o.key.includes(`/${t.table}/`) && o.key.endsWith('.parquet')).length,
          0
        )
        expect(bytes.stats.fromStore).toBeGreaterThan(0)
        expect(segments.filter((s) => s.rows > 0).length).toBeLessThan(partsFiles / 3)
        // Held whole: one GET per segment for every view and query; over HTTP, DuckDB-WASM's ranged reads, again and again.
        expect(selected).toBeGreaterThan(0)
        if (whole) expect(segmentRequests).toBe(selected + lists)
        else expect(segmentRequests).toBeGreaterThan(2 * selected)
      } finally {
        await browser.close()
      }
    }, 300_000)
  }
})

describe('the renderer on the mirror, where the raw files would not open', () => {
  it('reads a table whose column was widened part-way and one with a vendor column named filename, as native DuckDB does', async () => {
    const dir = join(work, 'odd-bucket')
    const db = await openDb()
    const write = async (prefix: string, select: string): Promise<void> => {
      await mkdir(join(dir, prefix), { recursive: true })
      await db.run(`COPY (${select}) TO ${quoteLiteral(join(dir, prefix, 'part-00000.parquet'))} (FORMAT parquet)`)
      await writeFile(join(dir, prefix, '_SUCCESS'), '')
    }
    try {
      // INT32 in the initial load, INT64 later (DuckDB-WASM 0.9.1 fails on the raw files); a vendor column `filename`.
      await write('v1/datamart_claudia/claudia_messages/etl_date=__initial__/', `SELECT 'm' || range AS message_id, range::INTEGER AS tokens FROM range(4)`)
      await write(
        'v1/datamart_claudia/claudia_messages/etl_date=2026-11-01/',
        `SELECT 'm' || range AS message_id, (range + 5000000000)::BIGINT AS tokens FROM range(2)`
      )
      await write(
        'v1/datamart_claudia/claudia_prompt_revision/etl_date=2026-11-01/',
        `SELECT 'p' || range AS prompt_revision_id, 'vendor-file-' || range AS filename FROM range(3)`
      )
    } finally {
      db.close()
    }
    const at = Date.now() + 1000
    const provider = new LocalFolderProvider(dir)
    const listed = (await refreshBucketIndex(provider, null, { now: at })).index.objects
    const inventory = buildInventory(listed.values(), { now: at })
    const odd = new ConnectionMirror(join(work, 'odd-data'), 'odd', provider)
    await odd.update(async () => ({ inventory, now: at }))
    const segments = await odd.segments()
    const server = await startByteServer({
      provider,
      lookup: (k) => (k.startsWith(MIRROR_KEY_PREFIX) ? odd.object(k) : listed.get(k)),
      cacheDir: join(work, 'odd-cache'),
      allowOrigin: page.origin,
      store: odd.heldFiles(fileStoreFor(provider, join(work, 'odd-data'), 'odd'))
    })
    const browser = await launchChromium()
    try {
      const tab = await browser.newPage()
      await tab.goto(`${page.origin}/index.html`)
      await tab.waitForFunction(() => typeof window.runPaneViews === 'function')
      const sql = [
        'SELECT message_id, tokens::VARCHAR AS t FROM claudia_messages ORDER BY 1',
        'SELECT prompt_revision_id, filename FROM claudia_prompt_revision ORDER BY 1'
      ]
      const [out] = await tab.evaluate((cfg) => window.runPaneViews(cfg), {
        base: server.url(''),
        now: at,
        guarded: true,
        steps: [{ objects: objectsForViews(inventory), sql, mirror: { segments } }]
      })
      expect(out?.problems.filter((p) => /claudia_messages|claudia_prompt_revision/.test(p.table))).toEqual([])
      expect(out?.results[0]).toEqual([
        { message_id: 'm0', t: '5000000000' },
        { message_id: 'm1', t: '5000000001' },
        { message_id: 'm2', t: '2' },
        { message_id: 'm3', t: '3' }
      ])
      expect(out?.results[1]).toEqual([0, 1, 2].map((i) => ({ prompt_revision_id: `p${i}`, filename: `vendor-file-${i}` })))
    } finally {
      await browser.close()
      await server.close()
    }
  }, 300_000)
})
