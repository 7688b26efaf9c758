// Listing a bucket into an index, cold and incrementally, against the S3 server on loopback.
import { mkdtemp, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type BucketIndex, type IndexProgress, refreshBucketIndex } from '../../src/main/bucket/bucket-index'
import { BucketError } from '../../src/main/bucket/bucket-errors'
import { listAll } from '../../src/main/bucket/bucket-provider'
import { loadIndex, saveIndex } from '../../src/main/bucket/index-store'
import { refreshConnectionIndex } from '../../src/main/bucket/refresh-connection'
import { LocalFolderProvider } from '../../src/main/bucket/local-provider'
import { S3Provider } from '../../src/main/bucket/s3-provider'
import { buildInventory, unknownTables } from '../../src/shared/inventory'
import type { ListedObject } from '../../src/shared/listing'
import { type Demo, readDemo } from '../helpers/demo'
import { type FaultProxy, startFaultProxy } from '../helpers/fault-proxy'
import { S3_TEST_KEYS, type S3Server, startS3Server } from '../helpers/s3-server'

const BUCKET = 'idx-bucket'
const HOUR = 3_600_000
let demo: Demo
let s3: S3Server
let proxy: FaultProxy
let truth: ListedObject[]
let tmp: string

beforeAll(async () => {
  demo = await readDemo({ days: 8 })
  truth = []
  for await (const o of listAll(new LocalFolderProvider(demo.bucketDir), '')) truth.push(o)
  s3 = await startS3Server()
  await s3.seed(BUCKET, demo.bucketDir)
  proxy = await startFaultProxy(s3.endpoint)
  tmp = await mkdtemp(join(tmpdir(), 'ee-index-'))
}, 300_000)
afterAll(async () => {
  await proxy?.close()
  await s3?.close()
  await demo?.cleanup()
  await rm(tmp, { recursive: true, force: true })
})

const provider = (): S3Provider =>
  new S3Provider({ bucket: BUCKET, endpoint: proxy.endpoint, region: 'us-east-1', credentials: { kind: 'static', ...S3_TEST_KEYS } })
const now = (): number => Date.parse(demo.expected.now)
const keysOf = (index: BucketIndex): string[] => [...index.objects.keys()].sort()

describe('bucket index', () => {
  let cold: BucketIndex

  it('lists every object in many parallel listings, with progress', async () => {
    const progress: IndexProgress[] = []
    const r = await refreshBucketIndex(provider(), null, { now: now(), onProgress: (p) => progress.push(p) })
    cold = r.index
    expect(r.mode).toBe('cold')
    expect(r.problems).toEqual([])
    expect(keysOf(r.index)).toEqual(truth.map((o) => o.key).sort())
    expect(r.index.units.length).toBeGreaterThan(30)
    const last = progress.at(-1)!
    expect(last.prefixesDone).toBe(last.prefixesTotal)
    expect(last.objects).toBe(truth.length)
    expect(r.index.objects.get(demo.expected.faults.find((f) => f.kind === 'archived')!.key)?.storageClass).toBe('GLACIER')
  })

  it('survives a round trip through the disk, and treats a damaged file as absent', async () => {
    const path = join(tmp, 'conn.json')
    await saveIndex(path, cold)
    const back = await loadIndex(path)
    expect(back && keysOf(back)).toEqual(keysOf(cold))
    expect(back?.objects.get(truth[0]!.key)).toEqual(cold.objects.get(truth[0]!.key))
    const { writeFile } = await import('node:fs/promises')
    await writeFile(path, '{"format": 1, "rows": [')
    expect(await loadIndex(path)).toBeNull()
  })

  it('refreshes incrementally: a new hour, a folder that got its _SUCCESS, a day pruned by retention', async () => {
    const T = now() - 50 * 60_000 + HOUR // the next hour
    const d = new Date(T).toISOString().slice(0, 10)
    const h = new Date(T).toISOString().slice(11, 13)
    const newKeys = [
      `v2/datamart_claudia/claudia_csat/snapshot_date=${d}/snapshot_hour=${h}/part-00000.parquet`,
      `v2/datamart_claudia/claudia_csat/snapshot_date=${d}/snapshot_hour=${h}/_SUCCESS`,
      `v2/_manifests/snapshot_date=${d}/snapshot_hour=${h}/manifest.json`
    ]
    for (const k of newKeys) await s3.put(BUCKET, k, 'x', new Date(T + 20 * 60_000))
    // The in-flight folder of the last hour gets its marker (it sorts before the data files already listed).
    const inFlight = demo.expected.partial_folders.find(
      (c) => c.hour === demo.expected.planted_hours['inFlight']!.hour && c.date === demo.expected.planted_hours['inFlight']!.date
    )!
    const inFlightMarker = `${inFlight.prefix}_SUCCESS`
    await s3.put(BUCKET, inFlightMarker, '', new Date(T))
    // A day later, retention prunes the hours of the day that crossed the 7-day line.
    const later = T + 24 * HOUR
    const pruneDay = new Date(later - 7 * 24 * HOUR - 24 * HOUR).toISOString().slice(0, 10)
    const pruned = truth.filter(
      (o) => o.key.startsWith('v2/datamart_claudia/claudia_contents/') && o.key.includes(`snapshot_date=${pruneDay}/`) && !o.key.includes('snapshot_hour=23/')
    )
    expect(pruned.length).toBeGreaterThan(0)
    for (const o of pruned) await s3.remove(BUCKET, o.key)

    try {
      const before = proxy.stats.requests
      const r = await refreshBucketIndex(provider(), cold, { now: later })
      expect(r.mode).toBe('incremental')
      expect(r.problems).toEqual([])
      const want = truth
        .map((o) => o.key)
        .filter((k) => !pruned.some((p) => p.key === k))
        .concat(newKeys, [inFlightMarker])
        .sort()
      expect(keysOf(r.index)).toEqual(want)
      // Only what can have changed was listed: the newest month of each table, in-flight folders, pruned days.
      expect(proxy.stats.requests - before).toBe(r.requests)
      expect(r.objectsListed).toBeLessThan(truth.length / 5)
    } finally {
      for (const o of pruned) await s3.put(BUCKET, o.key, 'restored for the next test', new Date(o.lastModified))
      for (const k of [...newKeys, inFlightMarker]) await s3.remove(BUCKET, k)
    }
  })

  it("lists a folder without _SUCCESS again in full: a file gone from it leaves the index; the previous index's map is left as it was", async () => {
    const inFlight = demo.expected.partial_folders.find(
      (c) => c.hour === demo.expected.planted_hours['inFlight']!.hour && c.date === demo.expected.planted_hours['inFlight']!.date
    )!
    const files = truth.filter((o) => o.key.startsWith(inFlight.prefix) && o.key.endsWith('.parquet'))
    expect(files.length).toBeGreaterThan(0)
    const gone = files[0]!
    const written = `${inFlight.prefix}part-rewritten.parquet`
    await s3.remove(BUCKET, gone.key)
    await s3.put(BUCKET, written, 'x', new Date(now()))
    try {
      const before = new Map(cold.objects)
      const r = await refreshBucketIndex(provider(), cold, { now: now() + 60_000 })
      expect(r.index.objects.has(gone.key)).toBe(false)
      expect(r.index.objects.has(written)).toBe(true)
      expect(keysOf(r.index)).toEqual(
        keysOf(cold)
          .filter((k) => k !== gone.key)
          .concat(written)
          .sort()
      )
      // The previous index is not changed by the refresh (the app still shows it while one runs).
      expect(r.index.objects).not.toBe(cold.objects)
      expect([...cold.objects]).toEqual([...before])
    } finally {
      await s3.put(BUCKET, gone.key, 'back for the next test', new Date(gone.lastModified))
      await s3.remove(BUCKET, written)
    }
  })

  it('a refresh that finds nothing new keeps the same objects, and the saved index is not written again', async () => {
    const dataDir = join(tmp, 'unchanged')
    await refreshConnectionIndex(dataDir, 'c', provider(), { now: now() })
    // (The first incremental refresh after a cold one adds units: the folders without _SUCCESS it lists again.)
    const first = await refreshConnectionIndex(dataDir, 'c', provider(), { now: now() })
    const again = await refreshBucketIndex(provider(), first.index, { now: now() + 60_000 })
    expect(again.index.objects).toBe(first.index.objects)
    const saved = join(dataDir, 'index', 'c.json')
    const { mtimeMs } = await stat(saved)
    const second = await refreshConnectionIndex(dataDir, 'c', provider(), { now: now() + 60_000 })
    expect(keysOf(second.index)).toEqual(keysOf(first.index))
    expect((await stat(saved)).mtimeMs).toBe(mtimeMs)
  })

  it('keeps the index per connection on disk: the second open lists only what is new', async () => {
    const dataDir = join(tmp, 'data')
    const first = await refreshConnectionIndex(dataDir, 'conn-1', provider(), { now: now() })
    expect(first.mode).toBe('cold')
    const second = await refreshConnectionIndex(dataDir, 'conn-1', provider(), { now: now() + 60_000 })
    expect(second.mode).toBe('incremental')
    expect(keysOf(second.index)).toEqual(keysOf(first.index))
    expect(second.objectsListed).toBeLessThan(first.objectsListed / 10)
    expect((await refreshConnectionIndex(dataDir, 'conn-1', provider(), { now: now(), full: true })).mode).toBe('cold')
  })

  it('reports a prefix it may not read and lists the rest', async () => {
    proxy.rules.denyPrefix = 'v2/datamart_cloudchat_saas/cloud_chat_tags/'
    try {
      const r = await refreshBucketIndex(provider(), null, { now: now() })
      expect(r.problems.length).toBeGreaterThan(0)
      for (const p of r.problems) {
        expect(p.prefix.startsWith('v2/datamart_cloudchat_saas/cloud_chat_tags/')).toBe(true)
        expect(p.error.kind).toBe('denied')
      }
      const keys = keysOf(r.index)
      expect(keys.some((k) => k.startsWith('v2/datamart_cloudchat_saas/cloud_chat_tags/'))).toBe(false)
      expect(keys.filter((k) => k.startsWith('v2/datamart_claudia/')).length).toBe(truth.filter((o) => o.key.startsWith('v2/datamart_claudia/')).length)
    } finally {
      proxy.rules.denyPrefix = null
    }
  })

  it('lists a prefix that failed again at the next refresh, even an old one, and across a restart', async () => {
    // v1 is not listed again once the bucket is on v2 (it does not change), unless its listing failed.
    const denied = 'v1/datamart_claudia/claudia_messages/'
    const want = truth.filter((o) => o.key.startsWith(denied)).length
    expect(want).toBeGreaterThan(0)
    const dataDir = join(tmp, 'data-retry')
    proxy.rules.denyPrefix = denied
    let first
    try {
      first = await refreshConnectionIndex(dataDir, 'conn-retry', provider(), { now: now() })
    } finally {
      proxy.rules.denyPrefix = null
    }
    expect(first.problems.map((p) => p.prefix)).toContain(denied)
    expect(keysOf(first.index).filter((k) => k.startsWith(denied))).toEqual([])
    expect(first.index.units.find((u) => u.prefix === denied)?.retry).toBe(true)
    // The next open reads the index from disk and lists only what can have changed, the failed prefix included.
    const second = await refreshConnectionIndex(dataDir, 'conn-retry', provider(), { now: now() + 60_000 })
    expect(second.mode).toBe('incremental')
    expect(second.problems).toEqual([])
    expect(keysOf(second.index)).toEqual(truth.map((o) => o.key).sort())
    expect(second.index.units.find((u) => u.prefix === denied)?.retry).toBeUndefined()
    // And once listed, it is not listed again.
    const third = await refreshBucketIndex(provider(), second.index, { now: now() + 120_000 })
    expect(third.objectsListed).toBeLessThan(second.objectsListed)
  })

  it('finds tables the catalog does not know', async () => {
    const key = 'v2/datamart_claudia/claudia_experimental/snapshot_date=2026-11-05/snapshot_hour=03/part-00000.parquet'
    await s3.put(BUCKET, key, 'x', new Date())
    try {
      const r = await refreshBucketIndex(provider(), null, { now: now() })
      expect(r.index.objects.has(key)).toBe(true)
      expect(unknownTables(buildInventory(r.index.objects.values()))).toEqual(['datamart_claudia.claudia_experimental'])
    } finally {
      await s3.remove(BUCKET, key)
    }
  })

  it('can be cancelled', async () => {
    const ac = new AbortController()
    proxy.rules.latencyMs = 20
    try {
      const p = refreshBucketIndex(provider(), null, { now: now(), signal: ac.signal, onProgress: (x) => x.prefixesDone >= 3 && ac.abort() })
      const e = await p.then(
        () => null,
        (err: unknown) => err
      )
      expect(e).toBeInstanceOf(BucketError)
      expect((e as BucketError).kind).toBe('cancelled')
    } finally {
      proxy.rules.latencyMs = 0
    }
  })
})
