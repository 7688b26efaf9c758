// Attack: a local file whose name holds `\` (legal on Linux and macOS, and a plain character of an S3 or GCS key)
// disappeared: the local listing turned it into `/`, its stat failed, and it was neither read nor reported. A
// table could silently lose rows. Now it is the key `…/a\b.parquet`, as S3 and GCS would list it, and every
// place that maps keys to files reads it: the listing, native DuckDB (file store and engine links), the mirror, the byte server.
import { copyFile, mkdtemp, readdir, rm, stat, utimes } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { refreshBucketIndex } from '../../src/main/bucket/bucket-index'
import { LocalFolderProvider } from '../../src/main/bucket/local-provider'
import { listLocalFolder } from '../helpers/local-bucket'
import { startByteServer } from '../../src/main/byte-server/byte-server'
import { openBucketEngine } from '../../src/main/engine/open-bucket-engine'
import { fileStoreFor } from '../../src/main/store/connection-files'
import { Mirror } from '../../src/main/mirror/mirror'
import { buildInventory } from '../../src/shared/inventory'
import { copyTree } from '../helpers/copy-tree'
import { type Demo, readDemo } from '../helpers/demo'
import { openDb } from '../helpers/duckdb'

let demo: Demo
let work: string
let bucket: string
/** The planted key: a copy of a ready folder's Parquet file, under a name holding a backslash. */
let planted: string
let plantedRows: number

beforeAll(async () => {
  demo = await readDemo({ days: 8 })
  work = await mkdtemp(join(tmpdir(), 'ee-backslash-'))
  bucket = join(work, 'bucket')
  await copyTree(demo.bucketDir, bucket)
  // cloud_chat_messages has no key: every row of every ready folder counts, so the copy's rows add up.
  const folder = demo.expected.tables['cloud_chat_messages']!.newest_folder!.prefix
  const original = (await readdir(join(bucket, folder))).find((f) => f.endsWith('.parquet'))!
  planted = `${folder}extra\\${original}`
  await copyFile(join(bucket, folder, original), join(bucket, folder, `extra\\${original}`))
  const was = await stat(join(bucket, folder, original))
  await utimes(join(bucket, folder, `extra\\${original}`), was.atime, was.mtime)
  const db = await openDb()
  try {
    plantedRows = Number((await db.rows(`SELECT count(*)::INTEGER AS n FROM read_parquet('${join(bucket, folder, original)}')`))[0]?.['n'])
  } finally {
    db.close()
  }
  expect(plantedRows).toBeGreaterThan(0)
}, 300_000)
afterAll(async () => {
  await demo?.cleanup()
  await rm(work, { recursive: true, force: true })
})

describe('a local file whose name holds a backslash', () => {
  it('is listed as its key, with the backslash, as S3 and GCS would list it', async () => {
    const keys = (await listLocalFolder(bucket)).map((o) => o.key)
    expect(keys).toContain(planted)
    expect(keys.filter((k) => k.includes('\\'))).toEqual([planted])
  })

  it('is read by native DuckDB: the table holds its rows', async () => {
    const now = Date.parse(demo.expected.now)
    const provider = new LocalFolderProvider(bucket)
    const { index } = await refreshBucketIndex(provider, null, { now })
    const inventory = buildInventory(index.objects.values(), { now })
    const { engine, views } = await openBucketEngine(fileStoreFor(provider, join(work, 'data'), 'c'), inventory, index.objects, join(work, 'engine'), { now })
    try {
      expect(views.problems.filter((p) => p.table.endsWith('cloud_chat_messages'))).toEqual([])
      const n = (await engine.selectAll('SELECT count(*) FROM cloud_chat_messages')).rows[0]?.[0]
      expect(Number(n)).toBe(demo.expected.tables['cloud_chat_messages']!.rows + plantedRows)
    } finally {
      await engine.close()
    }
  })

  it('is compacted into the mirror, and read from it', async () => {
    const now = Date.parse(demo.expected.now)
    const provider = new LocalFolderProvider(bucket)
    const { index } = await refreshBucketIndex(provider, null, { now })
    const inventory = buildInventory(index.objects.values(), { now })
    const store = fileStoreFor(provider, join(work, 'data'), 'm')
    const mirror = new Mirror(join(work, 'mirror'), store)
    const built = await mirror.refresh(inventory, now)
    expect(built.problems).toEqual([])
    const { engine, views } = await openBucketEngine(store, inventory, index.objects, join(work, 'engine-m'), { now, mirror })
    try {
      expect(views.problems.filter((p) => p.table.endsWith('cloud_chat_messages'))).toEqual([])
      const n = (await engine.selectAll('SELECT count(*) FROM cloud_chat_messages')).rows[0]?.[0]
      expect(Number(n)).toBe(demo.expected.tables['cloud_chat_messages']!.rows + plantedRows)
    } finally {
      await engine.close()
    }
  })

  it('is served by the byte server under its encoded key', async () => {
    const objects = new Map((await listLocalFolder(bucket)).map((o) => [o.key, o]))
    const server = await startByteServer({ provider: new LocalFolderProvider(bucket), lookup: (k) => objects.get(k), cacheDir: join(work, 'blocks') })
    try {
      const res = await fetch(server.url(planted), { headers: { range: 'bytes=0-3' } })
      expect(res.status).toBe(206)
      expect(Buffer.from(await res.arrayBuffer()).toString('latin1')).toBe('PAR1')
    } finally {
      await server.close()
    }
  })
})
