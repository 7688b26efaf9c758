// Newest version of a row, as a property: for random folders of real Parquet, in any listing order, the
// core's SQL on native DuckDB keeps for each key the row from the latest folder, then the later file, then
// the later row; keyless tables keep every row.
import fc from 'fast-check'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CATALOG } from '../../src/shared/catalog'
import { buildInventory, readyPartsFolders } from '../../src/shared/inventory'
import { logicalTableSql } from '../../src/shared/logical-table-sql'
import { FIRST_V2_DELIVERY, LAST_V1_DELIVERY } from '../../src/shared/schedule'
import { quoteLiteral } from '../../src/shared/sql-quote'
import { listLocalFolder } from '../helpers/local-bucket'
import { type Db, openDb } from '../helpers/duckdb'
import { shuffle } from '../helpers/listing'

const HOUR = 3_600_000
const DAY = 24 * HOUR
const d = (t: number): string => new Date(t).toISOString().slice(0, 10)
const h = (t: number): string => new Date(t).toISOString().slice(11, 13)

const folderArb = (table: string) =>
  fc
    .oneof(
      fc.constant({ at: 0, partition: 'etl_date=__initial__', version: 'v1' }),
      fc.integer({ min: 0, max: 30 }).map((k) => ({ at: LAST_V1_DELIVERY - k * DAY, partition: `etl_date=${d(LAST_V1_DELIVERY - k * DAY)}`, version: 'v1' })),
      fc.integer({ min: 0, max: 24 * 30 }).map((k) => {
        const at = FIRST_V2_DELIVERY + k * HOUR
        return { at, partition: `etl_date=${d(at)}/etl_hour=${h(at)}`, version: 'v2' }
      })
    )
    .map((f) => ({ ...f, prefix: `${f.version}/datamart_claudia/${table}/${f.partition}/` }))

const rowArb = fc.record({ key: fc.option(fc.constantFrom('k1', 'k2', 'k3', "k'4"), { nil: null, freq: 8 }), value: fc.integer({ min: 0, max: 1_000_000 }) })
const fileArb = fc.array(rowArb, { minLength: 1, maxLength: 5 })
const bucketArb = (table: string) =>
  fc.uniqueArray(fc.record({ folder: folderArb(table), files: fc.array(fileArb, { minLength: 1, maxLength: 3 }), ready: fc.boolean() }), {
    selector: (x) => x.folder.prefix,
    minLength: 1,
    maxLength: 6
  })

let db: Db
let root: string
beforeAll(async () => {
  db = await openDb()
  root = await mkdtemp(join(tmpdir(), 'ee-dedup-'))
})
afterAll(async () => {
  db?.close()
  await rm(root, { recursive: true, force: true })
})

type Bucket = ReturnType<typeof bucketArb> extends fc.Arbitrary<infer B> ? B : never

async function write(dir: string, bucket: Bucket, keyColumn: string): Promise<void> {
  await mkdir(join(dir, 'v2/_manifests/snapshot_date=2026-11-03/snapshot_hour=03'), { recursive: true })
  await writeFile(join(dir, 'v2/_manifests/snapshot_date=2026-11-03/snapshot_hour=03/manifest.json'), '{}')
  for (const { folder, files, ready } of bucket) {
    await mkdir(join(dir, folder.prefix), { recursive: true })
    for (const [i, rows] of files.entries()) {
      const values = rows.map((r) => `(${r.key === null ? 'NULL' : quoteLiteral(r.key)}, ${r.value})`).join(', ')
      // File names chosen so that code-unit order is not numeric order: part-10 sorts before part-9.
      const name = ['part-10.parquet', 'part-9.parquet', 'part-a.parquet'][i]
      await db.run(`COPY (SELECT * FROM (VALUES ${values}) AS t(${keyColumn}, val)) TO ${quoteLiteral(join(dir, folder.prefix, name!))} (FORMAT parquet)`)
    }
    if (ready) await writeFile(join(dir, folder.prefix, '_SUCCESS'), '')
  }
}

describe('newest version of each row', () => {
  it('the latest folder wins, then the later file by name, then the later row; shuffled listings agree', async () => {
    const t = CATALOG.find((c) => c.table === 'claudia_messages')!
    let n = 0
    await fc.assert(
      fc.asyncProperty(bucketArb(t.table), fc.integer(), async (bucket, seed) => {
        const dir = join(root, `case-${n++}`)
        await mkdir(dir, { recursive: true })
        await write(dir, bucket, 'message_id')
        // The oracle: walk ready folders in real chronological order, files by name, rows in order.
        const newest = new Map<string, number>()
        let nullKeys = 0
        for (const { files, ready } of [...bucket].sort((a, b) => a.folder.at - b.folder.at)) {
          if (!ready) continue
          const named = files
            .map((rows, i) => ({ name: ['part-10.parquet', 'part-9.parquet', 'part-a.parquet'][i]!, rows }))
            .sort((a, b) => (a.name < b.name ? -1 : 1))
          for (const f of named) {
            for (const r of f.rows) {
              if (r.key === null) nullKeys++
              else newest.set(r.key, r.value)
            }
          }
        }
        const listing = shuffle(await listLocalFolder(dir), seed)
        const inv = buildInventory(listing)
        const q = logicalTableSql(t, readyPartsFolders(inv, t), (k) => join(dir, k))
        if (!q.ok) {
          expect(newest.size + nullKeys).toBe(0)
          return
        }
        const rows = await db.rows(`SELECT message_id, val::INTEGER AS val FROM (${q.sql}) ORDER BY message_id NULLS LAST`)
        const got = rows.filter((r) => r['message_id'] !== null).map((r) => [r['message_id'], r['val']])
        expect(got).toEqual([...newest.entries()].sort((a, b) => (a[0] < b[0] ? -1 : 1)))
        expect(rows.filter((r) => r['message_id'] === null)).toHaveLength(nullKeys)
      }),
      { numRuns: 40 }
    )
  })

  it('a table without a key keeps every row of every ready folder', async () => {
    const t = CATALOG.find((c) => c.table === 'cloud_chat_messages')!
    let n = 0
    await fc.assert(
      fc.asyncProperty(bucketArb(t.table), async (bucket) => {
        const dir = join(root, `keyless-${n++}`)
        await mkdir(dir, { recursive: true })
        await write(
          dir,
          bucket.map((b) => ({ ...b, folder: { ...b.folder, prefix: b.folder.prefix.replace('datamart_claudia', 'datamart_cloudchat_saas') } })),
          'message_id'
        )
        const inv = buildInventory(await listLocalFolder(dir))
        const q = logicalTableSql(t, readyPartsFolders(inv, t), (k) => join(dir, k))
        const want = bucket.filter((b) => b.ready).reduce((s, b) => s + b.files.reduce((x, f) => x + f.length, 0), 0)
        if (!q.ok) {
          expect(want).toBe(0)
          return
        }
        const [row] = await db.rows(`SELECT count(*)::INTEGER AS n FROM (${q.sql})`)
        expect(row?.['n']).toBe(want)
      }),
      { numRuns: 15 }
    )
  })
})
