// The query engine for Node (the CLI): DuckDB-WASM in a worker thread, its file reads answered here from a
// reader (the block cache in front of the bucket provider). Results stream back in batches.
import { Worker } from 'node:worker_threads'
import { registeredNamesToKeys } from '../../shared/logical-table-sql'

export interface EngineFile {
  /** The name SQL uses for the file (what logical-table SQL gets from `locate`). */
  readonly name: string
  readonly key: string
  readonly size: number
}

export type ReadBytes = (key: string, start: number, length: number) => Promise<Uint8Array>

export interface QueryResult {
  readonly columns: string[]
  readonly rows: unknown[][]
}

export interface NodeEngine {
  readonly version: string
  register(files: readonly EngineFile[]): Promise<void>
  /**
   * Runs SQL; onBatch receives rows as they come (the full result is not kept when it is given). The next
   * batch is produced once onBatch's promise, if it returns one, has settled: a slow writer slows the query.
   */
  query(sql: string, onBatch?: (columns: string[], rows: unknown[][]) => void | Promise<void>): Promise<QueryResult>
  /** Interrupts the query being computed; it rejects, and the engine stays usable. */
  cancel(): void
  close(): Promise<void>
}

function workerUrl(): { url: URL; entry?: string } {
  // From source (tests, `npm run cli`) the worker is TypeScript loaded through tsx; built, it sits beside this file.
  if (!import.meta.url.endsWith('.ts')) return { url: new URL('./engine-worker.js', import.meta.url) }
  return { url: new URL('./ts-worker-bootstrap.mjs', import.meta.url), entry: new URL('./engine-worker.ts', import.meta.url).href }
}

export async function startNodeEngine(read: ReadBytes): Promise<NodeEngine> {
  const control = new SharedArrayBuffer(8)
  const flowBuf = new SharedArrayBuffer(8)
  const flow = new Int32Array(flowBuf)
  const taken = (): void => {
    Atomics.store(flow, 0, 1)
    Atomics.notify(flow, 0)
  }
  const error = new SharedArrayBuffer(4096)
  const ctl = new Int32Array(control)
  const { url, entry } = workerUrl()
  const worker = new Worker(url, { workerData: { control, error, flow: flowBuf, entry } })
  const pending = new Map<number, { resolve: (r: QueryResult) => void; reject: (e: Error) => void; onBatch?: (c: string[], r: unknown[][]) => void | Promise<void>; rows: unknown[][]; columns: string[]; chain: Promise<void>; failure?: Error }>()
  const cancel = (): void => {
    Atomics.store(flow, 1, 1)
    Atomics.notify(flow, 0)
    worker.postMessage({ type: 'cancel' })
  }
  let nextId = 1

  const answerRead = async (m: { key: string; start: number; length: number; data: SharedArrayBuffer }): Promise<void> => {
    try {
      const bytes = await read(m.key, m.start, m.length)
      new Uint8Array(m.data).set(bytes.subarray(0, m.length))
      Atomics.store(ctl, 1, Math.min(bytes.length, m.length))
      Atomics.store(ctl, 0, 1)
    } catch (e) {
      const text = new TextEncoder().encode(`${m.key}: ${(e as { userMessage?: string }).userMessage ?? (e as Error).message}`).subarray(0, 4096)
      new Uint8Array(error).set(text)
      Atomics.store(ctl, 1, text.length)
      Atomics.store(ctl, 0, 2)
    }
    Atomics.notify(ctl, 0)
  }

  const ready = new Promise<string>((resolve, reject) => {
    worker.on('message', (m: { type: string; id?: number; version?: string; message?: string; columns?: string[]; rows?: unknown[][] } & Record<string, unknown>) => {
      if (m.type === 'read') void answerRead(m as never)
      else if (m.type === 'ready') resolve(m.version as string)
      else if (m.type === 'fatal') reject(new Error(`The query engine could not start: ${m.message}`))
      else {
        const p = pending.get(m.id as number)
        if (!p) return
        if (m.type === 'batch') {
          p.columns = m.columns ?? p.columns
          if (p.onBatch) {
            const onBatch = p.onBatch
            p.chain = p.chain.then(() => onBatch(p.columns, m.rows ?? [])).then(taken, (e: unknown) => {
              p.failure ??= e as Error
              cancel()
              taken()
            })
          } else {
            p.rows.push(...(m.rows ?? []))
            taken()
          }
        } else if (m.type === 'done') {
          pending.delete(m.id as number)
          void p.chain.then(() => (p.failure ? p.reject(p.failure) : p.resolve({ columns: m.columns ?? p.columns, rows: p.rows })))
        } else if (m.type === 'error') {
          pending.delete(m.id as number)
          void p.chain.then(() => p.reject(p.failure ?? new Error(withKeys(m.message ?? 'query failed'))))
        }
      }
    })
    worker.once('error', reject)
  })
  const version = await ready
  // Errors name files as the engine knows them; users know them by bucket key.
  const keysByName = new Map<string, string>()
  const withKeys = registeredNamesToKeys(keysByName)
  const call = (msg: Record<string, unknown>, onBatch?: (c: string[], r: unknown[][]) => void | Promise<void>): Promise<QueryResult> =>
    new Promise((resolve, reject) => {
      const id = nextId++
      pending.set(id, { resolve, reject, ...(onBatch ? { onBatch } : {}), rows: [], columns: [], chain: Promise.resolve() })
      worker.postMessage({ ...msg, id })
    })
  return {
    version,
    register: async (files) => {
      for (const f of files) keysByName.set(f.name, f.key)
      await call({ type: 'register', files })
    },
    query: (sql, onBatch) => call({ type: 'query', sql }, onBatch),
    cancel,
    close: async () => {
      await worker.terminate()
    }
  }
}
