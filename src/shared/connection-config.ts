// A saved connection: where the export is and how to reach it. Secrets are never part of it: a static
// secret key is kept in the secret store under `secretRef`.

export type S3Auth =
  | { readonly kind: 'default' }
  | { readonly kind: 'profile'; readonly profile: string }
  | { readonly kind: 'static'; readonly accessKeyId: string; readonly secretRef: string }

export type GcsAuth = { readonly kind: 'adc' } | { readonly kind: 'key_file'; readonly keyFile: string } | { readonly kind: 'none' }

export type ConnectionConfig =
  | {
      readonly id: string
      readonly name: string
      readonly provider: 's3'
      readonly bucket: string
      readonly prefix: string
      readonly region?: string
      readonly endpoint?: string
      readonly auth: S3Auth
    }
  | {
      readonly id: string
      readonly name: string
      readonly provider: 'gcs'
      readonly bucket: string
      readonly prefix: string
      readonly endpoint?: string
      readonly projectId?: string
      readonly auth: GcsAuth
    }
  | { readonly id: string; readonly name: string; readonly provider: 'local'; readonly path: string }

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)
/** A non-empty string of at most `max` characters. */
const str = (v: unknown, max = 1024): v is string => typeof v === 'string' && v.length > 0 && v.length <= max
const optStr = (v: unknown, max = 1024): boolean => v === undefined || (typeof v === 'string' && v.length <= max)

/** A connection id: it names folders (blocks/<id>) and secrets (s3-secret-<id>), so never "..", a slash, or long. */
export const CONNECTION_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/
export const isConnectionId = (v: unknown): v is string => typeof v === 'string' && CONNECTION_ID.test(v)
const SECRET_REF = /^[A-Za-z0-9][A-Za-z0-9_-]{0,99}$/

/** An http(s) endpoint without user:password@ (a secret in a URL would be saved in plain text). No URL class here: src/shared has neither DOM nor Node. */
function endpointProblem(v: unknown): string | null {
  if (v === undefined) return null
  const m = /^https?:\/\/([^/?#]*)/.exec(v as string)
  if (!m || m[1] === '') return 'the endpoint must be an http(s) URL'
  if ((m[1] as string).includes('@')) return "the endpoint must not hold a user name or password: use the connection's credentials instead"
  return null
}

/**
 * Checks a connection read from disk or sent by the renderer; returns the reason it is not one, or the
 * connection rebuilt from its known fields only: an unknown field (a secret typed into the wrong field, a
 * nested blob) is never carried into what is saved.
 */
export function validateConnection(v: unknown): { ok: true; value: ConnectionConfig } | { ok: false; reason: string } {
  if (!isObj(v)) return { ok: false, reason: 'not an object' }
  if (!str(v['name'], 200)) return { ok: false, reason: 'id and name are required (a name of at most 200 characters)' }
  if (!isConnectionId(v['id'])) return { ok: false, reason: 'id and name are required; an id is 1 to 64 letters, digits, "-" or "_" (no "." or "/")' }
  const base = { id: v['id'], name: v['name'] }
  switch (v['provider']) {
    case 's3': {
      const a = v['auth']
      if (!str(v['bucket'], 255) || typeof v['prefix'] !== 'string' || v['prefix'].length > 1024 || !optStr(v['region'], 64) || !optStr(v['endpoint'], 2048))
        return { ok: false, reason: 'an S3 connection needs a bucket, a prefix (may be empty), and optional region and endpoint' }
      const ep = endpointProblem(v['endpoint'])
      if (ep) return { ok: false, reason: ep }
      let auth: S3Auth
      if (isObj(a) && a['kind'] === 'default') auth = { kind: 'default' }
      else if (isObj(a) && a['kind'] === 'profile' && str(a['profile'], 128)) auth = { kind: 'profile', profile: a['profile'] }
      else if (isObj(a) && a['kind'] === 'static' && str(a['accessKeyId'], 128) && typeof a['secretRef'] === 'string' && SECRET_REF.test(a['secretRef']))
        auth = { kind: 'static', accessKeyId: a['accessKeyId'], secretRef: a['secretRef'] }
      else return { ok: false, reason: 'S3 credentials must be the default chain, a profile name, or static keys' }
      const opt = {
        ...(v['region'] !== undefined ? { region: v['region'] as string } : {}),
        ...(v['endpoint'] !== undefined ? { endpoint: v['endpoint'] as string } : {})
      }
      return { ok: true, value: { ...base, provider: 's3', bucket: v['bucket'], prefix: v['prefix'], ...opt, auth } }
    }
    case 'gcs': {
      const a = v['auth']
      if (
        !str(v['bucket'], 255) ||
        typeof v['prefix'] !== 'string' ||
        v['prefix'].length > 1024 ||
        !optStr(v['endpoint'], 2048) ||
        !optStr(v['projectId'], 128)
      )
        return { ok: false, reason: 'a GCS connection needs a bucket, a prefix (may be empty), and an optional endpoint' }
      const ep = endpointProblem(v['endpoint'])
      if (ep) return { ok: false, reason: ep }
      let auth: GcsAuth
      if (isObj(a) && (a['kind'] === 'adc' || a['kind'] === 'none')) auth = { kind: a['kind'] }
      else if (isObj(a) && a['kind'] === 'key_file' && str(a['keyFile'], 4096)) auth = { kind: 'key_file', keyFile: a['keyFile'] }
      else return { ok: false, reason: 'GCS credentials must be Application Default Credentials or a key file' }
      const opt = {
        ...(v['endpoint'] !== undefined ? { endpoint: v['endpoint'] as string } : {}),
        ...(v['projectId'] !== undefined ? { projectId: v['projectId'] as string } : {})
      }
      return { ok: true, value: { ...base, provider: 'gcs', bucket: v['bucket'], prefix: v['prefix'], ...opt, auth } }
    }
    case 'local':
      if (!str(v['path'], 4096)) return { ok: false, reason: 'a local connection needs a folder path' }
      return { ok: true, value: { ...base, provider: 'local', path: v['path'] } }
    default:
      return { ok: false, reason: `unknown provider ${JSON.stringify(v['provider'])?.slice(0, 40)}` }
  }
}
