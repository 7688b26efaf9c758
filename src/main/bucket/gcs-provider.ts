// Google Cloud Storage through @google-cloud/storage (7.x: the 8.x line needs Node 22). Credentials are
// Application Default Credentials or a service-account key file, resolved here in main. The client retries
// 429, 5xx and dropped connections with exponential backoff and jitter; withRetry covers bodies cut mid-read.
import { type File, Storage } from '@google-cloud/storage'
import type { Readable } from 'node:stream'
import type { ListedObject } from '../../shared/listing'
import { classifyGcsError } from './bucket-errors'
import type { BucketProvider, ByteRange, ListOptions, ListPage, RangeRead } from './bucket-provider'
import { withRetry } from './retry'
import { normalizePrefix } from './s3-provider'

export type GcsCredentials =
  /** Application Default Credentials: GOOGLE_APPLICATION_CREDENTIALS, gcloud's ADC file, or the metadata server. */
  | { readonly kind: 'adc' }
  | { readonly kind: 'key_file'; readonly keyFile: string }
  /** No credentials (a local emulator). */
  | { readonly kind: 'none' }

export interface GcsConnectionOptions {
  readonly bucket: string
  readonly prefix?: string
  readonly credentials: GcsCredentials
  /** A custom endpoint (an emulator or a private endpoint), e.g. http://127.0.0.1:9199. */
  readonly endpoint?: string
  readonly projectId?: string
  /** A read that receives nothing for this long is abandoned and retried (default 30 s). */
  readonly stallTimeoutMs?: number
}

interface GcsMetadata {
  name?: string
  size?: string | number
  updated?: string
  generation?: string | number
  etag?: string
  storageClass?: string
}

/**
 * Gives up on a call that has not answered within `ms`: a connection cut mid-answer can leave the client
 * waiting forever. The error is a network error, so it is retried.
 */
function answerWithin<T>(ms: number, run: () => Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(Object.assign(new Error(`no answer within ${ms} ms`), { code: 'ETIMEDOUT' })), ms)
  })
  return Promise.race([run(), timeout]).finally(() => clearTimeout(timer))
}

export class GcsProvider implements BucketProvider {
  readonly location: string
  private readonly root: string
  private readonly storage: Storage

  constructor(private readonly options: GcsConnectionOptions) {
    this.root = normalizePrefix(options.prefix)
    this.location = `gs://${options.bucket}/${this.root}`
    const c = options.credentials
    this.storage = new Storage({
      ...(options.projectId ? { projectId: options.projectId } : {}),
      ...(options.endpoint ? { apiEndpoint: options.endpoint, useAuthWithCustomEndpoint: c.kind !== 'none' } : {}),
      ...(c.kind === 'key_file' ? { keyFilename: c.keyFile } : {}),
      retryOptions: { autoRetry: true, maxRetries: 4, retryDelayMultiplier: 2, maxRetryDelay: 8, totalTimeout: 120 }
    })
  }

  private toListed(m: GcsMetadata): ListedObject {
    return {
      key: (m.name ?? '').slice(this.root.length),
      size: Number(m.size ?? 0),
      lastModified: new Date(m.updated ?? 0).toISOString(),
      ...(m.generation !== undefined ? { etag: String(m.generation) } : m.etag ? { etag: m.etag } : {}),
      storageClass: m.storageClass ?? 'STANDARD'
    }
  }

  private file(key: string): File {
    return this.storage.bucket(this.options.bucket).file(this.root + key)
  }

  async *list(prefix: string, options: ListOptions = {}): AsyncIterable<ListPage> {
    const bucket = this.storage.bucket(this.options.bucket)
    const after = options.startAfter !== undefined ? this.root + options.startAfter : undefined
    let pageToken: string | undefined
    do {
      options.signal?.throwIfAborted()
      const [files, , raw] = await withRetry(
        () =>
          answerWithin(this.stallMs, () => bucket.getFiles({
            prefix: this.root + prefix,
            autoPaginate: false,
            ...(options.delimiter ? { delimiter: options.delimiter } : {}),
            ...(options.pageSize ? { maxResults: options.pageSize } : {}),
            ...(pageToken ? { pageToken } : {}),
            // startOffset is inclusive; the key itself is dropped below.
            ...(after !== undefined ? { startOffset: after } : {})
          })),
        (e) => classifyGcsError(e, prefix),
        options.signal
      )
      const resp = (raw ?? {}) as { nextPageToken?: string; prefixes?: string[] }
      const keep = (name: string): boolean => after === undefined || Buffer.compare(Buffer.from(name), Buffer.from(after)) > 0
      yield {
        objects: files.filter((f) => keep(f.name)).map((f) => this.toListed(f.metadata as GcsMetadata)),
        prefixes: (resp.prefixes ?? []).filter(keep).map((p) => p.slice(this.root.length))
      }
      pageToken = resp.nextPageToken
    } while (pageToken)
  }

  async head(key: string, signal?: AbortSignal): Promise<ListedObject> {
    signal?.throwIfAborted()
    const [m] = await withRetry(() => answerWithin(this.stallMs, () => this.file(key).getMetadata()), (e) => classifyGcsError(e, key), signal)
    return this.toListed(m as GcsMetadata)
  }

  async readRange(key: string, range: ByteRange, signal?: AbortSignal): Promise<RangeRead> {
    const obj = await this.head(key, signal)
    const start = 'suffix' in range ? Math.max(0, obj.size - range.suffix) : range.start
    const end = 'suffix' in range ? obj.size - 1 : Math.min(range.end ?? obj.size - 1, obj.size - 1)
    if (end < start) return { body: new Uint8Array(0), size: obj.size }
    const buf = await withRetry(() => this.readBytes(key, start, end, signal), (e) => classifyGcsError(e, key), signal)
    return { body: new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength), size: obj.size }
  }

  /**
   * Reads [start, end] as a stream with a stall timer: a connection cut mid-body can leave the client's
   * stream waiting forever, so silence for stallTimeoutMs, or a short body, counts as a network failure.
   */
  private get stallMs(): number {
    return this.options.stallTimeoutMs ?? 30_000
  }

  private readBytes(key: string, start: number, end: number, signal?: AbortSignal): Promise<Buffer> {
    const stallMs = this.stallMs
    return new Promise((resolve, reject) => {
      const stream = this.file(key).createReadStream({ start, end, validation: false })
      const chunks: Buffer[] = []
      let timer: NodeJS.Timeout | undefined
      const fail = (message: string): void => {
        stream.destroy(Object.assign(new Error(message), { code: 'ECONNRESET' }))
      }
      const arm = (): void => {
        clearTimeout(timer)
        timer = setTimeout(() => fail(`no data for ${stallMs} ms while reading`), stallMs)
      }
      const onAbort = (): void => {
        stream.destroy(Object.assign(new Error('Cancelled'), { name: 'AbortError' }))
      }
      signal?.addEventListener('abort', onAbort, { once: true })
      arm()
      stream.on('data', (c: Buffer) => {
        chunks.push(c)
        arm()
      })
      stream.on('error', (e) => {
        clearTimeout(timer)
        signal?.removeEventListener('abort', onAbort)
        reject(e)
      })
      stream.on('end', () => {
        clearTimeout(timer)
        signal?.removeEventListener('abort', onAbort)
        const body = Buffer.concat(chunks)
        if (body.length !== end - start + 1) reject(Object.assign(new Error(`short read: ${body.length} of ${end - start + 1} bytes`), { code: 'ECONNRESET' }))
        else resolve(body)
      })
    })
  }

  async readStream(key: string, signal?: AbortSignal): Promise<Readable> {
    await this.head(key, signal)
    return this.file(key).createReadStream({ validation: false })
  }

  async restore(key: string, _days: number, signal?: AbortSignal): Promise<'started' | 'in_progress' | 'done'> {
    // Every GCS storage class (ARCHIVE included) is read directly: there is nothing to restore.
    await this.head(key, signal)
    return 'done'
  }
}
