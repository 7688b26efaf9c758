// Files that native DuckDB reads and DuckDB-WASM 0.9.1 (the query pane) cannot, through the renderer's engine in
// Chromium and the byte server: a table whose files disagree on a column's Parquet type (INT32 in the older
// folder, INT64 in the newer). The pane names the table, the files and why; the other tables' views open and answer,
// before and after the bad one in catalog order, those with a vendor column named `filename` among them (read_parquet's
// own column of that name is never asked for there: logical-table-sql.ts).
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { listAll } from '../../src/main/bucket/bucket-provider'
import { LocalFolderProvider } from '../../src/main/bucket/local-provider'
import { type ByteServer, startByteServer } from '../../src/main/byte-server/byte-server'
import type { ListedObject } from '../../src/shared/listing'
import { quoteLiteral } from '../../src/shared/sql-quote'
import { launchChromium } from '../helpers/chromium'
import { openDb } from '../helpers/duckdb'
import { enginePage } from '../helpers/engine-page'
import { serveFolder } from '../helpers/static-server'

let work: string
let bytes: ByteServer
let site: { origin: string; close(): Promise<void> }
const objects: ListedObject[] = []

const CSAT = 'v1/datamart_claudia/claudia_csat/snapshot_date=2026-11-01/'
const MSG_OLD = 'v1/datamart_claudia/claudia_messages/etl_date=__initial__/'
const MSG_NEW = 'v1/datamart_claudia/claudia_messages/etl_date=2026-11-01/'
const PROMPT = 'v1/datamart_claudia/claudia_prompt_revision/etl_date=2026-11-01/'
const CHAT = 'v1/datamart_cloudchat_saas/cloud_chat_messages/etl_date=2026-11-01/'
const TAGS = 'v1/datamart_cloudchat_saas/cloud_chat_tags/snapshot_date=2026-11-01/'

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'ee-wasm-files-'))
  const bucket = join(work, 'bucket')
  const db = await openDb()
  try {
    const write = async (prefix: string, select: string): Promise<void> => {
      await mkdir(join(bucket, prefix), { recursive: true })
      await db.run(`COPY (${select}) TO ${quoteLiteral(join(bucket, prefix, 'part-00000.parquet'))} (FORMAT parquet)`)
      await writeFile(join(bucket, prefix, '_SUCCESS'), '')
    }
    await write(CSAT, `SELECT 'csat_' || range AS csat_id, range::INTEGER AS score FROM range(5)`)
    // The vendor widened a column: INT32 in the initial load, INT64 later.
    await write(MSG_OLD, `SELECT 'm' || range AS message_id, range::INTEGER AS tokens FROM range(4)`)
    await write(MSG_NEW, `SELECT 'm' || range AS message_id, (range + 5000000000)::BIGINT AS tokens FROM range(2)`)
    await write(PROMPT, `SELECT 'p' || range AS prompt_revision_id, 'vendor-file-' || range AS filename FROM range(3)`)
    await write(CHAT, `SELECT 'c' || range AS chat_id, 'vendor-file-' || range AS filename FROM range(3)`)
    await write(TAGS, `SELECT 't' || range AS tag_id FROM range(7)`)
    // Native DuckDB 1.5 reads the widened table (the wider type), and the column named filename.
    const [m] = await db.rows(
      `SELECT count(*)::INTEGER AS n, max(tokens)::VARCHAR AS hi FROM read_parquet(${quoteLiteral(join(bucket, 'v1/datamart_claudia/claudia_messages/*/*.parquet'))}, union_by_name = true)`
    )
    expect(m).toEqual({ n: 6, hi: '5000000001' })
  } finally {
    db.close()
  }
  const provider = new LocalFolderProvider(bucket)
  for await (const o of listAll(provider, '')) objects.push(o)
  site = await serveFolder(await enginePage(work))
  const byKey = new Map(objects.map((o) => [o.key, o]))
  bytes = await startByteServer({ provider, lookup: (k) => byKey.get(k), cacheDir: join(work, 'cache'), allowOrigin: site.origin })
}, 300_000)
afterAll(async () => {
  await site?.close()
  await bytes?.close()
  if (work) await rm(work, { recursive: true, force: true })
})

const SQL = [
  'SELECT count(*)::INTEGER AS n FROM datamart_claudia.claudia_csat',
  'SELECT count(*)::INTEGER AS n FROM datamart_cloudchat_saas.cloud_chat_tags',
  'SELECT count(*)::INTEGER AS n FROM cloud_chat_messages',
  'SELECT count(*)::INTEGER AS n FROM claudia_messages',
  'SELECT count(*)::INTEGER AS n FROM datamart_cloudchat_saas.cloud_chat_tags'
]

type PaneStep = { created: string[]; problems: { table: string; message: string }[]; results: unknown[] }
async function runPane(guarded: boolean, steps: { objects: ListedObject[]; sql: string[] }[]): Promise<PaneStep[]> {
  const browser = await launchChromium()
  try {
    const tab = await browser.newPage()
    await tab.goto(`${site.origin}/index.html`)
    await tab.waitForFunction(() => typeof window.runPaneViews === 'function')
    const cfg = { base: bytes.url(''), now: Date.now() + 60_000, guarded, steps }
    return await tab.evaluate((c) => window.runPaneViews(c), cfg)
  } finally {
    await browser.close()
  }
}

describe('files the query pane cannot read', () => {
  it('without the guard, 0.9.1 fails on the widened column and then refuses every other table', async () => {
    // What a user met before: a raw internal error, then nothing works (reading the table's columns for its views
    // already meets it, and the next table's statement is refused).
    const out = await runPane(false, [{ objects, sql: SQL }]).then(
      (r) => JSON.stringify(r),
      (e: Error) => e.message
    )
    expect(out).toMatch(/SetMin or SetMax called with Value that does not match statistics/)
    expect(out).toMatch(/database has been invalidated/)
  })

  it('names the table, its files and why; the other tables open and answer', async () => {
    const withFilename = [
      "SELECT string_agg(filename, ',' ORDER BY filename) AS f FROM claudia_prompt_revision",
      "SELECT string_agg(filename, ',' ORDER BY filename) AS f, string_agg(DISTINCT _file, ',') AS files FROM cloud_chat_messages__versions"
    ]
    const [out] = (await runPane(true, [{ objects, sql: [...SQL, ...withFilename] }])) as [PaneStep]
    const problem = (t: string): string => out.problems.find((p) => p.table === t)?.message ?? `<no problem for ${t}>`
    const widened = problem('datamart_claudia.claudia_messages')
    expect(widened).toContain('datamart_claudia.claudia_messages cannot be opened in the query pane')
    expect(widened).toMatch(
      /column tokens is INT32 \(INT_32\) in 1 file \(v1\/datamart_claudia\/claudia_messages\/etl_date=__initial__\/part-00000\.parquet\), but INT64 \(INT_64\) in 1 file \(v1\/datamart_claudia\/claudia_messages\/etl_date=2026-11-01\/part-00000\.parquet\)/
    )
    expect(widened).toMatch(/native DuckDB 1\.5.*combines them/)
    expect(widened).not.toMatch(/ee\//)
    // A vendor column named filename is no problem: both tables and their versions open, the vendor's values intact.
    expect(out.problems.filter((p) => /prompt_revision|cloud_chat_messages/.test(p.table))).toEqual([])
    expect(out.created).toEqual(
      expect.arrayContaining([
        'datamart_claudia.claudia_csat',
        'datamart_cloudchat_saas.cloud_chat_tags',
        'datamart_claudia.claudia_prompt_revision',
        'claudia_prompt_revision__versions',
        'datamart_cloudchat_saas.cloud_chat_messages',
        'cloud_chat_messages__versions'
      ])
    )
    expect(out.created).not.toContain('datamart_claudia.claudia_messages')
    expect(out.results.slice(0, 3)).toEqual([[{ n: 5 }], [{ n: 7 }], [{ n: 3 }]])
    expect(out.results.slice(5)).toEqual([
      [{ f: 'vendor-file-0,vendor-file-1,vendor-file-2' }],
      [{ f: 'vendor-file-0,vendor-file-1,vendor-file-2', files: 'part-00000.parquet' }]
    ])
    expect(out.results[3]).toEqual({ error: expect.stringContaining('claudia_messages does not exist') })
    expect(out.results[4]).toEqual([{ n: 7 }])
    // Nothing else is refused: the tables without folders say so, as before.
    const others = out.problems.filter((p) => p.table !== 'datamart_claudia.claudia_messages')
    expect(others.every((p) => /has no ready folder/.test(p.message))).toBe(true)
  })

  it('after a refresh brings the widened file, the view of the earlier listing is gone, not left to fail', async () => {
    const before = objects.filter((o) => !o.key.startsWith(MSG_NEW))
    const [first, second] = (await runPane(true, [
      { objects: before, sql: ['SELECT count(*)::INTEGER AS n FROM claudia_messages'] },
      {
        objects,
        sql: [
          'SELECT count(*)::INTEGER AS n FROM claudia_messages',
          'SELECT count(*)::INTEGER AS n FROM datamart_claudia.claudia_messages',
          'SELECT count(*)::INTEGER AS n FROM datamart_cloudchat_saas.cloud_chat_tags'
        ]
      }
    ])) as [PaneStep, PaneStep]
    expect(first.created).toContain('datamart_claudia.claudia_messages')
    expect(first.results).toEqual([[{ n: 4 }]])
    expect(second.problems.find((p) => p.table === 'datamart_claudia.claudia_messages')?.message).toMatch(
      /cannot be opened in the query pane: its files disagree on column types/
    )
    expect(second.results.slice(0, 2)).toEqual([
      { error: expect.stringContaining('claudia_messages does not exist') },
      { error: expect.stringContaining('claudia_messages does not exist') }
    ])
    expect(second.results[2]).toEqual([{ n: 7 }])
  })
})
