// The delivery rules on small buckets written by hand, as a user's odd bucket would be: real Parquet written by
// native DuckDB, object times set on the files, read through the local provider; each case of issue 12.
import { execFile } from 'node:child_process'
import { copyFile, mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { listLocalFolder, readLocalBucket } from '../helpers/local-bucket'
import { folderPrefix, manifestKey } from '../../src/shared/bucket-key'
import { CATALOG, type CatalogTable, qualifiedName } from '../../src/shared/catalog'
import { type AsOf, buildInventory, foldersForLogicalTable } from '../../src/shared/inventory'
import { createBucketViews } from '../../src/shared/bucket-views'
import { logicalTableGlobSql, logicalTableSql } from '../../src/shared/logical-table-sql'
import { quoteLiteral } from '../../src/shared/sql-quote'
import { analyzeTimeline } from '../../src/shared/timeline'
import { type Db, openDb } from '../helpers/duckdb'
import { CLI_COMMAND } from '../helpers/cli'

const run = promisify(execFile)
const MIN = 60_000
const HOUR = 60 * MIN
const d = (t: number): string => new Date(t).toISOString().slice(0, 10)
const h = (t: number): string => new Date(t).toISOString().slice(11, 13)
const table = (name: string): CatalogTable => CATALOG.find((t) => t.table === name) as CatalogTable
const CSAT = table('claudia_csat')
const MSGS = table('claudia_messages')
const H03 = Date.UTC(2026, 10, 3, 3)
const H04 = H03 + HOUR
const V1_LAST = Date.UTC(2026, 10, 2, 7)

let db: Db
let work: string
let cache: string
beforeAll(async () => {
  db = await openDb()
  work = await mkdtemp(join(tmpdir(), 'ee-rules-'))
  cache = await mkdtemp(join(tmpdir(), 'ee-rules-cache-'))
})
afterAll(async () => {
  db?.close()
  await rm(work, { recursive: true, force: true })
  await rm(cache, { recursive: true, force: true })
})

/** A bucket folder written object by object, each with the instant it was written. */
class HandBucket {
  constructor(readonly root: string) {}
  private async at(key: string, t: number): Promise<void> {
    await utimes(join(this.root, key), new Date(t), new Date(t))
  }
  async text(key: string, text: string, t: number): Promise<void> {
    await mkdir(dirname(join(this.root, key)), { recursive: true })
    await writeFile(join(this.root, key), text)
    await this.at(key, t)
  }
  /** A Parquet file from a SELECT, written by native DuckDB. */
  async parquet(key: string, select: string, t: number): Promise<void> {
    await mkdir(dirname(join(this.root, key)), { recursive: true })
    await db.run(`COPY (${select}) TO ${quoteLiteral(join(this.root, key))} (FORMAT parquet)`)
    await this.at(key, t)
  }
  /** A folder: its files, then _SUCCESS `readyAfter` minutes after the hour (null: no _SUCCESS). */
  async folder(prefix: string, hourStart: number, files: Record<string, string>, readyAfter: number | null = 20): Promise<void> {
    await mkdir(join(this.root, prefix), { recursive: true })
    for (const [name, select] of Object.entries(files)) await this.parquet(`${prefix}${name}`, select, hourStart + 10 * MIN)
    if (readyAfter !== null) await this.text(`${prefix}_SUCCESS`, '', hourStart + readyAfter * MIN)
  }
  async manifest(
    at: number,
    body: { delivered?: CatalogTable[]; missing?: CatalogTable[]; pending?: CatalogTable[]; complete?: boolean; rows?: number },
    writtenAfter = 25
  ): Promise<string> {
    const key = manifestKey('v2', d(at), h(at))
    const missing = (body.missing ?? []).map(qualifiedName)
    const pending = (body.pending ?? []).map(qualifiedName)
    const json = {
      snapshot_date: d(at),
      snapshot_hour: h(at),
      complete: body.complete ?? (missing.length === 0 && pending.length === 0),
      tables_delivered: (body.delivered ?? []).map((c) => ({
        schema: c.schema,
        table: c.table,
        mode: c.mode,
        path: folderPrefix(c, 'v2', d(at), h(at)),
        format: 'parquet',
        files: 1,
        ...(body.rows !== undefined ? { rows: body.rows } : {})
      })),
      tables_missing: missing,
      tables_pending: pending
    }
    await this.text(key, JSON.stringify(json), at + writtenAfter * MIN)
    return key
  }
}

let n = 0
async function bucket(): Promise<HandBucket> {
  const root = join(work, `b${++n}`)
  await mkdir(root, { recursive: true })
  return new HandBucket(root)
}

const rowsSelect = (k: number, tag: string): string => `SELECT 'r' || i AS csat_id, 'tnt_acme' AS tenant_id, ${quoteLiteral(tag)} AS tag FROM range(${k}) t(i)`
const msgSelect = (keys: string[], tag: string): string =>
  `SELECT * FROM (VALUES ${keys.map((k) => `(${quoteLiteral(k)}, 'tnt_acme', ${quoteLiteral(tag)})`).join(', ')}) t(message_id, tenant_id, content)`

/** The logical table through the core's SQL on native DuckDB: its rows, and its column names. */
async function logical(b: HandBucket, t: CatalogTable, opts: AsOf = {}): Promise<{ rows: Record<string, unknown>[]; columns: string[] }> {
  const inv = buildInventory(await listLocalFolder(b.root), opts.now !== undefined ? { now: opts.now } : {})
  const q = logicalTableSql(t, foldersForLogicalTable(inv, t, opts), (k) => join(b.root, k))
  if (!q.ok) throw new Error(q.message)
  const rows = await db.rows(`SELECT * FROM (${q.sql}) ORDER BY ALL`)
  const columns = (await db.rows(`DESCRIBE SELECT * FROM (${q.sql})`)).map((r) => String(r['column_name']))
  return { rows, columns }
}

async function timeline(b: HandBucket, now: number, from = H03): Promise<ReturnType<typeof analyzeTimeline>> {
  const snap = await readLocalBucket(b.root)
  return analyzeTimeline(snap.inventory, snap.manifests, { now, from })
}

async function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const r = await run(process.execPath, [...CLI_COMMAND, ...args], {
      env: { ...process.env, EXPORT_EXPLORER_CACHE: cache },
      maxBuffer: 16 * 1024 * 1024
    })
    return { code: 0, stdout: r.stdout, stderr: r.stderr }
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string }
    return { code: err.code, stdout: err.stdout, stderr: err.stderr }
  }
}

describe('the switch for full tables (item 1)', () => {
  it('on v2, a full table without a ready v2 copy reads its newest ready v1 copy', async () => {
    const b = await bucket()
    await b.folder(folderPrefix(CSAT, 'v1', '2026-11-01', null), V1_LAST - 24 * HOUR, { 'part-0.parquet': rowsSelect(2, 'v1-old') })
    await b.folder(folderPrefix(CSAT, 'v1', '2026-11-02', null), V1_LAST, { 'part-0.parquet': rowsSelect(3, 'v1-last') })
    // The first v2 hour lists it missing; the next hour's folder is still in flight.
    await b.manifest(H03, { missing: [CSAT] })
    await b.folder(folderPrefix(CSAT, 'v2', d(H04), h(H04)), H04, { 'part-0.parquet': rowsSelect(9, 'v2-partial') }, null)
    const { rows } = await logical(b, CSAT)
    expect(rows.map((r) => r['tag'])).toEqual(['v1-last', 'v1-last', 'v1-last'])
    const tl = await timeline(b, H04 + 50 * MIN)
    expect(tl.version).toBe('v2')
    expect(tl.hours.find((x) => x.start === H03)?.cells[CSAT.table]).toBe('missing')
    // The CLI's status names the copy and says why it is a v1 one.
    const r = await cli(['status', '--bucket', b.root, '--now', new Date(H04 + 50 * MIN).toISOString(), '--no-cache'])
    expect(r.stdout).toMatch(/datamart_claudia\.claudia_csat +full +latest ready 2026-11-02 \(no ready v2 copy yet: its newest ready v1 copy is read\)/)
  }, 60_000)
})

describe('hidden files (item 7)', () => {
  it('names starting with _ or . are not read, and are listed as ignored', async () => {
    const b = await bucket()
    const prefix = folderPrefix(MSGS, 'v2', d(H03), h(H03))
    await b.manifest(H03, { delivered: [MSGS] })
    await b.folder(prefix, H03, {
      'part-0.parquet': msgSelect(['m1', 'm2'], 'data'),
      '_tmp.parquet': msgSelect(['t1', 't2', 't3'], 'tmp'),
      '.part-1.parquet': msgSelect(['h1'], 'hidden')
    })
    const { rows } = await logical(b, MSGS)
    expect(rows.map((r) => r['message_id'])).toEqual(['m1', 'm2'])
    const tl = await timeline(b, H03 + HOUR)
    expect(
      tl.findings
        .filter((f) => f.kind === 'ignored_key')
        .map((f) => f.key)
        .sort()
    ).toEqual([`${prefix}.part-1.parquet`, `${prefix}_tmp.parquet`])
  })
})

describe('v2 parts before the switch (item 8)', () => {
  it('a ready v2 parts folder is read only once the bucket is on v2', async () => {
    const b = await bucket()
    await b.folder(folderPrefix(MSGS, 'v1', '2026-11-02', null), V1_LAST, { 'part-0.parquet': msgSelect(['m1', 'm2'], 'v1') })
    await b.folder(folderPrefix(MSGS, 'v2', d(H03), h(H03)), H03, { 'part-0.parquet': msgSelect(['m2', 'm3'], 'v2') })
    expect((await logical(b, MSGS)).rows.map((r) => `${r['message_id']}:${r['content']}`)).toEqual(['m1:v1', 'm2:v1'])
    await b.manifest(H03, { delivered: [MSGS] })
    expect((await logical(b, MSGS)).rows.map((r) => `${r['message_id']}:${r['content']}`)).toEqual(['m1:v1', 'm2:v2', 'm3:v2'])
  })
})

describe('instants (item 3)', () => {
  it('--now hides what was written later; as of T counts copies whose _SUCCESS was written by T', async () => {
    const b = await bucket()
    await b.manifest(H03, { delivered: [CSAT] })
    await b.folder(folderPrefix(CSAT, 'v2', d(H03), h(H03)), H03, { 'part-0.parquet': rowsSelect(3, 'h03') })
    await b.manifest(H04, { delivered: [CSAT] }, 40)
    await b.folder(folderPrefix(CSAT, 'v2', d(H04), h(H04)), H04, { 'part-0.parquet': rowsSelect(5, 'h04') }, 35)
    const tags = async (opts: AsOf): Promise<unknown[]> => [...new Set((await logical(b, CSAT, opts)).rows.map((r) => r['tag']))]
    expect(await tags({})).toEqual(['h04'])
    expect(await tags({ now: H04 + 30 * MIN })).toEqual(['h03'])
    expect(await tags({ asOf: H04 + 10 * MIN })).toEqual(['h03'])
    expect(await tags({ asOf: H04 + 35 * MIN })).toEqual(['h04'])
    // At 04:30 the 04:00 folder is in flight (its _SUCCESS is from 04:35), not ready, and no manifest is due yet.
    const tl = await timeline(b, H04 + 30 * MIN)
    expect(tl.hours.find((x) => x.start === H04)?.cells[CSAT.table]).toBe('in_flight')
    // The CLI with --now: status reads the same copy.
    const r = await cli(['status', '--bucket', b.root, '--now', new Date(H04 + 30 * MIN).toISOString(), '--json', '--no-cache'])
    expect(r.stderr).toBe('')
    const status = JSON.parse(r.stdout) as { version: string; tables: { table: string; latest_ready: { prefix: string } | null }[] }
    expect(status.tables.find((t) => t.table === CSAT.table)?.latest_ready?.prefix).toBe(folderPrefix(CSAT, 'v2', d(H03), h(H03)))
    const before = JSON.parse(
      (await cli(['status', '--bucket', b.root, '--now', new Date(H03 + 10 * MIN).toISOString(), '--json', '--no-cache'])).stdout
    ) as typeof status
    expect(before.version).toBe('v1')
  }, 60_000)
})

describe('an empty ready copy (item 2)', () => {
  it('is a table with no rows, with the columns of the previous copy that has files, and a finding', async () => {
    const b = await bucket()
    await b.manifest(H03, { delivered: [CSAT] })
    await b.folder(folderPrefix(CSAT, 'v2', d(H03), h(H03)), H03, { 'part-0.parquet': rowsSelect(3, 'h03') })
    await b.manifest(H04, { delivered: [CSAT] })
    await b.folder(folderPrefix(CSAT, 'v2', d(H04), h(H04)), H04, {})
    const { rows, columns } = await logical(b, CSAT)
    expect(rows).toEqual([])
    expect(columns).toEqual(['csat_id', 'tenant_id', 'tag'])
    // The glob form (the form both engines' views use), on native DuckDB, says the same.
    const inv = buildInventory(await listLocalFolder(b.root))
    const base = join(b.root, '..', `glob-${n}`, 'ee/')
    const q = logicalTableGlobSql(CSAT, foldersForLogicalTable(inv, CSAT), base)
    if (!q.ok) throw new Error(q.message)
    await mkdir(base, { recursive: true })
    for (const r of q.registrations) await copyFile(join(b.root, r.key), r.name)
    expect(await db.rows(`SELECT count(*)::INTEGER AS n FROM (${q.sql})`)).toEqual([{ n: 0 }])
    expect((await db.rows(`DESCRIBE SELECT * FROM (${q.sql})`)).map((r) => r['column_name'])).toEqual(['csat_id', 'tenant_id', 'tag'])
    const tl = await timeline(b, H04 + HOUR)
    expect(tl.findings.filter((f) => f.table === CSAT.table && f.kind !== 'manifest_mismatch').map((f) => [f.kind, f.date, f.hour, f.key])).toEqual([
      ['empty_copy', d(H04), h(H04), folderPrefix(CSAT, 'v2', d(H04), h(H04))]
    ])
  })
})

describe("manifests that contradict themselves, and the manifest's word (items 6, 12)", () => {
  it('doctor --json reports every manifest warning with its hour and key, and names the partial folder the manifest lists missing', async () => {
    const b = await bucket()
    const full = CATALOG.filter((c) => c.mode === 'full' && c !== CSAT)
    const k03 = await b.manifest(H03, {
      delivered: [...full, MSGS, table('claudia_prompt_revision'), table('cloud_chat_messages')],
      missing: [CSAT],
      complete: true
    })
    for (const c of CATALOG) {
      if (c === CSAT) continue
      await b.folder(
        folderPrefix(c, 'v2', d(H03), h(H03)),
        H03,
        c === MSGS ? { 'part-0.parquet': msgSelect(['m1'], 'x') } : { 'part-0.parquet': rowsSelect(1, 'x') }
      )
    }
    // CSAT's folder is in flight, yet the manifest lists it missing: that is its state.
    await b.folder(folderPrefix(CSAT, 'v2', d(H03), h(H03)), H03, { 'part-0.parquet': rowsSelect(1, 'partial') }, null)
    const r = await cli(['doctor', '--bucket', b.root, '--now', new Date(H03 + 50 * MIN).toISOString(), '--since', d(H03), '--json', '--no-cache'])
    expect(r.code).toBe(1)
    const findings = (
      JSON.parse(r.stdout) as { findings: { kind: string; severity: string; date: string; hour: string; table: string | null; key: string; message: string }[] }
    ).findings
    expect(findings.map((f) => [f.kind, f.severity, f.date, f.hour, f.table, f.key])).toEqual([
      ['manifest_contradiction', 'warning', d(H03), h(H03), null, k03],
      ['missing', 'error', d(H03), h(H03), CSAT.table, folderPrefix(CSAT, 'v2', d(H03), h(H03))]
    ])
    expect(findings[0]?.message).toMatch(/complete is true, yet tables are listed as missing/)
    expect(findings[1]?.message).toMatch(/has no _SUCCESS and the hour's manifest lists it in tables_missing/)
    const tl = await timeline(b, H03 + 50 * MIN)
    expect(tl.hours[0]).toMatchObject({ manifest: 'incomplete', cells: { [CSAT.table]: 'missing' } })
  }, 60_000)
})

describe('what a vendor reader sees (item 9)', () => {
  const CCM = table('cloud_chat_messages')
  async function partsBucket(): Promise<HandBucket> {
    const b = await bucket()
    await b.folder(folderPrefix(MSGS, 'v1', '__initial__', null), V1_LAST - 5 * 24 * HOUR, { 'part-0.parquet': msgSelect(['m1', 'm2'], 'initial') })
    await b.folder(folderPrefix(MSGS, 'v1', '2026-11-02', null), V1_LAST, { 'part-0.parquet': msgSelect(['m2', 'm3'], 'v1') })
    await b.folder(folderPrefix(MSGS, 'v2', d(H03), h(H03)), H03, { 'part-0.parquet': msgSelect(['m3', 'm4'], 'v2') })
    // A keyless table whose files carry a column named etl_date of their own (the data's column wins).
    await b.folder(folderPrefix(CCM, 'v2', d(H03), h(H03)), H03, {
      'part-0.parquet': "SELECT 'c1' AS message_id, 'tnt_acme' AS tenant_id, 'vendor-value' AS etl_date"
    })
    await b.manifest(H03, { delivered: [MSGS, CCM] })
    return b
  }

  it('the parts tables carry etl_date and etl_hour as strings (NULL hour for v1, __initial__ for the initial load)', async () => {
    const b = await partsBucket()
    const { rows, columns } = await logical(b, MSGS)
    expect(columns).toEqual(['message_id', 'tenant_id', 'content', 'etl_date', 'etl_hour'])
    expect(rows).toEqual([
      { message_id: 'm1', tenant_id: 'tnt_acme', content: 'initial', etl_date: '__initial__', etl_hour: null },
      { message_id: 'm2', tenant_id: 'tnt_acme', content: 'v1', etl_date: '2026-11-02', etl_hour: null },
      { message_id: 'm3', tenant_id: 'tnt_acme', content: 'v2', etl_date: d(H03), etl_hour: h(H03) },
      { message_id: 'm4', tenant_id: 'tnt_acme', content: 'v2', etl_date: d(H03), etl_hour: h(H03) }
    ])
    const inv = buildInventory(await listLocalFolder(b.root))
    const q = logicalTableSql(MSGS, foldersForLogicalTable(inv, MSGS), (k) => join(b.root, k))
    if (!q.ok) throw new Error(q.message)
    // A query written against the vendor's docs runs unchanged.
    expect(await db.rows(`SELECT message_id FROM (${q.sql}) WHERE etl_date >= '2026-11-02' AND etl_date <> '__initial__' ORDER BY 1`)).toEqual([
      { message_id: 'm2' },
      { message_id: 'm3' },
      { message_id: 'm4' }
    ])
    expect(await db.rows(`SELECT DISTINCT typeof(etl_date) AS a, typeof(etl_hour) AS b FROM (${q.sql})`)).toEqual([{ a: 'VARCHAR', b: 'VARCHAR' }])
    const keyless = await logical(b, CCM)
    expect(keyless.rows).toEqual([{ message_id: 'c1', tenant_id: 'tnt_acme', etl_date: 'vendor-value', etl_hour: h(H03) }])
  })

  it('the views both engines build say the same, on native DuckDB, and note a vendor column that wins', async () => {
    const b = await partsBucket()
    const inv = buildInventory(await listLocalFolder(b.root))
    const files = join(b.root, '..', `views-${n}`)
    await mkdir(join(files, 'ee'), { recursive: true })
    const objects = new Map(inv.objects.map((o) => [o.key, o]))
    // The engine: native DuckDB reading each registered name as a copy of its object.
    const engine = {
      register: async (regs: readonly { name: string; key: string }[]): Promise<void> => {
        for (const r of regs) {
          await mkdir(dirname(join(files, r.name)), { recursive: true })
          await copyFile(join(b.root, r.key), join(files, r.name))
        }
      },
      query: (sql: string): Promise<void> => db.run(sql.replaceAll("'ee/", `'${files}/ee/`)),
      firstColumn: async (sql: string): Promise<unknown[]> => (await db.rows(sql.replaceAll("'ee/", `'${files}/ee/`))).map((r) => Object.values(r)[0])
    }
    const views = await createBucketViews(engine, inv, objects, { now: H03 + HOUR })
    expect(views.created).toEqual(
      expect.arrayContaining(['datamart_claudia.claudia_messages', 'claudia_messages__versions', 'datamart_cloudchat_saas.cloud_chat_messages'])
    )
    expect(await db.rows('SELECT message_id, etl_date, etl_hour FROM claudia_messages ORDER BY 1')).toEqual([
      { message_id: 'm1', etl_date: '__initial__', etl_hour: null },
      { message_id: 'm2', etl_date: '2026-11-02', etl_hour: null },
      { message_id: 'm3', etl_date: d(H03), etl_hour: h(H03) },
      { message_id: 'm4', etl_date: d(H03), etl_hour: h(H03) }
    ])
    expect(await db.rows('SELECT etl_date, etl_hour FROM cloud_chat_messages')).toEqual([{ etl_date: 'vendor-value', etl_hour: h(H03) }])
    expect(views.notes).toEqual([
      { table: 'datamart_cloudchat_saas.cloud_chat_messages', message: expect.stringMatching(/files have their own etl_date column.*kept/) }
    ])
  })

  it('the monitors: a parts hour with a twentieth of its usual rows is a volume_anomaly, a dropped column a schema_change, rows the manifest miscounts a manifest_mismatch, in doctor', async () => {
    const b = await bucket()
    await b.manifest(H03, { delivered: [MSGS], complete: true, rows: 40 })
    // Hour 7's manifest says 41 rows; its file holds 40.
    await b.manifest(H03 + 7 * HOUR, { delivered: [MSGS], complete: true, rows: 41 })
    const keys = (k: number, n: number): string[] => Array.from({ length: n }, (_, i) => `m${k}_${i}`)
    for (let k = 0; k < 10; k++) {
      const at = H03 + k * HOUR
      // Hour 6 shrinks to 2 rows; hour 8 comes without its content column, and hour 9 brings it back.
      const select = k === 8 ? `SELECT message_id, tenant_id FROM (${msgSelect(keys(k, 40), 'x')})` : msgSelect(keys(k, k === 6 ? 2 : 40), 'x')
      await b.folder(folderPrefix(MSGS, 'v2', d(at), h(at)), at, { 'part-0.parquet': select })
    }
    const now = H03 + 10 * HOUR
    const r = await cli(['doctor', '--bucket', b.root, '--now', new Date(now).toISOString(), '--since', d(H03), '--json', '--no-cache'])
    const found = (JSON.parse(r.stdout) as { findings: { kind: string; severity: string; hour: string; table: string; message: string }[] }).findings.filter(
      (f) => f.table === 'claudia_messages' && ['volume_anomaly', 'schema_change', 'manifest_mismatch'].includes(f.kind)
    )
    expect(found.map((f) => [f.kind, f.severity, f.hour, f.table])).toEqual([
      ['volume_anomaly', 'warning', h(H03 + 6 * HOUR), 'claudia_messages'],
      ['manifest_mismatch', 'warning', h(H03 + 7 * HOUR), 'claudia_messages'],
      ['schema_change', 'warning', h(H03 + 8 * HOUR), 'claudia_messages'],
      ['schema_change', 'info', h(H03 + 9 * HOUR), 'claudia_messages']
    ])
    expect(found[0]?.message).toMatch(/: 2 rows; usual 19–120 \(/)
    expect(found[1]?.message).toMatch(/the manifest says 41 rows, the files' footers hold 40/)
    expect(found[2]?.message).toMatch(/column content \(VARCHAR\) dropped/)
  })
})
