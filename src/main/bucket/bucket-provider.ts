// One interface over S3, GCS and a local folder. Keys are relative to the connection's root (its bucket
// and prefix); every call can be cancelled with an AbortSignal and has connect and idle timeouts, so none
// can hang; failures are BucketErrors.
import type { Readable } from 'node:stream'
import type { ListedObject } from '../../shared/listing'
import type { RestoreTier } from '../../shared/restore-plan'

/** How long a request may wait before it fails with a `timeout` BucketError (final: retry.ts; GCS asks once more). */
export interface RequestTimeouts {
  /** Establishing the connection (TCP and TLS). */
  readonly connectMs: number
  /** Silence on an open connection: waiting for the answer, or between two chunks of a body. */
  readonly idleMs: number
}

export const DEFAULT_TIMEOUTS: RequestTimeouts = { connectMs: 10_000, idleMs: 30_000 }

export interface ListOptions {
  /** Group keys below the first occurrence of this after the prefix (usually "/"). */
  readonly delimiter?: string
  /** Only keys strictly after this one. */
  readonly startAfter?: string
  /** Objects per request (the provider's maximum when omitted). */
  readonly pageSize?: number
  readonly signal?: AbortSignal
}

export interface ListPage {
  readonly objects: readonly ListedObject[]
  /** With a delimiter: the "folders" one level down, each ending with the delimiter. */
  readonly prefixes: readonly string[]
}

/** An inclusive byte range, or the last `suffix` bytes. */
export type ByteRange = { readonly start: number; readonly end?: number } | { readonly suffix: number }

export interface RangeRead {
  readonly body: Uint8Array
  /** Size of the whole object. */
  readonly size: number
}

export interface BucketProvider {
  /** Where this connection points, for messages: "s3://bucket/prefix", "gs://…", a folder path. */
  readonly location: string
  /** Pages of a listing in key order. */
  list(prefix: string, options?: ListOptions): AsyncIterable<ListPage>
  head(key: string, signal?: AbortSignal): Promise<ListedObject>
  readRange(key: string, range: ByteRange, signal?: AbortSignal): Promise<RangeRead>
  /** The whole object. The stream fails with a BucketError (timeout after idleMs of silence, cancelled on abort). */
  readStream(key: string, signal?: AbortSignal): Promise<Readable>
  /** Starts bringing an archived object back for `days` at a retrieval tier (S3 RestoreObject); providers without
   * archives refuse (a local folder) or have nothing to do (GCS reads every class directly). */
  restore(key: string, days: number, tier: RestoreTier, signal?: AbortSignal): Promise<'started' | 'in_progress' | 'done'>
}

/** Every object under a prefix, page by page, flattened. */
export async function* listAll(provider: BucketProvider, prefix: string, options: ListOptions = {}): AsyncIterable<ListedObject> {
  for await (const page of provider.list(prefix, options)) yield* page.objects
}

/** A bucket prefix as the providers use it: no leading slash, a trailing one unless empty. */
export function normalizePrefix(prefix: string | undefined): string {
  const p = (prefix ?? '').replace(/^\/+/, '')
  return p === '' || p.endsWith('/') ? p : `${p}/`
}
