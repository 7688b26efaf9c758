// S3 (and S3-compatible endpoints) through @aws-sdk/client-s3. Credentials are resolved here, in main,
// and never leave it. The SDK's adaptive retry mode handles throttling (503 SlowDown, 429) and transient
// network failures with backoff and jitter; withRetry covers bodies cut off mid-read.
import {
  GetObjectCommand, HeadBucketCommand, HeadObjectCommand, ListObjectsV2Command, RestoreObjectCommand, S3Client,
  type S3ClientConfig, type _Object
} from '@aws-sdk/client-s3'
import { fromIni, fromNodeProviderChain } from '@aws-sdk/credential-providers'
import type { Readable } from 'node:stream'
import type { ListedObject, RestoreState } from '../../shared/listing'
import { classifyS3Error } from './bucket-errors'
import type { BucketProvider, ByteRange, ListOptions, ListPage, RangeRead } from './bucket-provider'
import { withRetry } from './retry'

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
}

function credentialProvider(c: S3Credentials): S3ClientConfig['credentials'] {
  switch (c.kind) {
    case 'default':
      return fromNodeProviderChain()
    case 'profile':
      return fromIni({ profile: c.profile, ...(c.configFile ? { configFilepath: c.configFile } : {}), ...(c.credentialsFile ? { filepath: c.credentialsFile } : {}) })
    case 'static':
      return { accessKeyId: c.accessKeyId, secretAccessKey: c.secretAccessKey, ...(c.sessionToken ? { sessionToken: c.sessionToken } : {}) }
  }
}

export function normalizePrefix(prefix: string | undefined): string {
  const p = (prefix ?? '').replace(/^\/+/, '')
  return p === '' || p.endsWith('/') ? p : `${p}/`
}

/** Parses S3's x-amz-restore header: ongoing-request="false", expiry-date="Fri, 21 Dec 2012 00:00:00 GMT". */
export function parseRestoreHeader(header: string | undefined): RestoreState | undefined {
  if (!header) return undefined
  const ongoing = /ongoing-request="(true|false)"/.exec(header)?.[1] === 'true'
  const expiry = /expiry-date="([^"]+)"/.exec(header)?.[1]
  return { ongoing, ...(expiry ? { expiry: new Date(expiry).toISOString() } : {}) }
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

  private makeClient(region: string): S3Client {
    const o = this.options
    return new S3Client({
      region,
      credentials: credentialProvider(o.credentials),
      ...(o.endpoint ? { endpoint: o.endpoint, forcePathStyle: true } : {}),
      maxAttempts: o.maxAttempts ?? 5,
      retryMode: 'adaptive',
      // Ask for checksums only where S3 requires them: S3-compatible servers may not know the newer ones.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED'
    })
  }

  /** The client, once the bucket's region is known (asked of S3 when not configured). */
  private async getClient(signal?: AbortSignal): Promise<S3Client> {
    if (this.client) return this.client
    this.clientPromise ??= (async () => {
      const region = this.options.region ?? (await this.findRegion(signal))
      this.resolvedRegion = region
      this.client = this.makeClient(region)
      return this.client
    })()
    try {
      return await this.clientPromise
    } catch (e) {
      this.clientPromise = null
      throw e
    }
  }

  /** The region requests are signed for: as configured, or as the bucket said. */
  async region(signal?: AbortSignal): Promise<string> {
    await this.getClient(signal)
    return this.resolvedRegion as string
  }

  /** S3 names a bucket's region in x-amz-bucket-region, even when it refuses the request (301, 403). */
  private async findRegion(signal?: AbortSignal): Promise<string> {
    const probe = this.makeClient('us-east-1')
    try {
      const out = await probe.send(new HeadBucketCommand({ Bucket: this.options.bucket }), { abortSignal: signal })
      return out.BucketRegion ?? 'us-east-1'
    } catch (e) {
      const headers = (e as { $response?: { headers?: Record<string, string> } }).$response?.headers
      const region = headers?.['x-amz-bucket-region']
      if (region) return region
      throw classifyS3Error(e, '', this.profile)
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
      ...(restore ? { restore: { ongoing: restore.IsRestoreInProgress ?? false, ...(restore.RestoreExpiryDate ? { expiry: restore.RestoreExpiryDate.toISOString() } : {}) } } : {})
    }
  }

  async *list(prefix: string, options: ListOptions = {}): AsyncIterable<ListPage> {
    const client = await this.getClient(options.signal)
    let token: string | undefined
    do {
      const out = await withRetry(
        () =>
          client.send(
            new ListObjectsV2Command({
              Bucket: this.options.bucket,
              Prefix: this.root + prefix,
              ...(options.delimiter ? { Delimiter: options.delimiter } : {}),
              ...(options.pageSize ? { MaxKeys: options.pageSize } : {}),
              ...(token ? { ContinuationToken: token } : options.startAfter ? { StartAfter: this.root + options.startAfter } : {}),
              OptionalObjectAttributes: ['RestoreStatus']
            }),
            { abortSignal: options.signal }
          ),
        (e) => classifyS3Error(e, prefix, this.profile),
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
    const out = await withRetry(() => client.send(new HeadObjectCommand({ Bucket: this.options.bucket, Key: this.root + key }), { abortSignal: signal }), (e) => classifyS3Error(e, key, this.profile), signal)
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
        const out = await client.send(new GetObjectCommand({ Bucket: this.options.bucket, Key: this.root + key, Range: header }), { abortSignal: signal })
        const body = await out.Body!.transformToByteArray()
        // A body cut short is a dropped connection, whatever the client made of it.
        if (out.ContentLength !== undefined && body.length !== out.ContentLength) throw Object.assign(new Error(`short read: ${body.length} of ${out.ContentLength} bytes`), { code: 'ECONNRESET' })
        const total = /\/(\d+)$/.exec(out.ContentRange ?? '')?.[1]
        return { body, size: total !== undefined ? Number(total) : body.length }
      },
      (e) => classifyS3Error(e, key, this.profile),
      signal
    )
  }

  async readStream(key: string, signal?: AbortSignal): Promise<Readable> {
    const client = await this.getClient(signal)
    const out = await withRetry(() => client.send(new GetObjectCommand({ Bucket: this.options.bucket, Key: this.root + key }), { abortSignal: signal }), (e) => classifyS3Error(e, key, this.profile), signal)
    return out.Body as Readable
  }

  async restore(key: string, days: number, signal?: AbortSignal): Promise<'started' | 'in_progress' | 'done'> {
    const client = await this.getClient(signal)
    try {
      const out = await client.send(new RestoreObjectCommand({ Bucket: this.options.bucket, Key: this.root + key, RestoreRequest: { Days: days, GlacierJobParameters: { Tier: 'Standard' } } }), { abortSignal: signal })
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
