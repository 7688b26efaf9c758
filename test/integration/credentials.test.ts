// Credentials resolved in main, checked against the real servers on loopback: an AWS profile whose keys come
// from credential_process, an expired SSO session, the default chain, static keys from the secret store, and
// Google Application Default Credentials (an external-account ADC file whose token comes from a loopback
// STS endpoint). Also the stores for connections and secrets.
import { createHash } from 'node:crypto'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { BucketError } from '../../src/main/bucket/bucket-errors'
import type { ConnectionConfig } from '../../src/shared/connection-config'
import { ConnectionStore } from '../../src/main/connections/connection-store'
import { testConnection } from '../../src/main/connections/connection-verdict'
import { listAwsProfiles, openConnection } from '../../src/main/connections/open-connection'
import { MemorySecretStore, SafeStorageSecretStore, SecretStoreUnavailable } from '../../src/main/connections/secret-store'
import { type FaultProxy, startFaultProxy } from '../helpers/fault-proxy'
import { type GcsServer, startGcsServer } from '../helpers/gcs-server'
import { type S3Server, startS3Server } from '../helpers/s3-server'

const BUCKET = 'cred-bucket'
let s3: S3Server
let gcs: GcsServer
let gcsProxy: FaultProxy
let dir: string
let awsConfigFile: string
const savedEnv = { ...process.env }

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ee-cred-'))
  s3 = await startS3Server()
  await s3.put(BUCKET, 'v2/_manifests/snapshot_date=2026-11-03/snapshot_hour=03/manifest.json', '{}', new Date())
  await s3.put(BUCKET, 'v1/datamart_claudia/claudia_csat/snapshot_date=2026-11-02/_SUCCESS', '', new Date())
  gcs = await startGcsServer()
  const seedDir = join(dir, 'gcs-seed')
  await mkdir(join(seedDir, 'v2/_manifests/snapshot_date=2026-11-03/snapshot_hour=03'), { recursive: true })
  await writeFile(join(seedDir, 'v2/_manifests/snapshot_date=2026-11-03/snapshot_hour=03/manifest.json'), '{}')
  await gcs.seed(BUCKET, seedDir)
  gcsProxy = await startFaultProxy(gcs.endpoint)

  const printKeys = join(dir, 'print-keys.mjs')
  await writeFile(printKeys, `console.log(JSON.stringify({ Version: 1, AccessKeyId: process.argv[2], SecretAccessKey: process.argv[3] }))\n`)
  awsConfigFile = join(dir, 'aws-config')
  await writeFile(
    awsConfigFile,
    [
      '[profile ee-process]',
      'region = us-east-1',
      `credential_process = ${process.execPath} ${printKeys} S3RVER S3RVER`,
      '',
      '[profile ee-process-wrong]',
      'region = us-east-1',
      `credential_process = ${process.execPath} ${printKeys} NOPE nope`,
      '',
      '[profile ee-sso]',
      'sso_session = ee-session',
      'sso_account_id = 111122223333',
      'sso_role_name = ReadOnly',
      'region = us-east-1',
      '',
      '[sso-session ee-session]',
      'sso_start_url = https://example.invalid/start',
      'sso_region = us-east-1',
      ''
    ].join('\n')
  )
}, 120_000)
afterEach(() => {
  for (const k of Object.keys(process.env)) if (!(k in savedEnv)) delete process.env[k]
  Object.assign(process.env, savedEnv)
})
afterAll(async () => {
  await gcsProxy?.close()
  await gcs?.close()
  await s3?.close()
  await rm(dir, { recursive: true, force: true })
})

const s3Conn = (auth: Extract<ConnectionConfig, { provider: 's3' }>['auth']): ConnectionConfig => ({
  id: 'c1',
  name: 'Test S3',
  provider: 's3',
  bucket: BUCKET,
  prefix: '',
  endpoint: s3.endpoint,
  region: 'us-east-1',
  auth
})

describe('AWS credentials', () => {
  it('lists the profiles of the user config', async () => {
    expect(await listAwsProfiles({ awsConfigFile, awsCredentialsFile: join(dir, 'none') })).toEqual(['ee-process', 'ee-process-wrong', 'ee-sso'])
  })

  it('uses a profile whose keys come from credential_process, without the user typing a key', async () => {
    const v = await testConnection(await openConnection(s3Conn({ kind: 'profile', profile: 'ee-process' }), new MemorySecretStore(), { awsConfigFile }))
    expect(v).toMatchObject({ ok: true, version: 'v2' })
    const wrong = await testConnection(
      await openConnection(s3Conn({ kind: 'profile', profile: 'ee-process-wrong' }), new MemorySecretStore(), { awsConfigFile })
    )
    expect(wrong.ok).toBe(false)
    expect(wrong.error?.kind).toBe('auth')
  })

  it('says to run aws sso login when the SSO session has expired', async () => {
    const home = join(dir, 'home')
    const cache = join(home, '.aws', 'sso', 'cache')
    await mkdir(cache, { recursive: true })
    const name = createHash('sha1').update('ee-session').digest('hex')
    await writeFile(
      join(cache, `${name}.json`),
      JSON.stringify({ accessToken: 'expired-token', expiresAt: '2020-01-01T00:00:00Z', region: 'us-east-1', startUrl: 'https://example.invalid/start' })
    )
    process.env['HOME'] = home
    // The SDK resolves SSO profiles from the standard config location, which AWS_CONFIG_FILE moves.
    process.env['AWS_CONFIG_FILE'] = awsConfigFile
    const v = await testConnection(await openConnection(s3Conn({ kind: 'profile', profile: 'ee-sso' }), new MemorySecretStore()))
    expect(v.ok).toBe(false)
    expect(v.error?.kind).toBe('expired_session')
    expect(v.message).toContain('aws sso login --profile ee-sso')
  })

  it('uses an SSO profile with a live session: the role credentials come from the SSO portal', async () => {
    let bearer = ''
    const portal = createServer((req, res) => {
      bearer = String(req.headers['x-amz-sso_bearer_token'] ?? '')
      const url = new URL(req.url ?? '/', 'http://x')
      const ok =
        url.pathname === '/federation/credentials' && url.searchParams.get('role_name') === 'ReadOnly' && url.searchParams.get('account_id') === '111122223333'
      res
        .writeHead(ok ? 200 : 404, { 'content-type': 'application/json' })
        .end(
          JSON.stringify(
            ok
              ? { roleCredentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER', sessionToken: 'sso-session-token', expiration: Date.now() + 3_600_000 } }
              : {}
          )
        )
    })
    await new Promise<void>((r) => portal.listen(0, '127.0.0.1', r))
    try {
      const home = join(dir, 'home-live')
      const cache = join(home, '.aws', 'sso', 'cache')
      await mkdir(cache, { recursive: true })
      const name = createHash('sha1').update('ee-session').digest('hex')
      await writeFile(
        join(cache, `${name}.json`),
        JSON.stringify({
          accessToken: 'live-sso-token',
          expiresAt: new Date(Date.now() + 3_600_000).toISOString(),
          region: 'us-east-1',
          startUrl: 'https://example.invalid/start'
        })
      )
      process.env['HOME'] = home
      process.env['AWS_CONFIG_FILE'] = awsConfigFile
      // The SSO portal, moved to loopback by the SDK's standard per-service endpoint variable.
      process.env['AWS_ENDPOINT_URL_SSO'] = `http://127.0.0.1:${(portal.address() as AddressInfo).port}`
      const v = await testConnection(await openConnection(s3Conn({ kind: 'profile', profile: 'ee-sso' }), new MemorySecretStore()))
      expect(v).toMatchObject({ ok: true, version: 'v2' })
      expect(bearer).toBe('live-sso-token')
    } finally {
      await new Promise<void>((r) => portal.close(() => r()))
    }
  })

  it('uses the default chain (here, the environment)', async () => {
    process.env['AWS_ACCESS_KEY_ID'] = 'S3RVER'
    process.env['AWS_SECRET_ACCESS_KEY'] = 'S3RVER'
    process.env['AWS_CONFIG_FILE'] = join(dir, 'none')
    process.env['AWS_SHARED_CREDENTIALS_FILE'] = join(dir, 'none')
    expect(await testConnection(await openConnection(s3Conn({ kind: 'default' }), new MemorySecretStore()))).toMatchObject({ ok: true, version: 'v2' })
  })

  it('takes static keys from the secret store and never puts the secret in an error', async () => {
    const secrets = new MemorySecretStore()
    await secrets.set('c1-secret', 'S3RVER')
    expect(await testConnection(await openConnection(s3Conn({ kind: 'static', accessKeyId: 'S3RVER', secretRef: 'c1-secret' }), secrets))).toMatchObject({
      ok: true
    })
    // s3rver checks the access key id but not SigV4 signatures, so a wrong key id stands for wrong keys here.
    const secret = 'wJalrXUtnFEMI-K7MDENG-bPxRfiCYEXAMPLEKEY'
    await secrets.set('c1-secret', secret)
    const v = await testConnection(await openConnection(s3Conn({ kind: 'static', accessKeyId: 'AKIAWRONGKEYID', secretRef: 'c1-secret' }), secrets))
    expect(v.ok).toBe(false)
    expect(JSON.stringify(v)).not.toContain(secret)
    expect(v.message).not.toContain(secret)
    expect(`${v.error?.stack}`).not.toContain(secret)
    const missing = await openConnection(s3Conn({ kind: 'static', accessKeyId: 'S3RVER', secretRef: 'nowhere' }), secrets).then(
      () => null,
      (e: unknown) => e
    )
    expect(missing).toBeInstanceOf(BucketError)
    expect((missing as BucketError).userMessage).toMatch(/enter the secret key again/)
  })
})

describe('Google Application Default Credentials', () => {
  let sts: Server
  let stsCalls = 0
  beforeAll(async () => {
    sts = createServer((req, res) => {
      stsCalls++
      req.resume()
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          access_token: 'ya29.loopback-token',
          issued_token_type: 'urn:ietf:params:oauth:token-type:access_token',
          token_type: 'Bearer',
          expires_in: 3600
        })
      )
    })
    await new Promise<void>((r) => sts.listen(0, '127.0.0.1', r))
  })
  afterAll(() => new Promise<void>((r) => sts.close(() => r())))

  it('finds the credentials from GOOGLE_APPLICATION_CREDENTIALS and sends their token', async () => {
    const subject = join(dir, 'subject-token')
    await writeFile(subject, 'subject-jwt')
    const adc = join(dir, 'adc.json')
    await writeFile(
      adc,
      JSON.stringify({
        type: 'external_account',
        audience: '//iam.googleapis.com/projects/1/locations/global/workloadIdentityPools/p/providers/x',
        subject_token_type: 'urn:ietf:params:oauth:token-type:jwt',
        token_url: `http://127.0.0.1:${(sts.address() as AddressInfo).port}/v1/token`,
        credential_source: { file: subject }
      })
    )
    process.env['GOOGLE_APPLICATION_CREDENTIALS'] = adc
    // Never look for a cloud metadata server from a test.
    process.env['METADATA_SERVER_DETECTION'] = 'none'
    process.env['GCE_METADATA_HOST'] = '127.0.0.1:9'
    const conn: ConnectionConfig = {
      id: 'g1',
      name: 'Test GCS',
      provider: 'gcs',
      bucket: BUCKET,
      prefix: '',
      endpoint: gcsProxy.endpoint,
      projectId: 'demo-export-explorer',
      auth: { kind: 'adc' }
    }
    const before = gcsProxy.stats.authorizations.length
    const v = await testConnection(await openConnection(conn, new MemorySecretStore()))
    expect(v).toMatchObject({ ok: true, version: 'v2' })
    expect(stsCalls).toBeGreaterThan(0)
    expect(gcsProxy.stats.authorizations.slice(before)).toContain('Bearer ya29.loopback-token')
  })
})

describe('stores', () => {
  it('saves connections and reports a damaged file instead of failing', async () => {
    const file = join(dir, 'data', 'connections.json')
    const store = new ConnectionStore(file)
    await store.upsert(s3Conn({ kind: 'profile', profile: 'ee-process' }))
    await store.upsert({ id: 'l1', name: 'Synced copy', provider: 'local', path: '/data/export' })
    expect((await store.load()).connections.map((c) => c.id)).toEqual(['c1', 'l1'])
    await writeFile(
      file,
      JSON.stringify([
        { id: 'x', name: 'bad', provider: 'ftp' },
        { id: 'l1', name: 'ok', provider: 'local', path: '/p' }
      ])
    )
    const loaded = await store.load()
    expect(loaded.connections.map((c) => c.id)).toEqual(['l1'])
    expect(loaded.problems[0]).toMatch(/#1 .* skipped: unknown provider "ftp"/)
    await writeFile(file, '{oops')
    expect((await store.load()).problems[0]).toMatch(/not valid JSON/)
  })

  it('encrypts secrets with the OS keychain and refuses the basic_text backend', async () => {
    const file = join(dir, 'data', 'secrets.json')
    // Stands in for Electron's safeStorage, which needs the Electron binary.
    const keychain = (backend: string) => ({
      isEncryptionAvailable: () => true,
      getSelectedStorageBackend: () => backend,
      encryptString: (s: string) => Buffer.from([...Buffer.from(s)].map((b) => b ^ 0x5a)),
      decryptString: (b: Buffer) => Buffer.from([...b].map((x) => x ^ 0x5a)).toString()
    })
    const store = new SafeStorageSecretStore(keychain('gnome_libsecret'), file)
    await store.set('k', 'top-secret-value')
    expect(await store.get('k')).toBe('top-secret-value')
    expect(await readFile(file, 'utf8')).not.toContain('top-secret-value')
    const plain = new SafeStorageSecretStore(keychain('basic_text'), join(dir, 'data', 'other.json'))
    const e = await plain.set('k', 'x').then(
      () => null,
      (err: unknown) => err
    )
    expect(e).toBeInstanceOf(SecretStoreUnavailable)
    expect((e as Error).message).toMatch(/No keyring/)
  })
})
