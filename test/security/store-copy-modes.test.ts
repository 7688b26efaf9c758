// Attack: another local user reads a connection's data from the file store. The store's copies of a remote bucket's
// small files are written by a worker thread (src/main/store/copy-writer.ts); without its mode they would be 0644 under
// the usual umask (0022), readable by anyone who can reach the folder once a folder's mode slips. Every copy the
// refresh's check keeps must be 0600 and every folder 0700, whatever the umask. Real S3 server (s3rver), the demo bucket.
import { lstat, mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { refreshBucket } from '../../src/main/bucket/refresh-pipeline'
import { S3Provider } from '../../src/main/bucket/s3-provider'
import { fileStoreFor } from '../../src/main/store/connection-files'
import { type Demo, readDemo } from '../helpers/demo'
import { S3_TEST_KEYS, type S3Server, startS3Server } from '../helpers/s3-server'

let demo: Demo
let s3: S3Server
let work: string
beforeAll(async () => {
  demo = await readDemo({ days: 8 })
  s3 = await startS3Server()
  await s3.seed('copy-modes', demo.bucketDir)
  work = await mkdtemp(join(tmpdir(), 'ee-store-modes-'))
}, 300_000)
afterAll(async () => {
  await s3?.close()
  await demo?.cleanup()
  await rm(work, { recursive: true, force: true })
})

it("keeps the bucket's small files 0600 in 0700 folders, whatever the umask", async () => {
  const old = process.umask(0o022)
  try {
    const provider = new S3Provider({ bucket: 'copy-modes', endpoint: s3.endpoint, region: 'us-east-1', credentials: { kind: 'static', ...S3_TEST_KEYS } })
    const dataDir = join(work, 'data')
    const store = fileStoreFor(provider, dataDir, 'c')
    await refreshBucket(provider, dataDir, 'c', { now: Date.parse(demo.expected.now), manifests: false, store })
    const root = join(store.readableRoot, 'objects')
    const seen: [string, number][] = []
    for (const name of await readdir(root, { recursive: true })) {
      const st = await lstat(join(root, name))
      seen.push([st.isDirectory() ? `${name}/` : name, st.mode & 0o777])
    }
    // The check kept the small data files it read whole.
    expect(seen.filter(([k]) => k.endsWith('.parquet')).length).toBeGreaterThan(100)
    const wrong = seen.filter(([k, m]) => m !== (k.endsWith('/') ? 0o700 : 0o600))
    expect(wrong.map(([k, m]) => `${k} ${m.toString(8)}`)).toEqual([])
  } finally {
    process.umask(old)
  }
}, 300_000)
