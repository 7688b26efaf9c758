// Test harness: the renderer's engine and the shared views, driven by Playwright.
import { startBrowserEngine } from '../../../src/renderer/src/engine/browser-engine'
import { CancelledError, QuerySession } from '../../../src/renderer/src/engine/session'
import { guardForWasm } from '../../../src/renderer/src/engine/wasm-readable-files'
import { type MirrorSource, createBucketViews } from '../../../src/shared/bucket-views'
import { buildInventory } from '../../../src/shared/inventory'
import { tablesNamed } from '../../../src/shared/tables-named'
import type { ListedObject } from '../../../src/shared/listing'

export interface SessionCancelOut {
  readonly before: unknown
  readonly outcome: string
  readonly cancelMs: number
  readonly runaway: string
  readonly queuedOfPane: string
  readonly otherOwner: unknown
  readonly events: string[]
  readonly after: unknown
}

declare global {
  interface Window {
    runViews(cfg: {
      objects: ListedObject[]
      base: string
      now: number
      sql: string[]
      mirror?: MirrorSource
      asOf?: number
      /** Bytes of mirror segments the engine may hold in memory (0: every segment read over HTTP). */
      wholeFileBudgetBytes?: number
    }): Promise<{ problems: unknown[]; results: unknown[]; timings: { startMs: number; viewsMs: number; queryMs: number[] } }>
    runStreamAndCancel(): Promise<{ streamed: number; batches: number; cancelled: string; after: unknown }>
    runViewsSequence(cfg: { base: string; now: number; steps: { objects: ListedObject[]; sql: string[] }[] }): Promise<unknown[][]>
    runSessionCancel(cfg: { objects: ListedObject[]; base: string; now: number; asOf: string; sql: string; runaway: string }): Promise<SessionCancelOut>
    runPaneViews(cfg: {
      base: string
      now: number
      guarded: boolean
      steps: { objects: ListedObject[]; sql: string[]; mirror?: MirrorSource }[]
    }): Promise<{ created: string[]; problems: { table: string; message: string }[]; reads: { table: string; message: string }[]; results: unknown[] }[]>
    runSessionTimings(cfg: {
      base: string
      objects: ListedObject[]
      mirror: MirrorSource['segments']
      superseded?: NonNullable<MirrorSource['superseded']>
      now: number
      sql: string[]
      wholeFileBudgetBytes?: number
      /** The engine started and warmed up ahead (QuerySession.warmUp, as the app does before a query) before the views are asked for. */
      warm?: boolean
      /** What the warm-up runs, when not the session's own (null: nothing). */
      warmUpSql?: string | null
      /**
       * As the SQL pane runs: every table's views asked for (its completion) and, at once, each statement waits only for
       * the tables it names (tablesNamed), which open first. `viewsMs` is then the first statement's tables.
       */
      named?: boolean
    }): Promise<{
      problems: unknown[]
      results: unknown[]
      timings: { startMs: number; viewsMs: number; queryMs: number[]; tableMs: Record<string, number> }
      /** Engines started, and the session's generation, at the end. */
      starts: number
      generation: number
    }>
  }
}

window.runStreamAndCancel = async () => {
  const engine = await startBrowserEngine(() => '')
  try {
    let batches = 0
    const streamed = await engine.stream('SELECT range AS i FROM range(300000)', () => {
      batches++
    })
    const running = engine.query('SELECT count(*) FROM range(2000000000) a, range(10) b WHERE a.range % 7 = b.range')
    await new Promise((r) => setTimeout(r, 300))
    await engine.cancel()
    const cancelled = await running.then(
      () => 'finished',
      (e: Error) => e.message
    )
    const after = await engine.query('SELECT 6 * 7 AS x')
    return { streamed, batches, cancelled, after }
  } finally {
    await engine.close()
  }
}

window.runViews = async (cfg) => {
  const t0 = performance.now()
  const engine = await startBrowserEngine(
    (key) => cfg.base + encodeURIComponent(key),
    cfg.wholeFileBudgetBytes !== undefined ? { wholeFileBudgetBytes: cfg.wholeFileBudgetBytes } : {}
  )
  const t1 = performance.now()
  try {
    const views = await createBucketViews(engine, buildInventory(cfg.objects), new Map(cfg.objects.map((o) => [o.key, o])), {
      now: cfg.now,
      ...(cfg.mirror ? { mirror: cfg.mirror } : {}),
      ...(cfg.asOf !== undefined ? { asOf: cfg.asOf } : {})
    })
    const t2 = performance.now()
    const results: unknown[] = []
    const queryMs: number[] = []
    for (const sql of cfg.sql) {
      const q0 = performance.now()
      try {
        results.push(await engine.query(sql))
      } catch (e) {
        results.push({ error: (e as Error).message })
      }
      queryMs.push(performance.now() - q0)
    }
    // (Timings for the benchmark: engine start, opening the views, each query.)
    return { problems: views.problems, results, timings: { startMs: t1 - t0, viewsMs: t2 - t1, queryMs } }
  } finally {
    await engine.close()
  }
}

// One engine, as the renderer keeps it: views rebuilt for each listing (a refresh), Parquet metadata cached.
window.runViewsSequence = async (cfg) => {
  const engine = await startBrowserEngine((key) => cfg.base + encodeURIComponent(key))
  try {
    await engine.query('SET enable_object_cache = true')
    const out: unknown[][] = []
    for (const step of cfg.steps) {
      await createBucketViews(engine, buildInventory(step.objects), new Map(step.objects.map((o) => [o.key, o])), { now: cfg.now })
      const results: unknown[] = []
      for (const sql of step.sql) results.push(await engine.query(sql).catch((e: Error) => ({ error: e.message })))
      out.push(results)
    }
    return out
  } finally {
    await engine.close()
  }
}

// The views as the query pane opens them (session.ts): one engine across listings (refreshes), Parquet metadata
// cached, the engine guarded against files DuckDB-WASM 0.9.1 cannot read (or not, to show what happens without).
window.runPaneViews = async (cfg) => {
  const engine = await startBrowserEngine((key) => cfg.base + encodeURIComponent(key))
  try {
    await engine.query('SET enable_object_cache = true')
    const out = []
    for (const step of cfg.steps) {
      const views = await createBucketViews(
        cfg.guarded ? guardForWasm(engine) : engine,
        buildInventory(step.objects),
        new Map(step.objects.map((o) => [o.key, o])),
        { now: cfg.now, ...(step.mirror ? { mirror: step.mirror } : {}) }
      )
      const results: unknown[] = []
      for (const sql of step.sql) results.push(await engine.query(sql).catch((e: Error) => ({ error: e.message })))
      out.push({ created: views.created, problems: views.problems, reads: views.reads, results })
    }
    return out
  } finally {
    await engine.close()
  }
}

// The pane's query session (session.ts) as the store holds it: a statement the interrupt cannot stop, cancelled;
// work of another owner queued behind it, and of the same owner (dropped).
window.runSessionCancel = async (cfg) => {
  const events: string[] = []
  const source = { base: cfg.base, objects: cfg.objects, mirror: [], superseded: [], now: cfg.now, version: 'one listing', unknownTables: [] }
  const session = new QuerySession({ source: async () => source, start: startBrowserEngine })
  session.subscribe((e) => void (e.kind !== 'progress' && events.push(e.kind)))
  const ended = (p: Promise<unknown>): Promise<string> =>
    p.then(
      () => 'finished',
      (e: Error) => `${e instanceof CancelledError ? 'CancelledError' : 'Error'}: ${e.message}`
    )
  try {
    await session.ensureViews(cfg.asOf)
    const before = await session.query(cfg.sql, 'tables')
    const runaway = ended(session.query(cfg.runaway, 'pane'))
    await new Promise((r) => setTimeout(r, 300))
    const otherOwner = session.query(cfg.sql, 'tables').catch((e: Error) => ({ error: e.message }))
    const queuedOfPane = ended(session.query('SELECT 1', 'pane'))
    const t0 = performance.now()
    const outcome = await session.cancel('pane')
    const cancelMs = performance.now() - t0
    const out = { before, outcome, cancelMs, runaway: await runaway, queuedOfPane: await queuedOfPane, otherOwner: await otherOwner }
    await session.ensureViews(cfg.asOf)
    return { ...out, events, after: await session.query(cfg.sql) }
  } finally {
    await session.close()
  }
}

// The query pane's own path (a QuerySession, as the store holds it), timed: the engine's start, its views (guarded,
// Parquet metadata cached, the mirror's segments as the session reads them), then each statement in turn.
window.runSessionTimings = async (cfg) => {
  const source = {
    base: cfg.base,
    objects: cfg.objects,
    mirror: cfg.mirror,
    superseded: cfg.superseded ?? [],
    now: cfg.now,
    version: 'one listing',
    unknownTables: []
  }
  let started = performance.now()
  let starts = 0
  // How long each table's views took (the session reports the table it starts next).
  const tableMs: Record<string, number> = {}
  let last: { table: string; at: number } | null = null
  const session = new QuerySession({
    source: async () => source,
    ...(cfg.warmUpSql !== undefined ? { warmUpSql: cfg.warmUpSql } : {}),
    start: async (urlOf) => {
      starts++
      const e = await startBrowserEngine(urlOf, cfg.wholeFileBudgetBytes !== undefined ? { wholeFileBudgetBytes: cfg.wholeFileBudgetBytes } : {})
      started = performance.now()
      return e
    }
  })
  // As the app: the engine started and warmed up before the user asks anything (app.tsx says when).
  if (cfg.warm) await session.warmUp()
  const t0 = performance.now()
  if (cfg.warm) started = t0
  session.subscribe((e) => {
    if (e.kind !== 'progress') return
    const at = performance.now()
    if (last) tableMs[last.table] = at - last.at
    last = e.progress && e.progress.table ? { table: e.progress.table, at } : null
  })
  try {
    const all = session.ensureViews(null)
    all.catch(() => {})
    if (cfg.named) await session.ensureViews(null, tablesNamed(cfg.sql[0] ?? ''))
    else await all
    const t2 = performance.now()
    const results: unknown[] = []
    const queryMs: number[] = []
    for (const sql of cfg.sql) {
      const q0 = performance.now()
      if (cfg.named) await session.ensureViews(null, tablesNamed(sql))
      results.push(await session.query(sql).catch((e: Error) => ({ error: e.message })))
      queryMs.push(performance.now() - q0)
    }
    const views = await all
    return {
      problems: views.problems,
      results,
      timings: { startMs: started - t0, viewsMs: t2 - started, queryMs, tableMs },
      starts,
      generation: session.generation
    }
  } finally {
    await session.close()
  }
}
