// Grid columns as wide as what they show (header with its type, the first page's values), within limits.
import { describe, expect, it } from 'vitest'
import { MAX_COLUMN_PX, MIN_COLUMN_PX, contentWidths } from '../../src/renderer/src/common/column-widths'

describe('column widths', () => {
  it('fits a timestamp whole, keeps a short column narrow but readable, caps a long text', () => {
    const [at, flag, text, nul] = contentWidths(
      [
        { name: 'created_at', type: 'TIMESTAMP' },
        { name: 'ok', type: 'BOOLEAN' },
        { name: 'content', type: 'VARCHAR' },
        { name: 'n', type: 'INTEGER' }
      ],
      [
        ['2026-11-05 14:00:00.123', 'true', 'x'.repeat(5000), null],
        ['2026-11-05 14:00:01', 'false', 'short', null]
      ]
    )
    expect(at).toBeGreaterThanOrEqual(23 * 7)
    expect(flag).toBeGreaterThanOrEqual(MIN_COLUMN_PX)
    expect(flag).toBeLessThan(at as number)
    expect(text).toBe(MAX_COLUMN_PX)
    // NULL is shown as the word NULL: at least as wide as that, and the header "n integer".
    expect(nul).toBeGreaterThanOrEqual(MIN_COLUMN_PX)
  })
})
