// Main's worker threads (src/main/store/parquet-footer-worker.ts, copy-writer-worker.ts): started by name, ready once
// their module has loaded and said so, and asked one job at a time (an answer carries its job's id).
// The built .js is beside (or above) a bundle, each an entry of its own in electron.vite.config.ts; under tsx or
// vitest, the .ts beside the caller is loaded through tsx's own register() (a worker's execArgv does not take --import).
import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { Worker, type WorkerOptions } from 'node:worker_threads'

export interface StartedWorker {
  readonly worker: Worker
  /** Resolves once the worker's module has loaded (it posts `{ ready: true }`); rejects if it stopped before, with an
   * error whose code is WORKER_START. */
  readonly online: Promise<void>
  /** Names it in errors ("the footer worker"). */
  readonly label: string
}

/** The code of the error a worker that could not start gives (not the job's fault: worth another try later). */
export const WORKER_START = 'WORKER_START'

function spawnWorker(callerUrl: string, name: string, options: WorkerOptions): Worker {
  const here = fileURLToPath(callerUrl)
  if (here.endsWith('.ts')) {
    const api = pathToFileURL(join(dirname(createRequire(callerUrl).resolve('tsx/package.json')), 'dist/esm/api/index.mjs')).href
    const file = pathToFileURL(join(dirname(here), `${name}.ts`)).href
    return new Worker(`import(${JSON.stringify(api)}).then((m) => { m.register(); return import(${JSON.stringify(file)}) })`, { ...options, eval: true })
  }
  for (const dir of [dirname(here), join(dirname(here), '..')]) {
    const file = join(dir, `${name}.js`)
    if (existsSync(file)) return new Worker(file, options)
  }
  throw new Error(`A worker of the app (${name}.js) is missing beside ${here}; rebuild the app.`)
}

/**
 * Starts the worker `name` (its file beside the caller, whose import.meta.url is `callerUrl`). `label` names it in
 * errors ("the footer worker"). Ready means loaded: 'online' comes before, and loading a module (tsx in development)
 * takes seconds on a busy machine, which is no job's cost.
 */
export function startWorker(callerUrl: string, name: string, label: string, options: WorkerOptions = {}): StartedWorker {
  const worker = spawnWorker(callerUrl, name, options)
  const online = new Promise<void>((resolve, reject) => {
    const onReady = (m: { ready?: boolean }): void => {
      if (m?.ready !== true) return
      worker.off('message', onReady)
      resolve()
    }
    worker.on('message', onReady)
    // A new error: the worker's own goes unchanged to whoever asked it a job (its code says why, e.g. out of memory).
    worker.once('error', (e) => reject(Object.assign(new Error(`${label} could not start (${e.message})`), { code: WORKER_START })))
    worker.once('exit', (code) => reject(Object.assign(new Error(`${label} stopped while starting (exit code ${code})`), { code: WORKER_START })))
  })
  // Observed by askWorker, which waits for it; this only keeps it from being unhandled meanwhile.
  online.catch(() => {})
  return { worker, online, label }
}

let nextId = 0

/**
 * Sends `job` (given its id here) once the worker is ready and resolves with the answer that carries the same id. Rejects
 * with the worker's error, when it stops, or with Error('timeout') after `timeoutMs` (counted from the send). The worker
 * is held (ref) while it works and let go (unref) after: idle, it does not keep the process alive.
 */
export async function askWorker<A extends { readonly id: number }>(
  started: StartedWorker,
  job: object,
  opts: { readonly transfer?: readonly ArrayBuffer[]; readonly timeoutMs?: number } = {}
): Promise<A> {
  const { worker, label } = started
  worker.ref()
  try {
    await started.online
    // One that stopped while idle sends no 'exit' any more (its threadId is -1 once it has stopped).
    if (worker.threadId === -1) throw new Error(`${label} has stopped`)
    const id = nextId++
    return await new Promise<A>((resolve, reject) => {
      const done = (): void => {
        clearTimeout(timer)
        worker.off('message', onMessage)
        worker.off('error', onError)
        worker.off('exit', onExit)
      }
      const onMessage = (a: A): void => {
        if (a.id !== id) return
        done()
        resolve(a)
      }
      const onError = (e: Error): void => {
        done()
        reject(e)
      }
      const onExit = (code: number): void => {
        done()
        reject(new Error(`${label} stopped (exit code ${code})`))
      }
      const timer =
        opts.timeoutMs === undefined
          ? undefined
          : setTimeout(() => {
              done()
              reject(new Error('timeout'))
            }, opts.timeoutMs)
      worker.on('message', onMessage)
      worker.on('error', onError)
      worker.on('exit', onExit)
      try {
        worker.postMessage({ ...job, id }, [...(opts.transfer ?? [])])
      } catch (e) {
        // Not sent (a value that cannot be cloned): no answer will come.
        done()
        reject(e as Error)
      }
    })
  } finally {
    worker.unref()
  }
}
