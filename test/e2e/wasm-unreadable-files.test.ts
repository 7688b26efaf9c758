// Files that native DuckDB reads at once and DuckDB-WASM 0.9.1 (the query pane) cannot, through the renderer's engine
// in Chromium and the byte server: a table whose files disagree on a column's Parquet type (INT32 in the older
// folder, INT64 in the newer). Without the guard 0.9.1 fails and stops reading every table; with it, the pane reads
// the files one type at a time and answers as native DuckDB does (the newest version of each key, the wider type),
// with a note naming the files and why, before any mirror exists. A table whose files also hold a column named
// `filename` cannot be read so and is refused with why; the other tables open and answer, before and after the
// drifting one in catalog order, those with a vendor column named `filename` among them (read_parquet's own column
// of that name is never asked for there: logical-table-sql.ts).
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { listAll } from '../../src/main/bucket/bucket-provider'
import { LocalFolderProvider } from '../../src/main/bucket/local-provider'
import { type ByteServer, startByteServer } from '../../src/main/byte-server/byte-server'
import { CATALOG } from '../../src/shared/catalog'
import { buildInventory, foldersForLogicalTable } from '../../src/shared/inventory'
import type { ListedObject } from '../../src/shared/listing'
import { logicalTableSql } from '../../src/shared/logical-table-sql'
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
// Full copies whose two files disagree on a column's type: one plain, one with a vendor column named filename.
const CC_CSAT = 'v1/datamart_cloudchat_saas/cloud_chat_csat/snapshot_date=2026-11-01/'
const CONTENTS = 'v1/datamart_claudia/claudia_contents/snapshot_date=2026-11-01/'
const MESSAGES = CATALOG.find((t) => t.table === 'claudia_messages')!

/** A logical table on native DuckDB 1.5 over the files on disk, by the shared rules: what the pane must answer. */
let nativeMessages: { n: number; tokens: string; type: string }[]
const MESSAGES_SQL = 'SELECT count(*)::INTEGER AS n, sum(tokens)::VARCHAR AS tokens, typeof(any_value(tokens)) AS type FROM claudia_messages'

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'ee-wasm-files-'))
  const bucket = join(work, 'bucket')
  const db = await openDb()
  try {
    const write = async (prefix: string, select: string, file = 'part-00000.parquet'): Promise<void> => {
      await mkdir(join(bucket, prefix), { recursive: true })
      await db.run(`COPY (${select}) TO ${quoteLiteral(join(bucket, prefix, file))} (FORMAT parquet)`)
      await writeFile(join(bucket, prefix, '_SUCCESS'), '')
    }
    await write(CSAT, `SELECT 'csat_' || range AS csat_id, range::INTEGER AS score FROM range(5)`)
    // The vendor widened a column: INT32 in the initial load, INT64 later.
    await write(MSG_OLD, `SELECT 'm' || range AS message_id, range::INTEGER AS tokens FROM range(4)`)
    await write(MSG_NEW, `SELECT 'm' || range AS message_id, (range + 5000000000)::BIGINT AS tokens FROM range(2)`)
    await write(PROMPT, `SELECT 'p' || range AS prompt_revision_id, 'vendor-file-' || range AS filename FROM range(3)`)
    await write(CHAT, `SELECT 'c' || range AS chat_id, 'vendor-file-' || range AS filename FROM range(3)`)
    await write(TAGS, `SELECT 't' || range AS tag_id FROM range(7)`)
    await write(CC_CSAT, `SELECT 's' || range AS csat_id, range::INTEGER AS score FROM range(3)`)
    await write(CC_CSAT, `SELECT 's' || (range + 3) AS csat_id, (range + 3000000000)::BIGINT AS score FROM range(2)`, 'part-00001.parquet')
    await write(CONTENTS, `SELECT 'c' || range AS content_id, 'vendor-' || range AS filename, range::INTEGER AS size FROM range(3)`)
    await write(CONTENTS, `SELECT 'c9' AS content_id, 'vendor-9' AS filename, 9::BIGINT AS size`, 'part-00001.parquet')
    // Native DuckDB 1.5 reads the widened table (the wider type), and the column named filename.
    const [m] = await db.rows(
      `SELECT count(*)::INTEGER AS n, max(tokens)::VARCHAR AS hi FROM read_parquet(${quoteLiteral(join(bucket, 'v1/datamart_claudia/claudia_messages/*/*.parquet'))}, union_by_name = true)`
    )
    expect(m).toEqual({ n: 6, hi: '5000000001' })
    const provider = new LocalFolderProvider(bucket)
    for await (const o of listAll(provider, '')) objects.push(o)
    const q = logicalTableSql(MESSAGES, foldersForLogicalTable(buildInventory(objects), MESSAGES), (k) => join(bucket, k))
    if (!q.ok) throw new Error(`claudia_messages has no logical table in the test bucket: ${q.message}`)
    await db.run(`CREATE VIEW claudia_messages AS ${q.sql}`)
    nativeMessages = (await db.rows(MESSAGES_SQL)) as typeof nativeMessages
    // The newest version of each message_id: 4 keys, two of them from the INT64 folder.
    expect(nativeMessages).toEqual([{ n: 4, tokens: String(5000000000 + 5000000001 + 2 + 3), type: 'BIGINT' }])
  } finally {
    db.close()
  }
  const provider = new LocalFolderProvider(bucket)
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

type PaneStep = { created: string[]; problems: { table: string; message: string }[]; reads: { table: string; message: string }[]; results: unknown[] }
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

  it('reads the drifting table one type at a time, as native DuckDB does, and says so; the other tables open and answer', async () => {
    const withFilename = [
      "SELECT string_agg(filename, ',' ORDER BY filename) AS f FROM claudia_prompt_revision",
      "SELECT string_agg(filename, ',' ORDER BY filename) AS f, string_agg(DISTINCT _file, ',') AS files FROM cloud_chat_messages__versions"
    ]
    const drift = [
      MESSAGES_SQL,
      'SELECT message_id, tokens::VARCHAR AS tokens FROM claudia_messages WHERE tokens > 4000000000 ORDER BY 1',
      "SELECT count(*)::INTEGER AS n, string_agg(DISTINCT _etl_date, ',' ORDER BY _etl_date) AS dates FROM claudia_messages__versions",
      'SELECT count(*)::INTEGER AS n, sum(score)::VARCHAR AS score FROM datamart_cloudchat_saas.cloud_chat_csat'
    ]
    const [out] = (await runPane(true, [{ objects, sql: [...SQL, ...withFilename, ...drift] }])) as [PaneStep]
    expect(out.created).toEqual(
      expect.arrayContaining([
        'datamart_claudia.claudia_messages',
        'claudia_messages__versions',
        'datamart_cloudchat_saas.cloud_chat_csat',
        'datamart_claudia.claudia_csat',
        'datamart_cloudchat_saas.cloud_chat_tags',
        'datamart_claudia.claudia_prompt_revision',
        'claudia_prompt_revision__versions',
        'datamart_cloudchat_saas.cloud_chat_messages',
        'cloud_chat_messages__versions'
      ])
    )
    // The rules' answer, as native DuckDB gives it: the newest version of each key, in the wider type.
    expect(out.results[3]).toEqual([{ n: nativeMessages[0]!.n }])
    expect(out.results[7]).toEqual(nativeMessages)
    expect(out.results[8]).toEqual([
      { message_id: 'm0', tokens: '5000000000' },
      { message_id: 'm1', tokens: '5000000001' }
    ])
    expect(out.results[9]).toEqual([{ n: 6, dates: '2026-11-01,__initial__' }])
    expect(out.results[10]).toEqual([{ n: 5, score: String(0 + 1 + 2 + 3000000000 + 3000000001) }])
    // Said in plain words: which column, which files (bucket keys), and how the pane reads them.
    const note = out.reads.find((n) => n.table === 'datamart_claudia.claudia_messages')?.message ?? '<no note>'
    expect(note).toBe(
      "datamart_claudia.claudia_messages is read here from the bucket's files one type at a time: tokens is INT32 (INT_32) in 1 file, " +
        'then INT64 (INT_64) from v1/datamart_claudia/claudia_messages/etl_date=2026-11-01/part-00000.parquet (1 file). ' +
        "This pane's engine (DuckDB-WASM 0.9.1) cannot read files that disagree on a column's type in one go; read apart, they combine as the wider type, " +
        'as native DuckDB gives them (the command-line tool, exports). Once the local mirror holds the table (one type per column), it is read from there.'
    )
    expect(note).not.toMatch(/ee\//)
    // Files that also hold a column named filename cannot be read so: that table alone is refused, with why.
    const refused = out.problems.find((p) => p.table === 'datamart_claudia.claudia_contents')?.message ?? '<no problem>'
    expect(refused).toContain('datamart_claudia.claudia_contents cannot be opened in the query pane: its files disagree on column types')
    expect(refused).toMatch(/column size is INT32 \(INT_32\) in 1 file .*but INT64 \(INT_64\) in 1 file/)
    expect(refused).toMatch(/a column named filename or file_row_number.*command-line tool/)
    expect(out.created).not.toContain('datamart_claudia.claudia_contents')
    // A vendor column named filename is otherwise no problem: both tables and their versions open, the vendor's values intact.
    expect(out.problems.filter((p) => /prompt_revision|cloud_chat_messages/.test(p.table))).toEqual([])
    expect(out.results.slice(0, 3)).toEqual([[{ n: 5 }], [{ n: 7 }], [{ n: 3 }]])
    expect(out.results.slice(5, 7)).toEqual([
      [{ f: 'vendor-file-0,vendor-file-1,vendor-file-2' }],
      [{ f: 'vendor-file-0,vendor-file-1,vendor-file-2', files: 'part-00000.parquet' }]
    ])
    expect(out.results[4]).toEqual([{ n: 7 }])
    // Nothing else is refused: the tables without folders say so, as before.
    const others = out.problems.filter((p) => p.table !== 'datamart_claudia.claudia_contents')
    expect(others.every((p) => /has no ready folder/.test(p.message))).toBe(true)
  })

  it('after a refresh brings the widened file, the table reads both types; a listing back without it reads the one', async () => {
    const before = objects.filter((o) => !o.key.startsWith(MSG_NEW))
    const count = 'SELECT count(*)::INTEGER AS n, max(tokens)::VARCHAR AS hi FROM claudia_messages'
    const [first, second, third] = (await runPane(true, [
      { objects: before, sql: [count] },
      {
        objects,
        sql: [
          count,
          'SELECT count(*)::INTEGER AS n FROM datamart_claudia.claudia_messages',
          'SELECT count(*)::INTEGER AS n FROM datamart_cloudchat_saas.cloud_chat_tags'
        ]
      },
      { objects: before, sql: [count, 'SELECT count(*)::INTEGER AS n FROM claudia_messages__versions'] }
    ])) as [PaneStep, PaneStep, PaneStep]
    expect(first.created).toContain('datamart_claudia.claudia_messages')
    expect(first.results).toEqual([[{ n: 4, hi: '3' }]])
    expect(first.reads.filter((n) => n.table === 'datamart_claudia.claudia_messages')).toEqual([])
    expect(second.problems.filter((p) => p.table === 'datamart_claudia.claudia_messages')).toEqual([])
    expect(second.reads.find((n) => n.table === 'datamart_claudia.claudia_messages')?.message).toMatch(
      /is read here from the bucket's files one type at a time: tokens is INT32/
    )
    expect(second.results).toEqual([[{ n: 4, hi: '5000000001' }], [{ n: 4 }], [{ n: 7 }]])
    // The groups registered for the drifting listing are not read by the next one's single glob.
    expect(third.results).toEqual([[{ n: 4, hi: '3' }], [{ n: 4 }]])
  })
})
