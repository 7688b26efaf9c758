// What the local mirror costs, shown and controlled through the workspace's calls and pushed events: progress of a
// build (tables, folders, files, bytes, time left) as mirrorProgress and mirrorStatus, on the generated demo bucket;
// over the S3 test server, a build cancelled part-way and resumed ends with the same mirror as an uninterrupted
// one (segments, and every parts table's rows in native DuckDB), clear empties it and the next refresh builds it
// again, and a disk limit stops the build with a message while the tables read the bucket's files.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { dispatch } from '../../src/main/api-handlers'
import { refreshBucketIndex } from '../../src/main/bucket/bucket-index'
import { LocalFolderProvider } from '../../src/main/bucket/local-provider'
import { MemorySecretStore } from '../../src/main/connections/secret-store'
import { openBucketEngine } from '../../src/main/engine/open-bucket-engine'
import { fileStoreFor } from '../../src/main/store/connection-files'
import { Mirror } from '../../src/main/mirror/mirror'
import { Workspace } from '../../src/main/workspace/workspace'
import type { ApiName, ArgsOf, ResultOf } from '../../src/shared/api/calls'
import type { MirrorStatusView } from '../../src/shared/api/views'
import { CATALOG } from '../../src/shared/catalog'
import { buildInventory } from '../../src/shared/inventory'
import type { MirroredSegment } from '../../src/shared/mirror-plan'
import { quoteIdent } from '../../src/shared/sql-quote'
import { type Demo, generateDemo } from '../helpers/demo'
import { S3_TEST_KEYS, type S3Server, startS3Server } from '../helpers/s3-server'

const BUCKET = 'mirror-status'
const PARTS = CATALOG.filter((t) => t.mode === 'parts')
let demo: Demo
let s3: S3Server
let work: string
const workspaces: Workspace[] = []

beforeAll(async () => {
  demo = await generateDemo({ days: 8 })
  // No archived object: the raw files, the reference here, then give every parts table (the raw path refuses a table that needs one).
  await writeFile(join(demo.bucketDir, '.export-explorer', 'storage-classes.json'), '{}')
  s3 = await startS3Server()
  await s3.seed(BUCKET, demo.bucketDir)
  work = await mkdtemp(join(tmpdir(), 'ee-mirror-status-'))
}, 300_000)
afterAll(async () => {
  for (const w of workspaces) await w.dispose()
  await s3?.close()
  await demo?.cleanup()
  if (work) await rm(work, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 })
})

const now = (): number => Date.parse(demo.expected.now)

async function call<N extends ApiName>(w: Workspace, name: N, args: ArgsOf<N>): Promise<ResultOf<N>> {
  const reply = await dispatch(w, name, args)
  if (!reply.ok) throw new Error('refused' in reply ? reply.refused.message : reply.error)
  return reply.result as ResultOf<N>
}

/** Waits until no build runs, and answers the status then. */
async function settled(w: Workspace, ms = 240_000): Promise<MirrorStatusView> {
  const end = Date.now() + ms
  await w.running
  for (;;) {
    const s = await call(w, 'mirrorStatus', {})
    if (s.state !== 'running') return s
    if (Date.now() > end) throw new Error('the mirror build did not end')
    await new Promise((r) => setTimeout(r, 100))
  }
}

/** A workspace on the S3 test server's copy of the demo bucket, opened (its first refresh starts the mirror's build). */
async function s3Workspace(name: string, beforeOpen?: (w: Workspace, id: string) => Promise<void>): Promise<{ w: Workspace; id: string; dataDir: string }> {
  const dataDir = join(work, name)
  const w = new Workspace({ dataDir, secrets: new MemorySecretStore(), clock: now, autoRefresh: false })
  workspaces.push(w)
  const { id } = await call(w, 'connectionSave', {
    connection: {
      name: 'S3 test',
      provider: 's3',
      bucket: BUCKET,
      prefix: '',
      endpoint: s3.endpoint,
      region: 'us-east-1',
      auth: { kind: 'static', accessKeyId: S3_TEST_KEYS.accessKeyId }
    },
    secretAccessKey: S3_TEST_KEYS.secretAccessKey
  } as unknown as ArgsOf<'connectionSave'>)
  await beforeOpen?.(w, id)
  await call(w, 'connectionOpen', { id })
  return { w, id, dataDir }
}

/**
 * One workspace over S3 whose first build ran whole, for the file: the cancel test's reference, then the clear and
 * limit test's start (it clears that mirror, after the cancel test has compared with it). A first refresh and build
 * over s3rver costs ~20 CPU s between the client and the server; made once, not per test.
 */
let whole: Promise<{ w: Workspace; id: string; dataDir: string; done: MirrorStatusView }> | null = null
const wholeBuild = (): NonNullable<typeof whole> => (whole ??= s3Workspace('whole').then(async (o) => ({ ...o, done: await settled(o.w) })))

const segmentsOf = async (dataDir: string, id: string): Promise<MirroredSegment[]> =>
  new Mirror(join(dataDir, 'mirror', id), fileStoreFor(new LocalFolderProvider(demo.bucketDir), dataDir, id)).segments()
const comparable = (segments: readonly MirroredSegment[]): unknown[] =>
  segments.map((s) => ({
    table: s.table,
    period: s.period,
    identity: s.identity,
    file: s.file,
    rows: s.rows,
    columns: s.columns,
    types: s.types,
    folders: s.folders.length
  }))

/** Each parts table's row count and an order-free hash of its rows and versions, read by native DuckDB (from `mirrorDir`'s mirror, or the raw files). */
async function tableDigests(mirrorDir: string | null): Promise<Record<string, string>> {
  const provider = new LocalFolderProvider(demo.bucketDir)
  const { index } = await refreshBucketIndex(provider, null, { now: now() })
  const inventory = buildInventory(index.objects.values(), { now: now() })
  const store = fileStoreFor(provider, join(work, 'raw'), 'raw')
  const mirror = mirrorDir ? new Mirror(mirrorDir, store) : undefined
  const be = await openBucketEngine(store, inventory, index.objects, join(work, 'engines', String(Math.random()).slice(2)), {
    now: now(),
    ...(mirror ? { mirror } : {})
  })
  try {
    const out: Record<string, string> = {}
    for (const v of PARTS.flatMap((t) => [t.table, `${t.table}__versions`])) {
      const cols = (await be.engine.selectAll(`DESCRIBE SELECT * FROM ${quoteIdent(v)}`)).rows.map((r) => String(r[0])).sort()
      // Compared as text: the mirror unifies a column's type over its history (BIGINT then DOUBLE) as DuckDB combines the files.
      const packed = cols.map((c) => `${quoteIdent(c)} := ${quoteIdent(c)}::VARCHAR`).join(', ')
      const r = await be.engine.selectAll(`SELECT count(*)::VARCHAR || '/' || coalesce(sum(hash(struct_pack(${packed})))::VARCHAR, '0') FROM ${quoteIdent(v)}`)
      out[v] = `${cols.join(',')}|${String(r.rows[0]?.[0])}`
    }
    return out
  } finally {
    await be.engine.close()
  }
}

/** The raw files' digests: the bucket and the instant never change in this file, so they are read once (~2.5 s each time). */
let raw: Promise<Record<string, string>> | null = null
const rawDigests = (): Promise<Record<string, string>> => (raw ??= tableDigests(null))

describe('the mirror, shown', () => {
  it('pushes the build progress (tables, folders, files, bytes, time left) and ends ready, every parts table held whole, on the demo bucket', async () => {
    const w = new Workspace({
      dataDir: join(work, 'demo'),
      secrets: new MemorySecretStore(),
      demo: { bucketDir: demo.bucketDir, now: now() },
      autoRefresh: false
    })
    workspaces.push(w)
    const events: MirrorStatusView[] = []
    w.events.on((e) => e.name === 'mirrorProgress' && events.push(e.payload))
    await w.sessionOrOpenFirst()
    const done = await settled(w)
    expect(done.state).toBe('done')
    expect(done.message).toBeNull()
    expect(done.progress).toBeNull()
    // Every parts table, whole: a folder of each the rules read is in the mirror.
    expect(done.tables.map((t) => t.table).sort()).toEqual(PARTS.map((t) => `${t.schema}.${t.table}`).sort())
    for (const t of done.tables) {
      expect(t.foldersTotal).toBeGreaterThan(10)
      expect([t.table, t.folders]).toEqual([t.table, t.foldersTotal])
      expect(t.bytes).toBeGreaterThan(0)
    }
    // Disk use: the segments (a local folder is read in place: nothing downloaded), and the default limit, saved.
    expect(done.usage.mirror).toBe(done.tables.reduce((n, t) => n + t.bytes, 0))
    expect(done.usage).toMatchObject({ downloaded: 0, total: done.usage.mirror })
    expect(done.limit?.chosen).toBe(false)
    expect(done.limit?.bytes).toBeGreaterThan(0)
    expect(JSON.parse(await readFile(join(work, 'demo', 'mirror-limits.json'), 'utf8'))).toEqual({ demo: done.limit })
    expect(done.last).toMatchObject({ problems: [] })
    expect(done.last?.built).toBeGreaterThan(0)

    const during = events.filter((e) => e.state === 'running' && e.progress)
    expect(during.length).toBeGreaterThan(0)
    const p = during.at(-1)!.progress!
    expect(p).toMatchObject({ tablesTotal: 3, segmentsTotal: done.last!.built })
    expect(p.foldersTotal).toBe(done.tables.reduce((n, t) => n + t.foldersTotal, 0))
    expect(p.filesTotal).toBeGreaterThanOrEqual(p.foldersTotal)
    expect(p.bytesTotal).toBeGreaterThan(0)
    for (const e of during) {
      const q = e.progress!
      expect(q.bytes).toBeLessThanOrEqual(q.bytesTotal)
      expect(q.files).toBeLessThanOrEqual(q.filesTotal)
      expect(q.folders).toBeLessThanOrEqual(q.foldersTotal)
      expect(q.secondsLeft === null || q.secondsLeft >= 0).toBe(true)
    }
    // Moving forward, and the last event is the end.
    expect(during.map((e) => e.progress!.bytes)).toEqual([...during.map((e) => e.progress!.bytes)].sort((a, b) => a - b))
    expect(events.at(-1)?.state).toBe('done')

    // The query pane gets the mirror as it is, without waiting, and a new version once a build ends.
    const before = await call(w, 'engineSource', { asOf: null })
    expect(before.mirror.length).toBeGreaterThan(0)
    await call(w, 'refresh', { full: false })
    await settled(w)
    expect((await call(w, 'engineSource', { asOf: null })).version).not.toBe(before.version)
  }, 300_000)

  it('cancelled part-way over S3, keeps what it built; resumed, ends with the same mirror as an uninterrupted build', async () => {
    const whole = await wholeBuild()
    const wholeDone = whole.done
    expect(wholeDone.state).toBe('done')
    // Over S3 the bucket's files are downloaded for the build: that is disk use too.
    expect(wholeDone.usage.downloaded).toBeGreaterThan(0)
    const reference = await segmentsOf(whole.dataDir, whole.id)
    expect(reference.length).toBeGreaterThan(3)

    let cancelled: Promise<MirrorStatusView> | null = null
    const parts = await s3Workspace('parts', async (w) => {
      w.events.on((e) => {
        if (e.name === 'mirrorProgress' && !cancelled && e.payload.progress && e.payload.progress.segments >= 2) cancelled = call(w, 'mirrorCancel', {})
      })
    })
    await parts.w.running
    const end = Date.now() + 240_000
    while (!cancelled && Date.now() < end) await new Promise((r) => setTimeout(r, 20))
    expect(cancelled).not.toBeNull()
    const stopped = await cancelled!
    expect(stopped.state).toBe('cancelled')
    expect(stopped.message).toMatch(/^Cancelled: the mirror keeps what it built \(\d+ of \d+ folders\)\. Resume, or the next refresh, goes on from there/)
    const kept = await segmentsOf(parts.dataDir, parts.id)
    expect(kept.length).toBeGreaterThanOrEqual(2)
    expect(kept.length).toBeLessThan(reference.length)
    // What was kept is what the uninterrupted build made (a table not yet unified may differ in its types: it reads the raw files meanwhile).
    const held = stopped.tables.reduce((n, t) => n + t.folders, 0)
    expect(held).toBe(kept.reduce((n, s) => n + s.folders.length, 0))
    expect(held).toBeLessThan(stopped.tables.reduce((n, t) => n + t.foldersTotal, 0))
    // Meanwhile the tables read right: from the part of the mirror that is whole, the rest from the bucket's files.
    const raw = await rawDigests()
    expect(await tableDigests(join(parts.dataDir, 'mirror', parts.id))).toEqual(raw)

    await call(parts.w, 'mirrorResume', {})
    const resumed = await settled(parts.w)
    expect(resumed.state).toBe('done')
    // Only what was not built yet was built.
    expect(resumed.last!.built).toBe(reference.length - kept.length)
    expect(comparable(await segmentsOf(parts.dataDir, parts.id))).toEqual(comparable(reference))
    const a = await tableDigests(join(whole.dataDir, 'mirror', whole.id))
    expect(await tableDigests(join(parts.dataDir, 'mirror', parts.id))).toEqual(a)
    expect(a).toEqual(raw)
  }, 600_000)

  it('clears the mirror and its downloaded files (the next refresh builds it again); stops at the disk limit with a message, the tables reading the bucket meanwhile', async () => {
    const { w, id, dataDir, done: first } = await wholeBuild()
    expect(first.state).toBe('done')

    const cleared = await call(w, 'mirrorClear', {})
    expect(cleared).toMatchObject({ state: 'idle', usage: { mirror: 0, downloaded: 0, total: 0 }, last: null })
    expect(cleared.tables.every((t) => t.folders === 0)).toBe(true)
    expect(existsSync(join(dataDir, 'mirror', id))).toBe(false)
    expect(await segmentsOf(dataDir, id)).toEqual([])

    // A limit that holds a part of the mirror only: the first table's downloads, about.
    const limit = Math.floor(first.usage.total / 4)
    const set = await call(w, 'mirrorSetLimit', { bytes: limit })
    expect(set.limit).toEqual({ bytes: limit, chosen: true })
    expect(JSON.parse(await readFile(join(dataDir, 'mirror-limits.json'), 'utf8'))[id]).toEqual({ bytes: limit, chosen: true })
    await call(w, 'refresh', { full: false })
    const atLimit = await settled(w)
    expect(atLimit).toMatchObject({ state: 'cancelled', atLimit: true })
    expect(atLimit.message).toMatch(
      /^The local mirror stopped at its limit: it uses .* of the .* allowed for this connection, and datamart_\w+\.\w+ \(.+\) needs .* more\. Raise the limit or clear the mirror; what it does not hold yet is read from the bucket's files meanwhile\.$/
    )
    expect(atLimit.usage.total).toBeLessThanOrEqual(limit)
    const partial = await segmentsOf(dataDir, id)
    expect(partial.length).toBeGreaterThan(0)
    expect(atLimit.tables.some((t) => t.folders < t.foldersTotal)).toBe(true)
    expect(await tableDigests(join(dataDir, 'mirror', id))).toEqual(await rawDigests())

    // Back to the default (a share of the free space), and resumed: it completes.
    const back = await call(w, 'mirrorSetLimit', { bytes: null })
    expect(back.limit?.chosen).toBe(false)
    await call(w, 'mirrorResume', {})
    const done = await settled(w)
    expect(done.state).toBe('done')
    expect(done.tables.every((t) => t.folders === t.foldersTotal)).toBe(true)
  }, 600_000)

  it('checks the arguments of the mirror calls', async () => {
    const w = workspaces[0]!
    for (const bad of [{ bytes: -1 }, { bytes: 1.5 }, { bytes: '10' }, {}, { bytes: 1, x: 1 }])
      expect((await dispatch(w, 'mirrorSetLimit', bad)).ok).toBe(false)
    expect((await dispatch(w, 'mirrorCancel', { now: true })).ok).toBe(false)
  })
})
