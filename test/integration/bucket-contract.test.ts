// One contract for every bucket provider, run against real servers on loopback started here (s3rver for S3;
// the local folder as is), over a bucket written by the generator.
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BucketError } from '../../src/main/bucket/bucket-errors'
import { type BucketProvider, listAll } from '../../src/main/bucket/bucket-provider'
import { LocalFolderProvider } from '../../src/main/bucket/local-provider'
import { GcsProvider } from '../../src/main/bucket/gcs-provider'
import { S3Provider } from '../../src/main/bucket/s3-provider'
import type { ListedObject } from '../../src/shared/listing'
import { type Demo, readDemo } from '../helpers/demo'
import { type FaultProxy, startFaultProxy } from '../helpers/fault-proxy'
import { type GcsServer, startGcsServer } from '../helpers/gcs-server'
import { S3_TEST_KEYS, type S3Server, startS3Server } from '../helpers/s3-server'

let demo: Demo
let s3: S3Server
let proxy: FaultProxy
let gcs: GcsServer
let gcsProxy: FaultProxy
let truth: ListedObject[]
const BUCKET = 'export-bucket'
const ROOT = 'exports/acme/'
const previousDelay = process.env['S3RVER_RESTORE_DELAY_MS']

beforeAll(async () => {
  demo = await readDemo({ days: 8 })
  truth = []
  for await (const o of listAll(new LocalFolderProvider(demo.bucketDir), '')) truth.push(o)
  s3 = await startS3Server()
  await s3.seed(BUCKET, demo.bucketDir, ROOT)
  proxy = await startFaultProxy(s3.endpoint)
  gcs = await startGcsServer()
  await gcs.seed(BUCKET, demo.bucketDir, ROOT)
  gcsProxy = await startFaultProxy(gcs.endpoint)
  process.env['S3RVER_RESTORE_DELAY_MS'] = '300'
}, 300_000)
afterAll(async () => {
  if (previousDelay === undefined) delete process.env['S3RVER_RESTORE_DELAY_MS']
  else process.env['S3RVER_RESTORE_DELAY_MS'] = previousDelay
  await proxy?.close()
  await s3?.close()
  await gcsProxy?.close()
  await gcs?.close()
  await demo?.cleanup()
})

const s3Provider = (overrides: Partial<ConstructorParameters<typeof S3Provider>[0]> = {}): S3Provider =>
  new S3Provider({
    bucket: BUCKET,
    prefix: ROOT,
    endpoint: proxy.endpoint,
    region: 'us-east-1',
    credentials: { kind: 'static', ...S3_TEST_KEYS },
    ...overrides
  })

const gcsProvider = (): GcsProvider =>
  new GcsProvider({ bucket: BUCKET, prefix: ROOT, endpoint: gcsProxy.endpoint, credentials: { kind: 'none' }, timeouts: { connectMs: 1000, idleMs: 1500 } })

// The GCS emulator reports every object as STANDARD, and GCS has no archive to restore from.
const providers: [string, () => BucketProvider, { archive: boolean; restore: boolean }][] = [
  ['local folder', () => new LocalFolderProvider(demo.bucketDir), { archive: true, restore: false }],
  ['S3 (s3rver)', () => s3Provider(), { archive: true, restore: true }],
  ['GCS (Storage emulator)', () => gcsProvider(), { archive: false, restore: false }]
]

const bytesCompare = (a: string, b: string): number => Buffer.compare(Buffer.from(a), Buffer.from(b))
const archivedKey = (): string => demo.expected.faults.find((f) => f.kind === 'archived')!.key

async function expectBucketError(p: Promise<unknown>, kind: string): Promise<BucketError> {
  const e = await p.then(
    () => null,
    (err: unknown) => err
  )
  expect(e).toBeInstanceOf(BucketError)
  expect((e as BucketError).kind).toBe(kind)
  return e as BucketError
}

describe.each(providers)('%s', (_name, make, caps) => {
  it('lists thousands of keys across pages, in key order, with sizes and times', async () => {
    const p = make()
    let pages = 0
    const got: ListedObject[] = []
    for await (const page of p.list('', { pageSize: 700 })) {
      pages++
      got.push(...page.objects)
    }
    expect(got.length).toBe(truth.length)
    expect(got.length).toBeGreaterThan(5000)
    expect(pages).toBeGreaterThan(7)
    for (let i = 1; i < got.length; i++) expect(bytesCompare(got[i - 1]!.key, got[i]!.key)).toBeLessThan(0)
    const byKey = new Map(truth.map((o) => [o.key, o]))
    for (const o of got.slice(0, 200)) {
      expect(o.size).toBe(byKey.get(o.key)?.size)
      expect(Math.abs(Date.parse(o.lastModified) - Date.parse(byKey.get(o.key)!.lastModified))).toBeLessThan(1000)
    }
  })

  it('lists folders that hold only folders with a delimiter, page by page', async () => {
    const p = make()
    const top: string[] = []
    for await (const page of p.list('v2/', { delimiter: '/' })) {
      expect(page.objects).toEqual([])
      top.push(...page.prefixes)
    }
    expect(top).toEqual(['v2/_manifests/', 'v2/datamart_claudia/', 'v2/datamart_cloudchat_saas/'])
    const dates: string[] = []
    for await (const page of p.list('v2/datamart_claudia/claudia_messages/', { delimiter: '/', pageSize: 3 })) dates.push(...page.prefixes)
    expect(dates).toHaveLength(new Set(truth.filter((o) => o.key.startsWith('v2/datamart_claudia/claudia_messages/')).map((o) => o.key.split('/')[3])).size)
    expect(dates[0]).toBe('v2/datamart_claudia/claudia_messages/etl_date=2026-11-03/')
  })

  it('starts after a key', async () => {
    const prefix = 'v2/datamart_claudia/claudia_prompt_revision/'
    const all = truth.filter((o) => o.key.startsWith(prefix)).map((o) => o.key)
    const from = all[Math.floor(all.length / 2)]!
    const got: string[] = []
    for await (const o of listAll(make(), prefix, { startAfter: from, pageSize: 50 })) got.push(o.key)
    expect(got).toEqual(all.filter((k) => bytesCompare(k, from) > 0))
  })

  it('reads byte ranges, suffix ranges and whole objects', async () => {
    const p = make()
    const obj = truth.find((o) => o.key.endsWith('.parquet') && o.size > 1000 && o.storageClass !== 'GLACIER')!
    const file = await readFile(join(demo.bucketDir, obj.key))
    const head = await p.readRange(obj.key, { start: 0, end: 3 })
    expect(Buffer.from(head.body).toString()).toBe('PAR1')
    expect(head.size).toBe(file.length)
    const tail = await p.readRange(obj.key, { suffix: 8 })
    expect(Buffer.from(tail.body)).toEqual(file.subarray(file.length - 8))
    expect(tail.size).toBe(file.length)
    const mid = await p.readRange(obj.key, { start: 100, end: 599 })
    expect(Buffer.from(mid.body)).toEqual(file.subarray(100, 600))
    const chunks: Buffer[] = []
    for await (const c of await p.readStream(obj.key)) chunks.push(c as Buffer)
    expect(Buffer.concat(chunks)).toEqual(file)
    const h = await p.head(obj.key)
    expect(h).toMatchObject({ key: obj.key, size: file.length, storageClass: 'STANDARD' })
  })

  it('names a missing key as not found', async () => {
    const e = await expectBucketError(make().head('v2/no/such/key.parquet'), 'not_found')
    expect(e.userMessage).toContain('v2/no/such/key.parquet')
  })

  it.runIf(caps.archive)('reports archived objects in listings and refuses to read them', async () => {
    const p = make()
    const key = archivedKey()
    const listed: ListedObject[] = []
    for await (const o of listAll(p, key.slice(0, key.lastIndexOf('/') + 1))) listed.push(o)
    expect(listed.find((o) => o.key === key)?.storageClass).toBe('GLACIER')
    expect(listed.filter((o) => o.key !== key).every((o) => o.storageClass === 'STANDARD')).toBe(true)
    const e = await expectBucketError(p.readRange(key, { start: 0, end: 3 }), 'archived')
    expect(e.userMessage).toMatch(/restore/i)
    if (!caps.restore) await expectBucketError(p.restore(key, 1, 'Standard'), 'archived')
  })

  it.runIf(caps.restore)('starts a restore, reports it in progress, then reads the object', async () => {
    const p = make()
    const key = archivedKey()
    expect(await p.restore(key, 2, 'Standard')).toBe('started')
    expect(await p.restore(key, 2, 'Standard')).toBe('in_progress')
    expect((await p.head(key)).restore).toEqual({ ongoing: true })
    await new Promise((r) => setTimeout(r, 400))
    const h = await p.head(key)
    expect(h.restore?.ongoing).toBe(false)
    expect(Date.parse(h.restore!.expiry!)).toBeGreaterThan(Date.now())
    expect(Buffer.from((await p.readRange(key, { start: 0, end: 3 })).body).toString()).toBe('PAR1')
  })
})

// The GCS client waits 1 s, 2 s, 4 s… between retries (S3's SDK far less): fewer throttled answers keep it quick.
const remote: [string, () => BucketProvider, () => FaultProxy, 503 | 429, string, number][] = [
  ['S3', () => s3Provider(), () => proxy, 503, ROOT, 3],
  ['GCS', () => gcsProvider(), () => gcsProxy, 503, ROOT, 1]
]

describe.each(remote)('%s faults', (_name, make, px, throttleStatus, root, throttles) => {
  it('survives throttling (503 SlowDown and 429) with backoff', async () => {
    const before = px().stats.throttled
    px().rules.throttle = { count: throttles, status: throttleStatus }
    const got: string[] = []
    for await (const o of listAll(make(), 'v2/datamart_claudia/claudia_csat/')) got.push(o.key)
    expect(got.length).toBe(truth.filter((o) => o.key.startsWith('v2/datamart_claudia/claudia_csat/')).length)
    px().rules.throttle = { count: 1, status: 429 }
    const obj = truth.find((o) => o.key.endsWith('.parquet') && o.storageClass !== 'GLACIER')!
    expect((await make().readRange(obj.key, { start: 0, end: 3 })).body.length).toBe(4)
    expect(px().stats.throttled - before).toBe(throttles + 1)
  })

  it('survives a connection dropped before the answer and one cut mid-body', async () => {
    const obj = truth.find((o) => o.key.endsWith('.parquet') && o.size > 4000 && o.storageClass !== 'GLACIER')!
    const file = await readFile(join(demo.bucketDir, obj.key))
    px().rules.drop = { count: 2, when: 'before' }
    expect(Buffer.from((await make().readRange(obj.key, { start: 0, end: 1999 })).body)).toEqual(file.subarray(0, 2000))
    px().rules.drop = { count: 1, when: 'midbody' }
    expect(Buffer.from((await make().readRange(obj.key, { start: 0, end: 3999 })).body)).toEqual(file.subarray(0, 4000))
    expect(px().rules.drop.count).toBe(0)
  })

  it('gives up on a prefix it may not read with a denied error naming it', async () => {
    px().rules.denyPrefix = `${root}v2/datamart_cloudchat_saas/`
    try {
      const e = await expectBucketError(
        (async () => {
          for await (const _ of listAll(make(), 'v2/datamart_cloudchat_saas/cloud_chat_tags/')) void _
        })(),
        'denied'
      )
      expect(e.key).toBe('v2/datamart_cloudchat_saas/cloud_chat_tags/')
      expect(e.userMessage).toMatch(/read access/)
    } finally {
      px().rules.denyPrefix = null
    }
  })
})

describe('S3 credentials', () => {
  it('finds the bucket region when none is given', async () => {
    proxy.rules.addHeaders = { 'x-amz-bucket-region': 'sa-east-1' }
    try {
      const p = s3Provider({ region: undefined })
      expect(await p.region()).toBe('sa-east-1')
      expect((await p.head(truth[0]!.key)).size).toBe(truth[0]!.size)
    } finally {
      proxy.rules.addHeaders = {}
    }
    expect(await s3Provider({ region: 'eu-west-1' }).region()).toBe('eu-west-1')
  })

  it('says the credentials were rejected, not a stack trace', async () => {
    const wrong = s3Provider({ credentials: { kind: 'static', accessKeyId: 'WRONG', secretAccessKey: 'nope' } })
    const e = await expectBucketError(
      (async () => {
        for await (const _ of wrong.list('v2/')) void _
      })(),
      'auth'
    )
    expect(e.userMessage).toMatch(/credentials/)
    // With the region left empty (the form's default) the region question is refused first, by a HEAD with no body
    // to say why: still the wrong keys, never "access denied, ask for read access".
    const noRegion = s3Provider({ region: undefined, credentials: { kind: 'static', accessKeyId: 'WRONG', secretAccessKey: 'nope' } })
    const e2 = await expectBucketError(
      (async () => {
        for await (const _ of noRegion.list('v2/')) void _
      })(),
      'auth'
    )
    expect(e2.userMessage).toMatch(/rejected the credentials \(InvalidAccessKeyId\)/)
  })
})
