// The byte server's batches (`o/?k=<key>&k=<key>…`, the query pane's small files read together) are a way in for any
// local process that can reach 127.0.0.1: without the launch token it gets nothing; it can name only objects of the
// connected bucket (never a local path, not even the bucket folder's own files outside the listing); a key a hostile
// bucket names with `&k=` inside it stays one key; and it cannot make the server hold more than a batch's bounds in
// memory, or write. The server answers the next request as before.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { listAll } from '../../src/main/bucket/bucket-provider'
import { LocalFolderProvider } from '../../src/main/bucket/local-provider'
import { type ByteServer, startByteServer } from '../../src/main/byte-server/byte-server'
import { BATCH_MAX_BYTES, BATCH_MAX_OBJECTS, BATCH_SIZES_HEADER, batchUrl } from '../../src/shared/byte-batch'
import type { ListedObject } from '../../src/shared/listing'

let root: string
let bytes: ByteServer
const listed = new Map<string, ListedObject>()
/** A key a hostile bucket names so that a batch URL built carelessly would ask for `v2/t/a.parquet` too. */
const HOSTILE = 'v2/t/x.parquet&k=v2/t/a.parquet'

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'ee-batch-'))
  await mkdir(join(root, 'bucket', 'v2', 't'), { recursive: true })
  await writeFile(join(root, 'bucket', 'v2', 't', 'a.parquet'), 'file a')
  await mkdir(join(root, 'bucket', 'v2', 't', 'x.parquet&k=v2', 't'), { recursive: true })
  await writeFile(join(root, 'bucket', 'v2', 't', 'x.parquet&k=v2', 't', 'a.parquet'), 'the hostile one')
  // Two objects that together pass the batch's byte bound.
  await writeFile(join(root, 'bucket', 'v2', 't', 'big-1.parquet'), Buffer.alloc(BATCH_MAX_BYTES / 2 + 1))
  await writeFile(join(root, 'bucket', 'v2', 't', 'big-2.parquet'), Buffer.alloc(BATCH_MAX_BYTES / 2 + 1))
  // A file beside the bucket the listing does not hold.
  await writeFile(join(root, 'secret.txt'), 'not in the bucket')
  const provider = new LocalFolderProvider(join(root, 'bucket'))
  for await (const o of listAll(provider, '')) listed.set(o.key, o)
  bytes = await startByteServer({ provider, lookup: (k) => listed.get(k), cacheDir: join(root, 'cache') })
}, 60_000)
afterAll(async () => {
  await bytes?.close()
  if (root) await rm(root, { recursive: true, force: true })
})

describe('byte server batches under attack', () => {
  it('give nothing without the launch token', async () => {
    const url = batchUrl(bytes.url(''), ['v2/t/a.parquet'])
    const forged = url.replace(/\/([0-9a-f]{48})\//, `/${'0'.repeat(48)}/`)
    expect((await fetch(forged)).status).toBe(403)
    expect((await fetch(`${bytes.origin}/o/?k=${encodeURIComponent('v2/t/a.parquet')}`)).status).toBe(403)
  })

  it('name objects of the listing only: no local path, nothing beside the bucket', async () => {
    for (const key of ['../secret.txt', '/etc/passwd', 'v2/t/../../secret.txt', 'v2/t/none.parquet']) {
      const r = await fetch(batchUrl(bytes.url(''), ['v2/t/a.parquet', key]))
      expect(r.status).toBe(404)
      const text = await r.text()
      expect(text).toContain('is not an object of the connected bucket')
      expect(text).not.toContain('not in the bucket')
    }
  })

  it('keep a key with `&k=` in its name one key', async () => {
    expect(listed.has(HOSTILE)).toBe(true)
    const r = await fetch(batchUrl(bytes.url(''), [HOSTILE, 'v2/t/a.parquet']))
    expect(r.status).toBe(200)
    expect(r.headers.get(BATCH_SIZES_HEADER)).toBe(`${'the hostile one'.length},${'file a'.length}`)
    expect(await r.text()).toBe('the hostile onefile a')
  })

  it('are bounded: objects, bytes, URL length; read-only; the server keeps answering', async () => {
    const many = await fetch(
      batchUrl(
        bytes.url(''),
        Array.from({ length: BATCH_MAX_OBJECTS + 1 }, () => 'v2/t/a.parquet')
      )
    )
    expect(many.status).toBe(400)
    expect(await many.text()).toContain(`at most ${BATCH_MAX_OBJECTS} objects`)
    const large = await fetch(batchUrl(bytes.url(''), ['v2/t/big-1.parquet', 'v2/t/big-2.parquet']))
    expect(large.status).toBe(413)
    // A URL past Node's header bound is refused by the HTTP parser itself, before any read.
    const long = await fetch(
      batchUrl(
        bytes.url(''),
        Array.from({ length: 40 }, () => `v2/t/${'z'.repeat(1000)}.parquet`)
      )
    )
    expect(long.status).toBe(431)
    for (const method of ['POST', 'PUT', 'DELETE']) expect((await fetch(batchUrl(bytes.url(''), ['v2/t/a.parquet']), { method, body: 'x' })).status).toBe(405)
    expect((await fetch(batchUrl(bytes.url(''), ['v2/t/a.parquet']), { method: 'HEAD' })).status).toBe(405)
    expect(await (await fetch(batchUrl(bytes.url(''), ['v2/t/a.parquet', 'v2/t/a.parquet']))).text()).toBe('file afile a')
  })
})
