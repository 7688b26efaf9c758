// Filter values read as their column's type before any SQL: what cannot be read is marked and left out (never
// TRY_CAST to nothing), an empty row adds nothing.
import { describe, expect, it } from 'vitest'
import { checkFilters, valueProblem } from '../../src/renderer/src/tables/filter-value-check'

describe('filter values', () => {
  it('reads dates, times and numbers in the forms the SQL takes, and says how to write the others', () => {
    expect(valueProblem('2026-11-03', 'DATE')).toBeNull()
    expect(valueProblem('03/11/2026', 'DATE')).toMatch(/not a date: write it as YYYY-MM-DD/)
    expect(valueProblem('2026-02-30', 'DATE')).not.toBeNull()
    expect(valueProblem('2026-11-03 14:00', 'TIMESTAMP')).toBeNull()
    expect(valueProblem('2026-11-03T14:00:59.5Z', 'TIMESTAMP WITH TIME ZONE')).toBeNull()
    expect(valueProblem('tomorrow', 'TIMESTAMP')).toMatch(/not a time: write it in UTC/)
    expect(valueProblem('2026-11-03 25:00', 'TIMESTAMP')).not.toBeNull()
    expect(valueProblem('42', 'BIGINT')).toBeNull()
    expect(valueProblem('4.2', 'BIGINT')).toMatch(/whole number/)
    expect(valueProblem('-1.5e3', 'DOUBLE')).toBeNull()
    expect(valueProblem('1,5', 'DECIMAL(10,2)')).toMatch(/dot for decimals/)
    expect(valueProblem('anything at all', 'VARCHAR')).toBeNull()
  })

  it('keeps complete, readable filters; leaves an empty row out silently and a bad value out with its reason', () => {
    const types = new Map([
      ['created_at', 'TIMESTAMP'],
      ['n', 'BIGINT'],
      ['name', 'VARCHAR']
    ])
    const r = checkFilters(
      [
        { column: 'name', op: 'equals', value: '' },
        { column: 'created_at', op: 'range', from: 'tomorrow', to: '' },
        { column: 'n', op: 'in', values: ['1', 'x'] },
        { column: 'n', op: 'equals', value: '7' },
        { column: 'name', op: 'contains', value: '' },
        { column: 'name', op: 'is_null' }
      ],
      types
    )
    expect(r.usable).toEqual([
      { column: 'n', op: 'equals', value: '7' },
      { column: 'name', op: 'is_null' }
    ])
    expect([...r.problems.keys()]).toEqual([1, 2])
    expect(r.problems.get(1)).toMatch(/"tomorrow" is not a time/)
    expect(r.problems.get(2)).toMatch(/"x" is not a whole number/)
  })
})
