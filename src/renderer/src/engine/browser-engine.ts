// The query engine in the renderer: DuckDB-WASM 1.28 (Parquet built in) in a browser worker, reading
// Parquet over HTTP with range requests from the main process's byte server, and the mirror's few compacted
// segments whole, in the worker's memory, up to a budget (wasm-engine.ts). The same views and SQL as the
// CLI's engine (src/shared/bucket-views.ts).
import * as duckdb from '@duckdb/duckdb-wasm'
import ehWorker from '@duckdb/duckdb-wasm/dist/duckdb-browser-eh.worker.js?url'
import mvpWorker from '@duckdb/duckdb-wasm/dist/duckdb-browser-mvp.worker.js?url'
import ehWasm from '@duckdb/duckdb-wasm/dist/duckdb-eh.wasm?url'
import mvpWasm from '@duckdb/duckdb-wasm/dist/duckdb-mvp.wasm?url'
import { type BrowserEngine, engineOn } from './wasm-engine'

/**
 * `urlOf` gives the byte-server URL (token included) of a bucket key; `wholeFileBudgetBytes`, how many bytes of
 * files registered `whole` are held in memory (default WHOLE_FILE_BUDGET_BYTES).
 */
export async function startBrowserEngine(urlOf: (key: string) => string, opts: { readonly wholeFileBudgetBytes?: number } = {}): Promise<BrowserEngine> {
  const bundle = await duckdb.selectBundle({ mvp: { mainModule: mvpWasm, mainWorker: mvpWorker }, eh: { mainModule: ehWasm, mainWorker: ehWorker } })
  const worker = new Worker(bundle.mainWorker as string)
  const db = new duckdb.AsyncDuckDB(new duckdb.VoidLogger(), worker)
  await db.instantiate(bundle.mainModule, bundle.pthreadWorker)
  const conn = await db.connect()
  return engineOn(db, conn, urlOf, {
    ...opts,
    worker,
    registerUrl: (name, url) => db.registerFileURL(name, url, duckdb.DuckDBDataProtocol.HTTP, false)
  })
}
