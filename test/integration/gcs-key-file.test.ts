// A service-account key file end to end, against the GCS emulator behind a loopback proxy that records each request's
// bearer (the emulator checks none): the key's token_uri is a token endpoint of the test's, which verifies the RS256
// JWT google-auth-library signed (signature against the public key, iss, aud, scope, times) before it issues a token.
// The app's path (the workspace's connectionTest, connectionSave and connectionOpen) and the CLI's (timeline, doctor
// --key-file), and every way a key file can be wrong, said by the file's name.
import { generateKeyPairSync, type KeyObject, verify } from 'node:crypto'
import { cp, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { dispatch } from '../../src/main/api-handlers'
import { MemorySecretStore } from '../../src/main/connections/secret-store'
import { Workspace } from '../../src/main/workspace/workspace'
import type { ConnectionConfig } from '../../src/shared/connection-config'
import { runCli } from '../helpers/cli'
import { type Demo, readDemo } from '../helpers/demo'
import { type FaultProxy, startFaultProxy } from '../helpers/fault-proxy'
import { type GcsServer, startGcsServer } from '../helpers/gcs-server'

const BUCKET = 'key-file-bucket'
const EMAIL = 'export-reader@demo-export-explorer.iam.gserviceaccount.com'
const READ_SCOPE = 'https://www.googleapis.com/auth/devstorage.read_only'

interface Exchange {
  readonly ok: boolean
  readonly why: string
  readonly token: string | null
}

let demo: Demo
let gcs: GcsServer
let proxy: FaultProxy
let tokens: Server
let tokenUri: string
let dir: string
let cache: string
let goodKey: string
const exchanges: Exchange[] = []
/** Every request the proxy forwarded to the emulator: its path and bearer. */
const seen: { url: string; authorization: string }[] = []
const trusted = new Map<string, KeyObject>()

/** What the token endpoint checks of an RFC 7523 assertion; '' when it holds. */
function assertionProblem(assertion: string): string {
  const [h, p, s] = assertion.split('.')
  if (!h || !p || !s) return 'not a JWT'
  const header = JSON.parse(Buffer.from(h, 'base64url').toString()) as { alg?: string }
  const claims = JSON.parse(Buffer.from(p, 'base64url').toString()) as Record<string, unknown>
  if (header.alg !== 'RS256') return `alg ${header.alg}`
  const publicKey = trusted.get(String(claims['iss']))
  if (!publicKey) return `unknown iss ${String(claims['iss'])}`
  if (!verify('RSA-SHA256', Buffer.from(`${h}.${p}`), publicKey, Buffer.from(s, 'base64url'))) return 'Invalid JWT Signature.'
  if (claims['aud'] !== tokenUri) return `aud ${String(claims['aud'])}`
  if (claims['scope'] !== READ_SCOPE) return `scope ${String(claims['scope'])}`
  const now = Date.now() / 1000
  const iat = Number(claims['iat'])
  const exp = Number(claims['exp'])
  if (!(iat <= now + 60 && exp > now && exp - iat <= 3600)) return `times iat ${iat} exp ${exp}`
  return ''
}

async function keyFile(name: string, fields: Record<string, unknown>): Promise<string> {
  const path = join(dir, name)
  await writeFile(path, JSON.stringify({ type: 'service_account', project_id: 'demo-export-explorer', private_key_id: 'k1', token_uri: tokenUri, ...fields }))
  return path
}

const pem = (k: KeyObject): string => k.export({ type: 'pkcs8', format: 'pem' }) as string

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ee-keyfile-e2e-'))
  cache = join(dir, 'cache')
  demo = await readDemo({ days: 8 })
  // One table and the manifests of two hours: enough for the version, a timeline and a manifest read.
  const small = join(dir, 'small')
  await cp(join(demo.bucketDir, 'v2', 'datamart_claudia', 'claudia_csat'), join(small, 'v2', 'datamart_claudia', 'claudia_csat'), {
    recursive: true,
    preserveTimestamps: true
  })
  for (const m of (await readdir(join(demo.bucketDir, 'v2', '_manifests'))).sort().slice(-1))
    await cp(join(demo.bucketDir, 'v2', '_manifests', m), join(small, 'v2', '_manifests', m), { recursive: true, preserveTimestamps: true })
  gcs = await startGcsServer()
  await gcs.seed(BUCKET, small)
  proxy = await startFaultProxy(gcs.endpoint, {
    match: (req) => {
      seen.push({ url: req.url ?? '', authorization: req.headers.authorization ?? '' })
      return true
    }
  })
  tokens = createServer((req, res) => {
    let body = ''
    req.setEncoding('utf8')
    req.on('data', (c: string) => (body += c))
    req.on('end', () => {
      const form = new URLSearchParams(body)
      const why =
        req.method !== 'POST' || req.url !== '/token'
          ? `${req.method} ${req.url}`
          : form.get('grant_type') !== 'urn:ietf:params:oauth:grant-type:jwt-bearer'
            ? `grant_type ${form.get('grant_type')}`
            : assertionProblem(form.get('assertion') ?? '')
      const token = why === '' ? `ya29.loopback-${exchanges.length + 1}` : null
      exchanges.push({ ok: why === '', why, token })
      res
        .writeHead(token ? 200 : 400, { 'content-type': 'application/json' })
        .end(JSON.stringify(token ? { access_token: token, token_type: 'Bearer', expires_in: 3600 } : { error: 'invalid_grant', error_description: why }))
    })
  })
  await new Promise<void>((r) => tokens.listen(0, '127.0.0.1', r))
  tokenUri = `http://127.0.0.1:${(tokens.address() as AddressInfo).port}/token`
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 })
  trusted.set(EMAIL, publicKey)
  goodKey = await keyFile('reader-key.json', { private_key: pem(privateKey), client_email: EMAIL })
}, 120_000)
afterAll(async () => {
  await new Promise<void>((r) => (tokens ? tokens.close(() => r()) : r()))
  await proxy?.close()
  await gcs?.close()
  await demo?.cleanup()
  if (dir) await rm(dir, { recursive: true, force: true })
})

const gcsConn = (keyFilePath: string): ConnectionConfig => ({
  id: '',
  name: 'GCS with a key file',
  provider: 'gcs',
  bucket: BUCKET,
  prefix: '',
  endpoint: proxy.endpoint,
  auth: { kind: 'key_file', keyFile: keyFilePath }
})

/** The requests the emulator got since `from`, and the tokens the endpoint issued since `fromExchange`. */
function since(from: number, fromExchange: number): { requests: typeof seen; issued: string[]; refused: string[] } {
  const ex = exchanges.slice(fromExchange)
  return {
    requests: seen.slice(from),
    issued: ex.filter((e) => e.token).map((e) => e.token as string),
    refused: ex.filter((e) => !e.ok).map((e) => e.why)
  }
}

const workspace = (name: string): Workspace =>
  new Workspace({ dataDir: join(dir, name), secrets: new MemorySecretStore(), autoRefresh: false, clock: () => Date.parse(demo.expected.now) })

describe('a service-account key file, with a real token exchange', () => {
  it('in the app: Test connection is green, and the opened connection lists and reads the bucket with the issued token', async () => {
    const w = workspace('app')
    try {
      const from = [seen.length, exchanges.length] as const
      const verdict = await w.connectionTest({ connection: gcsConn(goodKey) })
      expect(verdict).toMatchObject({ level: 'green', ok: true, version: 'v2' })
      const { id } = await w.connectionSave({ connection: { ...gcsConn(goodKey), name: 'Key file' } })
      await w.connectionOpen({ id })
      await w.running
      expect(w.refreshStatus().lastError).toBeNull()
      const overview = await dispatch(w, 'overview', {})
      expect(overview.ok).toBe(true)
      const { requests, issued, refused } = since(...from)
      expect(refused).toEqual([])
      expect(issued.length).toBeGreaterThan(0)
      // Listed and read: a listing and an object's bytes (the manifest), each with a token the endpoint issued.
      expect(requests.some((r) => /\/o\?/.test(r.url) || /\/o$/.test(r.url))).toBe(true)
      expect(requests.some((r) => /alt=media/.test(r.url))).toBe(true)
      expect(requests.length).toBeGreaterThan(0)
      for (const r of requests) expect(issued.map((t) => `Bearer ${t}`)).toContain(r.authorization)
    } finally {
      await w.dispose()
    }
  })

  it('in the CLI: timeline and doctor with --key-file check the bucket with the issued token', async () => {
    const env = { METADATA_SERVER_DETECTION: 'none', GCE_METADATA_HOST: '127.0.0.1:9' }
    const args = ['--bucket', `gs://${BUCKET}/`, '--endpoint', proxy.endpoint, '--key-file', goodKey, '--now', demo.expected.now]
    for (const command of ['timeline', 'doctor']) {
      const from = [seen.length, exchanges.length] as const
      const r = await runCli([command, ...args], cache, env)
      // doctor exits 1 for the tables this small bucket lacks; 2 would be "could not check".
      expect([0, 1], `${command}: ${r.stderr}`).toContain(r.code)
      expect(r.stdout).toMatch(/claudia_csat/)
      const { requests, issued, refused } = since(...from)
      expect(refused).toEqual([])
      expect(issued.length).toBeGreaterThan(0)
      expect(requests.length).toBeGreaterThan(0)
      for (const q of requests) expect(issued.map((t) => `Bearer ${t}`)).toContain(q.authorization)
    }
  })
})

describe('a key file that is wrong: a red verdict naming the file and what to do', () => {
  it('missing, not JSON, not a service-account key, a private key that is not a key: said before any request', async () => {
    const notJson = join(dir, 'notes.txt')
    await writeFile(notJson, 'these are not the keys you are looking for')
    const cases: [string, RegExp][] = [
      [join(dir, 'nowhere.json'), /nowhere\.json does not exist.*Choose the JSON key file of a service account/],
      [notJson, /notes\.txt is not JSON.*Choose the JSON key file/],
      [await keyFile('no-private-key.json', { client_email: EMAIL }), /no-private-key\.json is not a service-account key.*no client_email and private_key/],
      [
        await keyFile('not-a-key.json', { client_email: EMAIL, private_key: 'MIIEvQIBADANBg' }),
        /not-a-key\.json holds a private_key that is not a private key.*Choose the JSON key file/
      ]
    ]
    const w = workspace('bad')
    try {
      for (const [path, words] of cases) {
        const from = [seen.length, exchanges.length] as const
        const v = await w.connectionTest({ connection: gcsConn(path) })
        expect(v).toMatchObject({ level: 'red', ok: false })
        expect(v.message).toContain(path)
        expect(v.message).toMatch(words)
        expect(v.message).toContain(`gs://${BUCKET}/ was not read`)
        expect(v.message).not.toMatch(/key must be|DECODER|string, a buffer/)
        const { requests, issued, refused } = since(...from)
        expect([requests.length, issued.length, refused.length]).toEqual([0, 0, 0])
      }
    } finally {
      await w.dispose()
    }
  })

  it('a key its token endpoint refuses (signed by another key): the endpoint named, its words, and the fix; the CLI exits 2', async () => {
    const stranger = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey
    const revoked = await keyFile('revoked-key.json', { client_email: EMAIL, private_key: pem(stranger) })
    const w = workspace('refused')
    try {
      const from = [seen.length, exchanges.length] as const
      const v = await w.connectionTest({ connection: gcsConn(revoked) })
      expect(v).toMatchObject({ level: 'red', ok: false })
      expect(v.message).toContain(`The key file ${revoked} was refused by its token endpoint ${tokenUri} (invalid_grant: Invalid JWT Signature.)`)
      expect(v.message).toMatch(/create a new JSON key/)
      const { requests, refused } = since(...from)
      expect(refused).toEqual(['Invalid JWT Signature.'])
      expect(requests).toEqual([])
    } finally {
      await w.dispose()
    }
    const r = await runCli(['doctor', '--bucket', `gs://${BUCKET}/`, '--endpoint', proxy.endpoint, '--key-file', revoked, '--now', demo.expected.now], cache)
    expect(r.code).toBe(2)
    expect(`${r.stdout}${r.stderr}`).toContain(`The key file ${revoked} was refused by its token endpoint`)
  })
})
