// Main's engine (native DuckDB 1.5 over the local file store) on a generated bucket, from a local folder and
// from the S3 server: every logical table equals the generator's truth; objects are downloaded once; the engine
// reads nothing but the views' files and writes nothing but its own scratch files. (A query cancelled within a
// second, timed on the wall clock: engine-cancel.test.ts, which runs alone.)
import { mkdtemp, readFile, readdir, rm, stat, utimes, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CATALOG } from '../../src/shared/catalog'
import { refreshBucketIndex } from '../../src/main/bucket/bucket-index'
import type { BucketProvider } from '../../src/main/bucket/bucket-provider'
import { LocalFolderProvider } from '../../src/main/bucket/local-provider'
import { S3Provider } from '../../src/main/bucket/s3-provider'
import { toJsonValue } from '../../src/main/engine/json-values'
import type { NativeEngine } from '../../src/main/engine/native-engine'
import { type BucketEngine, openBucketEngine } from '../../src/main/engine/open-bucket-engine'
import { fileStoreFor } from '../../src/main/store/connection-files'
import { FileStore, type StoreProgress } from '../../src/main/store/file-store'
import { buildInventory } from '../../src/shared/inventory'
import type { ListedObject } from '../../src/shared/listing'
import { quoteIdent, quoteLiteral } from '../../src/shared/sql-quote'
import { type Demo, generateDemo } from '../helpers/demo'
import { S3_TEST_KEYS, type S3Server, startS3Server } from '../helpers/s3-server'
import { copyTree } from '../helpers/copy-tree'
import { withReadStream } from '../helpers/provider-wrappers'

let demo: Demo
let s3: S3Server
let work: string

beforeAll(async () => {
  demo = await generateDemo({ days: 8 })
  s3 = await startS3Server()
  // The planted GLACIER object would (rightly) stop claudia_messages; these tests read every table.
  await writeFile(join(demo.bucketDir, '.export-explorer', 'storage-classes.json'), '{}')
  await s3.seed('engine', demo.bucketDir)
  work = await mkdtemp(join(tmpdir(), 'ee-engine-'))
}, 300_000)
afterAll(async () => {
  await s3?.close()
  await demo?.cleanup()
  await rm(work, { recursive: true, force: true })
})

const progress: { done: number; total: number; table: string }[][] = []

async function open(provider: BucketProvider, name: string, opts: { asOf?: number; onDownload?: (p: StoreProgress) => void } = {}): Promise<BucketEngine> {
  const now = Date.parse(demo.expected.now)
  const { index } = await refreshBucketIndex(provider, null, { now })
  const events: { done: number; total: number; table: string }[] = []
  progress.push(events)
  const store = fileStoreFor(provider, join(work, 'data'), name)
  return openBucketEngine(store, buildInventory(index.objects.values()), index.objects, join(work, 'engines', `${name}-${progress.length}`), {
    now,
    ...opts,
    onProgress: (p) => events.push(p)
  })
}

/** Every row of the user's SQL as JSON values. */
async function rows(engine: NativeEngine, sql: string): Promise<unknown[][]> {
  const r = await engine.selectAll(sql)
  return r.rows.map((row) => row.map((v) => toJsonValue(v)))
}

const s3Provider = (): S3Provider =>
  new S3Provider({ bucket: 'engine', endpoint: s3.endpoint, region: 'us-east-1', credentials: { kind: 'static', ...S3_TEST_KEYS } })
const targets: [string, () => BucketProvider][] = [
  ['local folder', () => new LocalFolderProvider(demo.bucketDir)],
  ['S3 server', s3Provider]
]

describe.each(targets)('engine on %s', (name, make) => {
  let be: BucketEngine
  const downloads: StoreProgress[] = []
  beforeAll(async () => {
    be = await open(make(), name.replace(/\W/g, '-'), { onDownload: (p) => downloads.push(p) })
  }, 300_000)
  afterAll(async () => {
    await be?.engine.close()
  })

  it('is native DuckDB 1.5, creates every view, and every logical table equals the truth', async () => {
    expect(be.engine.version).toMatch(/^v1\.5\./)
    expect(be.views.problems).toEqual([])
    const events = progress.at(-1)!
    expect(events.map((e) => e.done)).toEqual([...Array(CATALOG.length + 1).keys()])
    for (const [table, e] of Object.entries(demo.expected.tables)) {
      expect([table, (await rows(be.engine, `SELECT count(*) AS n FROM ${quoteIdent(table)}`))[0]?.[0]]).toEqual([table, e.rows])
    }
    expect((await rows(be.engine, 'SELECT count(*) FROM datamart_claudia.claudia_messages'))[0]?.[0]).toBe(demo.expected.tables['claudia_messages']!.rows)
    // A local folder is read in place; a remote bucket's objects were downloaded whole.
    const last = downloads.at(-1)!
    if (name === 'local folder') expect(last.filesTotal).toBe(0)
    else {
      expect(last.files).toBe(last.filesTotal)
      expect(last.filesTotal).toBeGreaterThan(100)
    }
  })

  it('keeps the newest version of the tracked rows, and shows every version with its origin', async () => {
    for (const nv of demo.expected.newest_values) {
      const r = await rows(
        be.engine,
        `SELECT ${quoteIdent(nv.column)} FROM ${quoteIdent(nv.table)} WHERE ${quoteIdent(nv.key_column)} = ${quoteLiteral(nv.key)}`
      )
      expect([nv.key, r]).toEqual([nv.key, [[nv.value]]])
    }
    const r = await rows(
      be.engine,
      `SELECT count(*), count(DISTINCT _prefix), count(*) FILTER (WHERE _etl_date = '__initial__') > 0 FROM claudia_messages__versions`
    )
    expect(r[0]).toEqual([demo.expected.tables['claudia_messages']!.versions, demo.expected.tables['claudia_messages']!.ready_folders, true])
  })

  it('reports bad SQL and keeps working', async () => {
    await expect(be.engine.selectAll('SELEC 1')).rejects.toThrow(/syntax error/i)
    await expect(be.engine.selectAll('SELECT * FROM no_such_table')).rejects.toThrow(/no_such_table/)
    expect(await rows(be.engine, 'SELECT 41 + 1')).toEqual([[42]])
  })
})

describe('lock-down', () => {
  let be: BucketEngine
  beforeAll(async () => {
    be = await open(new LocalFolderProvider(demo.bucketDir), 'locked')
  }, 300_000)
  afterAll(async () => {
    await be?.engine.close()
  })

  it('refuses every way of reaching the disk, each with a clear message, and still answers queries', async () => {
    const secret = join(work, 'secret.txt')
    await writeFile(secret, 'aws_secret_access_key = not-for-sql\n')
    const outside = join(work, 'written-by-sql.csv')
    const attempts: [string, RegExp][] = [
      [`SELECT * FROM read_csv_auto(${quoteLiteral(secret)})`, /Permission Error.*disabled by configuration/],
      [`SELECT * FROM read_text(${quoteLiteral(secret)})`, /Permission Error/],
      [`SELECT * FROM glob(${quoteLiteral(`${work}/*`)})`, /Permission Error/],
      [`SELECT * FROM read_parquet(${quoteLiteral(join(demo.bucketDir, '..', '*.parquet'))})`, /Permission Error|No files found/],
      [`COPY (SELECT 1) TO ${quoteLiteral(outside)}`, /Permission Error.*cannot be read or written from SQL|Only queries that read run here/],
      [`COPY (SELECT 1) TO ${quoteLiteral(join(be.engine.scratchDir, 'x.csv'))}`, /Only queries that read run here/],
      [`ATTACH ${quoteLiteral(join(work, 'x.db'))}`, /Only queries that read run here/],
      ['INSTALL httpfs', /Only queries that read run here/],
      ['LOAD httpfs', /Only queries that read run here/],
      ['SET enable_external_access = true', /Only queries that read run here/],
      ['PRAGMA enable_profiling', /Only queries that read run here|locked|Permission/],
      ['CREATE TABLE t AS SELECT 1', /Only queries that read run here/],
      ['SELECT 1; SELECT 2', /one statement at a time/]
    ]
    for (const [sql, why] of attempts) await expect(be.engine.selectAll(sql), sql).rejects.toThrow(why)
    // Even the engine's own connection cannot turn external access on again, nor widen the allowed folders.
    await expect(be.engine.exec('SET enable_external_access = true')).rejects.toThrow(/Cannot enable external access/)
    await expect(be.engine.exec(`SET allowed_directories = ['/']`)).rejects.toThrow(/Cannot change allowed_directories/)
    expect(await readdir(work)).not.toContain('written-by-sql.csv')
    expect(await rows(be.engine, 'SELECT count(*) > 0 FROM claudia_messages')).toEqual([[true]])
  })
})

describe('file store', () => {
  it('downloads each object once, again only when it changed, and a cut download leaves nothing that looks whole', async () => {
    const provider = s3Provider()
    const first: StoreProgress[] = []
    const a = await open(provider, 'store-once', { onDownload: (p) => first.push(p) })
    await a.engine.close()
    const second: StoreProgress[] = []
    const b = await open(provider, 'store-once', { onDownload: (p) => second.push(p) })
    await b.engine.close()
    expect(first.at(-1)!.filesTotal).toBeGreaterThan(100)
    expect(second.at(-1)!.filesTotal).toBe(0)

    // A changed object (another ETag) is fetched anew; the old copy is never read for it.
    const store = fileStoreFor(provider, join(work, 'data'), 'store-once')
    const { index } = await refreshBucketIndex(provider, null, { now: Date.parse(demo.expected.now) })
    const obj = [...index.objects.values()].find((o) => o.key.includes('/claudia_messages/etl_date=') && o.key.endsWith('.parquet')) as ListedObject
    const changed = { ...obj, etag: '"another-version"' }
    expect(await store.has(obj)).toBe(true)
    expect(await store.has(changed)).toBe(false)
    const r = await store.ensure([changed])
    expect(r.failures).toEqual([])
    expect(r.paths.get(obj.key)).not.toBe(store.pathOf(obj))

    // A body cut in the middle: the object is reported, and no file under its final name exists.
    const cutting = withReadStream(provider, async (key, signal) => {
      const body: Readable = await provider.readStream(key, signal)
      let sent = 0
      return body.map((chunk: Buffer) => {
        sent += chunk.length
        if (sent > obj.size / 2) throw new Error('connection reset by peer')
        return chunk
      }) as Readable
    })
    const cutStore = fileStoreFor(cutting, join(work, 'data'), 'store-cut')
    const cut = await cutStore.ensure([obj])
    expect(cut.failures.map((f) => f.key)).toEqual([obj.key])
    expect(await cutStore.has(obj)).toBe(false)
    // Nothing at all (a small object is received in memory and never written when cut), or no file named whole.
    const left = await readdir(join(work, 'data', 'store', 'store-cut'), { recursive: true }).catch(() => [] as string[])
    expect(left.filter((f) => f.endsWith('.parquet'))).toEqual([])
  })

  it('fetches an object once when two callers want it at once, and never again one found not to be Parquet', async () => {
    const provider = s3Provider()
    const { index } = await refreshBucketIndex(provider, null, { now: Date.parse(demo.expected.now) })
    const objects = [...index.objects.values()].filter((o) => o.key.endsWith('.parquet') && o.size > 12).slice(0, 300)
    // Enough objects for the one look at the store's folders (SURVEY_FROM), so that path is the one tried.
    expect(objects.length).toBe(300)
    const garbled = objects[7] as ListedObject
    const gets = new Map<string, number>()
    const counting = withReadStream(provider, async (key, signal) => {
      gets.set(key, (gets.get(key) ?? 0) + 1)
      // Its listed size, but not Parquet: received in memory, found out there, and marked.
      if (key === garbled.key) return Readable.from([Buffer.alloc(garbled.size, 'x')])
      return provider.readStream(key, signal)
    })
    const store = new FileStore(join(work, 'data', 'store', 'store-twice'), counting, { concurrency: 2 })
    // Some held already (fewer than SURVEY_FROM: each checked on its own).
    expect((await store.ensure(objects.slice(0, 10))).failures.map((f) => f.key)).toEqual([garbled.key])
    gets.clear()
    // Two callers, from either end: past the middle, each finds what the other fetched.
    const [a, b] = await Promise.all([store.ensure(objects), store.ensure([...objects].reverse())])
    for (const r of [a, b]) {
      expect(r.failures.map((f) => f.key)).toEqual([garbled.key])
      expect(r.paths.size).toBe(objects.length - 1)
    }
    expect(gets.size).toBe(objects.length - 10)
    expect([...gets.values()].every((n) => n === 1)).toBe(true)
    expect(gets.has(garbled.key)).toBe(false)
    // The copies are the bucket's bytes.
    for (const o of objects.slice(20, 30)) expect(await readFile(a.paths.get(o.key) as string)).toEqual(await readFile(join(demo.bucketDir, o.key)))
    expect(await store.missing(objects)).toEqual([garbled])
  })
})

describe('engine details', () => {
  it('as of an hour, the views hold only what was delivered by then', async () => {
    const pending = demo.expected.planted_hours['missingAndPending']!
    // As of the end of that hour: its folders, ready by then (their _SUCCESS came before), and nothing later.
    const asOf = Date.parse(`${pending.date}T${pending.hour}:59:00Z`)
    const be = await open(new LocalFolderProvider(demo.bucketDir), 'as-of', { asOf })
    try {
      const r = await rows(be.engine, `SELECT max(_etl_date || ' ' || _etl_hour) FROM claudia_messages__versions WHERE _etl_hour IS NOT NULL`)
      expect(r[0]?.[0]).toBe(`${pending.date} ${pending.hour}`)
      const latest = await rows(be.engine, `SELECT count(*) FROM claudia_csat`)
      expect(latest[0]?.[0]).toBeLessThan(demo.expected.tables['claudia_csat']!.rows)
    } finally {
      await be.engine.close()
    }
  })

  it('passes over a copy whose Parquet file is corrupt for the previous readable one, names the object, and the other tables still work', async () => {
    const copy = join(work, 'corrupt-bucket')
    await copyTree(demo.bucketDir, copy)
    const bad = demo.expected.latest_ready['cloud_chat_tags']!.prefix + 'part-00000.parquet'
    const written = (await stat(join(copy, bad))).mtime
    await writeFile(join(copy, bad), 'PAR1 this is not parquet PAR1')
    // Written when the vendor wrote it (an object written after "now" would not exist yet).
    await utimes(join(copy, bad), written, written)
    const be = await open(new LocalFolderProvider(copy), 'corrupt')
    try {
      expect(
        be.views.problems.find((p) => p.table === 'datamart_cloudchat_saas.cloud_chat_tags'),
        JSON.stringify(be.views.problems)
      ).toBeUndefined()
      const note = be.views.notes.find((n) => n.table === 'datamart_cloudchat_saas.cloud_chat_tags')
      expect(note?.message, JSON.stringify(be.views.notes)).toContain(`not readable Parquet (${bad})`)
      expect(note?.message).toMatch(/the previous readable ready copy v2\/\S+\/ is read instead/)
      const tags = (await rows(be.engine, 'SELECT count(*) FROM cloud_chat_tags'))[0]?.[0] as number
      expect(tags).toBeGreaterThan(0)
      expect(tags).toBeLessThanOrEqual(demo.expected.tables['cloud_chat_tags']!.rows)
      expect((await rows(be.engine, 'SELECT count(*) FROM claudia_csat'))[0]?.[0]).toBe(demo.expected.tables['claudia_csat']!.rows)
    } finally {
      await be.engine.close()
    }
  })

  it('combines files whose column types differ, and a vendor column named filename is kept', async () => {
    const dir = join(work, 'drift-bucket')
    const { openDb } = await import('../helpers/duckdb')
    const db = await openDb()
    const folder = (d: string, h: string): string => join(dir, 'v2/datamart_claudia/claudia_messages', `etl_date=${d}`, `etl_hour=${h}`)
    const { mkdir } = await import('node:fs/promises')
    for (const [d, h] of [
      ['2026-11-03', '03'],
      ['2026-11-03', '04']
    ] as const)
      await mkdir(folder(d, h), { recursive: true })
    await mkdir(join(dir, 'v2/_manifests/snapshot_date=2026-11-03/snapshot_hour=03'), { recursive: true })
    await writeFile(join(dir, 'v2/_manifests/snapshot_date=2026-11-03/snapshot_hour=03/manifest.json'), '{}')
    await db.run(
      `COPY (SELECT 'm1' AS message_id, 7::INTEGER AS n, 'a.txt' AS filename, TIMESTAMP '2026-11-03 02:00:00' AS send_at) TO ${quoteLiteral(join(folder('2026-11-03', '03'), 'part-00000.parquet'))} (FORMAT parquet)`
    )
    await db.run(
      `COPY (SELECT 'm1' AS message_id, 9000000000::BIGINT AS n, 'b.txt' AS filename, TIMESTAMP '2026-11-03 03:00:00' AS send_at) TO ${quoteLiteral(join(folder('2026-11-03', '04'), 'part-00000.parquet'))} (FORMAT parquet)`
    )
    db.close()
    for (const [d, h] of [
      ['2026-11-03', '03'],
      ['2026-11-03', '04']
    ] as const)
      await writeFile(join(folder(d, h), '_SUCCESS'), '')
    const provider = new LocalFolderProvider(dir)
    // Evaluated now: the files were just written (objects written after "now" do not exist yet).
    const now = Date.now() + 1000
    const { index } = await refreshBucketIndex(provider, null, { now })
    const be = await openBucketEngine(
      fileStoreFor(provider, join(work, 'data'), 'drift'),
      buildInventory(index.objects.values()),
      index.objects,
      join(work, 'engines', 'drift'),
      { now }
    )
    try {
      expect(
        be.views.problems.filter((p) => p.table.includes('claudia_messages')),
        JSON.stringify(be.views.problems)
      ).toEqual([])
      expect(await rows(be.engine, 'SELECT message_id, n, filename FROM claudia_messages')).toEqual([['m1', 9000000000, 'b.txt']])
      expect(await rows(be.engine, 'SELECT n, filename, _etl_hour FROM claudia_messages__versions ORDER BY n')).toEqual([
        [7, 'a.txt', '03'],
        [9000000000, 'b.txt', '04']
      ])
    } finally {
      await be.engine.close()
    }
  })
})
