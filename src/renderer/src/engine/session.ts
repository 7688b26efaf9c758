// The renderer's query session: one DuckDB-WASM engine reading the open connection through the byte server,
// the bucket's views built by the shared code (the same as the CLI's), rebuilt when the connection, the
// listing or the "as of" hour changes. Queries run one at a time; results are materialized in a temporary
// table and read back a page at a time (result-set.ts), so the renderer holds only the pages on screen. A table
// this engine cannot read is a problem of its own (wasm-readable-files.ts), never the end of the others.
import type { EngineSource } from '../../../shared/api-contract'
import { type ViewsResult, createBucketViews } from '../../../shared/bucket-views'
import { buildInventory } from '../../../shared/inventory'
import { call } from '../common/api-transport'
import { type BrowserEngine, startBrowserEngine } from './browser-engine'
import { type ResultSet, runQueryOn } from './result-set'
import { guardForWasm } from './wasm-readable-files'

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
        const r = await createBucketViews(guardForWasm(e), buildInventory(objects), new Map(objects.map((o) => [o.key, o])), {
          now: source.now,
          ...(asOf ? { asOf: Date.parse(asOf) } : {}),
          // Parts tables from the compacted mirror: few files (one request each in 0.9.1) and one type per column.
          ...(source.mirror.length > 0 ? { mirror: { segments: source.mirror, base: 'ee/__mirror/' } } : {}),
          onProgress: (p) => report({ ...p, files })
        })
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
  return serial(() => e.query(sql)).catch((err: unknown) => {
    throw restartIfInvalidated(e, err as Error)
  })
}

// After an INTERNAL error DuckDB-WASM 0.9.1 refuses every later statement ("database has been invalidated"):
// drop that engine, so the next query starts a new one and opens the views again, and say so.
function restartIfInvalidated(e: BrowserEngine, err: Error): Error {
  if (!/^(INTERNAL|FATAL) Error/m.test(err.message)) return err
  const old = engine
  void old?.engine.then((x) => {
    if (x === e && engine === old) {
      engine = null
      views = null
      void x.close().catch(() => {})
    }
  })
  return new Error(`${err.message}\n\nThe query pane's engine (DuckDB-WASM 0.9.1) cannot continue after this internal error: it has been restarted. Run the query again; the tables open again first.`)
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

/** Runs a statement in the pane's engine and materializes its rows (see result-set.ts). */
export function runQuery(userSql: string): Promise<ResultSet> {
  return runQueryOn(query, userSql)
}
