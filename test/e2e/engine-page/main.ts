// Test harness: the renderer's engine and the shared views, driven by Playwright.
import { startBrowserEngine } from '../../../src/renderer/src/engine/browser-engine'
import { guardForWasm } from '../../../src/renderer/src/engine/wasm-readable-files'
import { type MirrorSource, createBucketViews } from '../../../src/shared/bucket-views'
import { buildInventory } from '../../../src/shared/inventory'
import type { ListedObject } from '../../../src/shared/listing'

declare global {
  interface Window {
    runViews(cfg: { objects: ListedObject[]; base: string; now: number; sql: string[]; mirror?: MirrorSource; asOf?: number }): Promise<{ problems: unknown[]; results: unknown[]; timings: { startMs: number; viewsMs: number; queryMs: number[] } }>
    runStreamAndCancel(): Promise<{ streamed: number; batches: number; cancelled: string; after: unknown }>
    runViewsSequence(cfg: { base: string; now: number; steps: { objects: ListedObject[]; sql: string[] }[] }): Promise<unknown[][]>
    runPaneViews(cfg: { base: string; now: number; guarded: boolean; steps: { objects: ListedObject[]; sql: string[]; mirror?: MirrorSource }[] }): Promise<{ created: string[]; problems: { table: string; message: string }[]; results: unknown[] }[]>
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
    const cancelled = await running.then(() => 'finished', (e: Error) => e.message)
    const after = await engine.query('SELECT 6 * 7 AS x')
    return { streamed, batches, cancelled, after }
  } finally {
    await engine.close()
  }
}

window.runViews = async (cfg) => {
  const t0 = performance.now()
  const engine = await startBrowserEngine((key) => cfg.base + encodeURIComponent(key))
  const t1 = performance.now()
  try {
    const views = await createBucketViews(engine, buildInventory(cfg.objects), new Map(cfg.objects.map((o) => [o.key, o])), { now: cfg.now, ...(cfg.mirror ? { mirror: cfg.mirror } : {}), ...(cfg.asOf !== undefined ? { asOf: cfg.asOf } : {}) })
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
      const views = await createBucketViews(cfg.guarded ? guardForWasm(engine) : engine, buildInventory(step.objects), new Map(step.objects.map((o) => [o.key, o])), { now: cfg.now, ...(step.mirror ? { mirror: step.mirror } : {}) })
      const results: unknown[] = []
      for (const sql of step.sql) results.push(await engine.query(sql).catch((e: Error) => ({ error: e.message })))
      out.push({ created: views.created, problems: views.problems, results })
    }
    return out
  } finally {
    await engine.close()
  }
}
