// A rebuild of the mirror under a reader: the query pane's DuckDB-WASM reads the mirror's files through the byte server
// with views it opened before (and an export's native engine with its own), so the files a rebuild replaces stay
// served, byte for byte, until the build after it; then they are removed and no longer served.
import { cp, mkdir, mkdtemp, readdir, readFile, rm, utimes, writeFile } from 'node:fs/promises'
import { existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { refreshBucketIndex } from '../../src/main/bucket/bucket-index'
import { LocalFolderProvider } from '../../src/main/bucket/local-provider'
import { type ByteServer, startByteServer } from '../../src/main/byte-server/byte-server'
import { fileStoreFor } from '../../src/main/engine/open-bucket-engine'
import { ConnectionMirror } from '../../src/main/mirror/connection-mirror'
import { buildInventory } from '../../src/shared/inventory'
import type { ListedObject } from '../../src/shared/listing'
import { MIRROR_KEY_PREFIX, mirrorKey, supersededKey } from '../../src/shared/mirror-sql'
import { copyTree } from '../helpers/copy-tree'
import { type Demo, readDemo } from '../helpers/demo'

let demo: Demo
let work: string
let bucket: string
let mirror: ConnectionMirror
let bytes: ByteServer
let objects: ReadonlyMap<string, ListedObject>
const now = (): number => Date.parse(demo.expected.now)

beforeAll(async () => {
  demo = await readDemo({ days: 8 })
  work = await mkdtemp(join(tmpdir(), 'ee-mirror-readers-'))
  bucket = join(work, 'bucket')
  await copyTree(demo.bucketDir, bucket)
  await writeFile(join(bucket, '.export-explorer', 'storage-classes.json'), '{}')
  const provider = new LocalFolderProvider(bucket)
  mirror = new ConnectionMirror(join(work, 'data'), 'c', provider)
  bytes = await startByteServer({
    provider,
    lookup: (k) => (k.startsWith(MIRROR_KEY_PREFIX) ? mirror.object(k) : objects.get(k)),
    cacheDir: join(work, 'cache'),
    store: mirror.heldFiles(fileStoreFor(provider, join(work, 'data'), 'c'))
  })
}, 300_000)
afterAll(async () => {
  await bytes?.close()
  await demo?.cleanup()
  if (work) await rm(work, { recursive: true, force: true })
})

/** Lists the bucket as of `at` and brings the mirror to it; the keys the byte server serves for the index then. */
async function buildAt(at: number): Promise<string[]> {
  objects = (await refreshBucketIndex(new LocalFolderProvider(bucket), null, { now: at })).index.objects
  await mirror.update(async () => ({ inventory: buildInventory(objects.values(), { now: at }), now: at }))
  return [...(await mirror.segments()).filter((s) => s.rows > 0).map(mirrorKey), ...(await mirror.superseded()).map(supersededKey)]
}

/** A new hour of claudia_messages (a copy of an earlier hour's file), delivered at `at`. */
async function deliverHour(at: Date): Promise<void> {
  const from = join(bucket, 'v2/datamart_claudia/claudia_messages', `etl_date=${demo.expected.now.slice(0, 10)}`)
  const source = join(from, (await readdir(from)).sort()[0]!, 'part-00000.parquet')
  const folder = join(bucket, `v2/datamart_claudia/claudia_messages/etl_date=${at.toISOString().slice(0, 10)}/etl_hour=${at.toISOString().slice(11, 13)}`)
  await mkdir(folder, { recursive: true })
  await cp(source, join(folder, 'part-00000.parquet'))
  await writeFile(join(folder, '_SUCCESS'), '')
  for (const f of ['part-00000.parquet', '_SUCCESS']) await utimes(join(folder, f), at, at)
}

const get = (key: string): Promise<Response> => fetch(bytes.url(key), { headers: { range: 'bytes=0-' } })

describe('a rebuild under a reader', () => {
  it('serves the files it replaced, byte for byte, until the build after; then removes them', async () => {
    const first = await buildAt(now())
    const before = new Map<string, Buffer>()
    for (const k of first) before.set(k, Buffer.from(await (await get(k)).arrayBuffer()))

    await deliverHour(new Date(now() + 10 * 60_000))
    const second = await buildAt(now() + 50 * 60_000)
    const replaced = first.filter((k) => !second.includes(k))
    // A new hour changes at least claudia_messages' list of superseded versions.
    expect(replaced.length).toBeGreaterThan(0)
    for (const k of first) {
      const r = await get(k)
      expect([k, r.status]).toEqual([k, 206])
      expect(Buffer.from(await r.arrayBuffer()).equals(before.get(k)!), k).toBe(true)
    }

    await deliverHour(new Date(now() + 70 * 60_000))
    const third = await buildAt(now() + 110 * 60_000)
    const gone = replaced.filter((x) => !third.includes(x))
    expect(gone.length).toBeGreaterThan(0)
    for (const k of gone) {
      expect([k, (await get(k)).status]).toEqual([k, 404])
      expect(existsSync(join(work, 'data', 'mirror', 'c', k.slice(MIRROR_KEY_PREFIX.length))), k).toBe(false)
    }
    for (const k of second) expect([k, (await get(k)).status]).toEqual([k, 206])
    // What the index names now reads as the files on disk.
    for (const k of third) {
      const file = join(work, 'data', 'mirror', 'c', k.slice(MIRROR_KEY_PREFIX.length))
      expect(Buffer.from(await (await get(k)).arrayBuffer()).equals(await readFile(file)), k).toBe(true)
    }
  })
})
