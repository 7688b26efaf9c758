// A service-account key file, read and checked in main before any request, and the auth client made from it.
// Every way the file can be wrong is said by its name and the fix (the client alone says "key must be a string,
// a buffer or an object" or a decoder's code). The exchange goes to the key's own token endpoint (token_uri), as
// Google's Python and Java clients do: gtoken 7 always posts to www.googleapis.com/oauth2/v4/token, whatever the key.
import { createPrivateKey } from 'node:crypto'
import { readFile } from 'node:fs/promises'
// gaxios: google-auth-library's own HTTP client (its types only).
import type { GaxiosOptions, GaxiosPromise } from 'gaxios'
import { DefaultTransporter, JWT } from 'google-auth-library'
import { errorMessage } from '../../shared/error-message'
import { type BucketError, bucketError } from './bucket-errors'

/** Reading is all the app does: the token asks for no more. */
export const GCS_READ_SCOPE = 'https://www.googleapis.com/auth/devstorage.read_only'
/** Where a key without token_uri is exchanged (what Google writes into every key it makes). */
export const GOOGLE_TOKEN_URI = 'https://oauth2.googleapis.com/token'

const KEY_FILE_FIX = 'Choose the JSON key file of a service account (IAM → Service accounts → Keys → Add key → JSON) in the connection.'
const REFUSED_FIX =
  'The key may have been deleted or disabled, or its service account removed: create a new JSON key for it (IAM → Service accounts → Keys → Add key → JSON) and choose it in the connection.'
const UNREACHABLE_FIX = 'Check the network connection, a proxy or VPN, and the token_uri of the key file (Google’s is https://oauth2.googleapis.com/token).'

export interface ServiceAccountKey {
  readonly path: string
  readonly clientEmail: string
  readonly privateKey: string
  readonly privateKeyId?: string
  readonly projectId?: string
  readonly tokenUri: string
}

const fileError = (path: string, what: string, fix = KEY_FILE_FIX): BucketError => bucketError('auth', '', `The key file ${path} ${what}`, fix)

/** A token endpoint the signed assertion may go to: https, or plain http on this machine only (an emulator, a test). */
function tokenUriProblem(uri: string): string | null {
  let url: URL
  try {
    url = new URL(uri)
  } catch {
    return `names a token endpoint (token_uri) that is not a URL: ${uri.slice(0, 200)}`
  }
  if (url.protocol === 'https:') return null
  if (url.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname)) return null
  return `names a token endpoint (token_uri) that is not https: ${url.origin}`
}

/** Reads and checks the key file; throws an auth BucketError naming the file and saying what is wrong and what to do. */
export async function readServiceAccountKey(path: string): Promise<ServiceAccountKey> {
  let text: string
  try {
    text = await readFile(path, 'utf8')
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code
    const what =
      code === 'ENOENT'
        ? 'does not exist'
        : code === 'EISDIR'
          ? 'is a folder, not a file'
          : code === 'EACCES' || code === 'EPERM'
            ? 'cannot be read (permission denied)'
            : `cannot be read (${code ?? errorMessage(e)})`
    throw fileError(path, what)
  }
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    // Never the parser's words: they quote the file, and a key file's content is a secret.
    throw fileError(path, 'is not JSON')
  }
  const k = (json !== null && typeof json === 'object' ? json : {}) as Record<string, unknown>
  if (typeof k['client_email'] !== 'string' || typeof k['private_key'] !== 'string') {
    const type = typeof k['type'] === 'string' ? ` (its type is "${k['type'].slice(0, 40)}")` : ''
    throw fileError(path, `is not a service-account key${type}: it has no client_email and private_key`)
  }
  try {
    createPrivateKey(k['private_key'])
  } catch {
    throw fileError(path, 'holds a private_key that is not a private key (a PEM block, "-----BEGIN PRIVATE KEY-----")')
  }
  const tokenUri = typeof k['token_uri'] === 'string' ? k['token_uri'] : GOOGLE_TOKEN_URI
  const problem = tokenUriProblem(tokenUri)
  if (problem) throw fileError(path, problem)
  return {
    path,
    clientEmail: k['client_email'],
    privateKey: k['private_key'],
    ...(typeof k['private_key_id'] === 'string' ? { privateKeyId: k['private_key_id'] } : {}),
    ...(typeof k['project_id'] === 'string' ? { projectId: k['project_id'] } : {}),
    tokenUri
  }
}

const isJwtBearerExchange = (opts: GaxiosOptions): boolean =>
  opts.method === 'POST' && (opts.data as { grant_type?: unknown } | undefined)?.grant_type === 'urn:ietf:params:oauth:grant-type:jwt-bearer'

/** The token endpoint's failure in words: refused (4xx), failing (5xx) or out of reach. Never the request (it holds the signed assertion). */
function exchangeError(key: ServiceAccountKey, e: unknown): BucketError {
  const err = e as { response?: { status?: number; data?: unknown }; code?: string }
  const status = err.response?.status
  if (status !== undefined && status >= 400 && status < 500) {
    const body = (err.response?.data ?? {}) as { error?: unknown; error_description?: unknown }
    const said = [body.error, body.error_description]
      .filter((s): s is string => typeof s === 'string')
      .join(': ')
      // An endpoint may quote what it was sent: no token-like run (the assertion, a key) goes into the words.
      .replace(/[\w+/=.-]{40,}/g, '…')
      .slice(0, 200)
    return bucketError('auth', '', `The key file ${key.path} was refused by its token endpoint ${key.tokenUri} (${said || `status ${status}`})`, REFUSED_FIX)
  }
  if (status !== undefined)
    return bucketError('network', '', `The key file ${key.path}: its token endpoint ${key.tokenUri} failed to answer (status ${status})`, UNREACHABLE_FIX)
  return bucketError(
    'network',
    '',
    `The key file ${key.path}: its token endpoint ${key.tokenUri} cannot be reached (${err.code ?? errorMessage(e).slice(0, 100)})`,
    UNREACHABLE_FIX
  )
}

/** Sends the JWT-bearer exchange to the key's token_uri, within a timeout, and says its failures by the file's name. */
class KeyTokenTransporter extends DefaultTransporter {
  constructor(
    private readonly key: ServiceAccountKey,
    private readonly timeoutMs: number
  ) {
    super()
  }

  override request<T>(opts: GaxiosOptions): GaxiosPromise<T> {
    if (!isJwtBearerExchange(opts)) return super.request<T>(opts)
    return super.request<T>({ ...opts, url: this.key.tokenUri, timeout: this.timeoutMs }).catch((e: unknown) => {
      throw exchangeError(this.key, e)
    })
  }
}

/** The client that signs the key's JWT (RS256, audience its token endpoint, read-only scope) and exchanges it for a token. */
export function keyFileAuthClient(key: ServiceAccountKey, timeoutMs: number): JWT {
  return new JWT({
    email: key.clientEmail,
    key: key.privateKey,
    ...(key.privateKeyId ? { keyId: key.privateKeyId } : {}),
    scopes: [GCS_READ_SCOPE],
    // RFC 7523: the audience is the endpoint the assertion is for (gtoken would name its own fixed one).
    additionalClaims: { aud: key.tokenUri },
    transporter: new KeyTokenTransporter(key, timeoutMs)
  })
}
