// Attack (of a hostile or broken server): a GetObject whose body never ends. A download read on as long as bytes came
// (into memory for a small object, onto the disk for a big one), so one object could fill either. Now a download
// stops at the first byte past the object's listed size, names the object, keeps nothing, and closes the connection;
// so does the refresh's footer check, which reads an hourly file whole into the file store.
import { mkdtemp, readdir, rm } from 'node:fs/promises'
import { type ServerResponse, createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { S3Provider } from '../../src/main/bucket/s3-provider'
import { FileStore } from '../../src/main/store/file-store'
import { connectionObjectReader } from '../../src/main/store/connection-files'
import { BlockCache } from '../../src/main/byte-server/block-cache'
import type { ListedObject } from '../../src/shared/listing'
import { S3_TEST_KEYS } from '../helpers/s3-server'

const CHUNK = Buffer.alloc(64 * 1024, 'PAR1')
/** Per answer: bytes sent, and a promise that settles when its connection closed. */
const answers: { sent: number; closed: Promise<void> }[] = []
let endpoint: string
let close: () => Promise<void>
let work: string

beforeAll(async () => {
  const server = createServer((req, res: ServerResponse) => {
    const answer = { sent: 0, closed: new Promise<void>((resolve) => res.once('close', () => resolve())) }
    answers.push(answer)
    req.resume()
    res.writeHead(200, { 'content-type': 'application/octet-stream', etag: '"endless"' })
    // As fast as the reader takes it, for ever.
    const pump = (): void => {
      while (!res.destroyed && res.write(CHUNK)) answer.sent += CHUNK.length
      if (!res.destroyed) res.once('drain', pump)
    }
    pump()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections()
      server.close(() => resolve())
    })
  work = await mkdtemp(join(tmpdir(), 'ee-endless-'))
})
afterAll(async () => {
  await close?.()
  await rm(work, { recursive: true, force: true })
})

describe('an object whose body never ends', () => {
  it.each([
    ['a small object (received in memory)', 1_500],
    ['a big object (streamed to disk)', 3 * 1024 * 1024]
  ])('%s: the download stops past its listed size, names it, and keeps nothing', async (_what, size) => {
    const provider = new S3Provider({ bucket: 'endless', endpoint, region: 'us-east-1', credentials: { kind: 'static', ...S3_TEST_KEYS } })
    const store = new FileStore(join(work, `store-${size}`), provider)
    const o: ListedObject = {
      key: `v2/s/t/etl_date=2026-11-03/etl_hour=03/part-${size}.parquet`,
      size,
      lastModified: '2026-11-03T03:10:00.000Z',
      etag: '"endless"'
    }
    const before = answers.length
    const r = await store.ensure([o])
    expect(r.paths.size).toBe(0)
    expect(r.failures.map((f) => f.key)).toEqual([o.key])
    expect(r.failures[0]?.error.userMessage).toContain(`longer than listed (more than its ${size} bytes)`)
    expect(await store.has(o)).toBe(false)
    // The connection was let go, after little more than the object's size.
    const answer = answers[before]!
    await answer.closed
    expect(answer.sent).toBeLessThan(size + 8 * 1024 * 1024)
    const left = await readdir(join(work, `store-${size}`), { recursive: true }).catch(() => [] as string[])
    expect(left.filter((f) => f.endsWith('.parquet') || f.endsWith('.partial'))).toEqual([])
  })

  it('the refresh’s footer check reading an hourly file whole: it stops past its listed size, names it, and keeps nothing', async () => {
    const provider = new S3Provider({ bucket: 'endless', endpoint, region: 'us-east-1', credentials: { kind: 'static', ...S3_TEST_KEYS } })
    const dir = join(work, 'store-check')
    const read = connectionObjectReader(new BlockCache(join(work, 'blocks-check'), provider), new FileStore(dir, provider))
    const o: ListedObject = {
      key: 'v2/s/t/etl_date=2026-11-03/etl_hour=04/part-0.parquet',
      size: 2_000,
      lastModified: '2026-11-03T04:10:00.000Z',
      etag: '"endless"'
    }
    const before = answers.length
    await expect(read(o, 0, o.size - 1)).rejects.toThrow(`longer than listed (more than its ${o.size} bytes)`)
    const answer = answers[before]!
    await answer.closed
    expect(answer.sent).toBeLessThan(o.size + 8 * 1024 * 1024)
    expect(await readdir(dir, { recursive: true }).catch(() => [] as string[])).toEqual([])
  })
})
