// Turns a saved connection into a bucket provider (credentials resolved here, in main), and lists AWS profiles
// for the connection form (its test is connection-verdict.ts). Each cloud SDK loads only when a connection needs it:
// the CLI's --help and a local folder never pay for them.
import { bucketError } from '../bucket/bucket-errors'
import type { BucketProvider, RequestTimeouts } from '../bucket/bucket-provider'
import { LocalFolderProvider } from '../bucket/local-provider'
import type { ConnectionConfig } from '../../shared/connection-config'
import type { SecretStore } from './secret-store'

export interface OpenOptions {
  /** For tests and non-default setups: the AWS config and credentials files. */
  readonly awsConfigFile?: string
  readonly awsCredentialsFile?: string
  /** Connect and idle timeouts of every request (the providers' defaults: 10 s and 30 s); tests shorten them. */
  readonly timeouts?: Partial<RequestTimeouts>
}

export async function openConnection(c: ConnectionConfig, secrets: SecretStore, opts: OpenOptions = {}): Promise<BucketProvider> {
  switch (c.provider) {
    case 'local':
      return new LocalFolderProvider(c.path)
    case 'gcs': {
      const { GcsProvider } = await import('../bucket/gcs-provider')
      return new GcsProvider({
        bucket: c.bucket,
        prefix: c.prefix,
        credentials: c.auth.kind === 'key_file' ? { kind: 'key_file', keyFile: c.auth.keyFile } : c.auth,
        ...(c.endpoint ? { endpoint: c.endpoint } : {}),
        ...(c.projectId ? { projectId: c.projectId } : {}),
        ...(opts.timeouts ? { timeouts: opts.timeouts } : {})
      })
    }
    case 's3': {
      const { S3Provider } = await import('../bucket/s3-provider')
      const base = {
        bucket: c.bucket,
        prefix: c.prefix,
        ...(c.region ? { region: c.region } : {}),
        ...(c.endpoint ? { endpoint: c.endpoint } : {}),
        ...(opts.timeouts ? { timeouts: opts.timeouts } : {})
      }
      if (c.auth.kind === 'static') {
        const secret = await secrets.get(c.auth.secretRef)
        if (secret === null)
          throw bucketError(
            'auth',
            '',
            `The secret key of connection "${c.name}" is not saved on this computer`,
            'Edit the connection and enter the secret key again.'
          )
        return new S3Provider({ ...base, credentials: { kind: 'static', accessKeyId: c.auth.accessKeyId, secretAccessKey: secret } })
      }
      if (c.auth.kind === 'profile')
        return new S3Provider({
          ...base,
          credentials: {
            kind: 'profile',
            profile: c.auth.profile,
            ...(opts.awsConfigFile ? { configFile: opts.awsConfigFile } : {}),
            ...(opts.awsCredentialsFile ? { credentialsFile: opts.awsCredentialsFile } : {})
          }
        })
      return new S3Provider({ ...base, credentials: { kind: 'default' } })
    }
  }
}

/** Profile names from the user's AWS config and credentials files (SSO and credential_process ones included). */
export async function listAwsProfiles(opts: OpenOptions = {}): Promise<string[]> {
  const { loadSharedConfigFiles } = await import('@smithy/shared-ini-file-loader')
  const files = await loadSharedConfigFiles({
    ...(opts.awsConfigFile ? { configFilepath: opts.awsConfigFile } : {}),
    ...(opts.awsCredentialsFile ? { filepath: opts.awsCredentialsFile } : {})
  })
  // The loader also returns "sso-session.NAME" and "services.NAME" sections, which are not profiles.
  const isProfile = (name: string): boolean => !name.startsWith('sso-session.') && !name.startsWith('services.')
  return [...new Set([...Object.keys(files.configFile), ...Object.keys(files.credentialsFile)])].filter(isProfile).sort()
}
