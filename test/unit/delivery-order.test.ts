// Delivery order and latest-ready, pinned with property tests: a listing in any order gives the same answer,
// and the order always matches the real chronology of deliveries.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { parseKey } from '../../src/shared/bucket-key'
import { objectsForViews } from '../../src/shared/bucket-views'
import { compareDelivery, compareFileNames, deliveryOrderKey, deliverySortKey } from '../../src/shared/delivery-order'
import { buildInventory, detectVersion, foldersForLogicalTable, latestReady, readyPartsFolders, versionAt } from '../../src/shared/inventory'
import { FIRST_V2_DELIVERY, LAST_V1_DELIVERY } from '../../src/shared/schedule'
import { obj, readyFolder, shuffle } from '../helpers/listing'

const HOUR = 3_600_000
const DAY = 24 * HOUR
const MIN = 60_000
const d = (t: number): string => new Date(t).toISOString().slice(0, 10)
const h = (t: number): string => new Date(t).toISOString().slice(11, 13)

/** A parts folder and the instant it was really delivered (the oracle): __initial__ long before v1. */
const partsFolder = fc.oneof(
  fc.constant({ at: 0, prefix: 'v1/datamart_claudia/claudia_messages/etl_date=__initial__/' }),
  fc.integer({ min: 0, max: 400 }).map((k) => {
    const at = LAST_V1_DELIVERY - k * DAY
    return { at, prefix: `v1/datamart_claudia/claudia_messages/etl_date=${d(at)}/` }
  }),
  fc.integer({ min: 0, max: 24 * 400 }).map((k) => {
    const at = FIRST_V2_DELIVERY + k * HOUR
    return { at, prefix: `v2/datamart_claudia/claudia_messages/etl_date=${d(at)}/etl_hour=${h(at)}/` }
  })
)

describe('delivery order of parts folders', () => {
  it('is the real chronology: __initial__, then v1 by date, then v2 by date and hour', () => {
    fc.assert(
      fc.property(fc.uniqueArray(partsFolder, { selector: (f) => f.prefix, minLength: 1, maxLength: 40 }), fc.integer(), (folders, seed) => {
        // On v2 (a manifest exists), so that v2 parts folders count.
        const listing = shuffle(
          [obj('v2/_manifests/snapshot_date=2026-11-03/snapshot_hour=03/manifest.json'), ...folders.flatMap((f) => readyFolder(f.prefix, f.at))],
          seed
        )
        const got = readyPartsFolders(buildInventory(listing), { schema: 'datamart_claudia', table: 'claudia_messages' }).map((f) => f.ref.prefix)
        const want = [...folders].sort((a, b) => a.at - b.at).map((f) => f.prefix)
        expect(got).toEqual(want)
      }),
      { numRuns: 300 }
    )
  })

  it('gives each folder one integer in the same order: rank·10¹⁰ + YYYYMMDD·100 + HH', () => {
    fc.assert(
      fc.property(fc.uniqueArray(partsFolder, { selector: (f) => f.prefix, minLength: 1, maxLength: 40 }), (folders) => {
        const refs = folders.map((f) => {
          const r = parseKey(`${f.prefix}part-0.parquet`)
          if (r.kind !== 'data') throw new Error('fixture')
          return { at: f.at, ref: r.folder }
        })
        for (const { at, ref } of refs) {
          const written =
            ref.partition.kind === 'etl' && ref.partition.initial
              ? 0
              : (ref.version === 'v1' ? 1 : 2) * 1e10 + Number(d(at).replaceAll('-', '')) * 100 + (ref.version === 'v2' ? Number(h(at)) : 0)
          expect(deliveryOrderKey(ref)).toBe(written)
        }
        const byKey = [...refs].sort((a, b) => deliveryOrderKey(a.ref) - deliveryOrderKey(b.ref)).map((r) => r.ref.prefix)
        expect(byKey).toEqual([...refs].sort((a, b) => a.at - b.at).map((r) => r.ref.prefix))
      }),
      { numRuns: 300 }
    )
  })

  it('compares two folders as their sort keys compare, element by element', () => {
    const byKey = (a: readonly [number, string, string], b: readonly [number, string, string]): number =>
      a[0] !== b[0] ? a[0] - b[0] : a[1] !== b[1] ? (a[1] < b[1] ? -1 : 1) : a[2] !== b[2] ? (a[2] < b[2] ? -1 : 1) : 0
    fc.assert(
      fc.property(partsFolder, partsFolder, (x, y) => {
        const [a, b] = [x, y].map((f) => parseKey(`${f.prefix}part-0.parquet`))
        if (a?.kind !== 'data' || b?.kind !== 'data') throw new Error('fixture')
        expect(Math.sign(compareDelivery(a.folder, b.folder))).toBe(Math.sign(byKey(deliverySortKey(a.folder), deliverySortKey(b.folder))))
      }),
      { numRuns: 500 }
    )
  })

  it('puts __initial__ first although it sorts last as a string', () => {
    const a = parseKey('v1/datamart_claudia/claudia_messages/etl_date=__initial__/x.parquet')
    const b = parseKey('v1/datamart_claudia/claudia_messages/etl_date=2026-10-01/x.parquet')
    const c = parseKey('v2/datamart_claudia/claudia_messages/etl_date=2026-11-03/etl_hour=03/x.parquet')
    if (a.kind !== 'data' || b.kind !== 'data' || c.kind !== 'data') throw new Error('fixture')
    expect('__initial__' > '2026-10-01').toBe(true)
    expect(compareDelivery(a.folder, b.folder)).toBeLessThan(0)
    expect(compareDelivery(b.folder, c.folder)).toBeLessThan(0)
    expect(compareDelivery(c.folder, c.folder)).toBe(0)
  })

  it('never reads a parts folder without _SUCCESS', () => {
    const inv = buildInventory([
      ...readyFolder('v1/datamart_claudia/claudia_messages/etl_date=2026-11-01/', LAST_V1_DELIVERY - DAY),
      obj('v2/datamart_claudia/claudia_messages/etl_date=2026-11-03/etl_hour=03/part-0.parquet')
    ])
    expect(readyPartsFolders(inv, { schema: 'datamart_claudia', table: 'claudia_messages' }).map((f) => f.ref.partition.date)).toEqual(['2026-11-01'])
  })

  it('orders file names by code unit, never by locale', () => {
    expect(['part-b.parquet', 'Part-a.parquet', 'part-10.parquet', 'part-9.parquet'].sort(compareFileNames)).toEqual([
      'Part-a.parquet',
      'part-10.parquet',
      'part-9.parquet',
      'part-b.parquet'
    ])
  })
})

describe('latest ready copy of a full table', () => {
  const t = { schema: 'datamart_claudia', table: 'claudia_conversation' }
  const v2Prefix = (at: number): string => `v2/datamart_claudia/claudia_conversation/snapshot_date=${d(at)}/snapshot_hour=${h(at)}/`
  const manifest = obj('v2/_manifests/snapshot_date=2026-11-03/snapshot_hour=03/manifest.json')

  it('is the most recent ready hour in v2, whatever the listing order', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.record({ k: fc.integer({ min: 0, max: 24 * 60 }), ready: fc.boolean() }), { selector: (x) => x.k, minLength: 1, maxLength: 30 }),
        fc.integer(),
        (hours, seed) => {
          const listing = hours.flatMap(({ k, ready }) => {
            const at = FIRST_V2_DELIVERY + k * HOUR
            const files = readyFolder(v2Prefix(at), at)
            return ready ? files : files.slice(0, 1)
          })
          const inv = buildInventory(shuffle([manifest, ...listing], seed))
          const ready = hours.filter((x) => x.ready).map((x) => x.k)
          const want = ready.length ? v2Prefix(FIRST_V2_DELIVERY + Math.max(...ready) * HOUR) : null
          expect(latestReady(inv, t)?.ref.prefix ?? null).toBe(want)
        }
      ),
      { numRuns: 300 }
    )
  })

  it('reads v1 until anything exists under v2/_manifests/, then v2 only', () => {
    const v1 = readyFolder('v1/datamart_claudia/claudia_conversation/snapshot_date=2026-11-02/', LAST_V1_DELIVERY)
    const v2 = readyFolder(v2Prefix(FIRST_V2_DELIVERY), FIRST_V2_DELIVERY)
    // v2 data without a v2 manifest: still v1 (the version is decided by v2/_manifests/, never the clock).
    expect(detectVersion([...v1, ...v2].map((o) => o.key))).toBe('v1')
    expect(latestReady(buildInventory([...v1, ...v2]), t)?.ref.prefix).toBe('v1/datamart_claudia/claudia_conversation/snapshot_date=2026-11-02/')
    const inv = buildInventory([...v1, ...v2, manifest])
    expect(inv.version).toBe('v2')
    expect(latestReady(inv, t)?.ref.prefix).toBe(v2Prefix(FIRST_V2_DELIVERY))
  })

  it('until a full table has a ready v2 copy, its latest is its newest ready v1 copy, even on v2', () => {
    const v1 = [
      ...readyFolder('v1/datamart_claudia/claudia_conversation/snapshot_date=2026-11-01/', LAST_V1_DELIVERY - DAY),
      ...readyFolder('v1/datamart_claudia/claudia_conversation/snapshot_date=2026-11-02/', LAST_V1_DELIVERY)
    ]
    // The first v2 hour lists the table missing; its next hour is still in flight (no _SUCCESS).
    const inFlight = readyFolder(v2Prefix(FIRST_V2_DELIVERY + HOUR), FIRST_V2_DELIVERY + HOUR).slice(0, 1)
    const inv = buildInventory([...v1, ...inFlight, manifest])
    expect(inv.version).toBe('v2')
    expect(latestReady(inv, t)?.ref.prefix).toBe('v1/datamart_claudia/claudia_conversation/snapshot_date=2026-11-02/')
    expect(foldersForLogicalTable(inv, { ...t, mode: 'full' }).map((f) => f.ref.prefix)).toEqual([
      'v1/datamart_claudia/claudia_conversation/snapshot_date=2026-11-02/'
    ])
    // Once a v2 copy is ready, v1 is never read again.
    const later = buildInventory([...v1, ...readyFolder(v2Prefix(FIRST_V2_DELIVERY + HOUR), FIRST_V2_DELIVERY + HOUR), manifest])
    expect(latestReady(later, t)?.ref.prefix).toBe(v2Prefix(FIRST_V2_DELIVERY + HOUR))
  })

  it('as of an hour, uses the folders and the version of that hour', () => {
    const later = FIRST_V2_DELIVERY + 5 * HOUR
    const inv = buildInventory([
      ...readyFolder('v1/datamart_claudia/claudia_conversation/snapshot_date=2026-11-02/', LAST_V1_DELIVERY),
      ...readyFolder(v2Prefix(FIRST_V2_DELIVERY), FIRST_V2_DELIVERY),
      ...readyFolder(v2Prefix(later), later),
      manifest
    ])
    expect(latestReady(inv, t, { asOf: FIRST_V2_DELIVERY + HOUR })?.ref.prefix).toBe(v2Prefix(FIRST_V2_DELIVERY))
    expect(versionAt(inv, { asOf: LAST_V1_DELIVERY + HOUR })).toBe('v1')
    expect(latestReady(inv, t, { asOf: LAST_V1_DELIVERY + HOUR })?.ref.partition.date).toBe('2026-11-02')
  })

  it("as of T, a copy counts once its _SUCCESS was written at or before T, not from its hour's start", () => {
    const second = FIRST_V2_DELIVERY + HOUR
    // The 04:00 copy became ready at 04:35: as of 04:10 the 03:00 copy is the latest.
    const inv = buildInventory([...readyFolder(v2Prefix(FIRST_V2_DELIVERY), FIRST_V2_DELIVERY), ...readyFolder(v2Prefix(second), second, 35), manifest])
    expect(latestReady(inv, t, { asOf: second + 10 * MIN })?.ref.prefix).toBe(v2Prefix(FIRST_V2_DELIVERY))
    expect(latestReady(inv, t, { asOf: second + 35 * MIN })?.ref.prefix).toBe(v2Prefix(second))
    // The v2 manifest was written at 03:20: as of 03:10 the bucket was still on v1.
    expect(versionAt(inv, { asOf: FIRST_V2_DELIVERY + 10 * MIN })).toBe('v1')
    expect(versionAt(inv, { asOf: FIRST_V2_DELIVERY + 20 * MIN })).toBe('v2')
  })

  it('--now T: objects written after T do not exist, for the version, latest copies and parts folders', () => {
    const second = FIRST_V2_DELIVERY + HOUR
    const listing = [
      ...readyFolder('v1/datamart_claudia/claudia_conversation/snapshot_date=2026-11-02/', LAST_V1_DELIVERY),
      ...readyFolder(v2Prefix(FIRST_V2_DELIVERY), FIRST_V2_DELIVERY),
      ...readyFolder(v2Prefix(second), second, 35),
      ...readyFolder(`v2/datamart_claudia/claudia_messages/etl_date=2026-11-03/etl_hour=04/`, second, 35),
      manifest
    ]
    const now = second + 30 * MIN
    const parts = { schema: 'datamart_claudia', table: 'claudia_messages' }
    const cut = buildInventory(listing, { now })
    expect(latestReady(cut, t)?.ref.prefix).toBe(v2Prefix(FIRST_V2_DELIVERY))
    expect(readyPartsFolders(cut, parts)).toEqual([])
    // The same through each question's options, on an inventory of everything listed.
    const all = buildInventory(listing)
    expect(latestReady(all, t, { now })?.ref.prefix).toBe(v2Prefix(FIRST_V2_DELIVERY))
    expect(readyPartsFolders(all, parts, { now })).toEqual([])
    expect(readyPartsFolders(all, parts)).toHaveLength(1)
    expect(buildInventory(listing, { now: FIRST_V2_DELIVERY + 10 * MIN }).version).toBe('v1')
    expect(versionAt(buildInventory(listing), { now: FIRST_V2_DELIVERY + 10 * MIN })).toBe('v1')
  })
})

describe('one version rule', () => {
  it('anything under v2/_manifests/ makes the bucket v2, in detectVersion, the inventory and versionAt alike', () => {
    const odd = obj('v2/_manifests/snapshot_date=2026-11-03/README.txt', '2026-11-03T03:05:00Z')
    const listing = [...readyFolder('v1/datamart_claudia/claudia_conversation/snapshot_date=2026-11-02/', LAST_V1_DELIVERY), odd]
    const inv = buildInventory(listing)
    expect(detectVersion(listing.map((o) => o.key))).toBe('v2')
    expect(inv.version).toBe('v2')
    expect(versionAt(inv, { asOf: FIRST_V2_DELIVERY + HOUR })).toBe('v2')
    expect(versionAt(inv, { asOf: FIRST_V2_DELIVERY })).toBe('v1')
  })

  it('the objects another engine rebuilds the views from decide the version at every instant as the full listing does', () => {
    const early = obj('v2/_manifests/snapshot_date=2026-11-03/snapshot_hour=04/manifest.json', '2026-11-03T03:05:00Z')
    const later = obj('v2/_manifests/snapshot_date=2026-11-03/snapshot_hour=03/manifest.json', '2026-11-03T03:40:00Z')
    const inv = buildInventory([...readyFolder('v1/datamart_claudia/claudia_conversation/snapshot_date=2026-11-02/', LAST_V1_DELIVERY), later, early])
    const rebuilt = buildInventory(objectsForViews(inv))
    for (const asOf of [FIRST_V2_DELIVERY, FIRST_V2_DELIVERY + 5 * MIN, FIRST_V2_DELIVERY + 30 * MIN])
      expect(versionAt(rebuilt, { asOf })).toBe(versionAt(inv, { asOf }))
    expect(versionAt(rebuilt, { asOf: FIRST_V2_DELIVERY + 10 * MIN })).toBe('v2')
  })

  it("a v2 parts folder counts only once the bucket is on v2, as in the vendor's job", () => {
    const t = { schema: 'datamart_claudia', table: 'claudia_messages' }
    const listing = [
      ...readyFolder('v1/datamart_claudia/claudia_messages/etl_date=2026-11-02/', LAST_V1_DELIVERY),
      ...readyFolder('v2/datamart_claudia/claudia_messages/etl_date=2026-11-03/etl_hour=03/', FIRST_V2_DELIVERY)
    ]
    expect(readyPartsFolders(buildInventory(listing), t).map((f) => f.ref.version)).toEqual(['v1'])
    const onV2 = buildInventory([...listing, obj('v2/_manifests/snapshot_date=2026-11-03/snapshot_hour=03/manifest.json')])
    expect(readyPartsFolders(onV2, t).map((f) => f.ref.version)).toEqual(['v1', 'v2'])
  })
})
