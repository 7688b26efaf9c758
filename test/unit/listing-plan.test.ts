import { describe, expect, it } from 'vitest'
import { monthUnits, monthsAfter, refreshUnits } from '../../src/shared/listing-plan'

const DAY = 86_400_000

describe('listing plan', () => {
  it('groups partition folders into one listing per month, leaving anything else as is', () => {
    expect(
      monthUnits([
        'v2/s/t/etl_date=2026-11-03/',
        'v2/s/t/etl_date=2026-11-30/',
        'v2/s/t/etl_date=2026-12-01/',
        'v1/s/t/etl_date=__initial__/',
        'v2/s/t/weird/'
      ])
    ).toEqual(['v1/s/t/etl_date=__initial__/', 'v2/s/t/etl_date=2026-11', 'v2/s/t/etl_date=2026-12', 'v2/s/t/weird/'])
  })

  it('adds the months begun since, across a year end', () => {
    expect(monthsAfter('v2/s/t/snapshot_date=2026-11', Date.UTC(2027, 1, 3))).toEqual(['v2/s/t/snapshot_date=2026-12', 'v2/s/t/snapshot_date=2027-01', 'v2/s/t/snapshot_date=2027-02'])
    expect(monthsAfter('v2/s/t/snapshot_date=2026-11', Date.UTC(2026, 10, 30))).toEqual([])
  })

  it('refreshes the newest month after the last key, in-flight folders, and days crossing retention', () => {
    const now = Date.UTC(2026, 10, 20, 5)
    const units = [
      { prefix: 'v2/datamart_claudia/claudia_csat/snapshot_date=2026-10', lastKey: 'v2/…/a' },
      { prefix: 'v2/datamart_claudia/claudia_csat/snapshot_date=2026-11', lastKey: 'v2/datamart_claudia/claudia_csat/snapshot_date=2026-11-20/snapshot_hour=04/part-0.parquet' },
      { prefix: 'v2/_manifests/snapshot_date=2026-11', lastKey: null }
    ]
    const keys = [
      'v2/datamart_claudia/claudia_csat/snapshot_date=2026-11-20/snapshot_hour=04/_SUCCESS',
      'v2/datamart_claudia/claudia_csat/snapshot_date=2026-11-20/snapshot_hour=04/part-0.parquet',
      'v2/datamart_claudia/claudia_csat/snapshot_date=2026-11-12/snapshot_hour=03/_SUCCESS',
      'v2/datamart_claudia/claudia_csat/snapshot_date=2026-11-12/snapshot_hour=03/part-0.parquet',
      'v2/datamart_claudia/claudia_messages/etl_date=2026-11-20/etl_hour=04/part-0.parquet'
    ]
    const plan = refreshUnits(units, keys, now, now - DAY)
    expect(plan).toEqual([
      { prefix: 'v2/_manifests/snapshot_date=2026-11', replace: true },
      { prefix: 'v2/datamart_claudia/claudia_csat/snapshot_date=2026-11', startAfter: units[1]!.lastKey, replace: false },
      { prefix: 'v2/datamart_claudia/claudia_csat/snapshot_date=2026-11-12/', replace: false, foldersOnly: true },
      { prefix: 'v2/datamart_claudia/claudia_messages/etl_date=2026-11-20/etl_hour=04/', replace: true }
    ])
  })
})
