// A service-account key file's secrets (its private key, the signed assertion made from it, the access token it buys)
// never reach a verdict, an error's message or stack, or the CLI's output; and the assertion is never sent in plain
// text off this machine (a token_uri that is http elsewhere is refused before any request).
import { generateKeyPairSync } from 'node:crypto'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BucketError } from '../../src/main/bucket/bucket-errors'
import { GcsProvider } from '../../src/main/bucket/gcs-provider'
import { testConnection } from '../../src/main/connections/connection-verdict'
import { runCli } from '../helpers/cli'
import { type FaultProxy, startFaultProxy } from '../helpers/fault-proxy'

const TOKEN = 'ya29.secret-access-token-never-shown'
let dir: string
let pem: string
let tokens: Server
let tokenUri: string
let refuse = true
const assertions: string[] = []
let storage: FaultProxy

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ee-key-secrets-'))
  pem = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }) as string
  // A token endpoint that refuses with the assertion echoed in its words, or issues TOKEN.
  tokens = createServer((req, res) => {
    let body = ''
    req.setEncoding('utf8')
    req.on('data', (c: string) => (body += c))
    req.on('end', () => {
      const assertion = new URLSearchParams(body).get('assertion') ?? ''
      assertions.push(assertion)
      res
        .writeHead(refuse ? 400 : 200, { 'content-type': 'application/json' })
        .end(
          JSON.stringify(
            refuse ? { error: 'invalid_grant', error_description: `bad ${assertion}` } : { access_token: TOKEN, token_type: 'Bearer', expires_in: 3600 }
          )
        )
    })
  })
  await new Promise<void>((r) => tokens.listen(0, '127.0.0.1', r))
  tokenUri = `http://127.0.0.1:${(tokens.address() as AddressInfo).port}/token`
  // A storage endpoint that refuses every bearer (401), whatever the token.
  storage = await startFaultProxy(tokenUri, { denyPrefix: '', denyAnswer: { status: 401, code: 'Unauthorized' } })
}, 60_000)
afterAll(async () => {
  await storage?.close()
  await new Promise<void>((r) => (tokens ? tokens.close(() => r()) : r()))
  if (dir) await rm(dir, { recursive: true, force: true })
})

async function keyFile(name: string, text: string): Promise<string> {
  const path = join(dir, name)
  await writeFile(path, text)
  return path
}

const serviceAccount = (uri: string): string =>
  JSON.stringify({ type: 'service_account', client_email: 'sa@p.iam.gserviceaccount.com', private_key: pem, token_uri: uri })

const provider = (path: string): GcsProvider =>
  new GcsProvider({ bucket: 'b', credentials: { kind: 'key_file', keyFile: path }, endpoint: storage.endpoint, timeouts: { connectMs: 5000, idleMs: 5000 } })

async function failure(p: GcsProvider): Promise<BucketError> {
  try {
    for await (const _ of p.list('')) void _
  } catch (e) {
    if (e instanceof BucketError) return e
    throw e
  }
  throw new Error('listed')
}

/** Everything a user or a log could see of a failure. */
const shown = (e: BucketError, verdict: unknown): string => [e.message, e.userMessage, e.stack, JSON.stringify(verdict)].join('\n')
const pemBody = (): string => pem.split('\n')[5] as string

describe("a key file's secrets", () => {
  it('a key file that is almost JSON: its content is never quoted', async () => {
    const path = await keyFile('broken.json', serviceAccount(tokenUri).replace(/}$/, ',}'))
    const p = provider(path)
    const e = await failure(p)
    expect(e.message).toBe(`The key file ${path} is not JSON`)
    expect(shown(e, await testConnection(p))).not.toContain(pemBody())
  })

  it('a refusing token endpoint that echoes the assertion: the assertion and the key are in no word, stack or CLI output', async () => {
    refuse = true
    const path = await keyFile('refused.json', serviceAccount(tokenUri))
    const p = provider(path)
    const e = await failure(p)
    const assertion = assertions.at(-1) as string
    expect(assertion.split('.')).toHaveLength(3)
    expect(e.message).toContain(`The key file ${path} was refused by its token endpoint ${tokenUri}`)
    const text = shown(e, await testConnection(p))
    // The endpoint's words are kept, but not what it quoted of the assertion.
    expect(e.message).toContain('(invalid_grant: bad …)')
    for (const secret of [assertion.split('.')[2] as string, assertion.slice(0, 40), pemBody()]) expect(text).not.toContain(secret)
    const cli = await runCli(['doctor', '--bucket', 'gs://b/', '--endpoint', storage.endpoint, '--key-file', path], join(dir, 'cache'))
    expect(cli.code).toBe(2)
    expect(cli.stderr + cli.stdout).toContain(path)
    for (const secret of [assertions.at(-1)?.split('.')[2] as string, pemBody()]) expect(cli.stderr + cli.stdout).not.toContain(secret)
  })

  it('the access token a refused request carried is in no word or stack', async () => {
    refuse = false
    const p = provider(await keyFile('issued.json', serviceAccount(tokenUri)))
    const e = await failure(p)
    expect(e.kind).toBe('auth')
    expect(storage.stats.authorizations).toContain(`Bearer ${TOKEN}`)
    expect(shown(e, await testConnection(p))).not.toContain(TOKEN)
  })

  it('a token_uri in plain http off this machine: refused before the assertion is sent anywhere', async () => {
    const sent = assertions.length
    const path = await keyFile('plain-http.json', serviceAccount('http://tokens.example.invalid/token'))
    const e = await failure(provider(path))
    expect([e.kind, e.message]).toEqual(['auth', `The key file ${path} names a token endpoint (token_uri) that is not https: http://tokens.example.invalid`])
    expect(assertions.length).toBe(sent)
  })
})
