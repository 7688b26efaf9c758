// A download stream that cannot hang: silence for the idle timeout fails it with a timeout naming the key, an
// abort fails it as cancelled at once, and any error of the source arrives as a BucketError. The source is
// destroyed either way, which closes its connection.
import { PassThrough, type Readable } from 'node:stream'
import { type BucketError, bucketError, timeoutError } from './bucket-errors'

export interface StreamGuard {
  readonly key: string
  readonly idleMs: number
  /**
   * The wait for the first chunk when the stream itself makes the request (connect and answer); idleMs if
   * omitted. Such a stream says when the answer came with a 'response' event (the GCS client's does).
   */
  readonly firstMs?: number
  readonly signal?: AbortSignal | undefined
  readonly classify: (e: unknown) => BucketError
}

export function guardStream(source: Readable, g: StreamGuard): Readable {
  const out = new PassThrough()
  let timer: NodeJS.Timeout | undefined
  let settled = false
  const finish = (): void => {
    settled = true
    clearTimeout(timer)
    g.signal?.removeEventListener('abort', onAbort)
  }
  const fail = (err: BucketError): void => {
    if (settled) return
    finish()
    source.destroy()
    out.destroy(err)
  }
  const arm = (ms = g.idleMs): void => {
    clearTimeout(timer)
    timer = setTimeout(() => {
      // Paused by backpressure (a slow reader) is not silence of the server.
      if (source.isPaused() || out.writableNeedDrain) arm()
      else fail(timeoutError(g.key, 'idle', ms))
    }, ms)
  }
  const onAbort = (): void => fail(bucketError('cancelled', g.key, 'Cancelled'))
  if (g.signal?.aborted) {
    onAbort()
    return out
  }
  g.signal?.addEventListener('abort', onAbort, { once: true })
  source.on('data', () => arm())
  source.once('response', () => arm())
  source.once('end', finish)
  source.once('error', (e) => {
    if (!settled) fail(g.classify(e))
  })
  // Closed before its end without an error (a connection cut): not a complete object. (Every body closes after its
  // end: the error is built only when it is one.)
  source.once('close', () => {
    if (!settled) fail(g.classify(Object.assign(new Error('the connection closed before the end of the object'), { code: 'ECONNRESET' })))
  })
  // A reader that stops reading and destroys its end releases the source too.
  out.once('close', () => {
    if (!settled) {
      finish()
      source.destroy()
    }
  })
  arm(g.firstMs ?? g.idleMs)
  source.pipe(out)
  return out
}
