// No hang that cannot be cancelled: servers on loopback that accept and never answer, or answer headers and
// stall the body, in front of real s3rver and the GCS emulator. Each provider call fails with a timeout naming
// its key within the idle timeout (never retried into minutes), or as cancelled within 2 s of an abort; a refresh
// stuck on a manifest GET ends on refreshCancel and keeps what was shown; overview never waits forever on it.
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Readable } from 'node:stream'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { dispatch } from '../../src/main/api-handlers'
import { BucketError } from '../../src/main/bucket/bucket-errors'
import { type BucketProvider, type RequestTimeouts, listAll } from '../../src/main/bucket/bucket-provider'
import { GcsProvider } from '../../src/main/bucket/gcs-provider'
import { LocalFolderProvider } from '../../src/main/bucket/local-provider'
import { S3Provider } from '../../src/main/bucket/s3-provider'
import { MemorySecretStore } from '../../src/main/connections/secret-store'
import { Workspace } from '../../src/main/workspace/workspace'
import type { HourDetail, Overview, TimelineView } from '../../src/shared/api/views'
import { type Demo, readDemo } from '../helpers/demo'
import { type GcsServer, startGcsServer } from '../helpers/gcs-server'
import { type HungServer, type StallingProxy, requestPath, startHungServer, startStallingProxy } from '../helpers/hung-server'
import { S3_TEST_KEYS, type S3Server, startS3Server } from '../helpers/s3-server'

const BUCKET = 'export-bucket'
const ROOT = 'exports/acme/'
const SHORT: RequestTimeouts = { connectMs: 1000, idleMs: 1000 }
/** Long enough that only an abort can end the wait within a test. */
const LONG: RequestTimeouts = { connectMs: 1000, idleMs: 60_000 }
const DATA_KEY = 'v2/datamart_claudia/claudia_messages/etl_date=2026-11-03/etl_hour=03/part-00000.parquet'

let demo: Demo
let s3: S3Server
let s3Proxy: StallingProxy
let silent: HungServer
let stalledBody: HungServer
let work: string
let dataKey: string
let manifestKeys: string[]

/**
 * The demo's last two days (and the objects of its planted faults): the refreshes here stall one request of a first
 * refresh, which needs an export, not eight days of one. A first refresh of the whole 8-day bucket over s3rver costs
 * ~20 CPU s between the client and the server, and this file runs alone, one core idle; the bound on an overview
 * answering counted the whole first listing too.
 */
const recent = (demo: Demo): ((key: string) => boolean) => {
  const from = new Date(Date.parse(demo.expected.now) - 2 * 86_400_000).toISOString().slice(0, 10)
  const faults = new Set(demo.expected.faults.map((f) => f.key))
  return (key) => {
    const date = /(?:snapshot|etl)_date=(\d{4}-\d\d-\d\d)/.exec(key)?.[1]
    return date === undefined || date >= from || faults.has(key)
  }
}

beforeAll(async () => {
  demo = await readDemo({ days: 8 })
  work = await mkdtemp(join(tmpdir(), 'ee-hangs-'))
  const keep = recent(demo)
  const keys: string[] = []
  let readable: string | undefined
  for await (const o of listAll(new LocalFolderProvider(demo.bucketDir), '')) {
    if (!keep(o.key)) continue
    keys.push(o.key)
    if (!readable && o.key.endsWith('.parquet') && o.key.startsWith('v2/') && o.storageClass === 'STANDARD') readable = o.key
  }
  dataKey = readable ?? DATA_KEY
  manifestKeys = keys.filter((k) => k.startsWith('v2/_manifests/') && k.endsWith('manifest.json'))
  s3 = await startS3Server()
  await s3.seed(BUCKET, demo.bucketDir, ROOT, keep)
  s3Proxy = await startStallingProxy(s3.endpoint)
  silent = await startHungServer('silent')
  stalledBody = await startHungServer('body')
}, 120_000)
afterAll(async () => {
  await s3Proxy?.close()
  await s3?.close()
  await silent?.close()
  await stalledBody?.close()
  await demo?.cleanup()
  if (work) await rm(work, { recursive: true, force: true, maxRetries: 5 })
})

const s3At = (endpoint: string, timeouts: RequestTimeouts): S3Provider =>
  new S3Provider({ bucket: BUCKET, prefix: ROOT, endpoint, region: 'us-east-1', credentials: { kind: 'static', ...S3_TEST_KEYS }, timeouts })

/** How a promise ended, and after how many ms from now. */
async function outcome(p: Promise<unknown>): Promise<{ error: BucketError | null; ms: number; value: unknown }> {
  const t0 = Date.now()
  try {
    const value = await p
    return { error: null, ms: Date.now() - t0, value }
  } catch (e) {
    if (!(e instanceof BucketError)) throw new Error(`not a BucketError: ${String(e)}`)
    return { error: e, ms: Date.now() - t0, value: undefined }
  }
}

const drain = async (s: Readable): Promise<number> => {
  let n = 0
  for await (const c of s) n += (c as Buffer).length
  return n
}

const listing = async (p: BucketProvider, prefix: string, signal?: AbortSignal): Promise<number> => {
  let n = 0
  for await (const page of p.list(prefix, signal ? { signal } : {})) n += page.objects.length
  return n
}

/** The calls of the interface, each about `key`, with a signal. */
const calls = (p: BucketProvider, key: string): [string, (signal?: AbortSignal) => Promise<unknown>][] => [
  ['list', (signal) => listing(p, key, signal)],
  ['head', (signal) => p.head(key, signal)],
  ['readRange', (signal) => p.readRange(key, { start: 0, end: 99 }, signal)],
  ['readStream', async (signal) => drain(await p.readStream(key, signal))],
  ['restore', (signal) => p.restore(key, 1, 'Standard', signal)]
]

/**
 * A silent server of the test's own, closed after it: the cases of a group run side by side (each mostly waits on a
 * timeout), so each counts its requests on a server no other case asks.
 */
async function withSilent<T>(run: (server: HungServer) => Promise<T>): Promise<T> {
  const server = await startHungServer('silent')
  try {
    return await run(server)
  } finally {
    await server.close()
  }
}

/** Aborts 300 ms after the call starts (it is then stuck on the server) and measures how long it takes to end. */
async function abortedAfter(run: (signal: AbortSignal) => Promise<unknown>): Promise<{ error: BucketError | null; ms: number }> {
  const abort = new AbortController()
  const p = outcome(run(abort.signal))
  await new Promise((r) => setTimeout(r, 300))
  const t0 = Date.now()
  abort.abort()
  const r = await p
  return { error: r.error, ms: Date.now() - t0 }
}

// Its cases run side by side: each waits on its own timeout or abort, not on the others.
describe.concurrent('S3 provider against a server that accepts and never answers', () => {
  it.each(calls(s3At('http://unused', SHORT), DATA_KEY).map(([name]) => name))(
    '%s fails with a timeout naming the key within the idle timeout, asked once',
    (name) =>
      withSilent(async (own) => {
        const [, run] = calls(s3At(own.endpoint, SHORT), dataKey).find(([n]) => n === name)!
        const r = await outcome(run())
        expect(r.error?.kind).toBe('timeout')
        expect(r.error?.userMessage).toContain(dataKey)
        expect(r.error?.userMessage).toMatch(/sent nothing for 1 s.*check the network/)
        expect(r.ms).toBeGreaterThanOrEqual(900)
        expect(r.ms).toBeLessThan(2500)
        // A timeout is final: neither the SDK (5 attempts) nor withRetry asked again.
        expect(own.accepted()).toBe(1)
      })
  )

  it.each(calls(s3At('http://unused', LONG), DATA_KEY).map(([name]) => name))('%s ends as cancelled within 2 s of an abort', async (name) => {
    const [, run] = calls(s3At(silent.endpoint, LONG), dataKey).find(([n]) => n === name)!
    const r = await abortedAfter(run)
    expect(r.error?.kind).toBe('cancelled')
    expect(r.error?.key).toBe(dataKey)
    expect(r.ms).toBeLessThan(2000)
  })

  it('refuses at once when the signal has already aborted, without a request', () =>
    withSilent(async (own) => {
      const abort = new AbortController()
      abort.abort()
      for (const [, run] of calls(s3At(own.endpoint, LONG), dataKey)) {
        const r = await outcome(run(abort.signal))
        expect(r.error?.kind).toBe('cancelled')
        expect(r.ms).toBeLessThan(200)
      }
      expect(own.accepted()).toBe(0)
    }))
})

describe('S3 provider when the body stalls after the headers', () => {
  // The cases without the shared proxy run side by side; those that set what it stalls, one after the other.
  it.concurrent('a ranged read and a whole-object stream fail with a timeout naming the key (a server that stalls the body)', async () => {
    const p = s3At(stalledBody.endpoint, SHORT)
    const range = await outcome(p.readRange(dataKey, { start: 0, end: 99_999 }))
    expect(range.error?.kind).toBe('timeout')
    expect(range.error?.userMessage).toContain(dataKey)
    expect(range.ms).toBeLessThan(2500)
    const stream = await outcome(p.readStream(dataKey).then(drain))
    expect(stream.error?.kind).toBe('timeout')
    expect(stream.error?.key).toBe(dataKey)
    expect(stream.ms).toBeLessThan(2500)
  })

  it.concurrent('an abort ends a stream stalled mid-body within 2 s, as cancelled', async () => {
    const p = s3At(stalledBody.endpoint, LONG)
    const r = await abortedAfter(async (signal) => drain(await p.readStream(dataKey, signal)))
    expect(r.error?.kind).toBe('cancelled')
    expect(r.error?.key).toBe(dataKey)
    expect(r.ms).toBeLessThan(2000)
  })

  it.concurrent('a slow reader is not a stalled server: backpressure does not time out', async () => {
    // Larger than every buffer between s3rver and the reader, so the server really waits for the reader.
    const size = 48 * 1024 * 1024
    await s3.put(BUCKET, `${ROOT}big/blob.bin`, Buffer.alloc(size, 7), new Date())
    const p = s3At(s3.endpoint, { connectMs: 1000, idleMs: 1000 })
    const stream = await p.readStream('big/blob.bin')
    // Nothing read for three idle timeouts, then all of it.
    await new Promise((r) => setTimeout(r, 3000))
    expect(await drain(stream)).toBe(size)
  })

  it('a proxy in front of s3rver stalls one key: its stream times out, the others read', async () => {
    s3Proxy.stall = (req) => (requestPath(req) === `/${BUCKET}/${ROOT}${dataKey}` ? 'body' : null)
    try {
      const p = s3At(s3Proxy.endpoint, SHORT)
      const whole = await readFile(join(demo.bucketDir, dataKey))
      const stalled = await outcome(p.readStream(dataKey).then(drain))
      expect(stalled.error?.kind).toBe('timeout')
      expect(stalled.error?.userMessage).toContain(dataKey)
      expect(stalled.ms).toBeLessThan(2500)
      const other = manifestKeys[0]!
      expect(await drain(await p.readStream(other))).toBe((await readFile(join(demo.bucketDir, other))).length)
      s3Proxy.stall = () => null
      expect(await drain(await p.readStream(dataKey))).toBe(whole.length)
    } finally {
      s3Proxy.stall = () => null
    }
  })

  it('a refusal whose error body stalls (an archived object) times out once, not once per SDK attempt', async () => {
    const archived = demo.expected.faults.find((f) => f.kind === 'archived')!.key!
    s3Proxy.stalled.length = 0
    s3Proxy.stall = (req) => (requestPath(req) === `/${BUCKET}/${ROOT}${archived}` ? 'body' : null)
    try {
      const r = await outcome(s3At(s3Proxy.endpoint, SHORT).readRange(archived, { start: 0, end: 3 }))
      expect(r.error?.kind).toBe('timeout')
      expect(r.error?.key).toBe(archived)
      expect(r.ms).toBeLessThan(2500)
      expect(s3Proxy.stalled).toHaveLength(1)
    } finally {
      s3Proxy.stall = () => null
    }
  })
})

describe('GCS provider (the Storage emulator) against servers that hang', () => {
  let gcs: GcsServer
  let gcsProxy: StallingProxy
  const GCS_TIMEOUTS: RequestTimeouts = { connectMs: 500, idleMs: 1000 }
  const gcsAt = (endpoint: string, timeouts: RequestTimeouts): GcsProvider =>
    new GcsProvider({ bucket: BUCKET, prefix: ROOT, endpoint, credentials: { kind: 'none' }, timeouts })

  beforeAll(async () => {
    gcs = await startGcsServer()
    // One object is enough here (seeding the whole demo bucket takes the emulator minutes).
    const folder = join(work, 'gcs-seed')
    await mkdir(join(folder, ...dataKey.split('/').slice(0, -1)), { recursive: true })
    await writeFile(join(folder, ...dataKey.split('/')), await readFile(join(demo.bucketDir, dataKey)))
    await gcs.seed(BUCKET, folder, ROOT)
    gcsProxy = await startStallingProxy(gcs.endpoint)
  }, 120_000)
  afterAll(async () => {
    await gcsProxy?.close()
    await gcs?.close()
  })

  // The GCS client can miss a connection cut mid-answer (node-fetch 2), which looks like silence: a timeout is
  // asked once more, so a silent server fails after two waits of connect + idle, never more.
  // The timeouts run side by side, each on a silent server of its own; the aborts side by side last: a call aborted
  // leaves the client's request behind until its own (long) timeout; the timeouts run beside those (and the proxy case) took 6 s.
  it.concurrent.each(['list', 'head', 'readRange', 'readStream'])('%s against a silent server fails with a timeout naming the key after two waits', (name) =>
    withSilent(async (own) => {
      const [, run] = calls(gcsAt(own.endpoint, GCS_TIMEOUTS), dataKey).find(([n]) => n === name)!
      const r = await outcome(run())
      expect(r.error?.kind).toBe('timeout')
      expect(r.error?.userMessage).toContain(dataKey)
      const wait = GCS_TIMEOUTS.connectMs + GCS_TIMEOUTS.idleMs
      expect(r.ms).toBeGreaterThanOrEqual(2 * wait - 100)
      expect(r.ms).toBeLessThan(2 * wait + 1500)
      expect(own.accepted()).toBe(2)
    })
  )

  it('a body stalled by a proxy in front of the emulator times out; abort ends it at once; unstalled it reads', async () => {
    const whole = await readFile(join(demo.bucketDir, dataKey))
    gcsProxy.stall = (req) => (req.url?.includes('alt=media') ? 'body' : null)
    try {
      const stalled = await outcome(gcsAt(gcsProxy.endpoint, GCS_TIMEOUTS).readStream(dataKey).then(drain))
      expect(stalled.error?.kind).toBe('timeout')
      expect(stalled.error?.userMessage).toContain(dataKey)
      // A stream is not asked again (its reader may have bytes already): one idle timeout after the headers.
      expect(stalled.ms).toBeLessThan(GCS_TIMEOUTS.idleMs + 1500)
      // A ranged read tries twice (a cut the GCS client missed looks like a stall): two idle timeouts.
      const before = gcsProxy.stalled.length
      const range = await outcome(gcsAt(gcsProxy.endpoint, GCS_TIMEOUTS).readRange(dataKey, { start: 0, end: 999 }))
      expect(range.error?.kind).toBe('timeout')
      expect(range.error?.key).toBe(dataKey)
      expect(range.ms).toBeLessThan(2 * GCS_TIMEOUTS.idleMs + 1500)
      expect(gcsProxy.stalled.length - before).toBe(2)
      const slow = gcsAt(gcsProxy.endpoint, LONG)
      const aborted = await abortedAfter(async (signal) => drain(await slow.readStream(dataKey, signal)))
      expect(aborted.error?.kind).toBe('cancelled')
      expect(aborted.ms).toBeLessThan(2000)
      expect(gcsProxy.stalled.length).toBeGreaterThanOrEqual(3)
    } finally {
      gcsProxy.stall = () => null
    }
    expect(await drain(await gcsAt(gcsProxy.endpoint, GCS_TIMEOUTS).readStream(dataKey))).toBe(whole.length)
  })

  it.concurrent.each(['list', 'head', 'readRange', 'readStream'])('%s ends as cancelled within 2 s of an abort', async (name) => {
    const [, run] = calls(gcsAt(silent.endpoint, LONG), dataKey).find(([n]) => n === name)!
    const r = await abortedAfter(run)
    expect(r.error?.kind).toBe('cancelled')
    expect(r.error?.key).toBe(dataKey)
    expect(r.ms).toBeLessThan(2000)
  })
})

describe('refresh and overview when a manifest GET or a listing never answers', () => {
  const manifestHour = (key: string): string => {
    const m = /snapshot_date=(\d{4}-\d\d-\d\d)\/snapshot_hour=(\d\d)\//.exec(key)!
    return `${m[1]}T${m[2]}:00:00.000Z`
  }
  const stallGet =
    (key: string, mode: 'silent' | 'body' = 'silent') =>
    (req: Parameters<StallingProxy['stall']>[0]) =>
      req.method === 'GET' && requestPath(req) === `/${BUCKET}/${ROOT}${key}` ? mode : null
  const waitUntil = async (what: () => boolean, ms = 20_000): Promise<void> => {
    const end = Date.now() + ms
    while (!what()) {
      if (Date.now() > end) throw new Error('timed out waiting')
      await new Promise((r) => setTimeout(r, 20))
    }
  }

  async function s3Workspace(name: string, timeouts: RequestTimeouts, clock: () => number): Promise<Workspace> {
    const w = new Workspace({ dataDir: join(work, name), secrets: new MemorySecretStore(), autoRefresh: false, clock, openOptions: { timeouts } })
    const { id } = await w.connectionSave({
      connection: {
        name: 'hangs',
        provider: 's3',
        bucket: BUCKET,
        prefix: ROOT,
        region: 'us-east-1',
        endpoint: s3Proxy.endpoint,
        auth: { kind: 'static', accessKeyId: S3_TEST_KEYS.accessKeyId }
      } as never,
      secretAccessKey: S3_TEST_KEYS.secretAccessKey
    })
    await w.connectionOpen({ id })
    return w
  }

  it('refreshCancel ends a refresh stuck on a manifest GET within 2 s; the previous timeline stays', async () => {
    const now = Date.parse(demo.expected.now)
    let clock = now
    const w = await s3Workspace('cancel', LONG, () => clock)
    try {
      await w.running
      expect(w.refreshStatus().lastError).toBeNull()
      const g0 = w.refreshStatus().generation
      const before = await dispatch(w, 'timeline', { fromHours: 48 })
      expect(before.ok).toBe(true)

      // The next hour's manifest arrives; its GET never answers.
      const next = new Date(Math.floor(now / 3_600_000) * 3_600_000 + 3_600_000)
      const key = `v2/_manifests/snapshot_date=${next.toISOString().slice(0, 10)}/snapshot_hour=${next.toISOString().slice(11, 13)}/manifest.json`
      await s3.put(
        BUCKET,
        ROOT + key,
        JSON.stringify({
          snapshot_date: next.toISOString().slice(0, 10),
          snapshot_hour: next.toISOString().slice(11, 13),
          complete: true,
          tables_delivered: []
        }),
        new Date(next.getTime() + 30 * 60_000)
      )
      s3Proxy.stalled.length = 0
      s3Proxy.stall = stallGet(key)
      clock = next.getTime() + 50 * 60_000
      await w.refresh({ full: false })
      await waitUntil(() => s3Proxy.stalled.length > 0)
      expect(w.refreshStatus().running).toBe(true)

      const t0 = Date.now()
      w.refreshCancel()
      await w.running
      expect(Date.now() - t0).toBeLessThan(2000)
      const s = w.refreshStatus()
      expect(s.running).toBe(false)
      expect(s.lastError).toMatch(/cancelled/)
      expect(s.generation).toBe(g0)
      // What was shown is what is shown (the service's timeline is the same one, evaluated at the same instant).
      clock = now
      expect(await dispatch(w, 'timeline', { fromHours: 48 })).toEqual(before)

      // Unstalled, the next refresh reads the manifest and succeeds.
      s3Proxy.stall = () => null
      clock = next.getTime() + 50 * 60_000
      await w.refresh({ full: false })
      await w.running
      expect(w.refreshStatus().lastError).toBeNull()
      expect(w.refreshStatus().generation).toBe(g0 + 1)
      const after = (await dispatch(w, 'timeline', { fromHours: 48 })) as { ok: true; result: TimelineView }
      expect(after.result.hours.find((h) => h.start === next.toISOString())?.manifest).toMatch(/^(complete|incomplete)$/)
    } finally {
      s3Proxy.stall = () => null
      await w.dispose()
    }
  }, 30_000)

  it('overview during a first refresh stuck on a manifest GET answers once the idle timeout fires, naming the manifest', async () => {
    const key = manifestKeys.at(-2)!
    s3Proxy.stalled.length = 0
    s3Proxy.stall = stallGet(key)
    const now = Date.parse(demo.expected.now)
    const w = await s3Workspace('overview', { connectMs: 1000, idleMs: 1500 }, () => now)
    try {
      const t0 = Date.now()
      const overview = await dispatch(w, 'overview', {})
      const ms = Date.now() - t0
      expect(overview.ok).toBe(true)
      expect(s3Proxy.stalled).toHaveLength(1)
      expect(ms).toBeGreaterThanOrEqual(1400)
      expect(ms).toBeLessThan(15_000)
      expect((overview as { ok: true; result: Overview }).result.location).toBe(`s3://${BUCKET}/${ROOT}`)
      // The hour whose manifest did not answer says so, with the key and what to do.
      const hour = (await dispatch(w, 'hour', { start: manifestHour(key) })) as { ok: true; result: HourDetail }
      expect(hour.result.manifest?.state).toBe('malformed')
      expect(hour.result.manifest?.warnings.join(' ')).toMatch(new RegExp(`sent nothing for 1.5 s \\(${key.replace(/[.]/g, '\\.')}\\).*check the network`))
    } finally {
      s3Proxy.stall = () => null
      await w.dispose()
    }
  }, 30_000)

  it('overview during a first refresh whose listing of a table never answers lists the rest and names that table', async () => {
    const table = 'v2/datamart_claudia/claudia_csat/'
    s3Proxy.stalled.length = 0
    s3Proxy.stall = (req) => (new URL(req.url ?? '/', 'http://x').searchParams.get('prefix')?.startsWith(ROOT + table) ? 'silent' : null)
    const now = Date.parse(demo.expected.now)
    const w = await s3Workspace('listing', { connectMs: 1000, idleMs: 1500 }, () => now)
    try {
      const t0 = Date.now()
      const overview = (await dispatch(w, 'overview', {})) as { ok: true; result: Overview }
      expect(overview.ok).toBe(true)
      expect(Date.now() - t0).toBeLessThan(15_000)
      expect(s3Proxy.stalled.length).toBeGreaterThan(0)
      const problems = overview.result.problems.filter((p) => p.startsWith(table))
      expect(problems.length).toBe(s3Proxy.stalled.length)
      expect(problems[0]).toMatch(/The server sent nothing for 1.5 s .*check the network/)
      // The other tables were listed.
      expect(overview.result.tables.find((t) => t.table === 'claudia_messages')?.folders).toBeGreaterThan(0)
    } finally {
      s3Proxy.stall = () => null
      await w.dispose()
    }
  }, 30_000)

  it('overview waiting on a stuck first refresh answers with a clear error within 2 s of refreshCancel', async () => {
    const key = manifestKeys.at(-3)!
    s3Proxy.stalled.length = 0
    s3Proxy.stall = stallGet(key, 'body')
    const now = Date.parse(demo.expected.now)
    const w = await s3Workspace('overview-cancel', LONG, () => now)
    try {
      const pending = dispatch(w, 'overview', {})
      await waitUntil(() => s3Proxy.stalled.length > 0)
      const t0 = Date.now()
      w.refreshCancel()
      const overview = await pending
      expect(Date.now() - t0).toBeLessThan(2000)
      expect(overview).toMatchObject({ ok: false })
      expect((overview as { error: string }).error).toMatch(/cancelled/i)
      expect(w.refreshStatus().lastError).toMatch(/cancelled/)
    } finally {
      s3Proxy.stall = () => null
      await w.dispose()
    }
  }, 30_000)
})
