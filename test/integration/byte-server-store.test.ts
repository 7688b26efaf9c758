// The byte server reads an object the local file store already holds whole from that copy (one copy of the bytes on
// disk, issue 11): no request to the bucket and nothing written into the block cache; an object not held yet goes
// through the block cache as before. Real S3 server (s3rver) behind a request counter.
import { randomBytes } from 'node:crypto'
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { listAll } from '../../src/main/bucket/bucket-provider'
import { S3Provider } from '../../src/main/bucket/s3-provider'
import { type ByteServer, startByteServer } from '../../src/main/byte-server/byte-server'
import { FileStore } from '../../src/main/store/file-store'
import type { ListedObject } from '../../src/shared/listing'
import { countedProvider } from '../helpers/provider-wrappers'
import { S3_TEST_KEYS, type S3Server, startS3Server } from '../helpers/s3-server'

let s3: S3Server
let work: string
let server: ByteServer
let store: FileStore
const objects = new Map<string, ListedObject>()
const reads: string[] = []
const bodies = new Map<string, Buffer>()

async function files(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir, { recursive: true, withFileTypes: true })).filter((e) => e.isFile()).map((e) => e.name)
  } catch {
    return []
  }
}

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'ee-bytes-store-'))
  const src = join(work, 'src')
  for (const name of ['held.bin', 'cold.bin']) {
    const body = randomBytes(3 * 1024 * 1024 + 17)
    bodies.set(`v2/x/${name}`, body)
    await mkdir(join(src, 'v2', 'x'), { recursive: true })
    await writeFile(join(src, 'v2', 'x', name), body)
  }
  s3 = await startS3Server()
  await s3.seed('bytes-store', src)
  const provider = countedProvider(
    new S3Provider({ bucket: 'bytes-store', endpoint: s3.endpoint, region: 'us-east-1', credentials: { kind: 'static', ...S3_TEST_KEYS } }),
    reads
  )
  for await (const o of listAll(provider, '')) objects.set(o.key, o)
  store = new FileStore(join(work, 'store'), provider)
  server = await startByteServer({ provider, lookup: (k) => objects.get(k), cacheDir: join(work, 'blocks'), store })
}, 120_000)
afterAll(async () => {
  await server?.close()
  await s3?.close()
  await rm(work, { recursive: true, force: true })
})

describe('byte server over the file store', () => {
  it('serves an object the store holds whole from that copy: no bucket request, nothing in the block cache', async () => {
    const held = objects.get('v2/x/held.bin') as ListedObject
    const got = await store.ensure([held])
    expect(got.failures).toEqual([])
    reads.length = 0
    const body = bodies.get(held.key) as Buffer
    const tail = await fetch(server.url(held.key), { headers: { range: 'bytes=-8' } })
    expect(tail.status).toBe(206)
    expect(tail.headers.get('content-range')).toBe(`bytes ${body.length - 8}-${body.length - 1}/${body.length}`)
    expect(Buffer.from(await tail.arrayBuffer())).toEqual(body.subarray(body.length - 8))
    const mid = await fetch(server.url(held.key), { headers: { range: 'bytes=1000-2000999' } })
    expect(Buffer.from(await mid.arrayBuffer()).equals(body.subarray(1000, 2001000))).toBe(true)
    const whole = await fetch(server.url(held.key))
    expect(whole.status).toBe(200)
    expect(Buffer.from(await whole.arrayBuffer()).equals(body)).toBe(true)
    expect(reads).toEqual([])
    expect(server.stats.fromStore).toBe(3)
    expect(await files(join(work, 'blocks'))).toEqual([])
  })

  it('serves an object not held yet through the block cache, from the bucket, as before', async () => {
    const cold = objects.get('v2/x/cold.bin') as ListedObject
    reads.length = 0
    const before = server.stats.fromStore
    const r = await fetch(server.url(cold.key), { headers: { range: 'bytes=0-99' } })
    expect(Buffer.from(await r.arrayBuffer())).toEqual((bodies.get(cold.key) as Buffer).subarray(0, 100))
    expect(reads).toEqual([`range ${cold.key}`])
    expect(server.stats.fromStore).toBe(before)
    expect((await files(join(work, 'blocks'))).length).toBeGreaterThan(0)
    expect(server.cache.stats.bytesFetched).toBeGreaterThan(0)
  })
})
