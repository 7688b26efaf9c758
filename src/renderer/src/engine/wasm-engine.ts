// The query engine over one DuckDB-WASM 1.28 database: files registered by bucket key (read over HTTP from
// main's byte server, or whole into the worker's memory up to a budget), queries streamed as plain rows, cancel.
// The browser starts it in a worker (browser-engine.ts); tests in Node start the same on DuckDB-WASM's Node build.
import type { AsyncDuckDB, AsyncDuckDBConnection } from '@duckdb/duckdb-wasm'
import type { SqlEngine } from '../../../shared/bucket-views'
import { registeredNamesToKeys } from '../../../shared/logical-table-sql'
import { errorMessage } from '../../../shared/error-message'
import { BATCH_MAX_BYTES, BATCH_MAX_OBJECTS, BATCH_MAX_URL_CHARS, BATCH_SIZES_HEADER, batchUrl } from '../../../shared/byte-batch'

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

/** Small files in batches for the byte server: at most its count and bytes, and a URL of a few kilobytes. */
function batchesOf<F extends { readonly key: string; readonly size: number }>(files: readonly F[]): F[][] {
  const out: F[][] = []
  let batch: F[] = []
  let bytes = 0
  let chars = 0
  for (const f of files) {
    const c = encodeURIComponent(f.key).length + 3
    if (batch.length > 0 && (batch.length >= BATCH_MAX_OBJECTS || bytes + f.size > BATCH_MAX_BYTES || chars + c > BATCH_MAX_URL_CHARS)) {
      out.push(batch)
      batch = []
      bytes = 0
      chars = 0
    }
    batch.push(f)
    bytes += f.size
    chars += c
  }
  if (batch.length > 1) out.push(batch)
  return out
}

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
  // Small files read whole, asked for in batches (the byte server's `o/?k=…`): a browser sends six requests to a host at
  // a time, so hundreds of small hourly files one GET each waited on the bucket's latency six at a time. A batch that
  // fails (a server without batches, a file gone) leaves its files to be read one by one, as before.
  const registerBatch = async (batch: readonly { name: string; key: string; size: number }[]): Promise<Set<string>> => {
    const size = batch.reduce((n, f) => n + f.size, 0)
    if (heldBytes + size > budget) return new Set()
    heldBytes += size
    const url = batchUrl(
      urlOf(''),
      batch.map((f) => f.key)
    )
    const answer = await fetch(url)
      .then(async (r) => (r.ok ? { sizes: r.headers.get(BATCH_SIZES_HEADER), bytes: new Uint8Array(await r.arrayBuffer()) } : null))
      .catch(() => null)
    // Each file's size as the server gives it must be the one listed here: the bytes are cut by them.
    if (!answer || answer.sizes !== batch.map((f) => f.size).join(',') || answer.bytes.byteLength !== size) {
      heldBytes -= size
      return new Set()
    }
    let at = 0
    for (const f of batch) {
      held.set(f.name, f.size)
      await db.registerFileBuffer(f.name, answer.bytes.slice(at, at + f.size))
      at += f.size
    }
    return new Set(batch.map((f) => f.name))
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
      const todo = files.filter((f) => !(registered.has(f.name) && keysByName.get(f.name) === f.key))
      for (const f of todo) {
        if (registered.has(f.name)) await forget(f.name)
        registered.add(f.name)
        keysByName.set(f.name, f.key)
      }
      const readWhole = (f: (typeof files)[number]): boolean => (f.whole === true || f.size <= small) && f.size > 0
      const one = async (f: (typeof files)[number]): Promise<void> => {
        if (readWhole(f) && (await registerWhole(f))) return
        await opts.registerUrl(f.name, urlOf(f.key))
      }
      const batches = batchesOf(todo.filter((f) => !f.whole && readWhole(f)))
      const inBatches = new Set(batches.flatMap((b) => b.map((f) => f.name)))
      // Issued together: the worker takes them in order, without a round trip each. A batch's files it did not
      // register are read one by one.
      await Promise.all([
        ...todo.filter((f) => !inBatches.has(f.name)).map(one),
        ...batches.map(async (b) => {
          const done = await registerBatch(b)
          await Promise.all(b.filter((f) => !done.has(f.name)).map(one))
        })
      ])
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
