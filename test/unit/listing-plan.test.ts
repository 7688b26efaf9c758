import { describe, expect, it } from 'vitest'
import { coldUnits, refreshUnits, v2Months } from '../../src/shared/listing-plan'

const DAY = 86_400_000

describe('listing plan', () => {
  it('plans a cold listing of about a page per unit: per table, and per month for v2 parts and manifests', () => {
    const units = coldUnits(Date.UTC(2027, 1, 3)).map((u) => u.prefix)
    expect(units).toContain('v1/datamart_claudia/claudia_messages/')
    expect(units).toContain('v2/datamart_claudia/claudia_csat/')
    expect(units.filter((u) => u.startsWith('v2/datamart_claudia/claudia_messages/'))).toEqual(
      ['etl_date=2026-11', 'etl_date=2026-12', 'etl_date=2027-01', 'etl_date=2027-02'].map((m) => `v2/datamart_claudia/claudia_messages/${m}`)
    )
    expect(units.filter((u) => u.startsWith('v2/_manifests/'))).toHaveLength(4)
    expect(units).toHaveLength(1 + 4 + 19 + 16 + 3 * 4)
    expect(v2Months(Date.UTC(2026, 10, 3, 3))).toEqual(['2026-11'])
  })

  it('refreshes the newest month after the last key, in-flight folders, and days crossing retention', () => {
    const now = Date.UTC(2026, 10, 20, 5)
    const units = [
      { prefix: 'v1/datamart_claudia/claudia_csat/', lastKey: 'v1/datamart_claudia/claudia_csat/snapshot_date=2026-11-02/_SUCCESS' },
      { prefix: 'v2/datamart_claudia/claudia_csat/', lastKey: 'v2/datamart_claudia/claudia_csat/snapshot_date=2026-11-20/snapshot_hour=04/part-0.parquet' },
      { prefix: 'v2/datamart_claudia/claudia_messages/etl_date=2026-10', lastKey: 'v2/x' },
      { prefix: 'v2/datamart_claudia/claudia_messages/etl_date=2026-11', lastKey: 'v2/y' },
      { prefix: 'v2/_manifests/snapshot_date=2026-11', lastKey: null }
    ]
    const keys = [
      'v2/datamart_claudia/claudia_csat/snapshot_date=2026-11-20/snapshot_hour=04/_SUCCESS',
      'v2/datamart_claudia/claudia_csat/snapshot_date=2026-11-20/snapshot_hour=04/part-0.parquet',
      'v2/datamart_claudia/claudia_csat/snapshot_date=2026-11-12/snapshot_hour=03/_SUCCESS',
      'v2/datamart_claudia/claudia_csat/snapshot_date=2026-11-12/snapshot_hour=03/part-0.parquet',
      'v2/datamart_claudia/claudia_messages/etl_date=2026-11-20/etl_hour=04/part-0.parquet'
    ]
    // The day 2026-11-12 turned 7 days old (ended Nov 13 00:00, 7 days before Nov 20 00:00) since the last refresh.
    const plan = refreshUnits(units, keys, now, now - DAY, true)
    expect(plan).toEqual([
      { prefix: 'v2/_manifests/snapshot_date=2026-11', replace: true },
      { prefix: 'v2/datamart_claudia/claudia_csat/', startAfter: units[1]!.lastKey, replace: false },
      { prefix: 'v2/datamart_claudia/claudia_csat/snapshot_date=2026-11-12/', replace: false, foldersOnly: true },
      { prefix: 'v2/datamart_claudia/claudia_messages/etl_date=2026-11', startAfter: 'v2/y', replace: false },
      { prefix: 'v2/datamart_claudia/claudia_messages/etl_date=2026-11-20/etl_hour=04/', replace: true }
    ])
    // Still on v1: v1 units are refreshed too; a month begun since is listed whole.
    const onV1 = refreshUnits(units, [], Date.UTC(2026, 11, 1, 5), Date.UTC(2026, 11, 1, 4), false).map((u) => u.prefix)
    expect(onV1).toContain('v1/datamart_claudia/claudia_csat/')
    expect(onV1).toContain('v2/datamart_claudia/claudia_messages/etl_date=2026-12')
  })

  it('lists again every unit whose last listing failed: an old month, a v1 table on v2, a unit never listed', () => {
    const now = Date.UTC(2026, 10, 20, 5)
    const units = [
      { prefix: 'v1/datamart_claudia/claudia_csat/', lastKey: null, retry: true },
      { prefix: 'v1/datamart_claudia/claudia_messages/', lastKey: 'v1/m' },
      { prefix: 'v2/datamart_claudia/claudia_messages/etl_date=2026-10', lastKey: 'v2/x', retry: true },
      { prefix: 'v2/datamart_claudia/claudia_messages/etl_date=2026-11', lastKey: 'v2/y' }
    ]
    const plan = refreshUnits(units, [], now, now - DAY, true)
    expect(plan).toEqual([
      // Never listed (failed when the index was made): listed whole. Listed before: after the last key it had.
      { prefix: 'v1/datamart_claudia/claudia_csat/', replace: true },
      { prefix: 'v2/datamart_claudia/claudia_messages/etl_date=2026-10', startAfter: 'v2/x', replace: false },
      { prefix: 'v2/datamart_claudia/claudia_messages/etl_date=2026-11', startAfter: 'v2/y', replace: false }
    ])
  })
})
