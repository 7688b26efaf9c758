// clockWindow (src/shared/clock-window.ts): between its ends the rules give one answer over a listing, so the CLI's saved
// views hold there. Checked against the rules themselves: the inventory and the mirror's periods at both ends of the
// window are those at `now`, and just outside it they are not.
import { describe, expect, it } from 'vitest'
import { CATALOG } from '../../src/shared/catalog'
import { clockWindow } from '../../src/shared/clock-window'
import { buildInventory } from '../../src/shared/inventory'
import type { ListedObject } from '../../src/shared/listing'
import { planTableSegments } from '../../src/shared/mirror-plan'

const HOUR = 3_600_000
const CLAUDIA = CATALOG.find((t) => t.table === 'claudia_messages')!

/** A ready hour of claudia_messages: its data file written 10 minutes in, its marker 20 minutes in. */
function hour(start: number): ListedObject[] {
  const t = new Date(start).toISOString()
  const prefix = `v2/datamart_claudia/claudia_messages/etl_date=${t.slice(0, 10)}/etl_hour=${t.slice(11, 13)}/`
  const at = (m: number): string => new Date(start + m * 60_000).toISOString()
  return [
    { key: `${prefix}part-00000.parquet`, size: 1000, lastModified: at(10), etag: `e${start}` },
    { key: `${prefix}_SUCCESS`, size: 0, lastModified: at(20), etag: `m${start}` }
  ]
}

const DAY0 = Date.UTC(2026, 10, 3)
// The bucket is on v2 from its first manifest.
const manifest: ListedObject = {
  key: 'v2/_manifests/snapshot_date=2026-11-02/snapshot_hour=00/manifest.json',
  size: 2,
  lastModified: '2026-11-02T00:25:00.000Z'
}
const objects = [[manifest], hour(DAY0 + 20 * HOUR), hour(DAY0 + 21 * HOUR), hour(DAY0 + 23 * HOUR)].flat()

/** What the rules read of the listing at an instant: the folders, and the mirror's periods with their identities. */
const answer = (now: number): string =>
  JSON.stringify(planTableSegments(buildInventory(objects, { now }), CLAUDIA, now).map((s) => [s.period, s.identity, s.folders.length]))

describe('clockWindow', () => {
  it('runs from the newest write at or before now to the next write after it', () => {
    const now = DAY0 + 21 * HOUR + 45 * 60_000
    const w = clockWindow(objects, now)!
    expect(w).toEqual({ from: DAY0 + 21 * HOUR + 20 * 60_000, until: DAY0 + 23 * HOUR + 10 * 60_000 })
    expect(answer(w.from)).toBe(answer(now))
    expect(answer(w.until - 1)).toBe(answer(now))
    // Past either end, the answer is another: a millisecond before the window, the newest marker is not written yet;
    // ten minutes after it, the next hour's file is.
    expect(answer(w.from - 1)).not.toBe(answer(now))
    expect(answer(w.until + 10 * 60_000)).not.toBe(answer(now))
  })

  it("ends with the day: the mirror's periods of the current day become one day's period at midnight", () => {
    const now = DAY0 + 23 * HOUR + 40 * 60_000
    const w = clockWindow(objects, now)!
    expect(w.until).toBe(DAY0 + 24 * HOUR)
    expect(answer(w.until - 1)).toBe(answer(now))
    expect(answer(w.until)).not.toBe(answer(now))
  })

  it('is none when an object is archived or has a restore state', () => {
    const now = DAY0 + 23 * HOUR + 40 * 60_000
    const [, first, ...rest] = objects
    expect(clockWindow([manifest, { ...first!, storageClass: 'GLACIER' }, ...rest], now)).toBeNull()
    expect(
      clockWindow([manifest, { ...first!, storageClass: 'STANDARD', restore: { ongoing: false, expiry: new Date(now + HOUR).toISOString() } }, ...rest], now)
    ).toBeNull()
    expect(clockWindow([manifest, { ...first!, storageClass: 'STANDARD_IA' }, ...rest], now)).not.toBeNull()
  })
})
