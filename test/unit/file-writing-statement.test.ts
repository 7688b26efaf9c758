// The SQL pane refuses a statement that would write a file into the engine's memory (COPY … TO, EXPORT
// DATABASE), whatever comments come first, and runs every other statement.
import { describe, expect, it } from 'vitest'
import { fileWritingStatement, firstKeyword } from '../../src/shared/file-writing-statement'

describe('a statement that writes a file', () => {
  it('is found after white space and comments, in any case', () => {
    expect(firstKeyword("  -- note\n /* a\nb */ copy (SELECT 1) TO 'x.csv'")).toBe('COPY')
    expect(fileWritingStatement("COPY claudia_csat TO 'out.parquet' (FORMAT parquet)")).toMatch(
      /^COPY … TO would write into the query engine's memory.*use Export…/
    )
    expect(fileWritingStatement("export database 'dir'")).toMatch(/^EXPORT DATABASE would write/)
  })

  it('leaves every other statement alone, a column named copy among them', () => {
    for (const sql of ['SELECT copy FROM t', 'WITH copy AS (SELECT 1) SELECT * FROM copy', 'DESCRIBE claudia_csat', '-- COPY\nSELECT 1', '', '/* unclosed'])
      expect(fileWritingStatement(sql), sql).toBeNull()
  })
})
