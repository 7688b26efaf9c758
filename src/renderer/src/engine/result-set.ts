// A query's result in the renderer's engine: materialized in a temporary table (typed, so sorting is SQL on the
// real values) and read back a page at a time as text DuckDB writes itself (each column cast to VARCHAR, or for
// LIST/STRUCT/MAP to the same nesting with VARCHAR leaves), so the grid and copy never format an Arrow value.
import { type TypeShape, parseDuckDbType, varcharShapeSql } from '../common/duckdb-type'
import { displayText } from '../common/format-value'
import { quoteIdent } from '../../../shared/sql-quote'
import { errorMessage } from '../../../shared/error-message'

/** Runs one statement on the engine and returns its rows (the session's queue, or an engine in a test page). */
export type RunSql = (sql: string) => Promise<Record<string, unknown>[]>

export interface ResultColumn {
  readonly name: string
  readonly type: string
  readonly shape: TypeShape
}

/** A row as displayed: one text per column, `null` for NULL. */
export type DisplayRow = readonly (string | null)[]

const PAGE = 200
const MAX_PAGES = 40

// Columns are read back under positional aliases: a row object then never meets a column name such as
// "__proto__", and two result columns can never share a key.
const alias = (i: number): string => `c${i}`

/** A query's result, materialized in the engine and read a page at a time (at most MAX_PAGES kept here). */
export class ResultSet {
  private readonly pages = new Map<number, Promise<DisplayRow[]>>()
  constructor(
    private readonly run: RunSql,
    readonly table: string,
    readonly columns: readonly ResultColumn[],
    readonly rowCount: number,
    readonly sql: string,
    readonly ms: number
  ) {}

  static readonly PAGE = PAGE

  /** Rows [page*PAGE, page*PAGE+PAGE), cached; the least recently used pages are dropped. */
  page(i: number): Promise<DisplayRow[]> {
    let p = this.pages.get(i)
    if (p) {
      this.pages.delete(i)
      this.pages.set(i, p)
      return p
    }
    p = this.read(i * PAGE, PAGE)
    this.pages.set(i, p)
    p.catch(() => this.pages.delete(i))
    while (this.pages.size > MAX_PAGES) this.pages.delete(this.pages.keys().next().value as number)
    return p
  }

  /** Rows from..to (inclusive), for copying a selection. */
  rows(from: number, to: number): Promise<DisplayRow[]> {
    return this.read(from, Math.max(0, to - from + 1))
  }

  private async read(offset: number, limit: number): Promise<DisplayRow[]> {
    const select = this.columns.map((c, i) => `CAST(${quoteIdent(c.name)} AS ${varcharShapeSql(c.shape)}) AS ${alias(i)}`).join(', ')
    // LIMIT inside: 0.9.1 would otherwise cast every row it skips (a page at row 700,000: 104 ms against 15 ms).
    const rows = await this.run(`SELECT ${select} FROM (SELECT * FROM ${quoteIdent(this.table)} LIMIT ${limit} OFFSET ${offset})`)
    return rows.map((r) => this.columns.map((c, i) => displayText(r[alias(i)], c.shape)))
  }

  /** The same rows ordered by a column (computed in SQL on the typed values, once per order). */
  async sorted(column: string, desc: boolean): Promise<ResultSet> {
    return materializeFrom(this.run, `SELECT * FROM ${quoteIdent(this.table)} ORDER BY ${quoteIdent(column)} ${desc ? 'DESC' : 'ASC'} NULLS LAST`, this.sql)
  }

  get cachedPages(): number {
    return this.pages.size
  }

  async drop(): Promise<void> {
    this.pages.clear()
    if (this.table) await this.run(`DROP TABLE IF EXISTS ${quoteIdent(this.table)}`).catch(() => {})
  }
}

let seq = 0
const TABLE_QUERY = /^\s*(\(|select\b|with\b|from\b|values\b|table\b|pivot\b|unpivot\b|describe\b|summarize\b|show\b)/i

/** A statement's text without trailing semicolons and comments-only tails. */
export function cleanSql(sql: string): string {
  return sql.replace(/(;|\s)+$/g, '')
}

/** Error position from DuckDB's "LINE n: …" and caret lines, mapped onto the user's text (1-based). */
export function errorPosition(message: string, userSql: string, lineOffset: number): { line: number; column: number; offset: number } | null {
  const m = /LINE (\d+): (.*)\n(\s*)\^/.exec(message)
  if (!m) return null
  const line = Number(m[1]) - lineOffset
  const lines = userSql.split('\n')
  const text = lines[line - 1]
  if (line < 1 || text === undefined) return null
  const shown = (m[2] ?? '').replace(/^\.\.\./, '')
  const caret = (m[3] ?? '').length - `LINE ${m[1]}: `.length - ((m[2] ?? '').startsWith('...') ? 3 : 0)
  const at = text.indexOf(shown.slice(0, 20))
  const column = Math.max(0, (at >= 0 ? at : 0) + caret) + 1
  const offset = lines.slice(0, line - 1).reduce((n, l) => n + l.length + 1, 0) + column - 1
  return { line, column, offset }
}

export class QueryError extends Error {
  constructor(
    message: string,
    readonly position: { line: number; column: number; offset: number } | null
  ) {
    super(message)
  }
}

async function materializeFrom(run: RunSql, sql: string, userSql: string): Promise<ResultSet> {
  const table = `__ee_result_${++seq}`
  const started = performance.now()
  try {
    await run(`CREATE TEMP TABLE ${quoteIdent(table)} AS\n${sql}`)
  } catch (e) {
    const msg = errorMessage(e)
    throw new QueryError(msg, errorPosition(msg, userSql, 1))
  }
  const ms = performance.now() - started
  const [count] = await run(`SELECT count(*) AS n FROM ${quoteIdent(table)}`)
  const described = await run(`DESCRIBE ${quoteIdent(table)}`)
  const columns = described.map((r) => {
    const type = String(r['column_type'])
    return { name: String(r['column_name']), type, shape: parseDuckDbType(type) }
  })
  return new ResultSet(run, table, columns, Number(count?.['n'] ?? 0), userSql, ms)
}

/** Runs a statement and materializes its rows; other statements (CREATE, SET, …) run as they are. */
export async function runQueryOn(run: RunSql, userSql: string): Promise<ResultSet> {
  const sql = cleanSql(userSql)
  if (!TABLE_QUERY.test(sql)) {
    const started = performance.now()
    try {
      await run(sql)
    } catch (e) {
      const msg = errorMessage(e)
      throw new QueryError(msg, errorPosition(msg, sql, 0))
    }
    return new ResultSet(run, '', [], 0, userSql, performance.now() - started)
  }
  // DESCRIBE, SHOW and SUMMARIZE cannot follow CREATE TABLE AS directly: read them as a subquery.
  const wrapped = /^\s*(describe|summarize|show)\b/i.test(sql) ? `FROM (${sql})` : sql
  return materializeFrom(run, wrapped, sql)
}
