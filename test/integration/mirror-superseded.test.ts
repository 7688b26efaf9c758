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
import { openBucketEngine } from '../../src/main/engine/open-bucket-engine'
import { fileStoreFor } from '../../src/main/store/connection-files'
import { Mirror } from '../../src/main/mirror/mirror'
import { CATALOG } from '../../src/shared/catalog'
import { buildInventory } from '../../src/shared/inventory'
import { mirrorRead } from '../../src/shared/mirror-plan'
import { MAX_LIST_PARTS, type SupersededList } from '../../src/shared/mirror-superseded'
import { FIRST_V2_DELIVERY } from '../../src/shared/schedule'
import { quoteLiteral } from '../../src/shared/sql-quote'
import { type Db, openDb } from '../helpers/duckdb'
import { listLocalFolder } from '../helpers/local-bucket'

const HOUR = 3_600_000
const T = CATALOG.find((c) => c.table === 'claudia_messages')!
const iso = (t: number): string => new Date(t).toISOString()
// The clock crosses midnight during a case (an hour a step from 21:00): the day's hourly segments become a day's (the
// same folders, new segments).
const START = FIRST_V2_DELIVERY + 30 * 24 * HOUR + 18 * HOUR

const folderArb = fc
  .oneof(
    { weight: 1, arbitrary: fc.constant('v1/datamart_claudia/claudia_messages/etl_date=__initial__/') },
    { weight: 3, arbitrary: fc.integer({ min: 0, max: 30 * 24 + 17 }) },
    // The last day's hours: segments of their own until the clock passes midnight, then one day's.
    { weight: 4, arbitrary: fc.integer({ min: 30 * 24 - 3, max: 30 * 24 + 17 }) }
  )
  .map((f) => {
    if (typeof f === 'string') return f
    const at = FIRST_V2_DELIVERY + f * HOUR
    return `v2/datamart_claudia/claudia_messages/etl_date=${iso(at).slice(0, 10)}/etl_hour=${iso(at).slice(11, 13)}/`
  })
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

type Arrival = { readonly prefix: string; readonly files: readonly (readonly { key: string | null; value: number }[])[] }

/**
 * Lands each folder an hour after the last (from 21:00, so some land before midnight and the rest after), refreshes the
 * mirror, and checks that the list fits and that the view through it gives the rule's rows on the raw files.
 */
async function arrive(
  dir: string,
  arrivals: readonly Arrival[],
  fileRowNumberColumn: boolean,
  onList?: (list: SupersededList | undefined) => void
): Promise<void> {
  const bucket = join(dir, 'bucket')
  await mkdir(join(bucket, 'v2/_manifests/snapshot_date=2026-11-03/snapshot_hour=03'), { recursive: true })
  const manifest = join(bucket, 'v2/_manifests/snapshot_date=2026-11-03/snapshot_hour=03/manifest.json')
  await writeFile(manifest, '{}')
  await utimes(manifest, new Date(FIRST_V2_DELIVERY), new Date(FIRST_V2_DELIVERY))
  const store = fileStoreFor(new LocalFolderProvider(bucket), join(dir, 'data'), 'c')
  const mirror = new Mirror(join(dir, 'mirror'), store)
  for (const [i, a] of arrivals.entries()) {
    const now = START + i * HOUR
    const at = new Date(now - 60_000)
    await mkdir(join(bucket, a.prefix), { recursive: true })
    for (const [f, rows] of a.files.entries()) {
      const values = rows.map((r) => `(${r.key === null ? 'NULL' : quoteLiteral(r.key)}, ${r.value})`).join(', ')
      const file = join(bucket, a.prefix, `part-${f}.parquet`)
      const extra = fileRowNumberColumn ? ', 7 AS file_row_number' : ''
      await db.run(`COPY (SELECT *${extra} FROM (VALUES ${values}) AS t(message_id, val)) TO ${quoteLiteral(file)} (FORMAT parquet)`)
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
    onList?.((await mirror.superseded()).find((l) => l.table === `${T.schema}.${T.table}`))

    // The rule on the raw files: the same engine without the mirror.
    const objects = new Map(listed.map((o) => [o.key, o]))
    const raw = await openBucketEngine(store, inventory, objects, join(dir, 'raw', String(i)), { now, tables: [T] })
    const want = (await raw.engine.selectAll('SELECT message_id, val::VARCHAR FROM claudia_messages')).rows.map(([k, v]) => `${String(k)}=${String(v)}`)
    await raw.engine.close()
    const opened = await openBucketEngine(store, inventory, objects, join(dir, 'engine', String(i)), { now, mirror, tables: [T] })
    try {
      const got = (await opened.engine.selectAll('SELECT message_id, val::VARCHAR FROM claudia_messages')).rows
      expect(got.map(([k, v]) => `${String(k)}=${String(v)}`).sort()).toEqual(want.sort())
      // "As of" before the newest arrival reads fewer folders than the list was made from: the window, same rule.
      if (i > 0) {
        const asOf = now - HOUR - 30 * 60_000
        expect(mirrorRead(inventory, T, await mirror.segments(), { now, asOf }, await mirror.superseded())?.superseded ?? null).toBeNull()
      }
    } finally {
      await opened.engine.close()
    }
  }
}

describe('the superseded list', () => {
  it('reads exactly the rule’s rows after every arrival, in order or late, and is used only where it fits', async () => {
    let n = 0
    await fc.assert(
      // With a vendor column named file_row_number, a row's place is its position in the segment's read, not its file's.
      fc.asyncProperty(arrivalsArb, fc.boolean(), async (arrivals, fileRowNumberColumn) => arrive(join(root, `case-${n++}`), arrivals, fileRowNumberColumn)),
      { numRuns: 10 }
    )
  }, 300_000)

  it('gains a file of the new versions at each new hour, and is folded into one at MAX_LIST_PARTS', async () => {
    // Hour after hour in delivery order, each re-delivering keys of the hours before (a list grows at each).
    const hours = MAX_LIST_PARTS + 3
    const arrivals: Arrival[] = Array.from({ length: hours }, (_, i) => {
      const at = FIRST_V2_DELIVERY + (30 * 24 - 3 + i) * HOUR
      return {
        prefix: `v2/datamart_claudia/claudia_messages/etl_date=${iso(at).slice(0, 10)}/etl_hour=${iso(at).slice(11, 13)}/`,
        files: [
          [
            { key: `k${(i % 5) + 1}`, value: i * 10 },
            { key: `k${((i + 2) % 5) + 1}`, value: i * 10 + 1 },
            { key: 'k1', value: i * 10 + 2 }
          ]
        ]
      }
    })
    const parts: number[] = []
    await arrive(join(root, 'in-order'), arrivals, false, (list) => parts.push(list?.parts.length ?? 0))
    // Made at the first hour, a file more at each hour after, folded into one once it had MAX_LIST_PARTS.
    const want = [1]
    for (let i = 1; i < hours; i++) want.push((want[i - 1] as number) >= MAX_LIST_PARTS ? 1 : (want[i - 1] as number) + 1)
    expect(parts).toEqual(want)
    expect(parts).toContain(MAX_LIST_PARTS)
  }, 120_000)

  it('is made anew when the hours become a day and a row’s place is its position in the segment (a column file_row_number)', async () => {
    const hour = (h: string): string => `v2/datamart_claudia/claudia_messages/etl_date=2026-12-03/etl_hour=${h}/`
    // B's first k3 is superseded by its second; once B follows A in the day's segment, its rows' positions move.
    await arrive(
      join(root, 'regrouped'),
      [
        {
          prefix: hour('10'),
          files: [
            [
              { key: 'k1', value: 1 },
              { key: 'k2', value: 2 }
            ]
          ]
        },
        {
          prefix: hour('11'),
          files: [
            [
              { key: 'k3', value: 3 },
              { key: 'k3', value: 4 }
            ]
          ]
        },
        { prefix: hour('12'), files: [[{ key: 'k4', value: 5 }]] },
        { prefix: hour('13'), files: [[{ key: 'k5', value: 6 }]] }
      ],
      true
    )
  })
})
