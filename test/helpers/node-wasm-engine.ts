// The renderer's engine (engine/wasm-engine.ts) on DuckDB-WASM 1.28's Node build, in a worker thread, so the query
// session and the store's actions run in Node tests on the same engine the app runs in Chromium. Node's build has
// no HTTP file system (the browser's reads ranges with synchronous XHR): a file is fetched from the byte server
// over real HTTP and registered as a buffer instead.
import { createRequire } from 'node:module'
import { Worker } from 'node:worker_threads'
import type * as Duckdb from '@duckdb/duckdb-wasm'
import { type BrowserEngine, engineOn } from '../../src/renderer/src/engine/wasm-engine'

const require = createRequire(import.meta.url)
const NODE_BUILD = require.resolve('@duckdb/duckdb-wasm/dist/duckdb-node.cjs')
const duckdb = require(NODE_BUILD) as typeof Duckdb
const WORKER = require.resolve('@duckdb/duckdb-wasm/dist/duckdb-node-eh.worker.cjs')
const WASM = NODE_BUILD.replace(/duckdb-node\.cjs$/, 'duckdb-eh.wasm')

// The web Worker DuckDB-WASM talks to, over a worker thread: the Node build's own bootstrap (its bundled
// web-worker polyfill, run when it is loaded in a thread with `workerData.mod`) loads the engine's worker there.
class ThreadWorker extends EventTarget {
  private readonly thread = new Worker(NODE_BUILD, { workerData: { mod: WORKER } })
  constructor() {
    super()
    this.thread.on('message', (data: unknown) => this.dispatchEvent(new MessageEvent('message', { data })))
    this.thread.on('error', (error: Error) => this.dispatchEvent(new ErrorEvent('error', { error, message: error.message })))
  }
  postMessage(message: unknown, transfer?: Transferable[]): void {
    this.thread.postMessage(message, transfer as never)
  }
  terminate(): void {
    void this.thread.terminate()
  }
}

/** A DuckDB-WASM database on the Node build, in its worker thread, for a test that drives it directly. */
export async function startNodeWasmDb(): Promise<{ readonly db: Duckdb.AsyncDuckDB; readonly worker: { terminate(): void } }> {
  const worker = new ThreadWorker()
  const db = new duckdb.AsyncDuckDB(new duckdb.VoidLogger(), worker as unknown as globalThis.Worker)
  await db.instantiate(WASM)
  return { db, worker }
}

/** Starts an engine as startBrowserEngine does, on DuckDB-WASM's Node build. */
export async function startNodeWasmEngine(urlOf: (key: string) => string): Promise<BrowserEngine> {
  const { db, worker } = await startNodeWasmDb()
  const conn = await db.connect()
  return engineOn(db, conn, urlOf, {
    worker,
    registerUrl: async (name, url) => {
      const r = await fetch(url)
      if (!r.ok) throw new Error(`GET ${url}: ${r.status}`)
      await db.registerFileBuffer(name, new Uint8Array(await r.arrayBuffer()))
    }
  })
}
