// S3 (and S3-compatible endpoints) through @aws-sdk/client-s3. Credentials are resolved here, in main,
// and never leave it. The SDK's adaptive retry mode handles throttling (503 SlowDown, 429) and transient
// network failures with backoff and jitter; withRetry covers bodies cut off mid-read. Every request has a
// connect and an idle timeout (the SDK's request handler has none by default) and honours its signal.
import {
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  RestoreObjectCommand,
  S3Client,
  type S3ClientConfig,
  type _Object
} from '@aws-sdk/client-s3'
import { fromIni, fromNodeProviderChain } from '@aws-sdk/credential-providers'
import { NodeHttpHandler } from '@smithy/node-http-handler'
import type { Socket } from 'node:net'
import type { Readable } from 'node:stream'
import type { ListedObject, RestoreState } from '../../shared/listing'
import type { RestoreTier } from '../../shared/restore-plan'
import { type BucketError, bucketError, classifyS3Error, isTimeout } from './bucket-errors'
import { abortable } from './bounded-wait'
import {
  type BucketProvider,
  type ByteRange,
  DEFAULT_TIMEOUTS,
  type ListOptions,
  type ListPage,
  type RangeRead,
  type RequestTimeouts,
  normalizePrefix
} from './bucket-provider'
import { guardStream } from './guarded-stream'
import { withRetry } from './retry'
import { errorMessage } from '../../shared/error-message'

export type S3Credentials =
  /** The default AWS chain: environment, shared config and credentials files (SSO, credential_process), instance roles. */
  | { readonly kind: 'default' }
  /**
   * A named profile of the user's AWS config (SSO and credential_process profiles included). configFile moves
   * the config for plain and credential_process profiles; SSO profiles are resolved by the SDK from the
   * standard location, which AWS_CONFIG_FILE moves.
   */
  | { readonly kind: 'profile'; readonly profile: string; readonly configFile?: string; readonly credentialsFile?: string }
  | { readonly kind: 'static'; readonly accessKeyId: string; readonly secretAccessKey: string; readonly sessionToken?: string }

export interface S3ConnectionOptions {
  readonly bucket: string
  /** Root of the export inside the bucket ("" or ending with "/"). */
  readonly prefix?: string
  /** Found from the bucket when omitted. */
  readonly region?: string
  /** A custom endpoint (S3-compatible storage); addressed path-style. */
  readonly endpoint?: string
  readonly credentials: S3Credentials
  /** Attempts per request, retries included (SDK adaptive mode). */
  readonly maxAttempts?: number
  /** Connect and idle timeouts (DEFAULT_TIMEOUTS for what is omitted). */
  readonly timeouts?: Partial<RequestTimeouts>
}

/** No pool limit (the SDK's is 50): smithy's connect timer counts from the send, a wait for a free socket
 * included, so a queue behind long downloads would fail as "could not connect". The app bounds its own
 * concurrency (64 listings, 32 manifest reads, the file store's downloads). */
const MAX_SOCKETS = Infinity

type Next = (args: unknown) => Promise<{ response?: unknown }>

/**
 * A call's abort signal rides on its command's input, not in the send's options: the client resolves each command's
 * middleware once and reuses it (cacheMiddleware: ~0.3 ms of CPU a request, and a cold year sends 26,000), which it
 * does only for sends without options. signalToRequest moves it onto the request each attempt signs, and
 * SignalledHttpHandler gives it to the HTTP handler, which ends the request on abort as it did with the option.
 */
const SIGNAL = Symbol('abortSignal')
type Signalled = { [SIGNAL]?: AbortSignal }

/** The command, its input carrying the call's signal. */
function signalled<C extends { readonly input: object }>(command: C, signal: AbortSignal | undefined): C {
  if (signal) (command.input as Signalled)[SIGNAL] = signal
  return command
}

/** Innermost (deserialize step, low priority): the request here is the copy the HTTP handler gets. */
const signalToRequest =
  (next: Next) =>
  (args: unknown): Promise<unknown> => {
    const a = args as { input?: Signalled; request?: Signalled }
    const signal = a.input?.[SIGNAL]
    if (signal && a.request) a.request[SIGNAL] = signal
    return next(args)
  }

/** Smithy's Node HTTP handler, given the signal its request carries. */
class SignalledHttpHandler extends NodeHttpHandler {
  override handle(...[request, options]: Parameters<NodeHttpHandler['handle']>): ReturnType<NodeHttpHandler['handle']> {
    const signal = (request as Signalled)[SIGNAL]
    return super.handle(request, signal ? { ...options, abortSignal: signal } : options)
  }
}

/**
 * Makes a timeout final: the SDK would retry it (maxAttempts times the idle timeout before an answer), while
 * a server silent for a whole idle timeout is rather down or blocked (retry.ts). Added just inside the retry
 * middleware (finalizeRequest step), so it sees timeouts of the request and of reading an error's body.
 */
const timeoutsAreFinal =
  (next: Next) =>
  async (args: unknown): Promise<unknown> => {
    try {
      return await next(args)
    } catch (e) {
      if (isTimeout(e)) throw Object.assign(new Error(errorMessage(e)), { name: 'RequestTimedOut' })
      throw e
    }
  }

/**
 * The body of a successful GetObject is read by the caller through guardStream (guarded-stream.ts), whose idle
 * timer tells a silent server from a slow reader. The socket's own idle timer cannot (the socket is idle while
 * a reader holds the body back): switched off as soon as the headers arrive, next to the handler.
 */
const objectBodyIdleByGuard =
  (next: Next, context: { commandName?: string }) =>
  async (args: unknown): Promise<unknown> => {
    const out = await next(args)
    const res = out.response as { statusCode?: number; body?: { socket?: Socket | null } } | undefined
    if (context.commandName === 'GetObjectCommand' && res?.statusCode !== undefined && res.statusCode < 300) res.body?.socket?.setTimeout(0)
    return out
  }

function credentialProvider(c: S3Credentials): S3ClientConfig['credentials'] {
  switch (c.kind) {
    case 'default':
      return fromNodeProviderChain()
    case 'profile':
      return fromIni({
        profile: c.profile,
        ...(c.configFile ? { configFilepath: c.configFile } : {}),
        ...(c.credentialsFile ? { filepath: c.credentialsFile } : {})
      })
    case 'static':
      return { accessKeyId: c.accessKeyId, secretAccessKey: c.secretAccessKey, ...(c.sessionToken ? { sessionToken: c.sessionToken } : {}) }
  }
}

/** Parses S3's x-amz-restore header: ongoing-request="false", expiry-date="Fri, 21 Dec 2012 00:00:00 GMT". */
export function parseRestoreHeader(header: string | undefined): RestoreState | undefined {
  if (!header) return undefined
  const ongoing = /ongoing-request="(true|false)"/.exec(header)?.[1] === 'true'
  const expiry = /expiry-date="([^"]+)"/.exec(header)?.[1]
  return { ongoing, ...(expiry ? { expiry: new Date(expiry).toISOString() } : {}) }
}

/** The region S3 names in x-amz-bucket-region, even on a refusal (301, 403). */
function bucketRegionHeader(e: unknown): string | undefined {
  return (e as { $response?: { headers?: Record<string, string> } }).$response?.headers?.['x-amz-bucket-region']
}

export class S3Provider implements BucketProvider {
  readonly location: string
  private readonly root: string
  private client: S3Client | null = null
  private resolvedRegion: string | null = null
  private clientPromise: Promise<S3Client> | null = null

  constructor(private readonly options: S3ConnectionOptions) {
    this.root = normalizePrefix(options.prefix)
    this.location = `s3://${options.bucket}/${this.root}`
  }

  private get profile(): string | undefined {
    return this.options.credentials.kind === 'profile' ? this.options.credentials.profile : process.env['AWS_PROFILE']
  }

  private get timeouts(): RequestTimeouts {
    return { ...DEFAULT_TIMEOUTS, ...this.options.timeouts }
  }

  private makeClient(region: string): S3Client {
    const o = this.options
    const t = this.timeouts
    const client = new S3Client({
      region,
      credentials: credentialProvider(o.credentials),
      ...(o.endpoint ? { endpoint: o.endpoint, forcePathStyle: true } : {}),
      maxAttempts: o.maxAttempts ?? 5,
      retryMode: 'adaptive',
      // socketTimeout is the idle timeout of @smithy/node-http-handler 4 (waiting for the answer and between
      // chunks of the bodies the SDK reads itself). Its requestTimeout (up to the headers) is not needed then.
      requestHandler: new SignalledHttpHandler({
        connectionTimeout: t.connectMs,
        socketTimeout: t.idleMs,
        httpAgent: { keepAlive: true, maxSockets: MAX_SOCKETS },
        httpsAgent: { keepAlive: true, maxSockets: MAX_SOCKETS }
      }),
      // Each command's middleware resolved once; no send passes options (a signal rides on the input: signalled).
      cacheMiddleware: true,
      // Ask for checksums only where S3 requires them: S3-compatible servers may not know the newer ones.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED'
    })
    client.middlewareStack.add(timeoutsAreFinal as never, { step: 'finalizeRequest', name: 'timeoutsAreFinal' })
    client.middlewareStack.add(objectBodyIdleByGuard as never, { step: 'deserialize', priority: 'low', name: 'objectBodyIdleByGuard' })
    client.middlewareStack.add(signalToRequest as never, { step: 'deserialize', priority: 'low', name: 'signalToRequest' })
    return client
  }

  /** The client, once the bucket's region is known (asked of S3 when not configured). The question is shared by
   * every caller, so it does not take one caller's signal (its timeouts bound it); each caller waits abortably. */
  private async getClient(signal?: AbortSignal): Promise<S3Client> {
    if (this.client) return this.client
    this.clientPromise ??= (async () => {
      const region = this.options.region ?? (await this.findRegion())
      this.resolvedRegion = region
      this.client = this.makeClient(region)
      return this.client
    })()
    const pending = this.clientPromise
    try {
      return await abortable(pending, signal, () => bucketError('cancelled', '', 'Cancelled'))
    } catch (e) {
      if (this.clientPromise === pending && !signal?.aborted) this.clientPromise = null
      throw e
    }
  }

  /** The region requests are signed for: as configured, or as the bucket said. */
  async region(signal?: AbortSignal): Promise<string> {
    await this.getClient(signal)
    return this.resolvedRegion as string
  }

  /** S3 names a bucket's region in x-amz-bucket-region, even when it refuses the request (301, 403). */
  private async findRegion(): Promise<string> {
    const probe = this.makeClient('us-east-1')
    try {
      const out = await probe.send(new HeadBucketCommand({ Bucket: this.options.bucket }))
      return out.BucketRegion ?? 'us-east-1'
    } catch (e) {
      const region = bucketRegionHeader(e)
      if (region) return region
      // A HEAD answer has no body, so a 403 cannot say why: wrong keys (InvalidAccessKeyId) or a refusal. A one-key
      // listing says it in its body (and names the region too, when that was all that was wrong).
      if ((e as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode !== 403) throw classifyS3Error(e, '', this.profile)
      try {
        await probe.send(new ListObjectsV2Command({ Bucket: this.options.bucket, MaxKeys: 1 }))
        return 'us-east-1'
      } catch (listed) {
        const named = bucketRegionHeader(listed)
        if (named) return named
        throw classifyS3Error(listed, '', this.profile)
      }
    } finally {
      probe.destroy()
    }
  }

  private toListed(o: _Object): ListedObject {
    const restore = o.RestoreStatus
    return {
      key: (o.Key ?? '').slice(this.root.length),
      size: o.Size ?? 0,
      lastModified: (o.LastModified ?? new Date(0)).toISOString(),
      ...(o.ETag ? { etag: o.ETag } : {}),
      storageClass: o.StorageClass ?? 'STANDARD',
      ...(restore
        ? {
            restore: {
              ongoing: restore.IsRestoreInProgress ?? false,
              ...(restore.RestoreExpiryDate ? { expiry: restore.RestoreExpiryDate.toISOString() } : {})
            }
          }
        : {})
    }
  }

  /** Where requests go, for a message: the configured endpoint, or AWS's in the bucket's region. */
  private get endpointName(): string {
    return this.options.endpoint ?? `AWS S3 (${this.resolvedRegion ?? this.options.region ?? 'region not known yet'})`
  }

  /**
   * A listing that timed out or lost its connection says so, with the bucket and the endpoint: it ends up as the
   * reason a table has no view (an export's error), where the bare "sent nothing" would not say what was waited for.
   */
  private listingError(e: BucketError): BucketError {
    if (e.kind !== 'timeout' && e.kind !== 'network') return e
    const what = e.kind === 'timeout' ? 'timed out' : 'failed'
    return bucketError(e.kind, e.key, `Listing ${this.location} at ${this.endpointName} ${what}. ${e.message}`, e.fix)
  }

  async *list(prefix: string, options: ListOptions = {}): AsyncIterable<ListPage> {
    const client = await this.getClient(options.signal).catch((e: unknown) => {
      throw this.listingError(classifyS3Error(e, prefix, this.profile))
    })
    let token: string | undefined
    do {
      const out = await withRetry(
        () =>
          client.send(
            signalled(
              new ListObjectsV2Command({
                Bucket: this.options.bucket,
                Prefix: this.root + prefix,
                ...(options.delimiter ? { Delimiter: options.delimiter } : {}),
                ...(options.pageSize ? { MaxKeys: options.pageSize } : {}),
                ...(token ? { ContinuationToken: token } : options.startAfter ? { StartAfter: this.root + options.startAfter } : {}),
                OptionalObjectAttributes: ['RestoreStatus']
              }),
              options.signal
            )
          ),
        (e) => this.listingError(classifyS3Error(e, prefix, this.profile)),
        options.signal
      )
      yield {
        objects: (out.Contents ?? []).map((o) => this.toListed(o)),
        prefixes: (out.CommonPrefixes ?? []).map((p) => (p.Prefix ?? '').slice(this.root.length))
      }
      token = out.IsTruncated ? out.NextContinuationToken : undefined
    } while (token)
  }

  async head(key: string, signal?: AbortSignal): Promise<ListedObject> {
    const client = await this.getClient(signal)
    const out = await withRetry(
      () => client.send(signalled(new HeadObjectCommand({ Bucket: this.options.bucket, Key: this.root + key }), signal)),
      (e) => classifyS3Error(e, key, this.profile),
      signal
    )
    const restore = parseRestoreHeader(out.Restore)
    return {
      key,
      size: out.ContentLength ?? 0,
      lastModified: (out.LastModified ?? new Date(0)).toISOString(),
      ...(out.ETag ? { etag: out.ETag } : {}),
      storageClass: out.StorageClass ?? 'STANDARD',
      ...(restore ? { restore } : {})
    }
  }

  async readRange(key: string, range: ByteRange, signal?: AbortSignal): Promise<RangeRead> {
    const client = await this.getClient(signal)
    const header = 'suffix' in range ? `bytes=-${range.suffix}` : `bytes=${range.start}-${range.end ?? ''}`
    return withRetry(
      async () => {
        const out = await client.send(signalled(new GetObjectCommand({ Bucket: this.options.bucket, Key: this.root + key, Range: header }), signal))
        const chunks: Buffer[] = []
        for await (const c of this.guardedBody(key, out.Body, signal)) chunks.push(c as Buffer)
        const body = new Uint8Array(Buffer.concat(chunks))
        // A body cut short is a dropped connection, whatever the client made of it.
        if (out.ContentLength !== undefined && body.length !== out.ContentLength)
          throw Object.assign(new Error(`short read: ${body.length} of ${out.ContentLength} bytes`), { code: 'ECONNRESET' })
        const total = /\/(\d+)$/.exec(out.ContentRange ?? '')?.[1]
        return { body, size: total !== undefined ? Number(total) : body.length }
      },
      (e) => classifyS3Error(e, key, this.profile),
      signal
    )
  }

  /** An object's body, guarded (its socket's idle timer is off: objectBodyIdleByGuard). */
  private guardedBody(key: string, body: unknown, signal?: AbortSignal): Readable {
    return guardStream(body as Readable, { key, idleMs: this.timeouts.idleMs, signal, classify: (e) => classifyS3Error(e, key, this.profile) })
  }

  async readStream(key: string, signal?: AbortSignal): Promise<Readable> {
    const client = await this.getClient(signal)
    const out = await withRetry(
      () => client.send(signalled(new GetObjectCommand({ Bucket: this.options.bucket, Key: this.root + key }), signal)),
      (e) => classifyS3Error(e, key, this.profile),
      signal
    )
    return this.guardedBody(key, out.Body, signal)
  }

  async restore(key: string, days: number, tier: RestoreTier, signal?: AbortSignal): Promise<'started' | 'in_progress' | 'done'> {
    const client = await this.getClient(signal)
    try {
      signal?.throwIfAborted()
      const out = await client.send(
        signalled(
          new RestoreObjectCommand({ Bucket: this.options.bucket, Key: this.root + key, RestoreRequest: { Days: days, GlacierJobParameters: { Tier: tier } } }),
          signal
        )
      )
      return out.$metadata.httpStatusCode === 200 ? 'done' : 'started'
    } catch (e) {
      if ((e as { name?: string }).name === 'RestoreAlreadyInProgress') return 'in_progress'
      throw classifyS3Error(e, key, this.profile)
    }
  }

  close(): void {
    this.client?.destroy()
  }
}
