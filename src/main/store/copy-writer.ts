// Writes the file store's small copies (received in memory, at most IN_MEMORY_BYTES) in a worker thread, the writes
// waiting for it sent together. A cold year keeps 26,000 files of a few KB, and creating a file costs the kernel
// 0.15-0.5 ms here: on the main thread (the frame check's critical path) that was a third of its time; through the
// promise calls, four round trips of the thread pool per file cost the main thread more than the calls themselves.
import type { Worker } from 'node:worker_threads'
import { spawnWorker } from '../workers/spawn-worker'
import type { CopyWrite, CopyWriteAnswers, CopyWriteJob } from './copy-writer-worker'

/** Writes sent in one message at most. */
const WRITES_PER_MESSAGE = 64

interface Pending {
  readonly write: CopyWrite
  readonly resolve: () => void
  readonly reject: (e: Error) => void
}

class CopyWriter {
  private worker: Worker | null = null
  private online: Promise<void> | null = null
  private readonly queue: Pending[] = []
  private busy = false
  private nextId = 0

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
      this.worker = null
      this.online = null
      for (const p of batch) p.reject(e as Error)
    }
    this.busy = false
    void this.pump()
  }

  private async send(writes: CopyWrite[]): Promise<CopyWriteAnswers['errors']> {
    const worker = this.start()
    worker.ref()
    try {
      await this.online
      const id = this.nextId++
      return await new Promise((resolve, reject) => {
        const done = (): void => {
          worker.off('message', onMessage)
          worker.off('error', reject)
          worker.off('exit', onExit)
        }
        const onMessage = (a: CopyWriteAnswers): void => {
          if (a.id !== id) return
          done()
          resolve(a.errors)
        }
        const onExit = (code: number): void => {
          done()
          reject(new Error(`the store's copy writer stopped (exit code ${code})`))
        }
        worker.on('message', onMessage)
        worker.once('error', reject)
        worker.on('exit', onExit)
        worker.postMessage({ id, writes } satisfies CopyWriteJob)
      })
    } finally {
      // Idle, it does not keep the process alive.
      worker.unref()
    }
  }

  private start(): Worker {
    if (this.worker) return this.worker
    const worker = spawnWorker(import.meta.url, 'copy-writer-worker')
    this.worker = worker
    this.online = new Promise<void>((resolve, reject) => {
      const onReady = (m: { ready?: boolean }): void => {
        if (m?.ready !== true) return
        worker.off('message', onReady)
        resolve()
      }
      worker.on('message', onReady)
      worker.once('error', reject)
      worker.once('exit', (code) => reject(new Error(`the store's copy writer stopped while starting (exit code ${code})`)))
    })
    this.online.catch(() => {})
    return worker
  }
}

/** The process's writer (every file store shares it). */
let shared: CopyWriter | null = null
export function copyWriter(): CopyWriter {
  shared ??= new CopyWriter()
  return shared
}
