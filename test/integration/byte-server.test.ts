// The loopback byte server in front of the S3 server: token, read-only, objects of the bucket only, ranges,
// the disk block cache (a range read once is not fetched again), and archived objects refused at once. On a
// local folder: a large range streamed with back-pressure (not buffered whole), unsatisfiable and malformed
// requests, and a source swapped on the same origin.
import { createHash, randomBytes } from 'node:crypto'
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { request } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { listAll } from '../../src/main/bucket/bucket-provider'
import { LocalFolderProvider } from '../../src/main/bucket/local-provider'
import { S3Provider } from '../../src/main/bucket/s3-provider'
import { BLOCK_SIZE } from '../../src/main/byte-server/block-cache'
import { type ByteServer, PIECE_SIZE, parseRange, startByteServer } from '../../src/main/byte-server/byte-server'
import { BATCH_SIZES_HEADER, batchUrl } from '../../src/shared/byte-batch'
import type { ListedObject } from '../../src/shared/listing'
import { type Demo, generateDemo } from '../helpers/demo'
import { type FaultProxy, startFaultProxy } from '../helpers/fault-proxy'
import { S3_TEST_KEYS, type S3Server, startS3Server } from '../helpers/s3-server'

let demo: Demo
let s3: S3Server
let proxy: FaultProxy
let server: ByteServer
let cacheDir: string
const objects = new Map<string, ListedObject>()

beforeAll(async () => {
  demo = await generateDemo({ days: 8, scale: 8 })
  for await (const o of listAll(new LocalFolderProvider(demo.bucketDir), '')) objects.set(o.key, o)
  s3 = await startS3Server()
  await s3.seed('bytes', demo.bucketDir)
  proxy = await startFaultProxy(s3.endpoint)
  cacheDir = await mkdtemp(join(tmpdir(), 'ee-bytes-'))
  const provider = new S3Provider({ bucket: 'bytes', endpoint: proxy.endpoint, region: 'us-east-1', credentials: { kind: 'static', ...S3_TEST_KEYS } })
  // The listing's ETags are the local provider's; S3's would do as well: identity only has to be stable.
  server = await startByteServer({ provider, lookup: (k) => objects.get(k), cacheDir, allowOrigin: 'http://127.0.0.1:5173' })
}, 600_000)
afterAll(async () => {
  await server?.close()
  await proxy?.close()
  await s3?.close()
  await demo?.cleanup()
  await rm(cacheDir, { recursive: true, force: true })
})

const big = (): ListedObject =>
  [...objects.values()].filter((o) => o.key.endsWith('.parquet') && o.storageClass !== 'GLACIER').sort((a, b) => b.size - a.size)[0]!

describe('byte server', () => {
  it('refuses requests without the launch token, writes, and keys outside the bucket', async () => {
    const o = big()
    const good = server.url(o.key)
    const bad = good.replace(/\/([0-9a-f]{48})\//, '/00000000000000000000000000000000000000000000000a/')
    expect((await fetch(bad)).status).toBe(403)
    expect((await fetch(`${server.origin}/o/${encodeURIComponent(o.key)}`)).status).toBe(403)
    expect((await fetch(good, { method: 'POST', body: 'x' })).status).toBe(405)
    expect((await fetch(good, { method: 'DELETE' })).status).toBe(405)
    const missing = await fetch(server.url('v2/no/such.parquet'))
    expect(missing.status).toBe(404)
    expect(await missing.text()).toMatch(/not an object of the connected bucket/)
    expect(server.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
  })

  it('serves HEAD and byte ranges, with CORS for the renderer only', async () => {
    const o = big()
    expect(o.size).toBeGreaterThan(2 * BLOCK_SIZE)
    const file = await readFile(join(demo.bucketDir, o.key))
    const head = await fetch(server.url(o.key), { method: 'HEAD' })
    expect(head.status).toBe(200)
    expect(head.headers.get('content-length')).toBe(String(o.size))
    expect(head.headers.get('accept-ranges')).toBe('bytes')
    expect(head.headers.get('access-control-allow-origin')).toBe('http://127.0.0.1:5173')
    // HEAD with a range answers as its GET would, without a body (how DuckDB-WASM opens a file).
    const headRange = await fetch(server.url(o.key), { method: 'HEAD', headers: { range: 'bytes=0-' } })
    expect(headRange.status).toBe(206)
    expect(headRange.headers.get('content-length')).toBe(String(o.size))
    expect(headRange.headers.get('content-range')).toBe(`bytes 0-${o.size - 1}/${o.size}`)
    const tail = await fetch(server.url(o.key), { headers: { range: 'bytes=-8' } })
    expect(tail.status).toBe(206)
    expect(tail.headers.get('content-range')).toBe(`bytes ${o.size - 8}-${o.size - 1}/${o.size}`)
    expect(Buffer.from(await tail.arrayBuffer())).toEqual(file.subarray(o.size - 8))
    const mid = await fetch(server.url(o.key), { headers: { range: `bytes=${BLOCK_SIZE - 10}-${BLOCK_SIZE + 9}` } })
    expect(Buffer.from(await mid.arrayBuffer())).toEqual(file.subarray(BLOCK_SIZE - 10, BLOCK_SIZE + 10))
    const whole = await fetch(server.url(o.key))
    expect(whole.status).toBe(200)
    // Buffer.equals: a deep toEqual over megabytes takes seconds.
    expect(Buffer.from(await whole.arrayBuffer()).equals(file)).toBe(true)
    expect((await fetch(server.url(o.key), { headers: { range: `bytes=${o.size + 5}-` } })).status).toBe(416)
  })

  it('fetches a range from the bucket once; afterwards it comes from disk', async () => {
    const o = [...objects.values()].filter((x) => x.key.endsWith('.parquet') && x.size > 3 * BLOCK_SIZE && x.key !== big().key)[0] ?? big()
    const before = { ...server.cache.stats }
    const reqs = proxy.stats.requests
    await (await fetch(server.url(o.key), { headers: { range: 'bytes=0-99' } })).arrayBuffer()
    const first = server.cache.stats.bytesFetched - before.bytesFetched
    expect(first).toBeGreaterThan(0)
    expect(first).toBeLessThanOrEqual(BLOCK_SIZE)
    await (await fetch(server.url(o.key), { headers: { range: 'bytes=10-50' } })).arrayBuffer()
    expect(server.cache.stats.bytesFetched - before.bytesFetched).toBe(first)
    expect(proxy.stats.requests - reqs).toBe(1)
    // A range across a new block fetches only that block.
    await (await fetch(server.url(o.key), { headers: { range: `bytes=0-${BLOCK_SIZE + 10}` } })).arrayBuffer()
    expect(proxy.stats.requests - reqs).toBe(2)
  })

  it('serves small objects in a batch: their bytes in order, each size in a header, read from the bucket several at a time', async () => {
    const archived = demo.expected.faults.find((f) => f.kind === 'archived')!.key
    const small = [...objects.values()].filter((o) => o.key.endsWith('.parquet') && o.key !== archived && o.size < BLOCK_SIZE).slice(0, 40)
    expect(small.length).toBe(40)
    const before = { batches: server.stats.batches, requests: proxy.stats.requests }
    const r = await fetch(
      batchUrl(
        server.url(''),
        small.map((o) => o.key)
      ),
      { headers: { origin: 'http://127.0.0.1:5173' } }
    )
    expect(r.status).toBe(200)
    expect(r.headers.get('access-control-expose-headers')).toContain(BATCH_SIZES_HEADER)
    expect(r.headers.get(BATCH_SIZES_HEADER)).toBe(small.map((o) => o.size).join(','))
    const body = Buffer.from(await r.arrayBuffer())
    const want = Buffer.concat(await Promise.all(small.map((o) => readFile(join(demo.bucketDir, o.key)))))
    expect(body.equals(want)).toBe(true)
    expect(server.stats.batches - before.batches).toBe(1)
    // One GET per object from the bucket (their blocks), none again for the same batch.
    expect(proxy.stats.requests - before.requests).toBe(small.length)
    await (
      await fetch(
        batchUrl(
          server.url(''),
          small.map((o) => o.key)
        )
      )
    ).arrayBuffer()
    expect(proxy.stats.requests - before.requests).toBe(small.length)
    // All or nothing: one archived object refuses the batch with its name and status.
    const refused = await fetch(batchUrl(server.url(''), [small[0]!.key, archived]))
    expect(refused.status).toBe(409)
    expect(await refused.text()).toContain(archived)
  })

  it('answers at once for an archived object, naming it', async () => {
    const key = demo.expected.faults.find((f) => f.kind === 'archived')!.key
    const r = await fetch(server.url(key), { headers: { range: 'bytes=0-3' } })
    expect(r.status).toBe(409)
    expect(r.headers.get('x-export-explorer-error')).toBe('archived')
    expect(await r.text()).toContain(key)
  })

  it('parses the ranges it serves and refuses the others', () => {
    expect(parseRange('bytes=0-99')).toEqual({ start: 0, end: 99 })
    expect(parseRange('bytes=100-')).toEqual({ start: 100 })
    expect(parseRange('bytes=-8')).toEqual({ suffix: 8 })
    expect(parseRange(undefined)).toBeNull()
    for (const bad of ['bytes=5-1', 'bytes=-', 'items=0-1', 'bytes=0-1,5-9']) expect(parseRange(bad)).toBe('invalid')
  })
})

describe('byte server on a local folder', () => {
  const BIG = 64 * 1024 * 1024
  let root: string
  let bytes: ByteServer
  let content: Buffer
  const listed = new Map<string, ListedObject>()

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'ee-bytes-local-'))
    await mkdir(join(root, 'v2', 't'), { recursive: true })
    content = randomBytes(BIG)
    await writeFile(join(root, 'v2', 't', 'big.parquet'), content)
    await writeFile(join(root, 'v2', 't', 'empty.parquet'), '')
    await writeFile(join(root, 'v2', 't', 'other.parquet'), 'other bucket')
    for await (const o of listAll(new LocalFolderProvider(root), '')) listed.set(o.key, o)
    bytes = await startByteServer({ provider: new LocalFolderProvider(root), lookup: (k) => listed.get(k), cacheDir: `${root}-cache` })
  }, 120_000)
  afterAll(async () => {
    await bytes?.close()
    if (root) await Promise.all([rm(root, { recursive: true, force: true }), rm(`${root}-cache`, { recursive: true, force: true })])
  })

  it('streams a large range with back-pressure: a client that stops reading stops the reads from the bucket', async () => {
    const before = bytes.cache.stats.bytesFetched
    const url = new URL(bytes.url('v2/t/big.parquet'))
    const res = await new Promise<import('node:http').IncomingMessage>((resolve, reject) =>
      request(url, { headers: { range: 'bytes=0-' } }, resolve)
        .on('error', reject)
        .end()
    )
    expect(res.statusCode).toBe(206)
    expect(res.headers['content-length']).toBe(String(BIG))
    expect(res.headers['content-range']).toBe(`bytes 0-${BIG - 1}/${BIG}`)
    res.pause()
    // Long enough for a server that buffers the whole range to have read all of it (it reads 64 MB in well under 1 s).
    await new Promise((r) => setTimeout(r, 1500))
    const whilePaused = bytes.cache.stats.bytesFetched - before
    // What the socket buffers hold plus the piece being written and the one read ahead; far from the whole range.
    expect(whilePaused).toBeGreaterThan(0)
    expect(whilePaused).toBeLessThan(BIG / 3)
    const hash = createHash('sha256')
    let received = 0
    res.on('data', (d: Buffer) => {
      hash.update(d)
      received += d.length
    })
    res.resume()
    await new Promise((r) => res.on('end', r))
    expect(received).toBe(BIG)
    expect(hash.digest('hex')).toBe(createHash('sha256').update(content).digest('hex'))
    expect(bytes.cache.stats.bytesFetched - before).toBe(BIG)
    expect(PIECE_SIZE).toBeLessThan(BIG / 16)
  }, 60_000)

  it('answers bytes=-0 and a range past the end with 416 and Content-Range bytes */SIZE', async () => {
    for (const range of ['bytes=-0', `bytes=${BIG}-`]) {
      const r = await fetch(bytes.url('v2/t/big.parquet'), { headers: { range } })
      expect(r.status, range).toBe(416)
      expect(r.headers.get('content-range'), range).toBe(`bytes */${BIG}`)
    }
    // A suffix longer than the object is the whole object.
    const all = await fetch(bytes.url('v2/t/other.parquet'), { headers: { range: 'bytes=-1000' } })
    expect(all.status).toBe(206)
    expect(all.headers.get('content-range')).toBe('bytes 0-11/12')
    expect(await all.text()).toBe('other bucket')
    // An empty object has no bytes to select: served whole (200, empty), by GET as by HEAD.
    for (const method of ['GET', 'HEAD']) {
      const e = await fetch(bytes.url('v2/t/empty.parquet'), { method, headers: { range: 'bytes=0-' } })
      expect(e.status, method).toBe(200)
      expect(e.headers.get('content-length'), method).toBe('0')
    }
  })

  it('answers a malformed % escape in the object name with 400, naming it', async () => {
    const base = bytes.url('')
    const r = await fetch(`${base}v2%2Ft%2Fbig%ZZ.parquet`)
    expect(r.status).toBe(400)
    expect(r.headers.get('x-export-explorer-error')).toBe('bad_request')
    expect(await r.text()).toMatch(/big%ZZ\.parquet.*not a valid URL escape/)
  })

  it('serves another source on the same origin; URLs of the previous one stop working', async () => {
    const origin = bytes.origin
    const oldUrl = bytes.url('v2/t/other.parquet')
    const other = await mkdtemp(join(tmpdir(), 'ee-bytes-other-'))
    try {
      await mkdir(join(other, 'v2', 't'), { recursive: true })
      await writeFile(join(other, 'v2', 't', 'other.parquet'), 'the second bucket')
      const second = new Map<string, ListedObject>()
      for await (const o of listAll(new LocalFolderProvider(other), '')) second.set(o.key, o)
      bytes.setSource({ provider: new LocalFolderProvider(other), lookup: (k) => second.get(k), cacheDir: join(other, '.cache') })
      expect(bytes.origin).toBe(origin)
      expect((await fetch(oldUrl)).status).toBe(403)
      expect(await (await fetch(bytes.url('v2/t/other.parquet'))).text()).toBe('the second bucket')
      bytes.setSource(null)
      expect((await fetch(oldUrl)).status).toBe(403)
      expect(() => bytes.url('v2/t/other.parquet')).toThrow(/open a connection first/)
    } finally {
      await rm(other, { recursive: true, force: true })
    }
  })
})
