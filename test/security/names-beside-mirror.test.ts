// Attack: a bucket key is anybody's bytes. A new hour the mirror has not built yet is read from its raw files beside
// the segments, and its file names, folder and partition values go into the SQL that fills that table of files. A
// file named to close the literal and add a statement (`part-1'), (0 ... ; DROP ...`) must stay one name: its rows
// read under that name, nothing else run, and the view still gives the rule's rows.
import { mkdir, mkdtemp, rm, utimes } from 'node:fs/promises'
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
const HOSTILE = "part-1'), (0, 0, 0, 0, 'x', 'x', 'x', 'x'); DROP TABLE \"__ee_raw_claudia_messages\"; --.parquet"

let db: Db
let work: string
let bucket: string
beforeAll(async () => {
  db = await openDb()
  work = await mkdtemp(join(tmpdir(), 'ee-names-beside-'))
  bucket = join(work, 'bucket')
  const files: [number, string, string][] = [
    [H03, 'part-0.parquet', "('m1', 'old'), ('m2', 'kept')"],
    [H04, HOSTILE, "('m1', 'new')"]
  ]
  for (const [hour, name, rows] of files) {
    const prefix = folderPrefix(MSGS, 'v2', d(hour), h(hour))
    const file = join(bucket, prefix, name)
    await mkdir(dirname(file), { recursive: true })
    await db.run(`COPY (SELECT * FROM (VALUES ${rows}) t(message_id, content)) TO ${quoteLiteral(file)} (FORMAT parquet)`)
    await utimes(file, new Date(hour + 10 * 60_000), new Date(hour + 10 * 60_000))
    await markHourReady(bucket, MSGS, hour, 1)
  }
}, 120_000)
afterAll(async () => {
  db?.close()
  await rm(work, { recursive: true, force: true })
})

describe('a hostile file name read beside the mirror', () => {
  it('stays one name: its rows are read under it, and the newest version per key is kept', async () => {
    const provider = new LocalFolderProvider(bucket)
    const { index } = await refreshBucketIndex(provider, null, { now: NOW })
    const store = fileStoreFor(provider, join(work, 'data'), 'c')
    // Built when only the first hour was ready: the second is read from its raw file beside the segment.
    const before = H04 + 10 * 60_000
    const mirror = new Mirror(join(work, 'mirror'), store)
    expect((await mirror.refresh(buildInventory(index.objects.values(), { now: before }), before)).problems).toEqual([])
    const inventory = buildInventory(index.objects.values(), { now: NOW })
    expect(mirrorRead(inventory, MSGS, await mirror.segments(), { now: NOW })?.raw.map((f) => f.dataFiles.map((o) => o.key))).toEqual([
      [`${folderPrefix(MSGS, 'v2', d(H04), h(H04))}${HOSTILE}`]
    ])
    const be = await openBucketEngine(store, inventory, index.objects, join(work, 'engine'), { now: NOW, mirror })
    try {
      expect(be.views.problems.filter((p) => p.table.includes('claudia_messages'))).toEqual([])
      const rows = await be.engine.selectAll('SELECT message_id, content FROM claudia_messages ORDER BY 1')
      expect(rows.rows).toEqual([
        ['m1', 'new'],
        ['m2', 'kept']
      ])
      const files = await be.engine.selectAll('SELECT _file, count(*)::INTEGER FROM claudia_messages__versions GROUP BY 1 ORDER BY 1')
      expect(files.rows).toEqual([
        ['part-0.parquet', 2],
        [HOSTILE, 1]
      ])
    } finally {
      await be.engine.close()
    }
  }, 120_000)
})
