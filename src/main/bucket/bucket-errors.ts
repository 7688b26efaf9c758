// Classifies provider failures into the few kinds a user can act on, each with the key and the fix.
import { durationText } from '../../shared/durations'

export type BucketErrorKind = 'auth' | 'expired_session' | 'denied' | 'not_found' | 'archived' | 'throttled' | 'network' | 'timeout' | 'cancelled' | 'other'

export class BucketError extends Error {
  constructor(
    readonly kind: BucketErrorKind,
    /** The key (or prefix) the failing call was about; empty for the bucket itself. */
    readonly key: string,
    message: string,
    /** What the user can do about it. */
    readonly fix: string
  ) {
    super(message)
    this.name = 'BucketError'
  }

  /** One line for the user: what happened, where, and what to do. */
  get userMessage(): string {
    return `${this.message.replace(/\.+$/, '')}${this.key ? ` (${this.key})` : ''}. ${this.fix}`
  }
}

const FIX: Record<BucketErrorKind, string> = {
  auth: 'Check the credentials of this connection (keys, profile or key file) and test the connection again.',
  expired_session: 'Sign in again, then refresh.',
  denied:
    'Your credentials may not read this part of the bucket; ask its owner for read access (s3:GetObject and s3:ListBucket, or storage.objects.get and storage.objects.list).',
  not_found: 'It may have been removed by retention or not delivered yet; refresh the listing.',
  archived: 'It is in an archive storage class: start a restore and read it when the restore has finished.',
  throttled: 'The provider is slowing requests down; the app retried. Try again in a minute.',
  network: 'Check the network connection and the endpoint, then try again.',
  timeout: 'The server stopped answering: check the network connection, a proxy or VPN, and the endpoint, then try again.',
  cancelled: 'Cancelled by you.',
  other: 'Try again; if it persists, report it with this message.'
}

export function bucketError(kind: BucketErrorKind, key: string, message: string, fix: string = FIX[kind]): BucketError {
  return new BucketError(kind, key, message, fix)
}

const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT'
])

function isAbort(e: { name?: string; code?: string }): boolean {
  return e.name === 'AbortError' || e.code === 'ABORT_ERR'
}

/** What a request that waited too long says: which wait, how long, and about which key. */
export function timeoutError(key: string, what: 'connect' | 'idle', ms?: number): BucketError {
  const s = !ms ? null : durationText(ms)
  if (what === 'connect') return bucketError('timeout', key, s ? `Could not connect to the server within ${s}` : 'Could not connect to the server in time')
  return bucketError('timeout', key, s ? `The server sent nothing for ${s}` : 'The server did not answer in time')
}

/**
 * Whether an error is a request that waited too long: a timeout of @smithy/node-http-handler (connect, socket
 * idle; renamed RequestTimedOut by the S3 provider), node-fetch's (GCS), AbortSignal.timeout's, the system's.
 * smithy also names a reset or broken connection "TimeoutError": those are dropped connections, not timeouts.
 */
export function isTimeout(e: unknown): boolean {
  const x = (e ?? {}) as { name?: string; code?: string; type?: string }
  if (x.code === 'ECONNRESET' || x.code === 'EPIPE') return false
  return (
    x.name === 'RequestTimedOut' || x.name === 'TimeoutError' || x.code === 'ETIMEDOUT' || x.code === 'UND_ERR_CONNECT_TIMEOUT' || x.type === 'request-timeout'
  )
}

/** A timeout as a BucketError, with the wait it exceeded when the message says. */
function asTimeout(e: { name?: string; code?: string; message?: string }, key: string): BucketError | null {
  if (!isTimeout(e)) return null
  const msg = e.message ?? ''
  const ms = Number(/(\d+) ?ms\b/.exec(msg)?.[1] ?? 0)
  return timeoutError(key, /establish a connection|connect/i.test(msg) ? 'connect' : 'idle', ms)
}

/** Classifies an AWS SDK v3 error. */
export function classifyS3Error(err: unknown, key: string, profile?: string): BucketError {
  if (err instanceof BucketError) return err
  const e = (err ?? {}) as { name?: string; code?: string; message?: string; Code?: string; $metadata?: { httpStatusCode?: number } }
  const name = e.name ?? e.Code ?? ''
  const status = e.$metadata?.httpStatusCode
  const msg = e.message ?? String(err)
  if (isAbort(e)) return bucketError('cancelled', key, 'Cancelled')
  const timedOut = asTimeout(e, key)
  if (timedOut) return timedOut
  if (/sso/i.test(msg) && /expired|refresh|login/i.test(msg)) {
    const p = profile ?? 'NAME'
    return bucketError('expired_session', key, `The AWS SSO session of profile "${p}" has expired`, `Run \`aws sso login --profile ${p}\`, then refresh.`)
  }
  if (name === 'ExpiredToken' || name === 'ExpiredTokenException' || name === 'TokenRefreshRequired')
    return bucketError(
      'expired_session',
      key,
      'The AWS session token has expired',
      profile
        ? `Run \`aws sso login --profile ${profile}\` (or renew the session of profile "${profile}"), then refresh.`
        : 'Renew the session credentials, then refresh.'
    )
  if (name === 'CredentialsProviderError' || /Could not load credentials|credential_process|Unable to locate credentials/i.test(msg))
    return bucketError('auth', key, `No AWS credentials could be loaded: ${msg}`)
  if (name === 'InvalidAccessKeyId' || name === 'SignatureDoesNotMatch' || name === 'InvalidToken')
    return bucketError('auth', key, `AWS rejected the credentials (${name})`)
  if (name === 'InvalidObjectState') return bucketError('archived', key, 'The object is in an archive storage class and has not been restored')
  if (name === 'AccessDenied' || name === 'AllAccessDisabled' || status === 403) return bucketError('denied', key, 'Access denied')
  if (name === 'NoSuchKey' || name === 'NotFound' || name === 'NoSuchBucket' || status === 404)
    return bucketError('not_found', key, name === 'NoSuchBucket' ? 'The bucket does not exist' : 'Not found')
  if (name === 'SlowDown' || name === 'Throttling' || name === 'ThrottlingException' || name === 'TooManyRequestsException' || status === 503 || status === 429)
    return bucketError('throttled', key, `Throttled by the provider (${name || status})`)
  if (NETWORK_CODES.has(e.code ?? '') || NETWORK_CODES.has(name) || /socket hang up|ECONNRESET|ECONNREFUSED|network/i.test(msg))
    return bucketError('network', key, `Network error: ${msg}`)
  return bucketError('other', key, `${name || 'Error'}: ${msg}`)
}

/** Classifies an error of @google-cloud/storage (an ApiError with a numeric code, or a system error). */
export function classifyGcsError(err: unknown, key: string): BucketError {
  if (err instanceof BucketError) return err
  const e = (err ?? {}) as { name?: string; code?: number | string; message?: string }
  const msg = e.message ?? String(err)
  if (isAbort(e as { name?: string; code?: string })) return bucketError('cancelled', key, 'Cancelled')
  const timedOut = asTimeout(e as { name?: string; code?: string; message?: string }, key)
  if (timedOut) return timedOut
  if (/invalid_grant|reauth|Reauthentication|token has been expired or revoked/i.test(msg))
    return bucketError('expired_session', key, 'The Google sign-in has expired', 'Run `gcloud auth application-default login`, then refresh.')
  if (/Could not load the default credentials|Unable to detect a Project Id|private key|client_email/i.test(msg))
    return bucketError(
      'auth',
      key,
      `No usable Google credentials: ${msg}`,
      'Run `gcloud auth application-default login`, or choose a service-account key file for this connection.'
    )
  if (e.code === 401) return bucketError('auth', key, 'Google rejected the credentials')
  if (e.code === 403) return bucketError('denied', key, 'Access denied')
  if (e.code === 404) return bucketError('not_found', key, 'Not found')
  if (e.code === 429 || e.code === 503) return bucketError('throttled', key, `Throttled by the provider (${e.code})`)
  // Transient server errors, retried as a dropped connection would be (the GCS client's own list).
  if (e.code === 408 || e.code === 500 || e.code === 502 || e.code === 504) return bucketError('network', key, `The provider failed to answer (${e.code})`)
  if (NETWORK_CODES.has(String(e.code ?? '')) || /socket hang up|ECONNRESET|ECONNREFUSED/i.test(msg))
    return bucketError('network', key, `Network error: ${msg}`)
  return bucketError('other', key, msg)
}

/** Classifies a file-system error of the local-folder provider. */
export function classifyFsError(err: unknown, key: string): BucketError {
  if (err instanceof BucketError) return err
  const e = (err ?? {}) as { code?: string; message?: string; name?: string }
  if (isAbort(e)) return bucketError('cancelled', key, 'Cancelled')
  if (e.code === 'ENOENT' || e.code === 'ENOTDIR') return bucketError('not_found', key, 'Not found')
  if (e.code === 'EACCES' || e.code === 'EPERM') return bucketError('denied', key, 'Permission denied', 'Check that your user may read this folder.')
  return bucketError('other', key, e.message ?? String(err))
}
