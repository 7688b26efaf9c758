// Retries for what the SDKs do not retry themselves: a connection dropped while a body was being read.
// Backoff with jitter comes from p-retry; only transient kinds are retried, and an abort ends it at once.
import pRetry from 'p-retry'
import { BucketError, bucketError } from './bucket-errors'

// A timeout is not transient here: a server that stayed silent for the whole idle timeout is more likely
// down or blocked than about to answer, and each retry would add another idle timeout before the user hears.
const TRANSIENT = new Set(['network', 'throttled'])

export async function withRetry<T>(run: () => Promise<T>, classify: (e: unknown) => BucketError, signal?: AbortSignal, retries = 3): Promise<T> {
  // p-retry rejects with the signal's bare reason: the caller gets a BucketError naming its key (a timeout when
  // the signal was AbortSignal.timeout's, cancelled otherwise).
  const cancelled = (): BucketError => {
    const e = classify(signal?.reason ?? Object.assign(new Error('Cancelled'), { name: 'AbortError' }))
    return e.kind === 'cancelled' || e.kind === 'timeout' ? e : bucketError('cancelled', e.key, 'Cancelled')
  }
  if (signal?.aborted) throw cancelled()
  try {
    return await pRetry(
      async () => {
        try {
          return await run()
        } catch (e) {
          throw classify(e)
        }
      },
      {
        retries,
        minTimeout: 100,
        maxTimeout: 2000,
        randomize: true,
        ...(signal ? { signal } : {}),
        shouldRetry: (e) => e instanceof BucketError && TRANSIENT.has(e.kind) && !signal?.aborted
      }
    )
  } catch (e) {
    if (signal?.aborted) throw cancelled()
    throw e
  }
}
