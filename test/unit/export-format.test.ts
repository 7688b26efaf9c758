// An export's name is its format: the extension proposed, replaced when the format changes, and the refusal
// of a name that says the other format.
import { describe, expect, it } from 'vitest'
import { formatOfName, nameForFormat, nameFormatMismatch } from '../../src/shared/export-format'

describe('export names', () => {
  it('reads the format a name says, in any case, and none from other extensions or a dotted folder', () => {
    expect(['a.csv', 'A.CSV', '/x/y/b.parquet', 'c.PQ', 'd.txt', 'e', '/tmp/some.dir/e', 'C:\\out.d\\f'].map(formatOfName)).toEqual([
      'csv',
      'csv',
      'parquet',
      'parquet',
      null,
      null,
      null,
      null
    ])
  })

  it('changes the extension with the format, and adds one where the name has none', () => {
    expect(nameForFormat('claudia_csat.csv', 'parquet')).toBe('claudia_csat.parquet')
    expect(nameForFormat('/home/u/claudia_csat.parquet', 'csv')).toBe('/home/u/claudia_csat.csv')
    expect(nameForFormat('claudia_csat', 'csv')).toBe('claudia_csat.csv')
    expect(nameForFormat('report.v2.txt', 'parquet')).toBe('report.v2.txt.parquet')
  })

  it('refuses a name that says the other format, naming both and the fix', () => {
    expect(nameFormatMismatch('x.csv', 'parquet')).toBe('x.csv is named as a CSV file, but the export is Parquet: name it x.parquet, or choose CSV.')
    expect(nameFormatMismatch('x.parquet', 'csv')).toMatch(/named as a Parquet file, but the export is CSV: name it x\.csv/)
    expect([nameFormatMismatch('x.csv', 'csv'), nameFormatMismatch('x.pq', 'parquet'), nameFormatMismatch('x.txt', 'parquet')]).toEqual([null, null, null])
  })
})
