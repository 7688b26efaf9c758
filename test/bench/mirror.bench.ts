// npm run bench -- mirror
// A year of the three parts tables (real Parquet written by native DuckDB: etl_date=__initial__, BENCH_V1_DAYS daily
// v1 folders, BENCH_DAYS × 24 hourly v2 folders) in the S3 test server behind a loopback proxy adding 30 ms to every
// request (each in a process of its own, their CPU reported apart). Times, in one run: the cold mirror (listing, frame
// check, downloads, compaction) against reading each file with one sequential request (what DuckDB-WASM does per
// file); the warm path from opening the connection to the first
// count(*) of each parts table on the mirror; one new hour (time, requests, bytes); the mirror's size against the
// raw bytes; and a query on the mirror against native DuckDB on the raw files.
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises'
import { availableParallelism, tmpdir } from 'node:os'
import { join } from 'node:path'
import { DuckDBInstance } from '@duckdb/node-api'
import { refreshBucketIndex } from '../../src/main/bucket/bucket-index'
import { checkConnectionFrames } from '../../src/main/bucket/refresh-pipeline'
import { connectionBlockCache } from '../../src/main/byte-server/block-cache'
import { frameCacheFile } from '../../src/main/store/frame-answers'
import { S3Provider } from '../../src/main/bucket/s3-provider'
import { openBucketEngine } from '../../src/main/engine/open-bucket-engine'
import { fileStoreFor } from '../../src/main/store/connection-files'
import { DOWNLOADS_AT_ONCE } from '../../src/main/store/file-store'
import { ConnectionMirror } from '../../src/main/mirror/connection-mirror'
import { MIRROR_KEY_PREFIX } from '../../src/shared/mirror-sql'
import { type MirroredSegment, mirrorRead } from '../../src/shared/mirror-plan'
import { Mirror } from '../../src/main/mirror/mirror'
import { startByteServer } from '../../src/main/byte-server/byte-server'
import { objectsForViews } from '../../src/shared/bucket-views'
import type { ListedObject } from '../../src/shared/listing'
import { build } from 'vite'
import { launchChromium } from '../helpers/chromium'
import { serveFolder } from '../helpers/static-server'
import { CATALOG } from '../../src/shared/catalog'
import { buildInventory, foldersForLogicalTable } from '../../src/shared/inventory'
import { logicalTableSql } from '../../src/shared/logical-table-sql'
import { quoteIdent, quoteLiteral } from '../../src/shared/sql-quote'
import { startLatencyProxy } from '../helpers/latency-proxy-process'
import { putRaw } from '../helpers/s3rver-layout'
import { S3_TEST_KEYS, startS3Server } from '../helpers/s3-server'

const BUCKET = 'bench-mirror'
const DAYS = Number(process.env['BENCH_DAYS'] ?? 365)
const V1_DAYS = Number(process.env['BENCH_V1_DAYS'] ?? 60)
const ROWS = Number(process.env['BENCH_ROWS_PER_FOLDER'] ?? 40)
const LATENCY_MS = Number(process.env['BENCH_LATENCY_MS'] ?? 30)
/** Runs of the renderer's headline figure, each in a new browser, of which the median is printed. */
const RENDERER_RUNS = Math.max(1, Number(process.env['BENCH_RENDERER_RUNS'] ?? 5))
const V2_START = Date.UTC(2026, 10, 3, 3)
const PARTS = CATALOG.filter((t) => t.mode === 'parts')

interface Folder {
  readonly prefix: string
  readonly date: string
  readonly hour: string | null
  readonly at: number
}

function folders(t: { schema: string; table: string }, hours: number): Folder[] {
  const out: Folder[] = [
    { prefix: `v1/${t.schema}/${t.table}/etl_date=__initial__/`, date: '__initial__', hour: null, at: V2_START - (V1_DAYS + 2) * 86_400_000 }
  ]
  for (let d = V1_DAYS; d >= 1; d--) {
    const at = V2_START - 20 * 3_600_000 - d * 86_400_000
    out.push({
      prefix: `v1/${t.schema}/${t.table}/etl_date=${new Date(at).toISOString().slice(0, 10)}/`,
      date: new Date(at).toISOString().slice(0, 10),
      hour: null,
      at
    })
  }
  for (let h = 0; h < hours; h++) {
    const at = V2_START + h * 3_600_000
    const iso = new Date(at).toISOString()
    out.push({
      prefix: `v2/${t.schema}/${t.table}/etl_date=${iso.slice(0, 10)}/etl_hour=${iso.slice(11, 13)}/`,
      date: iso.slice(0, 10),
      hour: iso.slice(11, 13),
      at
    })
  }
  return out
}

/** One folder's Parquet, written by native DuckDB: new rows, and for keyed tables some re-deliveries of older keys. */
async function parquetFor(c: Awaited<ReturnType<DuckDBInstance['connect']>>, t: (typeof PARTS)[number], i: number, scratch: string): Promise<Buffer> {
  const key = t.keyColumn ?? 'message_id'
  const redo =
    i > 0
      ? ` UNION ALL SELECT 'k' || lpad(((r * 7919 + ${i}) % ${i * ROWS})::VARCHAR, 9, '0'), 'tnt_acme', 'edited in ${i}', TIMESTAMP '2026-01-01' + to_seconds(${i}::BIGINT * 3600) FROM range(${Math.ceil(ROWS / 10)}) t(r)`
      : ''
  const sql = `SELECT 'k' || lpad((${i * ROWS} + r)::VARCHAR, 9, '0') AS ${quoteIdent(key)}, ['tnt_acme','tnt_globex','tnt_initech'][1 + r % 3] AS tenant_id, 'text ' || r || ' of ' || ${i} AS content, TIMESTAMP '2026-01-01' + to_seconds(${i}::BIGINT * 3600 + r) AS ${t.eventTimeColumn ?? 'created_at'} FROM range(${ROWS}) t(r)${redo}`
  const file = join(scratch, 'f.parquet')
  await c.run(`COPY (${sql}) TO ${quoteLiteral(file)} (FORMAT parquet)`)
  return readFile(file)
}

export async function benchMirror(): Promise<void> {
  const work = await mkdtemp(join(tmpdir(), 'ee-bench-mirror-'))
  const s3 = await startS3Server({ childProcess: true })
  const proxy = await startLatencyProxy(s3.endpoint, LATENCY_MS)
  try {
    const hours = DAYS * 24
    const db = await DuckDBInstance.create(':memory:')
    const c = await db.connect()
    let files = 0
    let rawBytes = 0
    process.stderr.write(`writing ${PARTS.length} × ${1 + V1_DAYS + hours - 1} folders into the S3 server…\n`)
    const last: Record<string, Folder> = {}
    for (const t of PARTS) {
      const all = folders(t, hours)
      last[t.table] = all.pop() as Folder
      for (const [i, f] of all.entries()) {
        const body = await parquetFor(c, t, i, work)
        await putRaw(s3.directory, BUCKET, `${f.prefix}part-00000.parquet`, body, f.at + 10 * 60_000)
        await putRaw(s3.directory, BUCKET, `${f.prefix}_SUCCESS`, Buffer.alloc(0), f.at + 20 * 60_000)
        files++
        rawBytes += body.length
      }
    }
    await putRaw(s3.directory, BUCKET, 'v2/_manifests/snapshot_date=2026-11-03/snapshot_hour=03/manifest.json', Buffer.from('{}'), V2_START + 20 * 60_000)
    const now = V2_START + (hours - 2) * 3_600_000 + 50 * 60_000
    const provider = new S3Provider({ bucket: BUCKET, endpoint: proxy.endpoint, region: 'us-east-1', credentials: { kind: 'static', ...S3_TEST_KEYS } })
    const dataDir = join(work, 'data')
    const store = fileStoreFor(provider, dataDir, 'bench')
    // As the app's connection makes it: files a build finds unreadable are recorded with the frame check's answers.
    const mirror = new Mirror(join(dataDir, 'mirror', 'bench'), store, { unreadableFile: frameCacheFile(dataDir, 'bench') })
    const time = async <T>(f: () => Promise<T>): Promise<[number, T]> => {
      const t0 = performance.now()
      const r = await f()
      return [performance.now() - t0, r]
    }

    // Cold, as the app runs it: listing, the data files' frame check (each file's tail and footer through the block
    // cache: a small file's tail is all of it), then the mirror (downloads of what the blocks do not hold, compaction).
    let requests = await proxy.requests()
    const serverCpu0 = s3.cpuMs()
    const proxyCpu0 = proxy.cpuMs()
    const ownCpu0 = process.cpuUsage()
    const [listMs, cold] = await time(() => refreshBucketIndex(provider, null, { now }))
    const coldInventory = buildInventory(cold.index.objects.values(), { now })
    const footers = connectionBlockCache(dataDir, 'bench', provider)
    const [framesMs] = await time(async () => {
      await checkConnectionFrames(coldInventory, { footers, store }, dataDir, 'bench', { now })
      await footers.recordCensus()
    })
    const [mirrorMs, built] = await time(() => mirror.refresh(coldInventory, now))
    const coldRequests = (await proxy.requests()) - requests
    const serverCpu = serverCpu0 === null ? null : (s3.cpuMs() ?? 0) - serverCpu0
    const proxyCpu = proxyCpu0 === null ? null : (proxy.cpuMs() ?? 0) - proxyCpu0
    const ownCpuUsage = process.cpuUsage(ownCpu0)
    const ownCpu = (ownCpuUsage.user + ownCpuUsage.system) / 1000
    // A prefix that could not be listed would leave its folders out of the mirror: say so rather than time less.
    if (cold.problems.length > 0)
      process.stderr.write(
        `warning: ${cold.problems.length} prefix(es) could not be listed: ${cold.problems
          .map((p) => p.prefix)
          .slice(0, 3)
          .join(', ')} (${cold.problems[0]?.error.userMessage})\n`
      )
    if (built.problems.length > 0) throw new Error(JSON.stringify(built.problems.slice(0, 3)))
    const segments = await mirror.segments()
    const mirrorBytes = segments.reduce((n, s) => n + s.bytes, 0)

    // The compaction alone: a second mirror built from the files the store now holds (no request to the bucket), with
    // the frame check's answers as the app's (each file's columns and schema tag), to tell what the S3 test server
    // costs from what native DuckDB's compaction costs.
    requests = await proxy.requests()
    const compactCpu0 = process.cpuUsage()
    const [compactMs] = await time(() =>
      new Mirror(join(dataDir, 'mirror', 'bench-compaction'), store, { unreadableFile: frameCacheFile(dataDir, 'bench') }).refresh(
        buildInventory(cold.index.objects.values(), { now }),
        now
      )
    )
    const compactRequests = (await proxy.requests()) - requests
    const compactCpuUsage = process.cpuUsage(compactCpu0)
    const compactCpu = (compactCpuUsage.user + compactCpuUsage.system) / 1000
    await rm(join(dataDir, 'mirror', 'bench-compaction'), { recursive: true, force: true })

    // Warm: open the connection (incremental listing), mirror already current, first count(*) of each parts table.
    requests = await proxy.requests()
    let warmListMs = 0
    const [warmMs, warmAnswers] = await time(async () => {
      const l0 = performance.now()
      const again = await refreshBucketIndex(provider, cold.index, { now })
      warmListMs = performance.now() - l0
      const inventory = buildInventory(again.index.objects.values(), { now })
      await mirror.refresh(inventory, now)
      const be = await openBucketEngine(store, inventory, again.index.objects, join(work, 'engine-warm'), { now, mirror })
      try {
        const out: number[] = []
        for (const t of PARTS) out.push(Number((await be.engine.selectAll(`SELECT count(*) FROM ${quoteIdent(t.table)}`)).rows[0]?.[0]))
        return out
      } finally {
        await be.engine.close()
      }
    })
    const warmRequests = (await proxy.requests()) - requests

    const counts = PARTS.map((x) => `SELECT count(*) AS n FROM ${quoteIdent(x.table)}`)
    // One new hour for each parts table.
    for (const t of PARTS) {
      const f = last[t.table] as Folder
      const body = await parquetFor(c, t, 1 + V1_DAYS + hours, work)
      await putRaw(s3.directory, BUCKET, `${f.prefix}part-00000.parquet`, body, f.at + 10 * 60_000)
      await putRaw(s3.directory, BUCKET, `${f.prefix}_SUCCESS`, Buffer.alloc(0), f.at + 20 * 60_000)
    }
    const later = now + 3_600_000
    requests = await proxy.requests()
    const storeBefore = await du(join(dataDir, 'store'))
    const [hourListMs, hourListing] = await time(() => refreshBucketIndex(provider, cold.index, { now: later }))
    // The new hour listed, the mirror not built for it yet (the app's views open before its background build ends): the
    // hour's raw files read beside the segments, under the same rule.
    const beforeRenderer = await proxy.requests()
    const behind = await rendererOnMirror({ work, dataDir, provider, objects: hourListing.index.objects, now: later, sql: counts, warm: true, named: true })
    const rendererRequests = (await proxy.requests()) - beforeRenderer
    const [hourMirrorMs, hourResult] = await time(() => mirror.refresh(buildInventory(hourListing.index.objects.values(), { now: later }), later))
    const hourMs = hourListMs + hourMirrorMs
    const hourRequests = (await proxy.requests()) - requests - rendererRequests
    const hourBytes = (await du(join(dataDir, 'store'))) - storeBefore

    // A query on the mirror against native DuckDB on the raw files (the store's copies), same rules.
    const final = await refreshBucketIndex(provider, cold.index, { now: later })
    const inventory = buildInventory(final.index.objects.values(), { now: later })
    const q = 'SELECT tenant_id, count(*) AS n FROM claudia_messages GROUP BY 1 ORDER BY 1'
    const be = await openBucketEngine(store, inventory, final.index.objects, join(work, 'engine-q'), { now: later, mirror })
    const [mirrorQueryMs] = await time(() => be.engine.selectAll(q))
    await be.engine.close()
    const t = PARTS.find((x) => x.table === 'claudia_messages')!
    const paths = (await store.ensure(foldersForLogicalTable(inventory, t).flatMap((f) => f.dataFiles))).paths
    const raw = logicalTableSql(t, foldersForLogicalTable(inventory, t), (k) => paths.get(k) as string)
    if (!raw.ok) throw new Error(raw.message)
    await c.run(`CREATE VIEW claudia_messages AS ${raw.sql}`)
    const [rawQueryMs] = await time(async () => (await c.runAndReadAll(q)).getRows())
    c.closeSync()
    db.closeSync()
    // The renderer's query pane on this mirror, as rendererOnMirror runs it, with the options of each figure below.
    const onMirror = (
      o: Pick<Parameters<typeof rendererOnMirror>[0], 'sql' | 'warm' | 'named' | 'wholeFileBudgetBytes' | 'segments' | 'lists' | 'warmUpSql'>
    ) => rendererOnMirror({ work, dataDir, provider, objects: final.index.objects, now: later, ...o })
    const ui = await onMirror({ sql: [...counts, q] })
    // As the app runs it: the engine started and warmed up ahead (QuerySession.warmUp), before the first query.
    const warmed = await onMirror({ sql: counts, warm: true })
    // And the statement waiting only for the tables it names, which open ahead of the rest (the SQL pane's runSql).
    // Taken in turns with the same on an engine started but not warmed up (its warm-up statement left out): the median
    // run of each.
    const namedRuns: Awaited<ReturnType<typeof onMirror>>[] = []
    const unwarmedRuns: Awaited<ReturnType<typeof onMirror>>[] = []
    for (let i = 0; i < RENDERER_RUNS; i++) {
      namedRuns.push(await onMirror({ sql: counts, warm: true, named: true }))
      unwarmedRuns.push(await onMirror({ sql: counts, warm: true, named: true, warmUpSql: null }))
    }
    const firstAnswer = (r: (typeof namedRuns)[number]): number => r.startMs + r.viewsMs + (r.countMs[0] ?? 0)
    const median = (rs: typeof namedRuns): (typeof namedRuns)[number] => [...rs].sort((a, b) => firstAnswer(a) - firstAnswer(b))[rs.length >> 1]!
    const named = median(namedRuns)
    const unwarmed = median(unwarmedRuns)
    // Part-way through a cold build: every month but the newest compacted, the rest (the newest month, days and hours)
    // still raw files, read beside the segments; no superseded list yet (a build makes them last).
    const lastMonth = new Date(later).toISOString().slice(0, 7)
    const previousMonth = new Date(Date.UTC(Number(lastMonth.slice(0, 4)), Number(lastMonth.slice(5, 7)) - 2, 1)).toISOString().slice(0, 7)
    const compacted = (x: MirroredSegment): boolean =>
      !/^v2-\d{4}-\d{2}-/.test(x.period) && x.period !== `v2-${previousMonth}` && x.period !== `v2-${lastMonth}`
    const partway = await onMirror({ sql: counts, warm: true, named: true, segments: (all) => all.filter(compacted), lists: false })
    const rawLeft = inventoryFilesOutside(
      final.index.objects,
      (await new ConnectionMirror(dataDir, 'bench', provider).segments()).filter(compacted),
      later,
      PARTS[0]!
    )
    // At the very start of a cold build: no segment yet, every table read from its raw files (their small files fetched
    // whole in batches through the byte server).
    const unbuilt = await onMirror({ sql: counts, warm: true, named: true, segments: () => [], lists: false })
    // The same with every segment read over HTTP by DuckDB-WASM's ranged requests (no memory for whole segments).
    const overHttp = await onMirror({ sql: [...counts, q], wholeFileBudgetBytes: 0 })

    const s = (ms: number): string => `${(ms / 1000).toFixed(2)} s`
    const mb = (b: number): string => `${(b / 1e6).toFixed(1)} MB`
    const perFile = files * LATENCY_MS
    console.log(
      `mirror benchmark: ${PARTS.length} parts tables, ${files} Parquet files (${DAYS} days of v2 hours, ${V1_DAYS} v1 days, __initial__), ${mb(rawBytes)}, ${LATENCY_MS} ms added per request`
    )
    console.log(
      `  cold: listing ${s(listMs)} + frame check ${s(framesMs)} + mirror ${s(mirrorMs)} (downloads and compaction) = ${s(listMs + framesMs + mirrorMs)}, ${coldRequests} requests; ${segments.length} segments for ${files} files`
    )
    console.log(
      `        the compaction alone (a second mirror from the files already downloaded, with the frame check's answers): ${s(compactMs)} (${s(compactCpu)} of CPU), ${compactRequests} requests; downloads at ${LATENCY_MS} ms with no server cost would take ${s((files / DOWNLOADS_AT_ONCE) * LATENCY_MS)} (${DOWNLOADS_AT_ONCE} at a time)`
    )
    if (serverCpu !== null)
      console.log(
        `        CPU on this machine's ${availableParallelism()} cores: the S3 test server (s3rver, one process) ${s(serverCpu)} answering them, the latency proxy (its own process) ${proxyCpu === null ? 'unknown' : s(proxyCpu)}, Export Explorer (listing, downloads, compaction: this process) ${s(ownCpu)}`
      )
    console.log(
      `        one sequential request per file (DuckDB-WASM on the raw files) would take at least ${s(perFile)}: ${(perFile / (listMs + framesMs + mirrorMs)).toFixed(1)}x the mirror's cold build`
    )
    console.log(
      `  warm: opening the connection to the first count(*) of each parts table: ${s(warmMs)}, ${warmRequests} requests (counts ${warmAnswers.join(', ')})`
    )
    console.log(
      `  one new hour: ${s(hourMs)} (listing ${s(hourListMs)}, mirror ${s(hourMirrorMs)}), ${hourRequests} requests, ${mb(hourBytes)} downloaded, ${hourResult.built} segment(s) built`
    )
    console.log(
      `  a tenant aggregate on claudia_messages: mirror ${s(mirrorQueryMs)}, native DuckDB on the raw files ${s(rawQueryMs)} (${(mirrorQueryMs / rawQueryMs).toFixed(2)}x)`
    )
    console.log(
      `  renderer (DuckDB-WASM in Chromium, through the byte server): engine start ${s(ui.startMs)}, views ${s(ui.viewsMs)}, first count(*) of each parts table ${ui.countMs.map(s).join(', ')}: first answer ${s(firstAnswer(ui))} after ${s(warmListMs)} of listing`
    )
    console.log(
      `        with the engine started and warmed up ahead (as the app does while the user looks at the overview): views ${s(warmed.viewsMs)}, first count(*) ${s(warmed.countMs[0] ?? 0)}: first answer ${s(firstAnswer(warmed))}`
    )
    console.log(
      `        and the statement waiting only for the tables it names (as the app does; median of ${RENDERER_RUNS}): their views ${s(named.viewsMs)}, count(*) ${s(named.countMs[0] ?? 0)}: first answer ${s(firstAnswer(named))} (runs ${namedRuns.map((r) => s(firstAnswer(r))).join(', ')})`
    )
    console.log(
      `        the same on an engine started but not warmed up (its warm-up statement left out; median of ${RENDERER_RUNS}, in turns with the line above): their views ${s(unwarmed.viewsMs)}, count(*) ${s(unwarmed.countMs[0] ?? 0)}: first answer ${s(firstAnswer(unwarmed))} (runs ${unwarmedRuns.map((r) => s(firstAnswer(r))).join(', ')})`
    )
    const slowest = Object.entries(ui.tableMs).sort((a, b) => b[1] - a[1])
    const others = slowest.slice(3).reduce((n, [, ms]) => n + ms, 0)
    console.log(
      `        part-way through a cold build (everything before ${previousMonth} compacted, ${rawLeft} files of the first table still raw, no superseded list): their views ${s(partway.viewsMs)}, count(*) ${s(partway.countMs[0] ?? 0)}: first answer ${s(firstAnswer(partway))}`
    )
    console.log(
      `        at the start of a cold build (no segment yet: the first table's ${files / PARTS.length} raw files, fetched in batches): their views ${s(unbuilt.viewsMs)}, count(*) ${s(unbuilt.countMs[0] ?? 0)}: first answer ${s(firstAnswer(unbuilt))}`
    )
    console.log(
      `        with one new hour listed and not yet in the mirror (its raw files read beside the segments): their views ${s(behind.viewsMs)}, count(*) ${s(behind.countMs[0] ?? 0)}: first answer ${s(firstAnswer(behind))}`
    )
    console.log(
      `        views by table: ${slowest
        .slice(0, 3)
        .map(([t, ms]) => `${t} ${s(ms)}`)
        .join(', ')}, the other ${slowest.length - 3} ${s(others)}`
    )
    console.log(
      `  the same with the segments read over HTTP (ranged requests) instead of whole in memory: views ${s(overHttp.viewsMs)}, counts ${overHttp.countMs.map(s).join(', ')}: first answer ${s(firstAnswer(overHttp))}, aggregate ${s(overHttp.aggregateMs)}`
    )
    console.log(
      `  the tenant aggregate in the renderer on the mirror: ${s(ui.aggregateMs)}, native DuckDB on the raw files ${s(rawQueryMs)} (${(ui.aggregateMs / rawQueryMs).toFixed(2)}x; goal <= 2.5x)`
    )
    console.log(`  size: mirror ${mb(mirrorBytes)} for ${mb(rawBytes)} of raw Parquet (${((100 * mirrorBytes) / rawBytes).toFixed(0)}%)`)
  } finally {
    await proxy.close()
    await s3.close()
    await rm(work, { recursive: true, force: true })
  }
}

/** How many data files of a table the views read raw beside these segments (the folders they do not hold). */
function inventoryFilesOutside(
  objects: ReadonlyMap<string, ListedObject>,
  segments: readonly MirroredSegment[],
  now: number,
  t: (typeof PARTS)[number]
): number {
  const read = mirrorRead(buildInventory(objects.values(), { now }), t, segments, { now })
  return (read?.raw ?? []).reduce((n, f) => n + f.dataFiles.length, 0)
}

async function du(dir: string): Promise<number> {
  let n = 0
  for (const f of await readdir(dir, { recursive: true }).catch(() => [] as string[])) {
    const st = await stat(join(dir, String(f))).catch(() => null)
    if (st?.isFile()) n += st.size
  }
  return n
}

/**
 * The renderer's engine on the mirror, as the query pane opens it (a QuerySession): the engine page (test/e2e/engine-page) in
 * Chromium, the byte server serving the segment files from disk. Times the engine's start, the views, each query.
 */
async function rendererOnMirror(o: {
  work: string
  dataDir: string
  provider: S3Provider
  objects: ReadonlyMap<string, ListedObject>
  now: number
  sql: string[]
  wholeFileBudgetBytes?: number
  warm?: boolean
  named?: boolean
  /** The segments the renderer is given (a build part-way); all the mirror's by default. */
  segments?: (all: MirroredSegment[]) => MirroredSegment[]
  /** False: without the superseded lists (a build not yet at its end). */
  lists?: boolean
  /** What the engine's warm-up runs, when not the session's own (null: nothing). */
  warmUpSql?: string | null
}): Promise<{ startMs: number; viewsMs: number; countMs: number[]; aggregateMs: number; tableMs: Record<string, number> }> {
  const mirror = new ConnectionMirror(o.dataDir, 'bench', o.provider)
  const all = await mirror.segments()
  const segments = o.segments ? o.segments(all) : all
  const superseded = o.lists === false ? [] : await mirror.superseded()
  await build({ root: join(import.meta.dirname, '../e2e/engine-page'), logLevel: 'silent', build: { outDir: join(o.work, 'page'), emptyOutDir: true } })
  const page = await serveFolder(join(o.work, 'page'))
  const bytes = await startByteServer({
    provider: o.provider,
    lookup: (k) => (k.startsWith(MIRROR_KEY_PREFIX) ? mirror.object(k) : o.objects.get(k)),
    cacheDir: join(o.work, 'blocks'),
    allowOrigin: page.origin,
    store: mirror.heldFiles(fileStoreFor(o.provider, o.dataDir, 'bench'))
  })
  const browser = await launchChromium()
  try {
    const tab = await browser.newPage()
    await tab.goto(`${page.origin}/index.html`)
    await tab.waitForFunction(() => typeof window.runViews === 'function')
    const inventory = buildInventory(o.objects.values(), { now: o.now })
    const out = await tab.evaluate((cfg) => window.runSessionTimings(cfg), {
      objects: objectsForViews(inventory, {}),
      base: bytes.url(''),
      now: o.now,
      sql: o.sql,
      mirror: segments,
      superseded,
      ...(o.wholeFileBudgetBytes !== undefined ? { wholeFileBudgetBytes: o.wholeFileBudgetBytes } : {}),
      ...(o.warm ? { warm: true } : {}),
      ...(o.named ? { named: true } : {}),
      ...(o.warmUpSql !== undefined ? { warmUpSql: o.warmUpSql } : {})
    })
    const failed = out.results.find((r) => !Array.isArray(r))
    if (failed) throw new Error(`the renderer's query failed: ${JSON.stringify(failed)}`)
    const { startMs, viewsMs, queryMs, tableMs } = out.timings
    return { startMs, viewsMs, countMs: queryMs.slice(0, -1), aggregateMs: queryMs.at(-1) ?? 0, tableMs }
  } finally {
    await browser.close()
    await bytes.close()
    await page.close()
  }
}
