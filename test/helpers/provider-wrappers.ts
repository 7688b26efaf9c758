// A real bucket provider with what a test needs in front of it: its reads counted, or its whole-object reads
// answered another way (a body cut short, bytes that are not Parquet). Everything else goes to the provider as is.
import type { Readable } from 'node:stream'
import type { BucketProvider, ByteRange } from '../../src/main/bucket/bucket-provider'

/** The provider, each ranged read pushed to `reads` as "range <key>" and each whole download as "stream <key>". */
export function countedProvider(p: BucketProvider, reads: string[]): BucketProvider {
  return new Proxy(p, {
    get(target, prop, receiver) {
      const v = Reflect.get(target, prop, receiver) as unknown
      if (prop === 'readRange')
        return (key: string, range: ByteRange, signal?: AbortSignal) => (reads.push(`range ${key}`), target.readRange(key, range, signal))
      if (prop === 'readStream') return (key: string, signal?: AbortSignal) => (reads.push(`stream ${key}`), target.readStream(key, signal))
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v
    }
  })
}

/** The provider with its whole downloads answered by `readStream` (which may call the provider's own). */
export function withReadStream(p: BucketProvider, readStream: (key: string, signal?: AbortSignal) => Promise<Readable>): BucketProvider {
  return new Proxy(p, {
    get(target, prop, receiver) {
      if (prop === 'readStream') return readStream
      const v = Reflect.get(target, prop, receiver) as unknown
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v
    }
  })
}
