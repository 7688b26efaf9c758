// Runs DuckDB-WASM 1.28 (Parquet built in, nothing fetched at run time) in a worker thread, for Node (the
// CLI). Its file reads are served from the main thread, which owns the bucket provider and the block cache:
// a read posts a request and waits on a shared flag (DuckDB's file system calls are synchronous).
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { parentPort, workerData } from 'node:worker_threads'

const requireCjs = createRequire(import.meta.url)
type Mod = { _malloc(n: number): number; HEAPF64: Float64Array; HEAPU8: Uint8Array }
interface Batch {
  numRows: number
  numCols: number
  schema: { fields: { name: string; type: { toString(): string } }[] }
  getChildAt(i: number): { get(row: number): unknown } | null
}
interface Bindings {
  startPendingQuery(conn: number, sql: string): Uint8Array | null
  pollPendingQuery(conn: number): Uint8Array | null
  cancelPendingQuery(conn: number): boolean
  fetchQueryResults(conn: number): Uint8Array
}
interface Connection {
  readonly _bindings: Bindings
  readonly _conn: number
  query(sql: string): { toArray(): unknown[] }
}
interface Runtime {
  resolveFileInfo(mod: Mod, fileId: number): { dataUrl: string | null } | null
  openFile(mod: Mod, fileId: number, flags: number): unknown
  readFile(mod: Mod, fileId: number, buf: number, bytes: number, location: number): number
  closeFile(mod: Mod, fileId: number): void
  getLastFileModificationTime(mod: Mod, fileId: number): number
}
/** The part of @duckdb/duckdb-wasm's Node blocking build used here (its typings are not reachable through its exports map). */
interface DuckDbWasmNode {
  NODE_RUNTIME: Runtime
  DuckDBDataProtocol: { NODE_FS: number }
  VoidLogger: new () => unknown
  failWith(mod: Mod, message: string): void
  createDuckDB(bundles: unknown, logger: unknown, runtime: unknown): Promise<{ instantiate(): Promise<unknown>; connect(): Connection; registerFileURL(name: string, url: string, protocol: number, directIO: boolean): void }>
}
const duckdb = requireCjs('@duckdb/duckdb-wasm/dist/duckdb-node-blocking.cjs') as DuckDbWasmNode
// The Arrow library DuckDB-WASM itself depends on, to read its result batches.
const arrow = requireCjs(requireCjs.resolve('apache-arrow', { paths: [dirname(requireCjs.resolve('@duckdb/duckdb-wasm/dist/duckdb-node-blocking.cjs'))] })) as {
  RecordBatchReader: { from(source: Iterable<Uint8Array>): Iterable<Batch> }
}

/**
 * Runs a query as DuckDB's pending query, polled with a pause between steps, so that a cancel (a flag the
 * main thread sets in shared memory) interrupts it while it computes; then streams its Arrow batches.
 */
async function sendCancellable(conn: Connection, sql: string, cancelled: () => boolean): Promise<Iterable<Batch>> {
  const b = conn._bindings
  let header = b.startPendingQuery(conn._conn, sql)
  while (header === null) {
    await new Promise((r) => setImmediate(r))
    if (cancelled()) {
      b.cancelPendingQuery(conn._conn)
      throw new Error('INTERRUPT Error: the query was cancelled')
    }
    header = b.pollPendingQuery(conn._conn)
  }
  const first = header
  function* buffers(): Generator<Uint8Array> {
    yield first
    for (;;) {
      const next = b.fetchQueryResults(conn._conn)
      if (next.length === 0) return
      yield next
    }
  }
  return arrow.RecordBatchReader.from(buffers())
}

// DuckDB-WASM logs failures to the console; in a worker that is the process's stdout, which belongs to the
// CLI's output (JSON, CSV). Errors reach the caller as messages instead.
console.log = () => {}
console.warn = () => {}
console.error = () => {}

const SCHEME = 'ee-bucket:'
const port = parentPort!
const control = new Int32Array(workerData.control as SharedArrayBuffer)
const errorText = new Uint8Array(workerData.error as SharedArrayBuffer)
/** [0]: the main thread has taken the last batch; [1]: stop sending batches (cancelled). */
const flow = new Int32Array(workerData.flow as SharedArrayBuffer)
const files = new Map<string, { key: string; size: number }>()
const registered = new Set<string>()

/** Blocks until the main thread has read [start, start+length) of the object (or failed). */
function readSync(key: string, start: number, length: number): Uint8Array {
  const data = new SharedArrayBuffer(length)
  Atomics.store(control, 0, 0)
  port.postMessage({ type: 'read', key, start, length, data })
  Atomics.wait(control, 0, 0)
  if (Atomics.load(control, 0) === 2) {
    const n = Atomics.load(control, 1)
    throw new Error(new TextDecoder().decode(errorText.slice(0, n)))
  }
  return new Uint8Array(data, 0, Atomics.load(control, 1))
}

const base = duckdb.NODE_RUNTIME
const ours = (mod: Mod, fileId: number): { key: string; size: number } | undefined => {
  const url = base.resolveFileInfo(mod, fileId)?.dataUrl
  return url ? files.get(url) : undefined
}
const runtime = {
  ...base,
  openFile(mod: Mod, fileId: number, flags: number) {
    const f = ours(mod, fileId)
    if (!f) return base.openFile(mod, fileId, flags)
    const ptr = mod._malloc(16)
    mod.HEAPF64[ptr >> 3] = f.size
    mod.HEAPF64[(ptr >> 3) + 1] = 0
    return ptr
  },
  readFile(mod: Mod, fileId: number, buf: number, bytes: number, location: number) {
    const f = ours(mod, fileId)
    if (!f) return base.readFile(mod, fileId, buf, bytes, location)
    const n = Math.min(bytes, f.size - location)
    if (n <= 0) return 0
    try {
      const data = readSync(f.key, location, n)
      mod.HEAPU8.set(data, buf)
      return data.length
    } catch (e) {
      duckdb.failWith(mod, (e as Error).message)
      return 0
    }
  },
  closeFile(mod: Mod, fileId: number) {
    if (!ours(mod, fileId)) base.closeFile(mod, fileId)
  },
  getLastFileModificationTime(mod: Mod, fileId: number) {
    return ours(mod, fileId) ? 0 : base.getLastFileModificationTime(mod, fileId)
  }
}

const dist = dirname(requireCjs.resolve('@duckdb/duckdb-wasm/dist/duckdb-node-blocking.cjs'))
const bundles = {
  mvp: { mainModule: join(dist, 'duckdb-mvp.wasm'), mainWorker: join(dist, 'duckdb-node-mvp.worker.cjs') },
  eh: { mainModule: join(dist, 'duckdb-eh.wasm'), mainWorker: join(dist, 'duckdb-node-eh.worker.cjs') }
}

const toPlain = (v: unknown): unknown => {
  if (typeof v === 'bigint') return Number.isSafeInteger(Number(v)) ? Number(v) : v.toString()
  if (v instanceof Date) return v.toISOString()
  return v
}

/** Arrow hands timestamps and dates over as milliseconds: write them as DuckDB writes them in text, in UTC. */
function converter(type: string): (v: unknown) => unknown {
  const text = (ms: number): string => new Date(ms).toISOString().replace('T', ' ').replace('Z', '').replace(/\.000$/, '')
  if (type.startsWith('Timestamp')) return (v) => (v === null || v === undefined ? null : text(Number(v)))
  if (type.startsWith('Date')) return (v) => (v === null || v === undefined ? null : new Date(Number(v)).toISOString().slice(0, 10))
  return toPlain
}

async function main(): Promise<void> {
  const db = await duckdb.createDuckDB(bundles, new duckdb.VoidLogger(), runtime)
  await db.instantiate()
  const conn = db.connect()
  conn.query('SET threads = 1')
  // One message at a time: DuckDB runs one query per connection.
  let queue = Promise.resolve()
  port.on('message', (msg: { type: string; id?: number; sql?: string; files?: { name: string; key: string; size: number }[] }) => {
    // A cancel does not wait in the queue: it interrupts the query being run (while it is being computed).
    if (msg.type === 'cancel') Atomics.store(flow, 1, 1)
    else queue = queue.then(() => handle(msg))
  })
  const handle = async (msg: { type: string; id?: number; sql?: string; files?: { name: string; key: string; size: number }[] }): Promise<void> => {
    try {
      if (msg.type === 'register') {
        for (const f of msg.files ?? []) {
          const url = SCHEME + f.key
          if (!registered.has(f.name)) db.registerFileURL(f.name, url, duckdb.DuckDBDataProtocol.NODE_FS, false)
          registered.add(f.name)
          files.set(url, { key: f.key, size: f.size })
        }
        port.postMessage({ type: 'done', id: msg.id })
      } else if (msg.type === 'query') {
        Atomics.store(flow, 1, 0)
        const reader = await sendCancellable(conn, msg.sql as string, () => Atomics.load(flow, 1) === 1)
        let columns: string[] | null = null
        for (const batch of reader) {
          if (Atomics.load(flow, 1) === 1) throw new Error('INTERRUPT Error: the query was cancelled')
          columns ??= batch.schema.fields.map((f) => f.name)
          const convert = batch.schema.fields.map((f) => converter(String(f.type)))
          const rows: unknown[][] = []
          for (let i = 0; i < batch.numRows; i++) {
            const row: unknown[] = []
            for (let c = 0; c < batch.numCols; c++) row.push((convert[c] as (v: unknown) => unknown)(batch.getChildAt(c)?.get(i)))
            rows.push(row)
          }
          // Wait until the main thread has taken this batch (written it out): memory stays bounded.
          Atomics.store(flow, 0, 0)
          port.postMessage({ type: 'batch', id: msg.id, columns, rows })
          while (Atomics.wait(flow, 0, 0, 1000) === 'timed-out' && Atomics.load(flow, 1) === 0) {
            // keep waiting; a cancel ends the wait
          }
        }
        port.postMessage({ type: 'done', id: msg.id, columns: columns ?? (reader as { schema?: { fields: { name: string }[] } }).schema?.fields.map((f) => f.name) ?? [] })
      }
    } catch (e) {
      port.postMessage({ type: 'error', id: msg.id, message: (e as Error).message })
    }
  }
  port.postMessage({ type: 'ready', version: (conn.query('SELECT version() AS v').toArray()[0] as { v: string }).v })
}

main().catch((e: unknown) => port.postMessage({ type: 'fatal', message: (e as Error).message }))
