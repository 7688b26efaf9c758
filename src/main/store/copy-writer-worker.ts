// The worker thread that writes the file store's small copies (src/main/store/copy-writer.ts runs it): each file
// created, written and renamed with the synchronous calls, here instead of on the main thread.
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { parentPort } from 'node:worker_threads'

/** One file: `bytes` written to `path` (a new file unless `flag` is 'w'), then renamed to `target` when given. */
export interface CopyWrite {
  readonly path: string
  readonly bytes: Uint8Array
  readonly flag: 'wx' | 'w'
  readonly target?: string
}

export interface CopyWriteJob {
  readonly id: number
  readonly writes: readonly CopyWrite[]
}

/** Per write, in the job's order: null when done, else the error's code and message. */
export interface CopyWriteAnswers {
  readonly id: number
  readonly errors: readonly ({ readonly code?: string; readonly message: string } | null)[]
}

/** A private file (0600), its folder made (0700) when it is not there: the first time, or after a clear. */
function writeOne(w: CopyWrite): null | { code?: string; message: string } {
  try {
    try {
      writeFileSync(w.path, w.bytes, { flag: w.flag, mode: 0o600 })
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e
      mkdirSync(dirname(w.path), { recursive: true, mode: 0o700 })
      writeFileSync(w.path, w.bytes, { flag: w.flag, mode: 0o600 })
    }
    if (w.target) renameSync(w.path, w.target)
    return null
  } catch (e) {
    const err = e as NodeJS.ErrnoException
    // Nothing half-written is left under the temporary name (the final name is only ever renamed onto).
    if (w.target) rmSync(w.path, { force: true })
    return { ...(err.code ? { code: err.code } : {}), message: err.message }
  }
}

parentPort?.on('message', (job: CopyWriteJob) => parentPort?.postMessage({ id: job.id, errors: job.writes.map(writeOne) } satisfies CopyWriteAnswers))
parentPort?.postMessage({ ready: true })
