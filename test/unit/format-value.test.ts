// The renderer's value text: DuckDB type names read into their nesting, nested values written as native
// DuckDB 1.5 writes them (quotes where a string could be misread), and copy as tab-separated text.
import { describe, expect, it } from 'vitest'
import { parseDuckDbType, varcharShapeSql } from '../../src/renderer/src/common/duckdb-type'
import { displayText, isInstantType, isNumericType, shownValue, toTsv } from '../../src/renderer/src/common/format-value'
import { timestampTextIn } from '../../src/renderer/src/common/time'

describe('DuckDB type names', () => {
  it('reads nesting as DESCRIBE prints it, quoted field names included', () => {
    const t = parseDuckDbType(
      `STRUCT("x y" INTEGER, A INTEGER[], "q""q" MAP(VARCHAR, DECIMAL(18,3)[]), "it's" STRUCT("in" TIMESTAMP WITH TIME ZONE), e ENUM('a', 'it''s', 'b,c'))[]`
    )
    expect(varcharShapeSql(t)).toBe(`STRUCT("x y" VARCHAR, "A" VARCHAR[], "q""q" MAP(VARCHAR, VARCHAR[]), "it's" STRUCT("in" VARCHAR), "e" VARCHAR)[]`)
    expect(t.kind).toBe('list')
  })

  it('keeps scalars (with arguments and multi-word names) as one leaf', () => {
    for (const s of ['DECIMAL(38,10)', 'TIMESTAMP WITH TIME ZONE', "ENUM('sad', 'ok')", 'HUGEINT', 'UUID', 'BLOB', 'INTERVAL']) {
      const t = parseDuckDbType(s)
      expect(t.kind).toBe('leaf')
      expect(varcharShapeSql(t)).toBe('VARCHAR')
    }
    expect(parseDuckDbType('UNION(k VARCHAR, n INTEGER)')).toEqual({ kind: 'leaf', name: 'UNION', nested: true })
  })

  it('reads what it does not understand as one leaf instead of failing', () => {
    expect(parseDuckDbType('STRUCT(a INTEGER').kind).toBe('leaf')
    expect(parseDuckDbType('').kind).toBe('leaf')
  })
})

describe('value text', () => {
  const shape = parseDuckDbType
  it('NULL is null, never the text "NULL"; a leaf is DuckDB text as it came', () => {
    expect(displayText(null, shape('VARCHAR'))).toBeNull()
    expect(displayText('NULL', shape('VARCHAR'))).toBe('NULL')
    expect(displayText('', shape('VARCHAR'))).toBe('')
    expect(displayText('170141183460469231731687303715884105727', shape('HUGEINT'))).toBe('170141183460469231731687303715884105727')
  })

  it('quotes strings inside nested values where DuckDB 1.5 does', () => {
    expect(displayText(['a', 'b c', 'x,y', null, '', 'NULL', ' lead', 'trail ', "it's", 'back\\slash'], shape('VARCHAR[]'))).toBe(
      `[a, b c, 'x,y', NULL, '', 'NULL', ' lead', 'trail ', 'it\\'s', back\\slash]`
    )
    // Struct fields in order (iterated as [name, value], as Arrow rows do), names always quoted.
    expect(
      displayText(
        [
          ['a', '1'],
          ['b', 'x y'],
          ["it's", null]
        ],
        shape(`STRUCT(a INTEGER, b VARCHAR, "it's" VARCHAR)`)
      )
    ).toBe(`{'a': 1, 'b': x y, 'it\\'s': NULL}`)
    expect(
      displayText(
        [
          ['k,1', 'v w'],
          ['j', null]
        ],
        shape('MAP(VARCHAR, VARCHAR)')
      )
    ).toBe(`{'k,1'=v w, j=NULL}`)
    // A nested child is written as it is, never quoted again.
    expect(displayText([[['a', ['1', '2']]], null], shape('STRUCT(a INTEGER[])[]'))).toBe(`[{'a': [1, 2]}, NULL]`)
    expect(displayText(['x,y'], shape('UNION(k VARCHAR)[]'))).toBe('[x,y]')
    expect(displayText([], shape('INTEGER[]'))).toBe('[]')
  })

  it('right-aligns numbers only', () => {
    expect(['HUGEINT', 'DECIMAL(18,3)', 'DOUBLE', 'UBIGINT'].every(isNumericType)).toBe(true)
    expect(['VARCHAR', 'INTEGER[]', 'TIMESTAMP', 'INTERVAL'].some(isNumericType)).toBe(false)
  })
})

describe('copy as tab-separated text', () => {
  it('gives the shown text, NULL as an empty field, and quotes fields a spreadsheet would split', () => {
    expect(
      toTsv([
        ['1', null, ''],
        ['a\tb', 'line\nbreak', 'say "hi"']
      ])
    ).toBe('1\t\t\n"a\tb"\t"line\nbreak"\t"say ""hi"""')
  })
})

describe('instants on a zone clock', () => {
  it('reads a timestamp on Brasília’s clock exactly, the fraction kept as written; UTC as it came', () => {
    expect(shownValue('2026-11-20 08:00:00.123456789', 'TIMESTAMP_NS', 'brasilia')).toBe('2026-11-20 05:00:00.123456789')
    expect(shownValue('2026-11-20 08:00:00.123456', 'TIMESTAMP', 'utc')).toBe('2026-11-20 08:00:00.123456')
    // Past midnight, back a day; TIMESTAMPTZ keeps an offset, the zone's.
    expect(timestampTextIn('2026-01-01 01:30:00+00', 'brasilia')).toBe('2025-12-31 22:30:00-03')
    expect(timestampTextIn('0050-03-01 12:00:00', 'utc')).toBe('0050-03-01 12:00:00')
    expect(timestampTextIn('0050-03-01 12:00:00', 'brasilia').slice(0, 4)).toBe('0050')
  })

  it('leaves dates, times, other types and text that is no timestamp as they are', () => {
    expect(shownValue('2026-11-20', 'DATE', 'brasilia')).toBe('2026-11-20')
    expect(shownValue('08:00:00', 'TIME', 'brasilia')).toBe('08:00:00')
    expect(shownValue('2026-11-20 08:00:00', 'VARCHAR', 'brasilia')).toBe('2026-11-20 08:00:00')
    expect(shownValue('infinity', 'TIMESTAMP', 'brasilia')).toBe('infinity')
    expect(shownValue(null, 'TIMESTAMP', 'brasilia')).toBeNull()
    expect(isInstantType('TIMESTAMP WITH TIME ZONE')).toBe(true)
    expect(isInstantType('DATE')).toBe(false)
  })
})
