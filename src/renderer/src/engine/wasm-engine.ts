// The query engine over one DuckDB-WASM 1.28 database: files registered by bucket key (read over HTTP from
// main's byte server, or whole into the worker's memory up to a budget), queries streamed as plain rows, cancel.
// The browser starts it in a worker (browser-engine.ts); tests in Node start the same on DuckDB-WASM's Node build.
import type { AsyncDuckDB, AsyncDuckDBConnection } from '@duckdb/duckdb-wasm'
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

/** How many bytes of whole files (mirror segments, small files) one engine holds in memory; the rest is read over HTTP. */
export const WHOLE_FILE_BUDGET_BYTES = 256 * 1024 * 1024

/**
 * A bucket file this small is read whole too (within the budget): over HTTP, DuckDB-WASM 0.9.1 makes at least two
 * blocking requests for it (a HEAD and its footer) each time a view is bound or a query opens it, ~10 ms each in
 * Chromium, which for the hundreds of small hourly files of a table was most of the time a table took to open.
 */
export const SMALL_FILE_BYTES = 256 * 1024

const plain = (v: unknown): unknown => (typeof v === 'bigint' ? (Number.isSafeInteger(Number(v)) ? Number(v) : v.toString()) : v)

export interface EngineOptions {
  /** Bytes of files read whole held in memory (default WHOLE_FILE_BUDGET_BYTES). */
  readonly wholeFileBudgetBytes?: number
  /** Files up to this size are read whole like those registered `whole` (default SMALL_FILE_BYTES). */
  readonly smallFileBytes?: number
  /** Registers a file read by URL (the browser: DuckDB-WASM's HTTP protocol with range requests). */
  readonly registerUrl: (name: string, url: string) => Promise<void>
  /** The worker the database runs in, ended with it. */
  readonly worker: { terminate(): void }
}

/** `urlOf` gives the byte-server URL (token included) of a bucket key. */
export function engineOn(db: AsyncDuckDB, conn: AsyncDuckDBConnection, urlOf: (key: string) => string, opts: EngineOptions): BrowserEngine {
  const budget = opts.wholeFileBudgetBytes ?? WHOLE_FILE_BUDGET_BYTES
  const small = opts.smallFileBytes ?? SMALL_FILE_BYTES
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
  // A file read whole (a mirror segment, a small file): one GET, its bytes in the worker, instead of DuckDB-WASM's blocking ranged
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
            if ((f.whole || f.size <= small) && f.size > 0 && (await registerWhole(f))) return
            await opts.registerUrl(f.name, urlOf(f.key))
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
      opts.worker.terminate()
    },
    terminate() {
      void db.terminate()
      opts.worker.terminate()
    }
  }
  return engine
}
