// A restore's estimated cost from the one table of published prices: per GB and per 1,000 requests, per tier and
// archive class; no estimate where no price is published (Deep Archive has no Expedited tier).
import { describe, expect, it } from 'vitest'
import { RESTORE_PRICES, dollars, restoreCostWords } from '../../src/shared/restore-costs'

describe('restore costs', () => {
  it('holds the published us-east-1 prices of each tier', () => {
    expect(RESTORE_PRICES.classes['GLACIER']).toEqual({
      Expedited: { perGb: 0.03, per1000Requests: 10 },
      Standard: { perGb: 0.01, per1000Requests: 0.05 },
      Bulk: { perGb: 0, per1000Requests: 0.025 }
    })
    expect(RESTORE_PRICES.classes['DEEP_ARCHIVE']).toEqual({ Standard: { perGb: 0.02, per1000Requests: 0.1 }, Bulk: { perGb: 0.0025, per1000Requests: 0.025 } })
  })

  it('estimates per GB and per request, labelled as an estimate with its source', () => {
    // 2,000 files, 100 GB, Expedited: 100 × $0.03 + 2 × $10 = $23.
    const w = restoreCostWords([{ storageClass: 'GLACIER', count: 2000, bytes: 100e9 }], 'Expedited')
    expect(w).toMatch(
      /^Estimated retrieval cost: \$23\.00 for 2,000 files \(100\.0 GB\) at \$0\.03 per GB \+ \$10\.00 per 1,000 requests \(Expedited, Glacier Flexible Retrieval\)\./
    )
    expect(w).toContain('An estimate from AWS S3 list prices, us-east-1, read 2026-12-02')
    expect(restoreCostWords([{ storageClass: 'GLACIER', count: 1, bytes: 40_000 }], 'Bulk')).toMatch(
      /^Estimated retrieval cost: less than \$0\.01 for 1 file .* no charge per GB \+ \$0\.025 per 1,000/
    )
    // Deep Archive Bulk: 1,000 files, 400 GB: 400 × $0.0025 + $0.025 = $1.025, $1.03 to the cent.
    expect(restoreCostWords([{ storageClass: 'DEEP_ARCHIVE', count: 1000, bytes: 400e9 }], 'Bulk')).toMatch(/^Estimated retrieval cost: \$1\.03 /)
    // One small file, Expedited: the request's $0.01.
    expect(restoreCostWords([{ storageClass: 'GLACIER', count: 1, bytes: 40_000 }], 'Expedited')).toMatch(/^Estimated retrieval cost: \$0\.01 for 1 file/)
  })

  it('says nothing where no price is published', () => {
    expect(restoreCostWords([{ storageClass: 'DEEP_ARCHIVE', count: 1, bytes: 1 }], 'Expedited')).toBeNull()
    expect(restoreCostWords([{ storageClass: 'SOMETHING_ELSE', count: 1, bytes: 1 }], 'Standard')).toBeNull()
    expect(dollars(0.0025)).toBe('$0.0025')
  })
})
