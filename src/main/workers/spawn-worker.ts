// Starts one of main's worker threads by name (src/main/store/parquet-footer-worker.ts, copy-writer-worker.ts): the
// built .js beside (or above) a bundle, each an entry of its own in electron.vite.config.ts; under tsx or vitest, the
// .ts beside the caller, loaded through tsx's own register() (a worker's execArgv does not take --import).
import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { Worker, type WorkerOptions } from 'node:worker_threads'

/** `callerUrl` is the caller's import.meta.url; `name` the worker's file name without its extension, beside the caller. */
export function spawnWorker(callerUrl: string, name: string, options: WorkerOptions = {}): Worker {
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
