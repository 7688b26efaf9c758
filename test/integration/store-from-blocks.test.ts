// A cold start over S3 read each small data file three times: the refresh's footer check fetched its head and its
// tail (all of it, for a file of a few KB) into the block cache, each in a request of its own, then the file store
// downloaded it whole for native DuckDB. Now the check reads such a file whole, once, into the file store, where the
// mirror's build and the engine find it; a file the query pane read whole into the block cache is taken from there.
// Real S3 server (s3rver), the demo bucket, every read counted.
import { createHash } from 'node:crypto'
import { copyFile, mkdir, mkdtemp, readFile, rm, truncate } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { refreshBucketIndex } from '../../src/main/bucket/bucket-index'
import { refreshBucket } from '../../src/main/bucket/refresh-pipeline'
import { S3Provider } from '../../src/main/bucket/s3-provider'
import { fileStoreFor } from '../../src/main/store/connection-files'
import { BlockCache, blockCacheDir, blockIdentity } from '../../src/main/byte-server/block-cache'
import { buildInventory } from '../../src/shared/inventory'
import { type Demo, readDemo } from '../helpers/demo'
import { countedProvider } from '../helpers/provider-wrappers'
import { S3_TEST_KEYS, type S3Server, startS3Server } from '../helpers/s3-server'

let demo: Demo
let s3: S3Server
let work: string
const reads: string[] = []

beforeAll(async () => {
  demo = await readDemo({ days: 8 })
  s3 = await startS3Server()
  await s3.seed('from-blocks', demo.bucketDir)
  work = await mkdtemp(join(tmpdir(), 'ee-store-blocks-'))
}, 300_000)
afterAll(async () => {
  await s3?.close()
  await demo?.cleanup()
  await rm(work, { recursive: true, force: true })
})

/** The test server's bucket, each read pushed to `reads`. */
const counted = (): ReturnType<typeof countedProvider> =>
  countedProvider(
    new S3Provider({ bucket: 'from-blocks', endpoint: s3.endpoint, region: 'us-east-1', credentials: { kind: 'static', ...S3_TEST_KEYS } }),
    reads
  )

describe('file store after the footer check', () => {
  it('holds each small file the check read whole: one GET per file, none from the store after, the bucket’s bytes', async () => {
    const provider = counted()
    const dataDir = join(work, 'data')
    const now = Date.parse(demo.expected.now)
    const refreshed = await refreshBucket(provider, dataDir, 'c', { now, manifests: false })
    const key = (r: string): string => r.slice(r.indexOf(' ') + 1)
    const checked = new Set(reads.map(key))
    const small = refreshed.inventory.objects.filter((o) => checked.has(o.key) && o.size <= 64 * 1024 && !refreshed.unreadable.has(o.key))
    expect(small.length).toBeGreaterThan(100)
    // The check read each of them once, whole (its head is in its tail), not once per end.
    const perFile = new Map<string, string[]>()
    for (const r of reads) perFile.set(key(r), [...(perFile.get(key(r)) ?? []), r])
    expect(small.filter((o) => perFile.get(o.key)?.join() !== `stream ${o.key}`)).toEqual([])

    // The store holds them: the build and the engine send nothing more, and the copies are the bucket's bytes.
    reads.length = 0
    const store = fileStoreFor(provider, dataDir, 'c')
    const got = await store.ensure(small)
    expect(got.failures).toEqual([])
    expect(reads).toEqual([])
    for (const o of small.slice(0, 40)) expect(await readFile(got.paths.get(o.key) as string)).toEqual(await readFile(join(demo.bucketDir, o.key)))
  })

  it('takes a small file the query pane read whole from the block cache instead of downloading it; a damaged block is downloaded', async () => {
    const provider = counted()
    const dataDir = join(work, 'data-pane')
    const now = Date.parse(demo.expected.now)
    const small = buildInventory((await refreshBucketIndex(provider, null, { now })).index.objects.values(), { now })
      .objects.filter((o) => o.key.endsWith('.parquet') && o.size > 12 && o.size <= 64 * 1024)
      .slice(0, 30)
    // As the byte server reads a small file for the pane: whole, through the connection's block cache.
    const blocks = new BlockCache(blockCacheDir(dataDir, 'c'), provider)
    for (const o of small) await blocks.read(blockIdentity(o), { start: 0, end: o.size - 1 })
    // One file's block cut short on disk (a crash mid-write; named as block-cache.ts names it): that file is downloaded.
    const damaged = small[3]!
    const folder = createHash('sha256').update(`${damaged.key}\u0000${damaged.etag}`).digest('hex')
    await truncate(join(blockCacheDir(dataDir, 'c'), folder, '0'), 10)

    reads.length = 0
    const got = await fileStoreFor(provider, dataDir, 'c').ensure(small)
    expect(got.failures).toEqual([])
    expect(reads).toEqual([`stream ${damaged.key}`])
    for (const o of small) expect(await readFile(got.paths.get(o.key) as string)).toEqual(await readFile(join(demo.bucketDir, o.key)))
  })

  it('fetches again a copy another process removed after this one wrote it, whether it looks at each file or surveys', async () => {
    const provider = counted()
    const dataDir = join(work, 'data-removed')
    const now = Date.parse(demo.expected.now)
    const files = buildInventory((await refreshBucketIndex(provider, null, { now })).index.objects.values(), { now }).objects.filter(
      (o) => o.key.endsWith('.parquet') && o.size > 12
    )
    // Past the survey's threshold (one look at the folders) and under it (a look at each file).
    for (const batch of [files.slice(0, 300), files.slice(300, 310)]) {
      const first = await fileStoreFor(provider, dataDir, 'c').ensure(batch)
      expect(first.failures).toEqual([])
      const gone = batch[7]!
      await rm(first.paths.get(gone.key) as string)
      reads.length = 0
      const again = await fileStoreFor(provider, dataDir, 'c').ensure(batch)
      expect(reads).toEqual([`stream ${gone.key}`])
      expect(await readFile(again.paths.get(gone.key) as string)).toEqual(await readFile(join(demo.bucketDir, gone.key)))
    }
  })

  it('reads a small file from a copy an earlier run left (the hour inspector), and the refresh’s check does not look for one', async () => {
    const provider = counted()
    const dataDir = join(work, 'data-earlier')
    const now = Date.parse(demo.expected.now)
    const o = buildInventory((await refreshBucketIndex(provider, null, { now })).index.objects.values(), { now }).objects.find(
      (x) => x.key.endsWith('.parquet') && x.size > 12 && x.size <= 64 * 1024
    )!
    // A copy on disk that this process did not write (an earlier run's).
    const store = fileStoreFor(provider, dataDir, 'c')
    await mkdir(dirname(store.pathOf(o)), { recursive: true })
    await copyFile(join(demo.bucketDir, o.key), store.pathOf(o))
    reads.length = 0
    expect(await store.readWhole(o)).toEqual(await readFile(join(demo.bucketDir, o.key)))
    expect(reads).toEqual([])
    expect(await store.readWhole(o, undefined, { lookOnDisk: false })).toEqual(await readFile(join(demo.bucketDir, o.key)))
    expect(reads).toEqual([`stream ${o.key}`])
  })
})
