// Turns the CLI's --bucket argument and credential options into a connection.
import { resolve } from 'node:path'
import { parseBucketUrl } from '../shared/bucket-url'
import type { ConnectionConfig } from '../shared/connection-config'

export interface CredentialFlags {
  readonly profile?: string
  readonly region?: string
  readonly endpoint?: string
  readonly keyFile?: string
}

/** A bucket URL (src/shared/bucket-url.ts: s3://, s3a://, gs://, https://storage.googleapis.com/…) or a local folder. */
export function connectionFromUrl(url: string, flags: CredentialFlags): ConnectionConfig {
  const parsed = parseBucketUrl(url)
  if (!parsed) return { id: `local:${resolve(url)}`, name: url, provider: 'local', path: resolve(url) }
  const { provider, bucket, prefix } = parsed
  if (provider === 's3') {
    return {
      id: url,
      name: url,
      provider: 's3',
      bucket,
      prefix,
      ...(flags.region ? { region: flags.region } : {}),
      ...(flags.endpoint ? { endpoint: flags.endpoint } : {}),
      auth: flags.profile ? { kind: 'profile', profile: flags.profile } : { kind: 'default' }
    }
  }
  // An emulator on this machine takes no credentials; anything else uses a key file or ADC.
  const loopback = flags.endpoint !== undefined && /^https?:\/\/(127\.0\.0\.1|localhost|\[::1\])(:\d+)?\/?$/.test(flags.endpoint)
  return {
    id: url,
    name: url,
    provider: 'gcs',
    bucket,
    prefix,
    ...(flags.endpoint ? { endpoint: flags.endpoint } : {}),
    auth: flags.keyFile ? { kind: 'key_file', keyFile: resolve(flags.keyFile) } : loopback ? { kind: 'none' } : { kind: 'adc' }
  }
}
