// The mirror's superseded lists, as a property: folders of real Parquet arrive one refresh at a time, in delivery
// order or late (an older folder after newer ones), with a key repeated in a file, across files and folders, and
// NULL keys; after every refresh the keyed table read through its list (an anti-join) holds exactly the rows the
// rule gives on the raw files, and a list that no longer fits the rows read is never used.
import fc from 'fast-check'
import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { LocalFolderProvider } from '../../src/main/bucket/local-provider'
import { fileStoreFor, openBucketEngine } from '../../src/main/engine/open-bucket-engine'
import { Mirror } from '../../src/main/mirror/mirror'
import { CATALOG } from '../../src/shared/catalog'
import { buildInventory, readyPartsFolders } from '../../src/shared/inventory'
import { logicalTableSql } from '../../src/shared/logical-table-sql'
import { mirrorRead } from '../../src/shared/mirror-plan'
import { FIRST_V2_DELIVERY } from '../../src/shared/schedule'
import { quoteLiteral } from '../../src/shared/sql-quote'
import { type Db, openDb } from '../helpers/duckdb'
import { listLocalFolder } from '../helpers/local-bucket'

const HOUR = 3_600_000
const T = CATALOG.find((c) => c.table === 'claudia_messages')!
const iso = (t: number): string => new Date(t).toISOString()
// The clock crosses midnight during a case: the day's hourly segments become a day's (the same folders, new segments).
const START = FIRST_V2_DELIVERY + 30 * 24 * HOUR + 20 * HOUR

const folderArb = fc.oneof(
  { weight: 1, arbitrary: fc.constant('v1/datamart_claudia/claudia_messages/etl_date=__initial__/') },
  {
    weight: 6,
    arbitrary: fc.integer({ min: 0, max: 30 * 24 + 19 }).map((k) => {
      const at = FIRST_V2_DELIVERY + k * HOUR
      return `v2/datamart_claudia/claudia_messages/etl_date=${iso(at).slice(0, 10)}/etl_hour=${iso(at).slice(11, 13)}/`
    })
  }
)
const rowArb = fc.record({ key: fc.option(fc.constantFrom('k1', 'k2', 'k3', 'k4', 'k5'), { nil: null, freq: 6 }), value: fc.integer({ min: 0, max: 1e6 }) })
const arrivalsArb = fc.uniqueArray(
  fc.record({ prefix: folderArb, files: fc.array(fc.array(rowArb, { minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 2 }) }),
  { selector: (a) => a.prefix, minLength: 2, maxLength: 5 }
)

let db: Db
let root: string
beforeAll(async () => {
  db = await openDb()
  root = await mkdtemp(join(tmpdir(), 'ee-superseded-'))
})
afterAll(async () => {
  db?.close()
  await rm(root, { recursive: true, force: true })
})

const sorted = (rows: Record<string, unknown>[]): string[] => rows.map((r) => `${String(r['message_id'])}=${String(r['val'])}`).sort()

describe('the superseded list', () => {
  it('reads exactly the rule’s rows after every arrival, in order or late, and is used only where it fits', async () => {
    let n = 0
    let used = 0
    await fc.assert(
      fc.asyncProperty(arrivalsArb, async (arrivals) => {
        const dir = join(root, `case-${n++}`)
        const bucket = join(dir, 'bucket')
        await mkdir(join(bucket, 'v2/_manifests/snapshot_date=2026-11-03/snapshot_hour=03'), { recursive: true })
        const manifest = join(bucket, 'v2/_manifests/snapshot_date=2026-11-03/snapshot_hour=03/manifest.json')
        await writeFile(manifest, '{}')
        await utimes(manifest, new Date(FIRST_V2_DELIVERY), new Date(FIRST_V2_DELIVERY))
        const store = fileStoreFor(new LocalFolderProvider(bucket), join(dir, 'data'), 'c')
        const mirror = new Mirror(join(dir, 'mirror'), store)
        for (const [i, a] of arrivals.entries()) {
          const now = START + i * 2 * HOUR
          const at = new Date(now - 60_000)
          await mkdir(join(bucket, a.prefix), { recursive: true })
          for (const [f, rows] of a.files.entries()) {
            const values = rows.map((r) => `(${r.key === null ? 'NULL' : quoteLiteral(r.key)}, ${r.value})`).join(', ')
            const file = join(bucket, a.prefix, `part-${f}.parquet`)
            await db.run(`COPY (SELECT * FROM (VALUES ${values}) AS t(message_id, val)) TO ${quoteLiteral(file)} (FORMAT parquet)`)
            await utimes(file, at, at)
          }
          await writeFile(join(bucket, a.prefix, '_SUCCESS'), '')
          await utimes(join(bucket, a.prefix, '_SUCCESS'), at, at)

          const listed = await listLocalFolder(bucket)
          const inventory = buildInventory(listed, { now })
          const built = await mirror.refresh(inventory, now)
          expect(built.problems).toEqual([])
          // The list fits the rows the view reads now, so the view reads through it.
          const read = mirrorRead(inventory, T, await mirror.segments(), { now }, await mirror.superseded())
          expect(read).not.toBeNull()
          expect(read?.superseded ?? null).not.toBeNull()
          used++

          const raw = logicalTableSql(T, readyPartsFolders(inventory, T, { now }), (k) => join(bucket, k))
          if (!raw.ok) throw new Error(raw.message)
          const want = sorted(await db.rows(`SELECT message_id, val::VARCHAR AS val FROM (${raw.sql})`))
          const objects = new Map(listed.map((o) => [o.key, o]))
          const opened = await openBucketEngine(store, inventory, objects, join(dir, 'engine', String(i)), { now, mirror, tables: [T] })
          try {
            const got = (await opened.engine.selectAll('SELECT message_id, val::VARCHAR FROM claudia_messages')).rows
            expect(got.map(([k, v]) => `${String(k)}=${String(v)}`).sort()).toEqual(want)
            // "As of" before the newest arrival reads fewer folders than the list was made from: the window, same rule.
            if (i > 0) {
              const asOf = now - 2 * HOUR + 30 * 60_000
              expect(mirrorRead(inventory, T, await mirror.segments(), { now, asOf }, await mirror.superseded())?.superseded ?? null).toBeNull()
            }
          } finally {
            await opened.engine.close()
          }
        }
      }),
      { numRuns: 15 }
    )
    expect(used).toBeGreaterThan(6)
  }, 300_000)
})
