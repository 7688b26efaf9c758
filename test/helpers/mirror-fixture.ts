// A connection's mirror on a copy of the run's demo (its archived object made readable), served by a byte server as
// the query pane reads it; built as of any instant. For the tests of what a rebuild leaves readers, and what is served.
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { refreshBucketIndex } from '../../src/main/bucket/bucket-index'
import { LocalFolderProvider } from '../../src/main/bucket/local-provider'
import { type ByteServer, startByteServer } from '../../src/main/byte-server/byte-server'
import { fileStoreFor } from '../../src/main/store/connection-files'
import { ConnectionMirror } from '../../src/main/mirror/connection-mirror'
import { buildInventory } from '../../src/shared/inventory'
import type { ListedObject } from '../../src/shared/listing'
import { MIRROR_KEY_PREFIX, mirrorKey, supersededKey } from '../../src/shared/mirror-sql'
import { copyTree } from './copy-tree'
import { type Demo, readDemo } from './demo'

export interface MirrorFixture {
  readonly demo: Demo
  readonly work: string
  readonly bucket: string
  /** The mirror's folder (its files' paths are relative to it). */
  readonly mirrorDir: string
  readonly mirror: ConnectionMirror
  readonly bytes: ByteServer
  /** Lists the bucket as of `at` and brings the mirror to it: the keys the index then names (segments with rows, lists). */
  buildAt(at: number): Promise<string[]>
  /** A range request for a key through the byte server. */
  get(key: string): Promise<Response>
  close(): Promise<void>
}

export async function startMirrorFixture(): Promise<MirrorFixture> {
  const demo = await readDemo({ days: 8 })
  const work = await mkdtemp(join(tmpdir(), 'ee-mirror-fixture-'))
  const bucket = join(work, 'bucket')
  await copyTree(demo.bucketDir, bucket)
  await writeFile(join(bucket, '.export-explorer', 'storage-classes.json'), '{}')
  const provider = new LocalFolderProvider(bucket)
  const mirror = new ConnectionMirror(join(work, 'data'), 'c', provider)
  let objects: ReadonlyMap<string, ListedObject> = new Map()
  const bytes = await startByteServer({
    provider,
    lookup: (k) => (k.startsWith(MIRROR_KEY_PREFIX) ? mirror.object(k) : objects.get(k)),
    cacheDir: join(work, 'cache'),
    store: mirror.heldFiles(fileStoreFor(provider, join(work, 'data'), 'c'))
  })
  return {
    demo,
    work,
    bucket,
    mirrorDir: join(work, 'data', 'mirror', 'c'),
    mirror,
    bytes,
    async buildAt(at) {
      objects = (await refreshBucketIndex(provider, null, { now: at })).index.objects
      await mirror.update(async () => ({ inventory: buildInventory(objects.values(), { now: at }), now: at }))
      return [...(await mirror.segments()).filter((s) => s.rows > 0).map(mirrorKey), ...(await mirror.superseded()).flatMap((l) => l.parts).map(supersededKey)]
    },
    get: (key) => fetch(bytes.url(key), { headers: { range: 'bytes=0-' } }),
    async close() {
      await bytes.close()
      await demo.cleanup()
      await rm(work, { recursive: true, force: true })
    }
  }
}
