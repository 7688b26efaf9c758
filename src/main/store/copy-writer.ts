// Writes the file store's small copies (received in memory, at most IN_MEMORY_BYTES) in a worker thread, the writes
// waiting for it sent together. A cold year keeps 26,000 files of a few KB, and creating a file costs the kernel
// 0.15-0.5 ms here: on the main thread (the frame check's critical path) that was a third of its time; through the
// promise calls, four round trips of the thread pool per file cost the main thread more than the calls themselves.
import { type StartedWorker, askWorker, startWorker } from '../workers/worker-thread'
import type { CopyWrite, CopyWriteAnswers, CopyWriteJob } from './copy-writer-worker'

/** Writes sent in one message at most. */
const WRITES_PER_MESSAGE = 64

interface Pending {
  readonly write: CopyWrite
  readonly resolve: () => void
  readonly reject: (e: Error) => void
}

class CopyWriter {
  private worker: StartedWorker | null = null
  private readonly queue: Pending[] = []
  private busy = false

  /** Writes `bytes` to `path` (a new file unless flag is 'w') and renames it to `target` when given; rejects with the
   * file system's error (its code kept) when it could not. */
  write(path: string, bytes: Uint8Array, opts: { readonly flag?: 'wx' | 'w'; readonly target?: string } = {}): Promise<void> {
    return new Promise((resolve, reject) => {
      this.queue.push({ write: { path, bytes, flag: opts.flag ?? 'wx', ...(opts.target ? { target: opts.target } : {}) }, resolve, reject })
      void this.pump()
    })
  }

  private async pump(): Promise<void> {
    if (this.busy || this.queue.length === 0) return
    this.busy = true
    const batch = this.queue.splice(0, WRITES_PER_MESSAGE)
    try {
      const errors = await this.send(batch.map((p) => p.write))
      batch.forEach((p, i) => {
        const e = errors[i]
        if (!e) p.resolve()
        else p.reject(Object.assign(new Error(e.message), e.code ? { code: e.code } : {}))
      })
    } catch (e) {
      // The worker stopped: these writes are lost (each caller is told), the next ones start another.
      void this.worker?.worker.terminate()
      this.worker = null
      for (const p of batch) p.reject(e as Error)
    }
    this.busy = false
    void this.pump()
  }

  private async send(writes: CopyWrite[]): Promise<CopyWriteAnswers['errors']> {
    // One that stopped while idle (its threadId is -1 then) is replaced before these writes are sent.
    if (this.worker?.worker.threadId === -1) this.worker = null
    this.worker ??= startWorker(import.meta.url, 'copy-writer-worker', "the store's copy writer")
    const job: Omit<CopyWriteJob, 'id'> = { writes }
    return (await askWorker<CopyWriteAnswers>(this.worker, job)).errors
  }
}

/** The process's writer (every file store shares it). */
let shared: CopyWriter | null = null
export function copyWriter(): CopyWriter {
  shared ??= new CopyWriter()
  return shared
}
