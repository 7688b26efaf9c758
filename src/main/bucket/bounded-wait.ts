// Bounded waits: a promise awaited no longer than until a signal aborts, or than a deadline. For calls that
// take no signal of their own (the GCS client) and for waits that join work started by someone else.
import { setMaxListeners } from 'node:events'

/** Settles as `work` does, or rejects with `onAbort()` as soon as `signal` aborts (`work` is left to finish). */
export function abortable<T>(work: Promise<T>, signal: AbortSignal | undefined, onAbort: () => Error): Promise<T> {
  if (!signal) return work
  if (signal.aborted) {
    // Nothing lost: the caller gets the abort instead; work left to finish may still reject, unheard.
    work.catch(() => {})
    return Promise.reject(onAbort())
  }
  return new Promise<T>((resolve, reject) => {
    const abort = (): void => reject(onAbort())
    signal.addEventListener('abort', abort, { once: true })
    work.then(
      (v) => {
        signal.removeEventListener('abort', abort)
        resolve(v)
      },
      (e: unknown) => {
        signal.removeEventListener('abort', abort)
        reject(e)
      }
    )
  })
}

/** Settles as `work` does, or rejects with `onTimeout()` after `ms` (`work` is left to finish). */
export function within<T>(work: Promise<T>, ms: number, onTimeout: () => Error): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(onTimeout()), ms)
  })
  // Observed by the race below; after a timeout the caller has its answer, and work's late rejection is unheard.
  work.catch(() => {})
  return Promise.race([work, late]).finally(() => clearTimeout(timer))
}

/** A signal shared by every request of a fan-out (listings, downloads, footer reads in flight): each adds its abort
 * listener, more than Node's warning level (10), which is no leak here. */
export function shareSignal(signal: AbortSignal | undefined): void {
  if (signal) setMaxListeners(0, signal)
}
