// Google Cloud Storage through @google-cloud/storage (7.x: the 8.x line needs Node 22). Credentials are
// Application Default Credentials or a service-account key file (gcs-key-file.ts), resolved here in main. withRetry retries
// 429, 5xx and dropped connections with backoff and jitter (the client's own retries are off: see below).
// The client takes no AbortSignal: each call is awaited abortably and within its timeouts (the client's own
// per-request timeout then ends the request left behind), and each body stream is guarded (guarded-stream.ts).
import { type File, Storage } from '@google-cloud/storage'
import type { Readable } from 'node:stream'
import type { ListedObject } from '../../shared/listing'
import type { RestoreTier } from '../../shared/restore-plan'
import { BucketError, bucketError, classifyGcsError, timeoutError } from './bucket-errors'
import { abortable, within } from './bounded-wait'
import { type BucketProvider, type ByteRange, DEFAULT_TIMEOUTS, type ListOptions, type ListPage, type RangeRead, type RequestTimeouts } from './bucket-provider'
import { guardStream } from './guarded-stream'
import { keyFileAuthClient, readServiceAccountKey } from './gcs-key-file'
import { withRetry } from './retry'
import { normalizePrefix } from './bucket-provider'

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
  /** Connect and idle timeouts (DEFAULT_TIMEOUTS for what is omitted). */
  readonly timeouts?: Partial<RequestTimeouts>
}

interface GcsMetadata {
  name?: string
  size?: string | number
  updated?: string
  generation?: string | number
  etag?: string
  storageClass?: string
}

export class GcsProvider implements BucketProvider {
  readonly location: string
  private readonly root: string
  private storageReady: Promise<Storage> | null = null

  private readonly timeouts: RequestTimeouts

  constructor(private readonly options: GcsConnectionOptions) {
    this.root = normalizePrefix(options.prefix)
    this.location = `gs://${options.bucket}/${this.root}`
    this.timeouts = { ...DEFAULT_TIMEOUTS, ...options.timeouts }
  }

  /** The client, once the key file (if any) has been read and checked: a bad one is said by name before any request.
   * A failure is not kept, so a file put right is read on the next call. */
  private storage(): Promise<Storage> {
    this.storageReady ??= this.makeStorage().catch((e: unknown) => {
      this.storageReady = null
      throw e
    })
    return this.storageReady
  }

  private async makeStorage(): Promise<Storage> {
    const { options, timeouts } = this
    const c = options.credentials
    const requestMs = timeouts.connectMs + timeouts.idleMs
    const key = c.kind === 'key_file' ? await readServiceAccountKey(c.keyFile) : null
    const projectId = options.projectId ?? key?.projectId
    return new Storage({
      // Per HTTP request, up to its answer's headers (node-fetch's timeout: connect included, body not).
      timeout: requestMs,
      ...(projectId ? { projectId } : {}),
      ...(options.endpoint ? { apiEndpoint: options.endpoint, useAuthWithCustomEndpoint: c.kind !== 'none' } : {}),
      ...(key ? { authClient: keyFileAuthClient(key, requestMs) } : {}),
      // Retries are ours (withRetry), not the client's: it retries every request error, timeouts included, out of
      // reach of any signal (measured: a silent server held one call 30 s and 5 connections with a 1.5 s timeout).
      retryOptions: { autoRetry: false }
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

  private async file(key: string): Promise<File> {
    return (await this.storage()).bucket(this.options.bucket).file(this.root + key)
  }

  async *list(prefix: string, options: ListOptions = {}): AsyncIterable<ListPage> {
    const bucket = (await this.storage()).bucket(this.options.bucket)
    const after = options.startAfter !== undefined ? this.root + options.startAfter : undefined
    let pageToken: string | undefined
    do {
      const [files, , raw] = await this.retried(
        () =>
          this.bounded(
            prefix,
            options.signal,
            bucket.getFiles({
              prefix: this.root + prefix,
              autoPaginate: false,
              ...(options.delimiter ? { delimiter: options.delimiter } : {}),
              ...(options.pageSize ? { maxResults: options.pageSize } : {}),
              ...(pageToken ? { pageToken } : {}),
              // startOffset is inclusive; the key itself is dropped below.
              ...(after !== undefined ? { startOffset: after } : {})
            })
          ),
        prefix,
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

  /**
   * withRetry, and one more attempt after a timeout: the client (node-fetch 2) can miss a connection cut
   * mid-answer, which then looks exactly like a silent server; a second silence is final (retry.ts).
   */
  private async retried<T>(run: () => Promise<T>, key: string, signal: AbortSignal | undefined): Promise<T> {
    const attempt = (): Promise<T> => withRetry(run, (e) => classifyGcsError(e, key), signal)
    try {
      return await attempt()
    } catch (e) {
      if (!(e instanceof BucketError) || e.kind !== 'timeout' || signal?.aborted) throw e
      return attempt()
    }
  }

  /**
   * A call of the client, awaited no longer than the signal allows nor than its timeouts (the client's own
   * timeout can miss a connection cut mid-answer). The signal is checked first: the client starts a request
   * even when told nothing.
   */
  private bounded<T>(key: string, signal: AbortSignal | undefined, work: Promise<T>): Promise<T> {
    const cancelled = (): BucketError => bucketError('cancelled', key, 'Cancelled')
    if (signal?.aborted) {
      // Nothing lost: the caller gets the cancellation instead; the client's request may still reject, unheard.
      work.catch(() => {})
      return Promise.reject(cancelled())
    }
    return abortable(
      within(work, this.timeouts.connectMs + this.timeouts.idleMs, () => timeoutError(key, 'idle', this.timeouts.connectMs + this.timeouts.idleMs)),
      signal,
      cancelled
    )
  }

  async head(key: string, signal?: AbortSignal): Promise<ListedObject> {
    const [m] = await this.retried(
      () =>
        this.bounded(
          key,
          signal,
          this.file(key).then((f) => f.getMetadata())
        ),
      key,
      signal
    )
    return this.toListed(m as GcsMetadata)
  }

  async readRange(key: string, range: ByteRange, signal?: AbortSignal): Promise<RangeRead> {
    const obj = await this.head(key, signal)
    const start = 'suffix' in range ? Math.max(0, obj.size - range.suffix) : range.start
    const end = 'suffix' in range ? obj.size - 1 : Math.min(range.end ?? obj.size - 1, obj.size - 1)
    if (end < start) return { body: new Uint8Array(0), size: obj.size }
    const buf = await this.retried(() => this.readBytes(key, start, end, signal), key, signal)
    return { body: new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength), size: obj.size }
  }

  /** Reads [start, end]; a short body counts as a dropped connection (retried), silence as a timeout. */
  private async readBytes(key: string, start: number, end: number, signal?: AbortSignal): Promise<Buffer> {
    const chunks: Buffer[] = []
    for await (const c of this.guarded(key, (await this.file(key)).createReadStream({ start, end, validation: false }), signal)) chunks.push(c as Buffer)
    const body = Buffer.concat(chunks)
    if (body.length !== end - start + 1) throw Object.assign(new Error(`short read: ${body.length} of ${end - start + 1} bytes`), { code: 'ECONNRESET' })
    return body
  }

  private guarded(key: string, stream: Readable, signal?: AbortSignal): Readable {
    // The stream makes its request when read: its first chunk waits for the connection and the answer too.
    return guardStream(stream, {
      key,
      idleMs: this.timeouts.idleMs,
      firstMs: this.timeouts.connectMs + this.timeouts.idleMs,
      signal,
      classify: (e) => classifyGcsError(e, key)
    })
  }

  async readStream(key: string, signal?: AbortSignal): Promise<Readable> {
    await this.head(key, signal)
    return this.guarded(key, (await this.file(key)).createReadStream({ validation: false }), signal)
  }

  async restore(key: string, _days: number, _tier: RestoreTier, signal?: AbortSignal): Promise<'started' | 'in_progress' | 'done'> {
    // Every GCS storage class (ARCHIVE included) is read directly: there is nothing to restore.
    await this.head(key, signal)
    return 'done'
  }
}
