// The renderer's value text: DuckDB type names read into their nesting, nested values written as native
// DuckDB 1.5 writes them (quotes where a string could be misread), and copy as tab-separated text.
import { describe, expect, it } from 'vitest'
import { parseDuckDbType, varcharShapeSql } from '../../src/renderer/src/common/duckdb-type'
import { displayText, isNumericType, toTsv } from '../../src/renderer/src/common/format-value'

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
