// A vendor column named like a column the engine adds for its own bookkeeping (read_parquet's filename and
// file_row_number, the partition and provenance names, our __ee_ names) comes out unchanged, and the rules still
// hold (newest version per key by folder, then file name, then row position), on both engines (native DuckDB 1.5,
// main's engine; DuckDB-WASM 1.28 = 0.9.1, the renderer's, on its Node build) and both routes (raw files, mirror).
import { readFile, mkdir, mkdtemp, rm, utimes } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { refreshBucketIndex } from '../../src/main/bucket/bucket-index'
import { LocalFolderProvider } from '../../src/main/bucket/local-provider'
import { type BucketEngine, openBucketEngine } from '../../src/main/engine/open-bucket-engine'
import { fileStoreFor } from '../../src/main/store/connection-files'
import { Mirror } from '../../src/main/mirror/mirror'
import { folderPrefix } from '../../src/shared/bucket-key'
import { createBucketViews } from '../../src/shared/bucket-views'
import { CATALOG, type CatalogTable } from '../../src/shared/catalog'
import { buildInventory } from '../../src/shared/inventory'
import { MIRROR_KEY_PREFIX } from '../../src/shared/mirror-sql'
import { quoteLiteral } from '../../src/shared/sql-quote'
import { type Db, openDb } from '../helpers/duckdb'
import { markHourReady } from '../helpers/hour-markers'
import { startNodeWasmDb } from '../helpers/node-wasm-engine'

const MSGS = CATALOG.find((t) => t.table === 'claudia_messages') as CatalogTable
const HOUR = 3_600_000
const H03 = Date.UTC(2026, 10, 3, 3)
const H04 = H03 + HOUR
const NOW = H04 + 2 * HOUR
const d = (t: number): string => new Date(t).toISOString().slice(0, 10)
const h = (t: number): string => new Date(t).toISOString().slice(11, 13)

// Every kind of name the engine could use for itself, each a vendor column whose value tells its row apart.
const ODD = [
  'filename',
  'file_row_number',
  '_file',
  '_prefix',
  '_etl_date',
  '__ee_rank',
  '__ee_row',
  '__ee_filename',
  '__ee_order',
  '__ee_file_rank',
  '_V_PREFIX'
]
const oddSelect = (rows: readonly (readonly [string, string])[]): string =>
  `SELECT message_id, content, ${ODD.map((c) => `${quoteLiteral(`${c}:`)} || content AS "${c}"`).join(', ')} FROM (VALUES ${rows
    .map(([k, tag]) => `(${quoteLiteral(k)}, ${quoteLiteral(tag)})`)
    .join(', ')}) t(message_id, content)`

// Two hours of two files each; a key again in a later file, a later folder, and twice within one file.
const FILES: Record<string, readonly (readonly [string, string])[]> = {
  [`${folderPrefix(MSGS, 'v2', d(H03), h(H03))}part-0.parquet`]: [
    ['m1', 'a0'],
    ['m3', 'a1'],
    ['m3', 'a2']
  ],
  [`${folderPrefix(MSGS, 'v2', d(H03), h(H03))}part-1.parquet`]: [
    ['m2', 'b0'],
    ['m1', 'b1']
  ],
  [`${folderPrefix(MSGS, 'v2', d(H04), h(H04))}part-0.parquet`]: [
    ['m1', 'c0'],
    ['m4', 'c1']
  ],
  [`${folderPrefix(MSGS, 'v2', d(H04), h(H04))}part-1.parquet`]: [
    ['m1', 'd0'],
    ['m1', 'd1']
  ]
}
const folderOf = (tag: string): number => ({ a: H03, b: H03, c: H04, d: H04 })[tag[0] as 'a'] as number
const fileOf = (tag: string): string => (tag[0] === 'a' || tag[0] === 'c' ? 'part-0.parquet' : 'part-1.parquet')
const odd = (tag: string): Record<string, string> => Object.fromEntries(ODD.map((c) => [c, `${c}:${tag}`]))

/** The newest version of each key: m1 from the later hour's later file, its second row; m3 the second of its file. */
const LATEST = [
  ['m1', 'd1'],
  ['m2', 'b0'],
  ['m3', 'a2'],
  ['m4', 'c1']
].map(([k, tag]) => ({ message_id: k, content: tag, ...odd(tag as string), etl_date: d(folderOf(tag as string)), etl_hour: h(folderOf(tag as string)) }))
/** Every version, with where it came from under the names left free (_etl_hour is the vendor's own name: none has it). */
const VERSIONS = Object.values(FILES)
  .flat()
  .map(([k, tag]) => ({
    message_id: k,
    content: tag,
    ...odd(tag),
    __prefix: folderPrefix(MSGS, 'v2', d(folderOf(tag)), h(folderOf(tag))),
    __etl_date: d(folderOf(tag)),
    _etl_hour: h(folderOf(tag)),
    __file: fileOf(tag)
  }))
  .sort((a, b) => a.content.localeCompare(b.content))

const LOGICAL_SQL = `SELECT message_id, content, ${ODD.map((c) => `"${c}"`).join(', ')}, etl_date, etl_hour FROM claudia_messages ORDER BY message_id`
const VERSIONS_SQL = `SELECT message_id, content, ${ODD.map((c) => `"${c}"`).join(', ')}, __prefix, __etl_date, _etl_hour, __file FROM claudia_messages__versions ORDER BY content`

let db: Db
let work: string
let bucket: string
beforeAll(async () => {
  db = await openDb()
  work = await mkdtemp(join(tmpdir(), 'ee-bookkeeping-'))
  bucket = join(work, 'bucket')
  for (const [key, rows] of Object.entries(FILES)) {
    await mkdir(dirname(join(bucket, key)), { recursive: true })
    await db.run(`COPY (${oddSelect(rows)}) TO ${quoteLiteral(join(bucket, key))} (FORMAT parquet)`)
    const written = new Date(Date.parse(`${/etl_date=([\d-]+)/.exec(key)?.[1]}T${/etl_hour=(\d+)/.exec(key)?.[1]}:10:00Z`))
    await utimes(join(bucket, key), written, written)
  }
  for (const hour of [H03, H04]) await markHourReady(bucket, MSGS, hour, 2)
}, 120_000)
afterAll(async () => {
  db?.close()
  await rm(work, { recursive: true, force: true })
})

async function listing(): Promise<Awaited<ReturnType<typeof refreshBucketIndex>>['index']> {
  return (await refreshBucketIndex(new LocalFolderProvider(bucket), null, { now: NOW })).index
}

let opened = 0
async function nativeEngine(mirror?: Mirror): Promise<BucketEngine> {
  const index = await listing()
  const store = fileStoreFor(new LocalFolderProvider(bucket), join(work, 'data'), 'c')
  return openBucketEngine(store, buildInventory(index.objects.values(), { now: NOW }), index.objects, join(work, 'engines', String(++opened)), {
    now: NOW,
    ...(mirror ? { mirror } : {})
  })
}

async function nativeRows(e: BucketEngine, sql: string): Promise<Record<string, unknown>[]> {
  const r = await e.engine.selectAll(sql)
  return r.rows.map((row) => Object.fromEntries(r.columns.names.map((c, i) => [c, row[i]])))
}

async function wasmViews(mirror?: Mirror): Promise<{ rows(sql: string): Promise<Record<string, unknown>[]>; problems: unknown[]; close(): Promise<void> }> {
  // Each file registered from disk under the name the views give it.
  const { db: wasm } = await startNodeWasmDb()
  const conn = await wasm.connect()
  const rows = async (sql: string): Promise<Record<string, unknown>[]> =>
    (await conn.query(sql))
      .toArray()
      .map((r: { toJSON(): Record<string, unknown> }) =>
        Object.fromEntries(Object.entries(r.toJSON()).map(([k, v]) => [k, typeof v === 'bigint' ? Number(v) : v]))
      )
  const index = await listing()
  const views = await createBucketViews(
    {
      register: async (files) => {
        for (const f of files) {
          const path = f.key.startsWith(MIRROR_KEY_PREFIX) && mirror ? mirror.pathOf(f.key.slice(MIRROR_KEY_PREFIX.length)) : join(bucket, f.key)
          await wasm.registerFileBuffer(f.name, new Uint8Array(await readFile(path)))
        }
      },
      query: rows
    },
    buildInventory(index.objects.values(), { now: NOW }),
    index.objects,
    { now: NOW, ...(mirror ? { mirror: { segments: await mirror.segments(), superseded: await mirror.superseded() } } : {}) }
  )
  return {
    rows,
    problems: views.problems.filter((p) => p.table.includes('claudia_messages')),
    close: async () => {
      await conn.close()
      await wasm.terminate()
    }
  }
}

describe('vendor columns named like the bookkeeping columns', () => {
  it('come out unchanged from the raw files, newest version per key kept, on native DuckDB and on DuckDB-WASM', async () => {
    const native = await nativeEngine()
    try {
      expect(native.views.problems.filter((p) => p.table.includes('claudia_messages'))).toEqual([])
      expect(await nativeRows(native, LOGICAL_SQL)).toEqual(LATEST)
      expect(await nativeRows(native, VERSIONS_SQL)).toEqual(VERSIONS)
    } finally {
      await native.engine.close()
    }
    const wasm = await wasmViews()
    try {
      expect(wasm.problems).toEqual([])
      expect(await wasm.rows(LOGICAL_SQL)).toEqual(LATEST)
      expect(await wasm.rows(VERSIONS_SQL)).toEqual(VERSIONS)
    } finally {
      await wasm.close()
    }
  }, 120_000)

  it('come out unchanged from the mirror, built by native DuckDB, read by both engines', async () => {
    const mirror = new Mirror(join(work, 'mirror'), fileStoreFor(new LocalFolderProvider(bucket), join(work, 'data'), 'c'))
    const index = await listing()
    const built = await mirror.refresh(buildInventory(index.objects.values(), { now: NOW }), NOW)
    expect(built.problems).toEqual([])
    const segments = (await mirror.segments()).filter((x) => x.table === 'datamart_claudia.claudia_messages')
    expect(segments.reduce((n, x) => n + x.rows, 0)).toBe(9)
    const native = await nativeEngine(mirror)
    const viewSql = "SELECT sql FROM duckdb_views() WHERE view_name IN ('claudia_messages', 'claudia_messages__versions') AND schema_name <> 'main'"
    try {
      // Read from the mirror's segments, not from the raw files.
      expect(String((await nativeRows(native, viewSql))[0]?.['sql'])).toContain('__mirror/')
      expect(native.views.problems.filter((p) => p.table.includes('claudia_messages'))).toEqual([])
      expect(await nativeRows(native, LOGICAL_SQL)).toEqual(LATEST)
      expect(await nativeRows(native, VERSIONS_SQL)).toEqual(VERSIONS)
    } finally {
      await native.engine.close()
    }
    const wasm = await wasmViews(mirror)
    try {
      expect(String((await wasm.rows(viewSql))[0]?.['sql'])).toContain('__mirror/')
      expect(wasm.problems).toEqual([])
      expect(await wasm.rows(LOGICAL_SQL)).toEqual(LATEST)
      expect(await wasm.rows(VERSIONS_SQL)).toEqual(VERSIONS)
    } finally {
      await wasm.close()
    }
  }, 120_000)

  it('come out unchanged from a mirror one hour behind, the new hour read raw beside it, by both engines', async () => {
    // Built when only the first hour was ready: the second is read from its raw files beside the segment.
    const before = H04 + 10 * 60_000
    const mirror = new Mirror(join(work, 'mirror-behind'), fileStoreFor(new LocalFolderProvider(bucket), join(work, 'data'), 'c'))
    const index = await listing()
    expect((await mirror.refresh(buildInventory(index.objects.values(), { now: before }), before)).problems).toEqual([])
    const segments = (await mirror.segments()).filter((x) => x.table === 'datamart_claudia.claudia_messages' && x.rows > 0)
    expect(segments.flatMap((x) => x.folders.map((f) => f.prefix))).toEqual([folderPrefix(MSGS, 'v2', d(H03), h(H03))])
    const viewSql = "SELECT sql FROM duckdb_views() WHERE view_name = 'claudia_messages' AND schema_name <> 'main'"
    const native = await nativeEngine(mirror)
    try {
      const sql = String((await nativeRows(native, viewSql))[0]?.['sql'])
      expect([sql.includes('__mirror/'), sql.includes('UNION ALL BY NAME')]).toEqual([true, true])
      expect(native.views.problems.filter((p) => p.table.includes('claudia_messages'))).toEqual([])
      expect(await nativeRows(native, LOGICAL_SQL)).toEqual(LATEST)
      expect(await nativeRows(native, VERSIONS_SQL)).toEqual(VERSIONS)
    } finally {
      await native.engine.close()
    }
    const wasm = await wasmViews(mirror)
    try {
      const sql = String((await wasm.rows(viewSql))[0]?.['sql'])
      // The hour is newer than the segment: its superseded list still serves (the list's file is read).
      expect([sql.includes('__mirror/'), sql.includes('UNION ALL BY NAME'), sql.includes('.superseded/')]).toEqual([true, true, true])
      expect(wasm.problems).toEqual([])
      expect(await wasm.rows(LOGICAL_SQL)).toEqual(LATEST)
      expect(await wasm.rows(VERSIONS_SQL)).toEqual(VERSIONS)
    } finally {
      await wasm.close()
    }
  }, 120_000)
})
