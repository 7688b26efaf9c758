// The query engine in the renderer: DuckDB-WASM 1.28 (Parquet built in) in a browser worker, reading
// Parquet over HTTP with range requests from the main process's byte server, and the mirror's few compacted
// segments whole, in the worker's memory, up to a budget. The same views and SQL as the
// CLI's engine (src/shared/bucket-views.ts).
import * as duckdb from '@duckdb/duckdb-wasm'
import ehWorker from '@duckdb/duckdb-wasm/dist/duckdb-browser-eh.worker.js?url'
import mvpWorker from '@duckdb/duckdb-wasm/dist/duckdb-browser-mvp.worker.js?url'
import ehWasm from '@duckdb/duckdb-wasm/dist/duckdb-eh.wasm?url'
import mvpWasm from '@duckdb/duckdb-wasm/dist/duckdb-mvp.wasm?url'
import type { SqlEngine } from '../../../shared/bucket-views'
import { registeredNamesToKeys } from '../../../shared/logical-table-sql'
import { errorMessage } from '../../../shared/error-message'

export interface BrowserEngine extends SqlEngine {
  query(sql: string): Promise<Record<string, unknown>[]>
  /** Streams a result batch by batch (rows as objects); resolves with the number of rows. */
  stream(sql: string, onBatch: (rows: Record<string, unknown>[], rowsSoFar: number) => void | Promise<void>): Promise<number>
  /** Interrupts the query being computed; it rejects, and the engine stays usable. */
  cancel(): Promise<void>
  close(): Promise<void>
  /** Ends the worker at once, busy or not (its pending calls never answer: the caller rejects them). */
  terminate(): void
}

/** How many bytes of whole files (mirror segments) one engine holds in memory; the rest is read over HTTP. */
export const WHOLE_FILE_BUDGET_BYTES = 256 * 1024 * 1024

const plain = (v: unknown): unknown => (typeof v === 'bigint' ? (Number.isSafeInteger(Number(v)) ? Number(v) : v.toString()) : v)

/**
 * `urlOf` gives the byte-server URL (token included) of a bucket key; `wholeFileBudgetBytes`, how many bytes of
 * files registered `whole` are held in memory (default WHOLE_FILE_BUDGET_BYTES).
 */
export async function startBrowserEngine(urlOf: (key: string) => string, opts: { readonly wholeFileBudgetBytes?: number } = {}): Promise<BrowserEngine> {
  const budget = opts.wholeFileBudgetBytes ?? WHOLE_FILE_BUDGET_BYTES
  const bundle = await duckdb.selectBundle({ mvp: { mainModule: mvpWasm, mainWorker: mvpWorker }, eh: { mainModule: ehWasm, mainWorker: ehWorker } })
  const worker = new Worker(bundle.mainWorker as string)
  const db = new duckdb.AsyncDuckDB(new duckdb.VoidLogger(), worker)
  await db.instantiate(bundle.mainModule, bundle.pthreadWorker)
  const conn = await db.connect()
  const registered = new Set<string>()
  const keysByName = new Map<string, string>()
  // Bytes of the files held in the worker's memory (registered as buffers), by name.
  const held = new Map<string, number>()
  let heldBytes = 0
  const forget = async (name: string): Promise<void> => {
    await db.dropFile(name)
    registered.delete(name)
    keysByName.delete(name)
    heldBytes -= held.get(name) ?? 0
    held.delete(name)
  }
  // A file read whole (a mirror segment): one GET, its bytes in the worker, instead of DuckDB-WASM's blocking ranged
  // requests for each footer and column chunk, again for each view bound and each query. Within the budget only;
  // past it, or if the GET fails, the file is read over HTTP as any other (and a failure then names its key).
  const registerWhole = async (f: { name: string; key: string; size: number }): Promise<boolean> => {
    if (heldBytes + f.size > budget) return false
    heldBytes += f.size
    const bytes = await fetch(urlOf(f.key))
      .then(async (r) => (r.ok ? new Uint8Array(await r.arrayBuffer()) : null))
      .catch(() => null)
    if (!bytes || bytes.byteLength !== f.size) {
      heldBytes -= f.size
      return false
    }
    held.set(f.name, f.size)
    await db.registerFileBuffer(f.name, bytes)
    return true
  }
  const withKeys = registeredNamesToKeys(keysByName)
  const engine: BrowserEngine = {
    async register(files) {
      // A table's files come in one call: names of its folder not in this call are gone (a newer copy has
      // fewer files); left registered, the table's glob would still read them.
      const dirs = new Set(files.map((f) => f.name.slice(0, f.name.lastIndexOf('/') + 1)))
      const wanted = new Set(files.map((f) => f.name))
      for (const name of [...registered]) {
        if (!wanted.has(name) && dirs.has(name.slice(0, name.lastIndexOf('/') + 1))) await forget(name)
      }
      // Names are ranks in delivery order: after a refresh the same name can stand for another object.
      // Issued together: the worker takes them in order, without a round trip each.
      await Promise.all(
        files
          .filter((f) => !(registered.has(f.name) && keysByName.get(f.name) === f.key))
          .map(async (f) => {
            if (registered.has(f.name)) await forget(f.name)
            registered.add(f.name)
            keysByName.set(f.name, f.key)
            if (f.whole && f.size > 0 && (await registerWhole(f))) return
            await db.registerFileURL(f.name, urlOf(f.key), duckdb.DuckDBDataProtocol.HTTP, false)
          })
      )
    },
    // Through send(): a query started that way is the one cancelSent() can interrupt.
    async query(sql) {
      const all: Record<string, unknown>[] = []
      await engine.stream(sql, (rows) => {
        all.push(...rows)
      })
      return all
    },
    async stream(sql, onBatch) {
      let reader
      try {
        reader = await conn.send(sql)
      } catch (e) {
        throw new Error(withKeys(errorMessage(e)))
      }
      let n = 0
      for await (const batch of reader) {
        const rows = (batch.toArray() as { toJSON(): unknown }[]).map((row) =>
          Object.fromEntries(Object.entries(row.toJSON() as Record<string, unknown>).map(([k, v]) => [k, plain(v)]))
        )
        n += rows.length
        await onBatch(rows, n)
      }
      return n
    },
    async cancel() {
      await conn.cancelSent()
    },
    async close() {
      await conn.close()
      await db.terminate()
      worker.terminate()
    },
    terminate() {
      void db.terminate()
      worker.terminate()
    }
  }
  return engine
}
