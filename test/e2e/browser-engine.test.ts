// The renderer's engine in a real browser (Debian's Chromium): DuckDB-WASM 1.28 reads the generated bucket's
// Parquet over HTTP through the byte server (S3 behind it), and the shared views give the generator's truth.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { listAll } from '../../src/main/bucket/bucket-provider'
import { LocalFolderProvider } from '../../src/main/bucket/local-provider'
import { S3Provider } from '../../src/main/bucket/s3-provider'
import { type ByteServer, startByteServer } from '../../src/main/byte-server/byte-server'
import { readLocalBucket } from '../helpers/local-bucket'
import { objectsForViews } from '../../src/shared/bucket-views'
import { SMALL_FILE_BYTES } from '../../src/renderer/src/engine/wasm-engine'
import { CATALOG } from '../../src/shared/catalog'
import { foldersForLogicalTable } from '../../src/shared/inventory'
import { logicalTableSql } from '../../src/shared/logical-table-sql'
import type { ListedObject } from '../../src/shared/listing'
import { quoteLiteral } from '../../src/shared/sql-quote'
import { launchChromium } from '../helpers/chromium'
import { openDb } from '../helpers/duckdb'
import { type Demo, readDemo } from '../helpers/demo'
import { type S3Server, S3_TEST_KEYS, startS3Server } from '../helpers/s3-server'
import { enginePage } from '../helpers/engine-page'
import { serveFolder } from '../helpers/static-server'

let demo: Demo
let s3: S3Server
let bytes: ByteServer
let page: { origin: string; close(): Promise<void> }
let work: string
const objects: ListedObject[] = []
/** What the byte server serves: the bucket's listing (updated when an object is restored). */
const byKey = new Map<string, ListedObject>()
const previousDelay = process.env['S3RVER_RESTORE_DELAY_MS']

beforeAll(async () => {
  demo = await readDemo({ days: 8 })
  for await (const o of listAll(new LocalFolderProvider(demo.bucketDir), '')) objects.push(o)
  s3 = await startS3Server()
  await s3.seed('browser', demo.bucketDir)
  work = await mkdtemp(join(tmpdir(), 'ee-browser-'))
  page = await serveFolder(await enginePage(work))
  const provider = new S3Provider({ bucket: 'browser', endpoint: s3.endpoint, region: 'us-east-1', credentials: { kind: 'static', ...S3_TEST_KEYS } })
  for (const o of objects) byKey.set(o.key, o)
  bytes = await startByteServer({ provider, lookup: (k) => byKey.get(k), cacheDir: join(work, 'cache'), allowOrigin: page.origin })
}, 300_000)
afterAll(async () => {
  await page?.close()
  await bytes?.close()
  await s3?.close()
  await demo?.cleanup()
  if (work) await rm(work, { recursive: true, force: true })
  if (previousDelay === undefined) delete process.env['S3RVER_RESTORE_DELAY_MS']
  else process.env['S3RVER_RESTORE_DELAY_MS'] = previousDelay
})

describe('renderer engine in Chromium', () => {
  it('reads every logical table through the byte server and equals the truth', async () => {
    const browser = await launchChromium()
    try {
      const tab = await browser.newPage()
      await tab.goto(`${page.origin}/index.html`)
      await tab.waitForFunction(() => typeof window.runViews === 'function')
      const sql = CATALOG.map((t) => `SELECT '${t.table}' AS t, count(*)::INTEGER AS n FROM ${t.schema}.${t.table}`)
      sql.push(`SELECT content FROM claudia_prompt_revision WHERE prompt_revision_id = 'prompt_revision_tracked_a'`)
      const out = await tab.evaluate((cfg) => window.runViews(cfg), { objects, base: bytes.url(''), now: Date.parse(demo.expected.now), sql })
      // The planted GLACIER object keeps claudia_messages closed here (the raw files; the app reads it from the mirror),
      // and the planted corrupt file is named (the app's frame check passes that copy over before the engine sees it).
      expect(out.problems).toEqual([
        { table: 'datamart_claudia.claudia_messages', message: expect.stringContaining(demo.expected.faults.find((f) => f.kind === 'archived')!.key) },
        { table: `datamart_cloudchat_saas.${demo.expected.corrupt_file.table}`, message: expect.stringContaining(demo.expected.corrupt_file.key) }
      ])
      const results = out.results.slice(0, CATALOG.length) as ({ t: string; n: number }[] | { error: string })[]
      const counts = Object.fromEntries(results.filter((r): r is { t: string; n: number }[] => Array.isArray(r)).map((r) => [r[0]!.t, r[0]!.n]))
      const want = Object.fromEntries(
        CATALOG.filter((t) => t.table !== 'claudia_messages' && t.table !== demo.expected.corrupt_file.table).map((t) => [
          t.table,
          demo.expected.tables[t.table]!.rows
        ])
      )
      expect(counts).toEqual(want)
      expect(results[CATALOG.findIndex((t) => t.table === 'claudia_messages')]).toEqual({ error: expect.stringContaining('claudia_messages does not exist') })
      const tracked = demo.expected.newest_values.find((v) => v.key === 'prompt_revision_tracked_a')!
      expect(out.results.at(-1)).toEqual([{ content: tracked.value }])
      // Small files are read whole (wasm-engine.ts), asked for in batches of up to 64: over HTTP it was a HEAD and a
      // footer read each time a view was bound or a query opened the file, then one GET each, six at a time.
      const readable = objectsForViews((await readLocalBucket(demo.bucketDir)).inventory).filter(
        (o) => o.key.endsWith('.parquet') && o.size <= SMALL_FILE_BYTES
      )
      expect(bytes.stats.batches).toBeGreaterThan(0)
      expect(bytes.stats.requests).toBeGreaterThan(0)
      expect(bytes.stats.requests).toBeLessThanOrEqual(readable.length / 4)
    } finally {
      await browser.close()
    }
  })

  it('after a refresh changes the latest copy, one long-lived engine reads the new files, not cached metadata of the old', async () => {
    const latest = demo.expected.latest_ready['claudia_csat']!
    // Listing 2: the latest copy of claudia_csat is gone (as if its hour were pruned), so the previous hour is read.
    const later = objects.filter((o) => !o.key.startsWith(latest.prefix))
    const previous = [
      ...new Set(later.filter((o) => o.key.includes('/claudia_csat/') && o.key.endsWith('_SUCCESS')).map((o) => o.key.slice(0, o.key.lastIndexOf('/') + 1)))
    ]
      .sort()
      .at(-1)!
    // md5 of the rows in order: the same in DuckDB 1.x native and in DuckDB-WASM 1.28 (hash() is not).
    const rows = `count(*)::INTEGER AS n, md5(string_agg(csat_id || ':' || CAST(score AS VARCHAR) || ':' || strftime(updated_at, '%Y-%m-%d %H:%M:%S'), ',' ORDER BY csat_id)) AS h`
    const digest = `SELECT ${rows} FROM datamart_claudia.claudia_csat`
    const db = await openDb()
    const want = async (prefix: string): Promise<unknown> =>
      (await db.rows(`SELECT ${rows} FROM read_parquet(${quoteLiteral(join(demo.bucketDir, prefix, '*.parquet'))}, union_by_name = true)`))[0]
    const [w1, w2] = [await want(latest.prefix), await want(previous)]
    db.close()
    expect(w1).not.toEqual(w2)
    const browser = await launchChromium()
    try {
      const tab = await browser.newPage()
      await tab.goto(`${page.origin}/index.html`)
      await tab.waitForFunction(() => typeof window.runViewsSequence === 'function')
      const out = await tab.evaluate((cfg) => window.runViewsSequence(cfg), {
        base: bytes.url(''),
        now: Date.parse(demo.expected.now),
        steps: [
          { objects, sql: [digest] },
          { objects: later, sql: [digest] },
          { objects, sql: [digest] }
        ]
      })
      expect(out.map((r) => (r[0] as unknown[])[0])).toEqual([w1, w2, w1])
    } finally {
      await browser.close()
    }
  })

  it('streams results in batches and cancels a running query', async () => {
    const browser = await launchChromium()
    try {
      const tab = await browser.newPage()
      await tab.goto(`${page.origin}/index.html`)
      await tab.waitForFunction(() => typeof window.runStreamAndCancel === 'function')
      const out = await tab.evaluate(() => window.runStreamAndCancel())
      expect(out.streamed).toBe(300000)
      expect(out.batches).toBeGreaterThan(1)
      expect(out.cancelled).toMatch(/cancel|interrupt/i)
      expect(out.after).toEqual([{ x: 42 }])
    } finally {
      await browser.close()
    }
  })

  it('the query session: Cancel of a statement the interrupt cannot stop restarts the engine on the same "as of"; other work waits and is right', async () => {
    const asOf = new Date(Math.floor(Date.parse(demo.expected.now) / 3_600_000) * 3_600_000 - 48 * 3_600_000).toISOString()
    const t = CATALOG.find((c) => c.table === 'claudia_csat')!
    const db = await openDb()
    let want: number
    let latest: number
    try {
      const inv = (await readLocalBucket(demo.bucketDir)).inventory
      const count = async (o: { asOf?: number }): Promise<number> => {
        const q = logicalTableSql(t, foldersForLogicalTable(inv, t, o), (k) => join(demo.bucketDir, k))
        if (!q.ok) throw new Error(q.message)
        return Number((await db.rows(`SELECT count(*)::INTEGER AS n FROM (${q.sql})`))[0]?.['n'])
      }
      ;[want, latest] = [await count({ asOf: Date.parse(asOf) }), await count({})]
    } finally {
      db.close()
    }
    expect(want).not.toBe(latest)
    const browser = await launchChromium()
    try {
      const tab = await browser.newPage()
      await tab.goto(`${page.origin}/index.html`)
      await tab.waitForFunction(() => typeof window.runSessionCancel === 'function')
      const out = await tab.evaluate((cfg) => window.runSessionCancel(cfg), {
        objects,
        base: bytes.url(''),
        now: Date.parse(demo.expected.now),
        asOf,
        sql: 'SELECT count(*)::INTEGER AS n FROM datamart_claudia.claudia_csat',
        // One call of the worker for many seconds: the interrupt lands only after it.
        runaway: `SELECT length(regexp_replace(repeat('ab', 20000000), '(a|b)', 'x', 'g')) AS n`
      })
      process.stdout.write(`session cancel: stopped after ${Math.round(out.cancelMs)} ms (${out.outcome})\n`)
      expect(out.before).toEqual([{ n: want }])
      expect(out.outcome).toBe('restarted')
      expect(out.runaway).toMatch(/^CancelledError: .*restarted/)
      expect(out.queuedOfPane).toBe('CancelledError: Cancelled before it started.')
      // Queued behind the runaway statement, another owner's work ran on the new engine, once its views were open.
      expect(out.otherOwner).toEqual([{ n: want }])
      expect(out.events).toEqual(['restarting', 'restarted'])
      expect(out.after).toEqual([{ n: want }])
    } finally {
      await browser.close()
    }
  })

  it('once the archived object is restored, claudia_messages keeps the newest version of every row', async () => {
    const key = demo.expected.faults.find((f) => f.kind === 'archived')!.key
    const provider = new S3Provider({ bucket: 'browser', endpoint: s3.endpoint, region: 'us-east-1', credentials: { kind: 'static', ...S3_TEST_KEYS } })
    process.env['S3RVER_RESTORE_DELAY_MS'] = '200'
    expect(await provider.restore(key, 1, 'Standard')).toBe('started')
    await new Promise((r) => setTimeout(r, 300))
    const restored = await provider.head(key)
    expect(restored.restore?.ongoing).toBe(false)
    // The listing now says so, and the byte server serves it.
    const i = objects.findIndex((o) => o.key === key)
    objects[i] = { ...objects[i]!, restore: restored.restore! }
    byKey.set(key, objects[i]!)
    const browser = await launchChromium()
    try {
      const tab = await browser.newPage()
      await tab.goto(`${page.origin}/index.html`)
      await tab.waitForFunction(() => typeof window.runViews === 'function')
      const tracked = demo.expected.newest_values.filter((v) => v.table === 'claudia_messages')
      const sql = [
        'SELECT count(*)::INTEGER AS n, count(DISTINCT message_id)::INTEGER AS k FROM claudia_messages',
        `SELECT message_id, content FROM claudia_messages WHERE message_id IN (${tracked.map((v) => `'${v.key}'`).join(', ')}) ORDER BY 1`,
        'SELECT count(*)::INTEGER AS n FROM claudia_messages__versions'
      ]
      const out = await tab.evaluate((cfg) => window.runViews(cfg), { objects, base: bytes.url(''), now: Date.parse(demo.expected.now), sql })
      expect(out.problems).toEqual([
        { table: `datamart_cloudchat_saas.${demo.expected.corrupt_file.table}`, message: expect.stringContaining(demo.expected.corrupt_file.key) }
      ])
      const e = demo.expected.tables['claudia_messages']!
      expect(out.results[0]).toEqual([{ n: e.rows, k: e.distinct_keys }])
      expect(out.results[1]).toEqual([...tracked].sort((a, b) => (a.key < b.key ? -1 : 1)).map((v) => ({ message_id: v.key, content: v.value })))
      expect(out.results[2]).toEqual([{ n: e.versions }])
    } finally {
      await browser.close()
    }
  })
})
