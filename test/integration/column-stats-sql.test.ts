// The column statistics' SQL on native DuckDB 1.5: exact distinct counts never exceed the rows (the estimate can:
// it is labelled so), the statistics follow the filtered rows when given the filters' query, and the histogram
// bins every non-NULL value.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { columnSummarySql, histogramSql, rowSource } from '../../src/shared/column-stats-sql'
import { type Db, openDb } from '../helpers/duckdb'

let db: Db
beforeAll(async () => {
  db = await openDb()
  // 1,115 distinct keys, as the key column; a few NULL amounts; a timestamp per row.
  await db.run(
    `CREATE TABLE t AS SELECT 'key_' || i AS k, CASE WHEN i % 100 = 0 THEN NULL ELSE i % 7 END AS amount, TIMESTAMP '2026-11-01' + INTERVAL (i) MINUTE AS at FROM range(1115) r(i)`
  )
})
afterAll(() => db?.close())

describe('column statistics SQL', () => {
  it('counts distinct values exactly when asked, where the estimate may not', async () => {
    const [exact] = await db.rows(columnSummarySql('t', 'k', true))
    expect(Number(exact?.['d'])).toBe(1115)
    expect(Number(exact?.['nulls'])).toBe(0)
    const [estimate] = await db.rows(columnSummarySql('t', 'k', false))
    expect(Number(estimate?.['d'])).toBeGreaterThan(1000)
  })

  it('follows the filtered rows when given the query of the filters', async () => {
    const filtered = rowSource(`SELECT * FROM t WHERE "at" < TIMESTAMP '2026-11-01 01:00:00'`)
    const [r] = await db.rows(columnSummarySql(filtered, 'amount', true))
    expect([Number(r?.['nulls']), Number(r?.['d']), r?.['lo'], r?.['hi']]).toEqual([1, 7, '0', '6'])
    const bins = await db.rows(histogramSql(filtered, 'at', 'TIMESTAMP') as string)
    expect(bins.reduce((n, b) => n + Number(b['n']), 0)).toBe(60)
    expect(Math.max(...bins.map((b) => Number(b['bin'])))).toBeLessThanOrEqual(19)
    expect(histogramSql(filtered, 'k', 'VARCHAR')).toBeNull()
  })
})
