// Attack: a bucket object is anybody's bytes. A new hour the mirror has not built yet is read from its raw files beside
// the segments; a file there that is not Parquet, and that no frame check has judged yet (the views are opened before
// one, or it was replaced since), is found so only when it is fetched. It must be left out of its hour as the rules
// leave it out, and asked for once: were it asked for again at each round, opening the tables would never end.
import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { refreshBucketIndex } from '../../src/main/bucket/bucket-index'
import { LocalFolderProvider } from '../../src/main/bucket/local-provider'
import { openBucketEngine } from '../../src/main/engine/open-bucket-engine'
import { fileStoreFor } from '../../src/main/store/connection-files'
import { Mirror } from '../../src/main/mirror/mirror'
import { folderPrefix } from '../../src/shared/bucket-key'
import { CATALOG, type CatalogTable } from '../../src/shared/catalog'
import { buildInventory } from '../../src/shared/inventory'
import { mirrorRead } from '../../src/shared/mirror-plan'
import { quoteLiteral } from '../../src/shared/sql-quote'
import { type Db, openDb } from '../helpers/duckdb'
import { markHourReady } from '../helpers/hour-markers'

const MSGS = CATALOG.find((t) => t.table === 'claudia_messages') as CatalogTable
const HOUR = 3_600_000
const H03 = Date.UTC(2026, 10, 3, 3)
const H04 = H03 + HOUR
const NOW = H04 + 2 * HOUR
const d = (t: number): string => new Date(t).toISOString().slice(0, 10)
const h = (t: number): string => new Date(t).toISOString().slice(11, 13)
const GARBAGE = `${folderPrefix(MSGS, 'v2', d(H04), h(H04))}part-0.parquet`

let db: Db
let work: string
let bucket: string
beforeAll(async () => {
  db = await openDb()
  work = await mkdtemp(join(tmpdir(), 'ee-not-parquet-beside-'))
  bucket = join(work, 'bucket')
  const first = join(bucket, folderPrefix(MSGS, 'v2', d(H03), h(H03)), 'part-0.parquet')
  await mkdir(dirname(first), { recursive: true })
  await db.run(`COPY (SELECT * FROM (VALUES ('m1', 'old'), ('m2', 'kept')) t(message_id, content)) TO ${quoteLiteral(first)} (FORMAT parquet)`)
  await mkdir(dirname(join(bucket, GARBAGE)), { recursive: true })
  await writeFile(join(bucket, GARBAGE), Buffer.alloc(4096, 7))
  for (const [file, hour] of [
    [first, H03],
    [join(bucket, GARBAGE), H04]
  ] as const) {
    await utimes(file, new Date(hour + 10 * 60_000), new Date(hour + 10 * 60_000))
    await markHourReady(bucket, MSGS, hour, 1)
  }
}, 120_000)
afterAll(async () => {
  db?.close()
  await rm(work, { recursive: true, force: true })
})

describe('a file beside the mirror that is not Parquet, found so when fetched', () => {
  it('is left out of its hour as the rules leave it out, and asked for once', async () => {
    const provider = new LocalFolderProvider(bucket)
    const { index } = await refreshBucketIndex(provider, null, { now: NOW })
    const store = fileStoreFor(provider, join(work, 'data'), 'c')
    // Built when only the first hour was ready: the second is read from its raw file beside the segment.
    const before = H04 + 10 * 60_000
    const mirror = new Mirror(join(work, 'mirror'), store)
    expect((await mirror.refresh(buildInventory(index.objects.values(), { now: before }), before)).problems).toEqual([])
    const inventory = buildInventory(index.objects.values(), { now: NOW })
    expect(mirrorRead(inventory, MSGS, await mirror.segments(), { now: NOW })?.raw.map((f) => f.dataFiles.map((o) => o.key))).toEqual([[GARBAGE]])
    // The store as it is, each fetch of the file counted; a second one ends the opening (rather than looping on).
    let asked = 0
    const ensure = store.ensure.bind(store)
    store.ensure = (objects, opts) => {
      if (objects.some((o) => o.key === GARBAGE) && ++asked > 1) throw new Error(`${GARBAGE} asked for again`)
      return ensure(objects, opts)
    }
    const be = await openBucketEngine(store, inventory, index.objects, join(work, 'engine'), { now: NOW, mirror })
    try {
      expect(asked).toBe(1)
      expect(be.views.notes.find((n) => n.table === 'datamart_claudia.claudia_messages')?.message).toContain(GARBAGE)
      const rows = await be.engine.selectAll('SELECT message_id, content FROM claudia_messages ORDER BY 1')
      expect(rows.rows).toEqual([
        ['m1', 'old'],
        ['m2', 'kept']
      ])
    } finally {
      await be.engine.close()
    }
  }, 120_000)
})
