// The SQL of a table browser's column statistics, over any row source (the table, or the query of the filters
// applied): nulls, distinct values (exact up to a size where that is cheap, else DuckDB's HyperLogLog estimate,
// which can exceed the row count, so it is labelled), min and max as text, and a 20-bin histogram of numbers and
// instants. Names are quoted; the source is the caller's own generated SQL.
import { quoteIdent } from './sql-quote'

/** Up to this many rows, distinct values are counted exactly (count(DISTINCT) on a few million rows is quick). */
export const EXACT_DISTINCT_MAX_ROWS = 5_000_000

const NUMERIC = /^(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT|UTINYINT|USMALLINT|UINTEGER|UBIGINT|FLOAT|DOUBLE|DECIMAL.*|REAL)$/
const isTime = (t: string): boolean => t.startsWith('TIMESTAMP') || t === 'DATE'

/** A row source for FROM: a query in parentheses with an alias. */
export const rowSource = (sql: string): string => `(${sql}) AS stats_rows`

/** One row: nulls, d (distinct), lo, hi (VARCHAR). */
export function columnSummarySql(source: string, column: string, exactDistinct: boolean): string {
  const col = quoteIdent(column)
  const distinct = exactDistinct ? `count(DISTINCT ${col})` : `approx_count_distinct(${col})`
  return `SELECT count(*) - count(${col}) AS nulls, ${distinct} AS d, CAST(min(${col}) AS VARCHAR) AS lo, CAST(max(${col}) AS VARCHAR) AS hi FROM ${source}`
}

/** Rows (bin 0–19, n) for a number or instant column, or null for other types. */
export function histogramSql(source: string, column: string, type: string): string | null {
  if (!NUMERIC.test(type) && !isTime(type)) return null
  const col = quoteIdent(column)
  const x = isTime(type) ? `epoch_ms(${col}::TIMESTAMP)` : `CAST(${col} AS DOUBLE)`
  return `WITH b AS (SELECT min(${x}) AS lo, max(${x}) AS hi FROM ${source}) SELECT least(19, CAST(floor((${x} - b.lo) / nullif(b.hi - b.lo, 0) * 20) AS INTEGER)) AS bin, count(*) AS n FROM ${source}, b WHERE ${col} IS NOT NULL GROUP BY 1 ORDER BY 1`
}
