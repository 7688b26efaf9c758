// The engine's own column names never equal a vendor column (DuckDB compares names without case), and a vendor
// column stored in a mirror segment comes back under its own name and never as one of the mirror's.
import { describe, expect, it } from 'vitest'
import { freshName, storedName, takenNames, vendorName } from '../../src/shared/bookkeeping-columns'
import { provenanceNames } from '../../src/shared/logical-table-sql'
import { MIRROR_COLUMNS } from '../../src/shared/mirror-sql'

describe('bookkeeping column names', () => {
  it('takes one more leading underscore until no column has the name, whatever its case', () => {
    const taken = takenNames(['__EE_RANK', '___ee_rank', 'x'])
    expect(freshName('__ee_rank', taken)).toBe('____ee_rank')
    // Once given, a name is taken too.
    expect(freshName('__ee_rank', taken)).toBe('_____ee_rank')
    expect(freshName('__ee_row', taken)).toBe('__ee_row')
  })

  it("names __versions' provenance apart from the vendor's columns of the same name", () => {
    expect(provenanceNames(['id'])).toEqual({ prefix: '_prefix', date: '_etl_date', hour: '_etl_hour', file: '_file' })
    expect(provenanceNames(['_PREFIX', '_file', '__file'])).toEqual({ prefix: '__prefix', date: '_etl_date', hour: '_etl_hour', file: '___file' })
  })

  it("stores a vendor column apart from the mirror's own and gives it back", () => {
    const vendor = ['filename', 'file_row_number', '_prefix', '_etl_date', '_file', '__ee_order', '__ee_row', '_v_prefix', '_V_x', 'v_x']
    const stored = vendor.map(storedName)
    const own = new Set(MIRROR_COLUMNS.map((c) => c.toLowerCase()))
    expect(stored.filter((c) => own.has(c.toLowerCase()))).toEqual([])
    expect(new Set(stored.map((c) => c.toLowerCase())).size).toBe(vendor.length)
    expect(stored.map(vendorName)).toEqual(vendor)
  })
})
