// A saved connection: where the export is and how to reach it. Secrets are never part of it: a static
// secret key is kept in the secret store under `secretRef`.

export type S3Auth =
  | { readonly kind: 'default' }
  | { readonly kind: 'profile'; readonly profile: string }
  | { readonly kind: 'static'; readonly accessKeyId: string; readonly secretRef: string }

export type GcsAuth = { readonly kind: 'adc' } | { readonly kind: 'key_file'; readonly keyFile: string } | { readonly kind: 'none' }

export type ConnectionConfig =
  | { readonly id: string; readonly name: string; readonly provider: 's3'; readonly bucket: string; readonly prefix: string; readonly region?: string; readonly endpoint?: string; readonly auth: S3Auth }
  | { readonly id: string; readonly name: string; readonly provider: 'gcs'; readonly bucket: string; readonly prefix: string; readonly endpoint?: string; readonly projectId?: string; readonly auth: GcsAuth }
  | { readonly id: string; readonly name: string; readonly provider: 'local'; readonly path: string }

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)
const str = (v: unknown): v is string => typeof v === 'string' && v.length > 0
const optStr = (v: unknown): boolean => v === undefined || typeof v === 'string'

/** Checks a connection read from disk or sent by the renderer; returns the reason it is not one. */
export function validateConnection(v: unknown): { ok: true; value: ConnectionConfig } | { ok: false; reason: string } {
  if (!isObj(v)) return { ok: false, reason: 'not an object' }
  if (!str(v['id']) || !str(v['name'])) return { ok: false, reason: 'id and name are required' }
  switch (v['provider']) {
    case 's3': {
      const a = v['auth']
      if (!str(v['bucket']) || typeof v['prefix'] !== 'string' || !optStr(v['region']) || !optStr(v['endpoint'])) return { ok: false, reason: 'an S3 connection needs a bucket, a prefix (may be empty), and optional region and endpoint' }
      if (v['endpoint'] !== undefined && !/^https?:\/\//.test(v['endpoint'] as string)) return { ok: false, reason: 'the endpoint must be an http(s) URL' }
      if (!isObj(a) || !(a['kind'] === 'default' || (a['kind'] === 'profile' && str(a['profile'])) || (a['kind'] === 'static' && str(a['accessKeyId']) && str(a['secretRef'])))) return { ok: false, reason: 'S3 credentials must be the default chain, a profile name, or static keys' }
      return { ok: true, value: v as unknown as ConnectionConfig }
    }
    case 'gcs': {
      const a = v['auth']
      if (!str(v['bucket']) || typeof v['prefix'] !== 'string' || !optStr(v['endpoint']) || !optStr(v['projectId'])) return { ok: false, reason: 'a GCS connection needs a bucket, a prefix (may be empty), and an optional endpoint' }
      if (!isObj(a) || !(a['kind'] === 'adc' || a['kind'] === 'none' || (a['kind'] === 'key_file' && str(a['keyFile'])))) return { ok: false, reason: 'GCS credentials must be Application Default Credentials or a key file' }
      return { ok: true, value: v as unknown as ConnectionConfig }
    }
    case 'local':
      if (!str(v['path'])) return { ok: false, reason: 'a local connection needs a folder path' }
      return { ok: true, value: v as unknown as ConnectionConfig }
    default:
      return { ok: false, reason: `unknown provider ${JSON.stringify(v['provider'])}` }
  }
}
