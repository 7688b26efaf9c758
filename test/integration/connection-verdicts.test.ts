// "Test connection" against the real servers on loopback (s3rver, the GCS emulator) and local folders: the
// export's own folder is green; a folder that does not exist, or holds no export, is red; the bucket's top or
// a folder above the export is amber and names the folder to use; a folder inside the export names the one
// above. A definite refusal (403, a bad or expired key) answers after one request, with the bucket named.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { BucketProvider } from '../../src/main/bucket/bucket-provider'
import { type ConnectionVerdict, configAbove, testConnection } from '../../src/main/connections/connection-verdict'
import { openConnection } from '../../src/main/connections/open-connection'
import { MemorySecretStore } from '../../src/main/connections/secret-store'
import { Workspace } from '../../src/main/workspace/workspace'
import type { ConnectionConfig } from '../../src/shared/connection-config'
import { type FaultProxy, startFaultProxy } from '../helpers/fault-proxy'
import { type GcsServer, startGcsServer } from '../helpers/gcs-server'
import { S3_TEST_KEYS, type S3Server, startS3Server } from '../helpers/s3-server'

const BUCKET = 'verdicts'
const TREE: Record<string, string> = {
  'export/v1/datamart_claudia/claudia_csat/snapshot_date=2026-11-02/_SUCCESS': '',
  'export/v2/_manifests/snapshot_date=2026-11-03/snapshot_hour=03/manifest.json': '{}',
  'export/v2/datamart_claudia/claudia_csat/snapshot_date=2026-11-03/snapshot_hour=03/_SUCCESS': '',
  'notes/readme.txt': 'not an export',
  'notes/old/readme.txt': 'not an export',
  'teams/a/v1/datamart_claudia/claudia_csat/snapshot_date=2026-11-02/_SUCCESS': '',
  'teams/b/v2/_manifests/snapshot_date=2026-11-03/snapshot_hour=03/manifest.json': '{}',
  'teams/c/readme.txt': 'not an export'
}

let dir: string
let tree: string
let s3: S3Server
let gcs: GcsServer
let s3Proxy: FaultProxy
let gcsProxy: FaultProxy
const secrets = new MemorySecretStore()

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ee-verdicts-'))
  tree = join(dir, 'tree')
  for (const [key, body] of Object.entries(TREE)) {
    await mkdir(join(tree, key, '..'), { recursive: true })
    await writeFile(join(tree, key), body)
  }
  await mkdir(join(dir, 'empty'))
  await secrets.set('s3-secret', S3_TEST_KEYS.secretAccessKey)
  s3 = await startS3Server()
  await s3.seed(BUCKET, tree)
  gcs = await startGcsServer()
  await gcs.seed(BUCKET, tree)
  // Pass-through proxies that count the requests (and refuse them when a test says so).
  s3Proxy = await startFaultProxy(s3.endpoint)
  gcsProxy = await startFaultProxy(gcs.endpoint)
}, 120_000)
afterAll(async () => {
  await s3Proxy?.close()
  await gcsProxy?.close()
  await gcs?.close()
  await s3?.close()
  await rm(dir, { recursive: true, force: true })
})

const s3Conn = (prefix: string, extra: Partial<Extract<ConnectionConfig, { provider: 's3' }>> = {}): ConnectionConfig => ({
  id: 'c1',
  name: 'S3',
  provider: 's3',
  bucket: BUCKET,
  prefix,
  endpoint: s3Proxy.endpoint,
  region: 'us-east-1',
  auth: { kind: 'static', accessKeyId: S3_TEST_KEYS.accessKeyId, secretRef: 's3-secret' },
  ...extra
})
const gcsConn = (prefix: string): ConnectionConfig => ({
  id: 'g1',
  name: 'GCS',
  provider: 'gcs',
  bucket: BUCKET,
  prefix,
  endpoint: gcsProxy.endpoint,
  projectId: 'demo-export-explorer',
  auth: { kind: 'none' }
})
const localConn = (path: string): ConnectionConfig => ({ id: 'l1', name: 'Local', provider: 'local', path })

/** The verdict, and how many requests reached the server for it. */
async function verdictOf(config: ConnectionConfig, proxy?: FaultProxy, opts: { lookAbove?: boolean } = {}): Promise<ConnectionVerdict & { requests: number }> {
  const provider: BucketProvider = await openConnection(config, secrets)
  const above = configAbove(config)
  const before = proxy?.stats.requests ?? 0
  const v = await testConnection(provider, {
    config,
    ...(opts.lookAbove !== false ? { openAbove: async () => (above ? openConnection(above, secrets) : null) } : {})
  })
  return { ...v, requests: (proxy?.stats.requests ?? 0) - before }
}

const remotes = [
  { name: 'S3 (s3rver)', conn: (p: string) => s3Conn(p), proxy: () => s3Proxy, url: `s3://${BUCKET}/` },
  { name: 'GCS (emulator)', conn: gcsConn, proxy: () => gcsProxy, url: `gs://${BUCKET}/` }
]

describe.each(remotes)('$name', ({ conn, proxy, url }) => {
  it('is green on the export itself, with its version, in two requests', async () => {
    const v = await verdictOf(conn('export/'), proxy())
    expect(v).toMatchObject({ level: 'green', ok: true, version: 'v2', useInstead: [] })
    expect(v.message).toBe(`Connected to ${url}export/: the export is on v2.`)
    expect(v.requests).toBe(2)
  })

  it('is red on a folder that does not exist, says so and what to do, after one request', async () => {
    const v = await verdictOf(conn('nothing/'), proxy(), { lookAbove: false })
    expect(v).toMatchObject({ level: 'red', ok: false, useInstead: [] })
    expect(v.message).toBe(
      `There is no folder ${url}nothing/: nothing in the bucket is under nothing/. Check the prefix (the folder holding v1/ and v2/), or leave it empty for the bucket's top.`
    )
    expect(v.requests).toBe(1)
  })

  it('on a folder that does not exist, offers the export beside it (a typo), looking into the folder above once', async () => {
    const v = await verdictOf(conn('exprt/'), proxy())
    expect(v).toMatchObject({ level: 'red', ok: false, useInstead: ['export/'] })
    expect(v.message).toBe(`There is no folder ${url}exprt/: nothing in the bucket is under exprt/. The folder above holds the export in export/: use export/.`)
    // The folder itself, the one above, and each of its three folders.
    expect(v.requests).toBe(5)
    const inside = await verdictOf(conn('export/v3/'), proxy())
    expect(inside).toMatchObject({ level: 'red', useInstead: ['export/'] })
    expect(inside.message).toBe(`There is no folder ${url}export/v3/: nothing in the bucket is under export/v3/. The folder above is the export: use export/.`)
  })

  it('is amber on the bucket\u2019s top and offers the one folder holding v1/ and v2/', async () => {
    const v = await verdictOf(conn(''), proxy())
    expect(v).toMatchObject({ level: 'amber', ok: false, useInstead: ['export/'] })
    expect(v.message).toBe(`${url} holds no v1/ or v2/ folder, but its folder export/ does: use export/.`)
    // The top, then each of its three folders once (export/, notes/, teams/): bounded, one level down.
    expect(v.requests).toBe(4)
  })

  it('names every child folder that holds an export, and only those', async () => {
    const v = await verdictOf(conn('teams/'), proxy())
    expect(v).toMatchObject({ level: 'amber', useInstead: ['teams/a/', 'teams/b/'] })
    expect(v.message).toContain('but its folders a/, b/ do: use one of them')
  })

  it('is red on a folder that holds something else, naming what it holds', async () => {
    const v = await verdictOf(conn('notes/'), proxy())
    expect(v).toMatchObject({ level: 'red', useInstead: [] })
    expect(v.message).toBe(
      `${url}notes/ is not an export: it holds old/, and none of them holds v1/ or v2/. Check the prefix: it should be the folder holding v1/ and v2/.`
    )
    expect((await verdictOf(conn('notes/old/'), proxy())).message).toBe(
      `${url}notes/old/ is not an export: it holds only files (readme.txt). Check the prefix: it should be the folder holding v1/ and v2/.`
    )
  })

  it('is amber inside the export and offers the folder above v1/ and v2/', async () => {
    expect(await verdictOf(conn('export/v2/'), proxy())).toMatchObject({ level: 'amber', useInstead: ['export/'] })
    expect(await verdictOf(conn('export/v1/datamart_claudia/'), proxy())).toMatchObject({ level: 'amber', useInstead: ['export/'] })
  })
})

describe('a definite refusal answers at once, naming the bucket', () => {
  const cases = [
    { server: 'S3', answer: { status: 403, code: 'AccessDenied' }, kind: 'denied', words: /Access denied to s3:\/\/verdicts\/export\/.*s3:ListBucket/ },
    {
      server: 'S3',
      answer: { status: 403, code: 'InvalidAccessKeyId' },
      kind: 'auth',
      words: /credentials were refused for s3:\/\/verdicts\/export\/.*access key ID and secret key/
    },
    { server: 'S3', answer: { status: 403, code: 'SignatureDoesNotMatch' }, kind: 'auth', words: /credentials were refused for s3:\/\/verdicts\/export\// },
    {
      server: 'S3',
      answer: { status: 400, code: 'ExpiredToken' },
      kind: 'expired_session',
      words: /sign-in used for s3:\/\/verdicts\/export\/ has expired.*Renew/
    },
    {
      server: 'GCS',
      answer: { status: 403, code: 'AccessDenied' },
      kind: 'denied',
      words: /Access denied to gs:\/\/verdicts\/export\/.*storage\.objects\.list/
    },
    { server: 'GCS', answer: { status: 401, code: 'Unauthorized' }, kind: 'auth', words: /credentials were refused for gs:\/\/verdicts\/export\/.*key file/ }
  ] as const
  it.each(cases)('$server $answer.status $answer.code: one request, red, plain words', async ({ server, answer, kind, words }) => {
    const proxy = server === 'S3' ? s3Proxy : gcsProxy
    proxy.rules.denyPrefix = ''
    proxy.rules.denyAnswer = answer
    try {
      const v = await verdictOf(server === 'S3' ? s3Conn('export/') : gcsConn('export/'), proxy)
      expect(v).toMatchObject({ level: 'red', ok: false })
      expect(v.error?.kind).toBe(kind)
      expect(v.message).toMatch(words)
      expect(v.message).not.toContain(answer.code)
      expect(v.requests).toBe(1)
    } finally {
      proxy.rules.denyPrefix = null
      proxy.rules.denyAnswer = { status: 403, code: 'AccessDenied' }
    }
  })

  it('S3 with no region: the region comes from the refusal itself, then one listing (two requests)', async () => {
    s3Proxy.rules.denyPrefix = ''
    s3Proxy.rules.addHeaders = { 'x-amz-bucket-region': 'sa-east-1' }
    try {
      const v = await verdictOf(s3Conn('export/', { region: undefined }), s3Proxy)
      expect(v).toMatchObject({ level: 'red' })
      expect(v.error?.kind).toBe('denied')
      expect(v.requests).toBe(2)
    } finally {
      s3Proxy.rules.denyPrefix = null
      s3Proxy.rules.addHeaders = {}
    }
  })

  it('a wrong access key, as the server itself refuses it: one request', async () => {
    const v = await verdictOf(s3Conn('export/', { auth: { kind: 'static', accessKeyId: 'AKIAWRONGKEY', secretRef: 's3-secret' } }), s3Proxy)
    expect(v).toMatchObject({ level: 'red' })
    expect(v.error?.kind).toBe('auth')
    expect(v.message).toContain('credentials were refused for s3://verdicts/export/')
    expect(v.detail).toContain('InvalidAccessKeyId')
    expect(v.requests).toBe(1)
  })
})

describe('local folders', () => {
  it('is green on the export folder', async () => {
    expect(await verdictOf(localConn(join(tree, 'export')))).toMatchObject({ level: 'green', version: 'v2' })
  })

  it('is red on a folder that does not exist, a file, and an empty folder', async () => {
    const missing = await verdictOf(localConn(join(dir, 'nowhere')))
    expect(missing).toMatchObject({ level: 'red', useInstead: [] })
    expect(missing.message).toBe(`The folder ${join(dir, 'nowhere')} does not exist. Check the path: it should be the folder holding v1/ and v2/.`)
    expect((await verdictOf(localConn(join(tree, 'notes', 'readme.txt')))).message).toMatch(/is a file, not a folder/)
    expect((await verdictOf(localConn(join(dir, 'empty')))).message).toMatch(/is empty/)
  })

  it('on a folder that does not exist, offers the export folder beside it', async () => {
    const v = await verdictOf(localConn(join(tree, 'exprt')))
    expect(v).toMatchObject({ level: 'red', useInstead: [join(tree, 'export')] })
    expect(v.message).toBe(`The folder ${join(tree, 'exprt')} does not exist. The folder above holds the export in export/: use ${join(tree, 'export')}.`)
  })

  it('is amber on the parent folder and offers the export folder as a path', async () => {
    const v = await verdictOf(localConn(tree))
    expect(v).toMatchObject({ level: 'amber', useInstead: [join(tree, 'export')] })
    expect(v.message).toContain('its folder export/ does')
    expect(await verdictOf(localConn(`${join(tree, 'teams')}/`))).toMatchObject({
      level: 'amber',
      useInstead: [join(tree, 'teams', 'a'), join(tree, 'teams', 'b')]
    })
  })

  it('is amber inside the export, offering the folder above v2/', async () => {
    expect(await verdictOf(localConn(join(tree, 'export', 'v2')))).toMatchObject({ level: 'amber', useInstead: [join(tree, 'export')] })
  })
})

describe('through the workspace (the contract\u2019s connectionTest)', () => {
  it('answers the renderer with the level, the values to use instead and the detail, never the error object', async () => {
    const w = new Workspace({ dataDir: join(dir, 'ws'), secrets: new MemorySecretStore(), autoRefresh: false })
    try {
      const parent = await w.connectionTest({ connection: { id: '', name: 'x', provider: 'local', path: tree } as ConnectionConfig })
      expect(parent).toEqual({
        level: 'amber',
        ok: false,
        message: expect.stringContaining('export/') as unknown as string,
        version: null,
        useInstead: [join(tree, 'export')],
        detail: null
      })
      const s3Parent = await w.connectionTest({ connection: { ...s3Conn(''), id: '' } as ConnectionConfig, secretAccessKey: S3_TEST_KEYS.secretAccessKey })
      expect(s3Parent).toMatchObject({ level: 'amber', useInstead: ['export/'] })
      const wrong = await w.connectionTest({
        connection: { ...s3Conn('export/', { auth: { kind: 'static', accessKeyId: 'AKIAWRONGKEY', secretRef: '' } }), id: '' } as ConnectionConfig,
        secretAccessKey: 'x'
      })
      expect(wrong).toMatchObject({ level: 'red', ok: false, useInstead: [] })
      expect(Object.keys(wrong).sort()).toEqual(['detail', 'level', 'message', 'ok', 'useInstead', 'version'])
      expect(wrong.detail).toContain('InvalidAccessKeyId')
      expect(wrong.message).not.toContain('InvalidAccessKeyId')
    } finally {
      await w.dispose()
    }
  })
})
