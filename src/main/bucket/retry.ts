// Retries for what the SDKs do not retry themselves: a connection dropped while a body was being read.
// Backoff with jitter comes from p-retry; only transient kinds are retried.
import pRetry from 'p-retry'
import { BucketError } from './bucket-errors'

const TRANSIENT = new Set(['network', 'throttled'])

export async function withRetry<T>(run: () => Promise<T>, classify: (e: unknown) => BucketError, signal?: AbortSignal, retries = 3): Promise<T> {
  return pRetry(
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
      shouldRetry: (e) => e instanceof BucketError && TRANSIENT.has(e.kind)
    }
  )
}
