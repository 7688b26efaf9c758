// The index and the caches on disk: a saved index of the wrong shape is dropped and the bucket listed again (the
// refresh succeeds with the right objects and says why), the manifest cache ignores damaged entries and merges
// concurrent refreshes, index, manifest cache and cached blocks are 0600 in 0700 folders, and the byte server reads
// the blocks the refresh's frame check fetched, without asking the bucket again.
import { randomBytes } from 'node:crypto'
import { chmod, mkdir, mkdtemp, readFile, readdir, rm, stat, utimes, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ConnectionSnapshot } from '../../src/main/session/connection-snapshot'
import { listAll } from '../../src/main/bucket/bucket-provider'
import { indexPath, saveIndex } from '../../src/main/bucket/index-store'
import { LocalFolderProvider } from '../../src/main/bucket/local-provider'
import { readManifests } from '../../src/main/bucket/manifest-reader'
import { startByteServer } from '../../src/main/byte-server/byte-server'
import { BlockCache, blockCacheDir, blockIdentity } from '../../src/main/byte-server/block-cache'
import { fileStoreFor } from '../../src/main/store/connection-files'
import { refreshConnectionIndex } from '../../src/main/bucket/refresh-connection'
import { buildInventory } from '../../src/shared/inventory'
import { objectsForViews } from '../../src/shared/bucket-views'
import { quoteLiteral } from '../../src/shared/sql-quote'
import { openDb } from '../helpers/duckdb'

const NOW = Date.parse('2026-11-20T05:50:00Z')
let work: string
let bucket: string
let provider: LocalFolderProvider
let truth: string[]
let n = 0
const fresh = (): string => join(work, `data-${++n}`)
const modeOf = async (p: string): Promise<number> => (await stat(p)).mode & 0o777

/** A real footer (its Thrift, its length, "PAR1"), from a file written by native DuckDB. */
let footer: Buffer

/** Bytes framed as Parquet is, with a real footer, so the file check reads them as data (their pages are never read). */
function parquetFramed(size: number): Buffer {
  return Buffer.concat([Buffer.from('PAR1'), randomBytes(size - 4 - footer.length), footer])
}

/** A small v2 bucket: two hours of a full table and a parts table, with manifests. */
async function writeBucket(root: string): Promise<void> {
  const put = async (key: string, body: Buffer | string): Promise<void> => {
    await mkdir(dirname(join(root, key)), { recursive: true })
    await writeFile(join(root, key), body)
    // Written 20 minutes into its hour: objects written after the evaluation instant do not exist yet.
    const at = new Date(`2026-11-20T${/snapshot_hour=(\d\d)|etl_hour=(\d\d)/.exec(key)?.slice(1).find(Boolean) ?? '00'}:20:00Z`)
    await utimes(join(root, key), at, at)
  }
  for (const hour of ['03', '04']) {
    const csat = `v2/datamart_claudia/claudia_csat/snapshot_date=2026-11-20/snapshot_hour=${hour}/`
    const msgs = `v2/datamart_claudia/claudia_messages/etl_date=2026-11-20/etl_hour=${hour}/`
    await put(`${csat}part-00000.parquet`, parquetFramed(40_000))
    await put(`${csat}_SUCCESS`, '')
    await put(`${msgs}part-00000.parquet`, parquetFramed(20_000))
    await put(`${msgs}_SUCCESS`, '')
    const manifest = {
      snapshot_date: '2026-11-20',
      snapshot_hour: hour,
      complete: false,
      tables_delivered: [{ schema: 'datamart_claudia', table: 'claudia_csat', mode: 'full', path: csat, format: 'parquet', files: 1, rows: 10 }],
      tables_missing: [],
      tables_pending: []
    }
    await put(`v2/_manifests/snapshot_date=2026-11-20/snapshot_hour=${hour}/manifest.json`, JSON.stringify(manifest))
  }
}

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'ee-cachefiles-'))
  bucket = join(work, 'bucket')
  const db = await openDb()
  const file = join(work, 'footer.parquet')
  await db.run(`COPY (SELECT 1 AS a) TO ${quoteLiteral(file)} (FORMAT parquet)`)
  db.close()
  const bytes = await readFile(file)
  footer = bytes.subarray(bytes.length - 8 - bytes.readUInt32LE(bytes.length - 8))
  await writeBucket(bucket)
  provider = new LocalFolderProvider(bucket)
  truth = []
  for await (const o of listAll(provider, '')) truth.push(o.key)
  truth.sort()
  expect(truth.length).toBe(10)
})
afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true })
})

type IndexFile = { format: number; rows: unknown[]; units: unknown[] } & Record<string, unknown>

describe('a saved index of the wrong shape', () => {
  // Each damage alone made every incremental refresh fail (or index garbage) before rows were checked on load.
  const damages: [string, (f: IndexFile) => void][] = [
    ['a row that is null', (f) => (f.rows[1] = null)],
    ['a row missing fields', (f) => (f.rows[2] = (f.rows[2] as unknown[]).slice(0, 2))],
    ['a size that is text', (f) => ((f.rows[3] as unknown[])[1] = 'big')],
    ['a time that is not a number', (f) => ((f.rows[0] as unknown[])[2] = '2026-11-20')],
    // A number no Date holds (past ±100,000,000 days): toISOString would throw while the index is read.
    ['a time past what a date holds', (f) => ((f.rows[1] as unknown[])[2] = 8.64e15 + 1)],
    ['a listing unit of the wrong shape', (f) => (f.units[0] = { prefix: 42 })],
    ['rows that are not a list', (f) => (f.rows = { a: 1 } as never)]
  ]
  for (const [what, damage] of damages) {
    it(`${what}: dropped, the whole bucket listed again with the right objects, and said so`, async () => {
      const dataDir = fresh()
      expect((await refreshConnectionIndex(dataDir, 'c', provider, { now: NOW })).mode).toBe('cold')
      const path = indexPath(dataDir, 'c')
      const file = JSON.parse(await readFile(path, 'utf8')) as IndexFile
      damage(file)
      await writeFile(path, JSON.stringify(file))
      const r = await refreshConnectionIndex(dataDir, 'c', provider, { now: NOW + 60_000 })
      expect(r.mode).toBe('cold')
      expect(r.indexProblem).toMatch(/^The saved listing .*c\.json .*, so it was dropped and the whole bucket was listed again\.$/)
      expect([...r.index.objects.keys()].sort()).toEqual(truth)
      expect(r.index.objects.get(truth[0] as string)?.size).toBe((await stat(join(bucket, truth[0] as string))).size)
      expect(r.changed).toBe(true)
      // What was saved is whole again: the next refresh is incremental, has nothing to say and changed nothing.
      const next = await refreshConnectionIndex(dataDir, 'c', provider, { now: NOW + 120_000 })
      expect(next.mode).toBe('incremental')
      expect(next.indexProblem).toBeNull()
      expect([next.changed, next.digest]).toEqual([false, r.digest])
      expect([...next.index.objects.keys()].sort()).toEqual(truth)
    })
  }

  it('an index of another format is listed again without a problem; a missing one is no problem either', async () => {
    const dataDir = fresh()
    await refreshConnectionIndex(dataDir, 'c', provider, { now: NOW })
    const path = indexPath(dataDir, 'c')
    await writeFile(path, JSON.stringify({ ...(JSON.parse(await readFile(path, 'utf8')) as object), format: 99 }))
    const r = await refreshConnectionIndex(dataDir, 'c', provider, { now: NOW })
    expect([r.mode, r.indexProblem]).toEqual(['cold', null])
    expect((await refreshConnectionIndex(fresh(), 'c', provider, { now: NOW })).indexProblem).toBeNull()
  })

  it('the app shows the reason among the overview problems, and serves the right objects', async () => {
    const dataDir = fresh()
    const first = new ConnectionSnapshot({ provider, connectionId: 'conn', dataDir, now: () => NOW })
    await first.refresh()
    expect((await first.overview()).problems).toEqual([])
    const path = indexPath(dataDir, 'conn')
    const file = JSON.parse(await readFile(path, 'utf8')) as IndexFile
    file.rows[0] = { key: 'not a row' }
    await writeFile(path, JSON.stringify(file))
    // A restart: the next launch reads the damaged index.
    const second = new ConnectionSnapshot({ provider, connectionId: 'conn', dataDir, now: () => NOW })
    await second.refresh()
    const overview = await second.overview()
    expect(overview.problems).toHaveLength(1)
    expect(overview.problems[0]).toMatch(/saved listing .* has a damaged object row \(#1 is not a list of 6 fields\), so it was dropped/)
    for (const key of truth) expect(second.object(key)?.key).toBe(key)
    expect(overview.tables.find((t) => t.table === 'claudia_csat')?.newestPrefix).toBe(
      'v2/datamart_claudia/claudia_csat/snapshot_date=2026-11-20/snapshot_hour=04/'
    )
  })
})

describe('the manifest cache', () => {
  it('ignores entries of the wrong shape and keeps what concurrent refreshes read', async () => {
    const dir = fresh()
    const cacheFile = join(dir, 'manifests', 'c.json')
    await mkdir(dirname(cacheFile), { recursive: true })
    const k3 = 'v2/_manifests/snapshot_date=2026-11-20/snapshot_hour=03/manifest.json'
    const k4 = 'v2/_manifests/snapshot_date=2026-11-20/snapshot_hour=04/manifest.json'
    await writeFile(cacheFile, JSON.stringify({ [k3]: { etag: 5, text: null }, other: 'x' }))
    const listed = []
    for await (const o of listAll(provider, '')) listed.push(o)
    const inventory = buildInventory(listed)
    const [a, b] = await Promise.all([
      readManifests(provider, inventory, { cacheFile, filter: (k) => k === k3 }),
      readManifests(provider, inventory, { cacheFile, filter: (k) => k === k4 })
    ])
    expect(a.get(k3)).toBe(await readFile(join(bucket, k3), 'utf8'))
    expect(b.get(k4)).toBe(await readFile(join(bucket, k4), 'utf8'))
    const cache = JSON.parse(await readFile(cacheFile, 'utf8')) as Record<string, { text: string }>
    expect(Object.keys(cache).sort()).toEqual([k3, k4])
    expect(cache[k3]?.text).toBe(await readFile(join(bucket, k3), 'utf8'))
  })
})

describe('file modes of the index and caches', () => {
  it('index, manifest cache and footer blocks are 0600 in 0700 folders, and a folder left 0755 is narrowed', async () => {
    const dataDir = fresh()
    // An earlier version made the index folder world-readable.
    await mkdir(join(dataDir, 'index'), { recursive: true })
    await chmod(join(dataDir, 'index'), 0o755)
    const service = new ConnectionSnapshot({ provider, connectionId: 'conn', dataDir, now: () => NOW })
    await service.refresh()
    const detail = await service.hour({ start: '2026-11-20T04:00:00.000Z' })
    expect(detail.tables.find((t) => t.table === 'claudia_csat')?.files[0]?.rows).toBe(1)
    // The query pane's reads go through the connection's block cache (a small file the checks read whole, in place).
    const { inventory } = await service.snapshot()
    const blocks = new BlockCache(blockCacheDir(dataDir, 'conn'), provider)
    for (const o of objectsForViews(inventory)
      .filter((x) => x.key.endsWith('.parquet') && x.size > 8)
      .slice(0, 3))
      await blocks.read(blockIdentity(o), { start: o.size - 8, end: o.size - 1 })
    const index = indexPath(dataDir, 'conn')
    const manifests = join(dataDir, 'manifests', 'conn.json')
    expect(await modeOf(index)).toBe(0o600)
    expect(await modeOf(dirname(index))).toBe(0o700)
    expect(await modeOf(manifests)).toBe(0o600)
    expect(await modeOf(dirname(manifests))).toBe(0o700)
    const footers = join(dataDir, 'blocks', 'conn')
    expect(await modeOf(footers)).toBe(0o700)
    const objects = await readdir(footers)
    expect(objects.length).toBeGreaterThan(0)
    for (const o of objects) {
      // The census (what the cache holds, for the next run) is a private file beside the objects' folders.
      if (o === 'census.json') {
        expect(await modeOf(join(footers, o))).toBe(0o600)
        continue
      }
      expect(await modeOf(join(footers, o))).toBe(0o700)
      const blocks = await readdir(join(footers, o))
      expect(blocks.length).toBeGreaterThan(0)
      for (const b of blocks) expect(await modeOf(join(footers, o, b))).toBe(0o600)
    }
    // No temporary file is left anywhere.
    expect((await readdir(dirname(index))).filter((f) => !f.endsWith('.json'))).toEqual([])
    expect((await readdir(dirname(manifests))).filter((f) => !f.endsWith('.json'))).toEqual([])
  })

  it('saveIndex writes 0600 even where the umask would allow more', async () => {
    const path = join(fresh(), 'index', 'x.json')
    await saveIndex(path, { location: 'l', refreshedAt: NOW, units: [], objects: new Map() })
    expect(await modeOf(path)).toBe(0o600)
    expect(await modeOf(dirname(path))).toBe(0o700)
  })
})

describe('one block cache per connection', () => {
  it('the byte server serves what the refresh read without reading the bucket again, and the folder of earlier versions goes', async () => {
    const dataDir = fresh()
    await mkdir(join(dataDir, 'footers', 'conn', 'old'), { recursive: true })
    let reads = 0
    const counting = new Proxy(provider, {
      get(target, p, receiver) {
        const v = Reflect.get(target, p, receiver) as unknown
        if (p === 'readRange' && typeof v === 'function')
          return (...args: unknown[]) => {
            reads++
            return (v as (...a: unknown[]) => unknown).apply(target, args)
          }
        return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v
      }
    })
    const service = new ConnectionSnapshot({ provider: counting, connectionId: 'conn', dataDir, now: () => NOW })
    await service.refresh()
    expect(reads).toBeGreaterThan(0)
    const { inventory } = await service.snapshot()
    // A file the views read (the frame check reads those).
    const o = objectsForViews(inventory).find((x) => x.key.endsWith('.parquet') && x.size > 0)!
    // As the app starts it: beside the connection's file store (a local folder's files are read in place).
    const server = await startByteServer({
      provider: counting,
      lookup: (k) => (k === o.key ? o : undefined),
      cacheDir: blockCacheDir(dataDir, 'conn'),
      store: fileStoreFor(counting, dataDir, 'conn')
    })
    try {
      const before = reads
      const res = await fetch(server.url(o.key), { headers: { range: `bytes=${o.size - 8}-${o.size - 1}` } })
      expect(res.status).toBe(206)
      expect(
        Buffer.from(await res.arrayBuffer())
          .subarray(4)
          .toString('latin1')
      ).toBe('PAR1')
      expect(reads).toBe(before)
    } finally {
      await server.close()
    }
    await expect.poll(() => readdir(join(dataDir, 'footers'))).toEqual([])
  })
})
