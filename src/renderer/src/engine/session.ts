// The renderer's query session: one DuckDB-WASM engine reading the open connection through the byte server,
// the bucket's views built by the shared code (the same as the CLI's), rebuilt when the connection, the
// listing or the "as of" hour changes. Queries run one at a time; results are materialized in a temporary
// table and read back a page at a time, so the renderer holds only the pages on screen.
import type { EngineSource } from '../../../shared/api-contract'
import { type ViewsResult, createBucketViews } from '../../../shared/bucket-views'
import { buildInventory } from '../../../shared/inventory'
import { quoteIdent } from '../../../shared/sql-quote'
import { call } from '../api'
import { type BrowserEngine, startBrowserEngine } from './browser-engine'

export interface ViewsState extends ViewsResult {
  readonly source: EngineSource
}

let engine: { base: string; engine: Promise<BrowserEngine> } | null = null
let views: { version: string; state: Promise<ViewsState> } | null = null
let queue: Promise<unknown> = Promise.resolve()

/** Progress of opening the views (each reads its files' Parquet footers the first time), for the UI. */
export type ViewsProgress = { readonly done: number; readonly total: number; readonly table: string; readonly files: number }
const progressListeners = new Set<(p: ViewsProgress | null) => void>()
export function onViewsProgress(listener: (p: ViewsProgress | null) => void): () => void {
  progressListeners.add(listener)
  return () => progressListeners.delete(listener)
}
const report = (p: ViewsProgress | null): void => progressListeners.forEach((l) => l(p))

/** Runs engine work one piece at a time (pages, counts and queries share one connection). */
function serial<T>(fn: () => Promise<T>): Promise<T> {
  const next = queue.then(fn, fn)
  queue = next.catch(() => {})
  return next
}

async function engineFor(base: string): Promise<BrowserEngine> {
  if (engine?.base !== base) {
    const old = engine
    engine = { base, engine: startBrowserEngine((key) => base + encodeURIComponent(key)) }
    views = null
    if (old) void old.engine.then((e) => e.close(), () => {})
  }
  return engine.engine
}

/** The views of the open connection ("as of" an hour, or latest), built once per listing. */
export async function ensureViews(asOf: string | null): Promise<ViewsState> {
  const source = await call('engineSource', { asOf })
  const e = await engineFor(source.base)
  if (views?.version !== source.version) {
    const state = serial(async () => {
      const objects = source.objects
      // Parquet metadata cached by file name across queries (names never stand for two objects: see
      // logical-table-sql.ts); without it, every query of a year of hours would read every footer again.
      await e.query('SET enable_object_cache = true')
      const files = objects.filter((o) => o.key.endsWith('.parquet')).length
      try {
        const r = await createBucketViews(e, buildInventory(objects), new Map(objects.map((o) => [o.key, o])), { now: source.now, ...(asOf ? { asOf: Date.parse(asOf) } : {}), onProgress: (p) => report({ ...p, files }) })
        return { ...r, source }
      } finally {
        report(null)
      }
    })
    views = { version: source.version, state }
    state.catch(() => {
      if (views?.state === state) views = null
    })
  }
  return views.state
}

export async function query(sql: string): Promise<Record<string, unknown>[]> {
  const e = await current()
  return serial(() => e.query(sql))
}

export async function cancel(): Promise<void> {
  const e = await current()
  await e.cancel()
}

async function current(): Promise<BrowserEngine> {
  if (!engine) throw new Error('The query engine is not started: open a table or run a query first.')
  return engine.engine
}

export interface Column {
  readonly name: string
  readonly type: string
}

const PAGE = 200
const MAX_PAGES = 40

/** A query's result, materialized in the engine and read a page at a time (at most MAX_PAGES kept here). */
export class ResultSet {
  private readonly pages = new Map<number, Promise<Record<string, unknown>[]>>()
  constructor(
    readonly table: string,
    readonly columns: readonly Column[],
    readonly rowCount: number,
    readonly sql: string,
    readonly ms: number
  ) {}

  static readonly PAGE = PAGE

  /** Rows [page*PAGE, page*PAGE+PAGE), cached; the least recently used pages are dropped. */
  page(i: number): Promise<Record<string, unknown>[]> {
    let p = this.pages.get(i)
    if (p) {
      this.pages.delete(i)
      this.pages.set(i, p)
      return p
    }
    p = query(`SELECT * FROM ${quoteIdent(this.table)} LIMIT ${PAGE} OFFSET ${i * PAGE}`)
    this.pages.set(i, p)
    p.catch(() => this.pages.delete(i))
    while (this.pages.size > MAX_PAGES) this.pages.delete(this.pages.keys().next().value as number)
    return p
  }

  /** Rows from..to (inclusive), for copying a selection. */
  async rows(from: number, to: number): Promise<Record<string, unknown>[]> {
    return query(`SELECT * FROM ${quoteIdent(this.table)} LIMIT ${Math.max(0, to - from + 1)} OFFSET ${from}`)
  }

  /** The same rows ordered by a column (computed in SQL, once per order). */
  async sorted(column: string, desc: boolean): Promise<ResultSet> {
    return materializeFrom(`SELECT * FROM ${quoteIdent(this.table)} ORDER BY ${quoteIdent(column)} ${desc ? 'DESC' : 'ASC'} NULLS LAST`, this.sql)
  }

  get cachedPages(): number {
    return this.pages.size
  }

  async drop(): Promise<void> {
    this.pages.clear()
    await query(`DROP TABLE IF EXISTS ${quoteIdent(this.table)}`).catch(() => {})
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

async function materializeFrom(sql: string, userSql: string): Promise<ResultSet> {
  const table = `__ee_result_${++seq}`
  const started = performance.now()
  try {
    await query(`CREATE TEMP TABLE ${quoteIdent(table)} AS\n${sql}`)
  } catch (e) {
    const msg = (e as Error).message
    throw new QueryError(msg, errorPosition(msg, userSql, 1))
  }
  const ms = performance.now() - started
  const [count] = await query(`SELECT count(*) AS n FROM ${quoteIdent(table)}`)
  const described = await query(`DESCRIBE ${quoteIdent(table)}`)
  const columns = described.map((r) => ({ name: String(r['column_name']), type: String(r['column_type']) }))
  return new ResultSet(table, columns, Number(count?.['n'] ?? 0), userSql, ms)
}

/** Runs a statement and materializes its rows; other statements (CREATE, SET, …) run as they are. */
export async function runQuery(userSql: string): Promise<ResultSet> {
  const sql = cleanSql(userSql)
  if (!TABLE_QUERY.test(sql)) {
    const started = performance.now()
    try {
      await query(sql)
    } catch (e) {
      const msg = (e as Error).message
      throw new QueryError(msg, errorPosition(msg, sql, 0))
    }
    return new ResultSet('', [], 0, userSql, performance.now() - started)
  }
  // DESCRIBE, SHOW and SUMMARIZE cannot follow CREATE TABLE AS directly: read them as a subquery.
  const wrapped = /^\s*(describe|summarize|show)\b/i.test(sql) ? `FROM (${sql})` : sql
  return materializeFrom(wrapped, sql)
}

/** Formats a value for the grid and for copying, by the column's type. */
export function formatValue(v: unknown, type: string): string {
  if (v === null || v === undefined) return ''
  if (typeof v === 'number' && (type.startsWith('TIMESTAMP') || type === 'DATE')) {
    const iso = new Date(v).toISOString()
    return type === 'DATE' ? iso.slice(0, 10) : iso.replace('T', ' ').replace(/\.000Z$/, '').replace('Z', '')
  }
  if (typeof v === 'object') return JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? x.toString() : x))
  return String(v)
}
