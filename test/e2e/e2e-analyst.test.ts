// The analyst's flows end to end: Debian's Chromium on the web host, a generated bucket served by a real S3
// server on loopback (its archived object restored, as a user would in the console). Filter claudia_messages
// by a tenant and a send_at range without SQL and get the generator's count; a SQL error is shown where it is
// and the next query works; Cancel stops a runaway query by restarting the engine, and the next query is right; scroll to the end of a million-row result; export the filtered table to CSV and
// compare the file with the same query on native DuckDB. Screenshots under test-results/.
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readLocalBucket } from '../helpers/local-bucket'
import { listAll } from '../../src/main/bucket/bucket-provider'
import { LocalFolderProvider } from '../../src/main/bucket/local-provider'
import { S3Provider } from '../../src/main/bucket/s3-provider'
import { MemorySecretStore } from '../../src/main/connections/secret-store'
import { Workspace } from '../../src/main/workspace/workspace'
import { CATALOG } from '../../src/shared/catalog'
import { tableFiltersSql } from '../../src/shared/filter-sql'
import { foldersForLogicalTable } from '../../src/shared/inventory'
import { isArchived } from '../../src/shared/listing'
import { logicalTableSql } from '../../src/shared/logical-table-sql'
import { quoteLiteral } from '../../src/shared/sql-quote'
import { type AppUnderTest, openS3Connection, startAppUnderTest } from '../helpers/app-under-test'
import { type Demo } from '../helpers/demo'
import { openDb } from '../helpers/duckdb'
import { S3_TEST_KEYS, type S3Server } from '../helpers/s3-server'
import { runSqlInPane } from '../helpers/app-page'

const BUCKET = 'analyst-export'
let app: AppUnderTest
let demo: Demo
let work: string
let page: Page

// The filter: one tenant, two whole days of send_at.
let tenant: string
let from: string
let to: string
let truth: number

beforeAll(async () => {
  app = await startAppUnderTest({
    s3Bucket: BUCKET,
    page: { viewport: { width: 1500, height: 1000 }, permissions: ['clipboard-read', 'clipboard-write'] },
    // The planted archived object blocks claudia_messages until restored: restore it, as a user would.
    prepare: async ({ demo, s3 }) => {
      const server = s3 as S3Server
      const provider = new S3Provider({
        bucket: BUCKET,
        prefix: '',
        endpoint: server.endpoint,
        region: 'us-east-1',
        credentials: { kind: 'static', ...S3_TEST_KEYS }
      })
      let restored = 0
      for await (const o of listAll(new LocalFolderProvider(demo.bucketDir), '')) {
        if (!isArchived(o, Date.parse(demo.expected.now))) continue
        expect(await provider.restore(o.key, 1, 'Standard')).toBe('started')
        // Then copied in place to STANDARD, which gives it a new LastModified (what a user does after a restore;
        // s3rver's listing does not report restore status, which real S3 does and the app reads).
        await server.put(BUCKET, o.key, await readFile(join(demo.bucketDir, o.key)), new Date(Date.parse(o.lastModified) + 60_000))
        restored++
      }
      expect(restored).toBeGreaterThan(0)
    },
    workspace: async ({ demo, s3, work }) => {
      // The web host writes exports only in its export folder: the test's own.
      const w = new Workspace({
        dataDir: join(work, 'data'),
        secrets: new MemorySecretStore(),
        clock: () => Date.parse(demo.expected.now),
        autoRefresh: false,
        exportDir: join(work, 'exports')
      })
      await openS3Connection(w, s3 as S3Server, 'Analyst S3', BUCKET)
      return w
    }
  })
  ;({ demo, work, page } = app)

  // The truth for the filter, from the generator's own model.
  const byTenant = demo.expected.messages_by_tenant_day
  tenant = Object.keys(byTenant).sort()[1] as string
  const days = Object.keys(byTenant[tenant] as Record<string, number>).sort()
  const d0 = days[Math.floor(days.length / 2)] as string
  const d2 = new Date(Date.parse(d0) + 2 * 86_400_000).toISOString().slice(0, 10)
  from = `${d0}T00:00`
  to = `${d2}T00:00`
  truth = days.filter((d) => d >= d0 && d < d2).reduce((n, d) => n + ((byTenant[tenant] as Record<string, number>)[d] ?? 0), 0)
}, 300_000)
afterAll(async () => {
  await app?.close()
})

/** A count over claudia_messages ("as of" an hour, or latest) on native DuckDB over the bucket's files, through the core's SQL. */
async function nativeCount(sql: string, asOf: string | null): Promise<number> {
  const db = await openDb()
  try {
    const snap = await readLocalBucket(demo.bucketDir)
    const t = CATALOG.find((c) => c.table === 'claudia_messages')!
    const q = logicalTableSql(t, foldersForLogicalTable(snap.inventory, t, asOf ? { asOf: Date.parse(asOf) } : {}), (k) => join(demo.bucketDir, k))
    if (!q.ok) throw new Error(q.message)
    await db.run(`CREATE VIEW claudia_messages AS ${q.sql}`)
    return Number(Object.values((await db.rows(sql))[0] ?? {})[0])
  } finally {
    db.close()
  }
}

/** Replaces the SQL editor's text and runs it with Ctrl+Enter. */
const runSql = (sql: string): Promise<void> => runSqlInPane(page, sql)

describe('analyst flows against S3 on loopback', () => {
  it('filters claudia_messages by a tenant and a send_at range without SQL: the generator’s count', async () => {
    await page.goto(app.host.url)
    await page.getByRole('tab', { name: 'Tables' }).click()
    await page.locator('[data-table-item=claudia_messages]').click()
    // The unfiltered preview: the whole logical table (newest version of each message).
    await expect
      .poll(
        async () =>
          (await page.locator('[data-testid=table-problem]').count())
            ? await page.locator('[data-testid=table-problem]').textContent()
            : await page.locator('[data-testid=result-grid]').getAttribute('data-rows'),
        { timeout: 90_000 }
      )
      .toBe(String(demo.expected.tables['claudia_messages']?.rows))
    expect(truth).toBeGreaterThan(5)
    await page.getByLabel('time from').fill(from)
    await page.getByLabel('time to').fill(to)
    // A checkbox per tenant (no Ctrl+click), found by searching when there are many.
    await page.getByRole('group', { name: 'tenants' }).getByLabel(tenant, { exact: true }).check()
    const generated = await page.locator('[data-testid=generated-sql]').textContent()
    expect(generated).toContain(`"send_at" >= TRY_CAST('${from.replace('T', ' ')}:00' AS TIMESTAMP)`)
    expect(generated).toContain(`"tenant_id" IN ('${tenant}')`)
    await page.getByRole('button', { name: 'Apply filters' }).click()
    await expect.poll(() => page.locator('[data-testid=result-grid]').getAttribute('data-rows'), { timeout: 60_000 }).toBe(String(truth))
    await expect.poll(() => page.locator('[data-cell="0:0"]').textContent()).toMatch(/^message_/)
    await page.screenshot({ path: 'test-results/tables-filtered-claudia-messages.png' })
    // Copy a selection (click, Shift+click, Ctrl+C) as tab-separated text.
    await page.locator('[data-cell="0:0"]').click()
    await page.locator('[data-cell="1:2"]').click({ modifiers: ['Shift'] })
    await page.keyboard.press('ControlOrMeta+c')
    await expect.poll(() => page.getByText(/^Copied 2 rows × 3 columns$/).count()).toBe(1)
    const copied = await page.evaluate(() => navigator.clipboard.readText())
    const lines = copied.split('\n')
    expect(lines).toHaveLength(2)
    for (const l of lines) expect(l).toMatch(new RegExp(`^message_\\d+\\tconversation_\\d+\\t${tenant}$`))
    // Resize a column by dragging its header's edge.
    const header = page.locator('[data-testid=table-browser] [role=columnheader][data-column=content]')
    const w0 = (await header.boundingBox())!.width
    const edge = (await header.boundingBox())!
    await page.mouse.move(edge.x + edge.width - 2, edge.y + edge.height / 2)
    await page.mouse.down()
    await page.mouse.move(edge.x + edge.width + 120, edge.y + edge.height / 2, { steps: 5 })
    await page.mouse.up()
    await expect.poll(async () => Math.round((await header.boundingBox())!.width - w0)).toBeGreaterThan(100)
    // Columns: types and statistics with histograms.
    await page.getByRole('tab', { name: 'Columns' }).click()
    await page.getByRole('button', { name: 'Compute column statistics' }).click()
    await expect.poll(() => page.locator('[data-column-stats=tokens] svg[aria-label=histogram]').count(), { timeout: 120_000 }).toBe(1)
    expect(await page.locator('[data-column-stats=send_at]').textContent()).toMatch(/TIMESTAMP/)
    await page.screenshot({ path: 'test-results/tables-column-stats.png' })
    await page.getByRole('tab', { name: 'Rows' }).click()
  })

  it('exports the filtered table to CSV: the file equals the same query on native DuckDB', async () => {
    await page.getByRole('button', { name: 'Export…' }).click()
    const target = join(work, 'exports', 'claudia_messages.csv')
    await page.getByLabel('export path').fill(target)
    await page.getByRole('dialog', { name: 'Export' }).getByRole('button', { name: 'Export', exact: true }).click()
    await expect.poll(() => page.locator('[data-testid=export-status]').getAttribute('data-done'), { timeout: 120_000 }).toBe('true')
    expect(await page.locator('[data-testid=export-status]').textContent()).toContain(`Saved ${truth.toLocaleString('en')} rows to ${target}`)
    await page.screenshot({ path: 'test-results/export-done.png' })
    await page.getByRole('dialog', { name: 'Export' }).getByRole('button', { name: 'Close' }).click()

    // The same query on native DuckDB over the bucket's files, through the core's SQL.
    const db = await openDb()
    try {
      const snap = await readLocalBucket(demo.bucketDir)
      const t = CATALOG.find((c) => c.table === 'claudia_messages')!
      const q = logicalTableSql(t, foldersForLogicalTable(snap.inventory, t), (k) => join(demo.bucketDir, k))
      if (!q.ok) throw new Error(q.message)
      await db.run(`CREATE SCHEMA datamart_claudia; CREATE VIEW datamart_claudia.claudia_messages AS ${q.sql}`)
      const cols = (await db.rows('DESCRIBE datamart_claudia.claudia_messages')).map((r) => ({
        name: String(r['column_name']),
        type: String(r['column_type'])
      }))
      const sql = tableFiltersSql(
        { schema: 'datamart_claudia', table: 'claudia_messages', filters: [], tenants: [tenant], time: { column: 'send_at', from, to } },
        cols
      )
      const digest = (src: string): string =>
        `SELECT count(*)::INTEGER AS n, sum(hash(message_id, content, tenant_id, strftime(send_at, '%Y-%m-%d %H:%M:%S')))::VARCHAR AS h FROM ${src}`
      const [want] = await db.rows(digest(`(${sql})`))
      const [got] = await db.rows(digest(`read_csv(${quoteLiteral(target)}, header = true, auto_detect = true)`))
      expect((want as { n: number }).n).toBe(truth)
      expect(got).toEqual(want)
    } finally {
      db.close()
    }
  })

  it('names the export by its format: the extension follows the choice, a name saying the other one is refused, Escape closes', async () => {
    await page.getByRole('button', { name: 'Export…' }).click()
    const dialog = page.getByRole('dialog', { name: 'Export' })
    const path = page.getByLabel('export path')
    await expect.poll(() => path.inputValue()).toMatch(/claudia_messages\.csv$/)
    await dialog.getByLabel('Parquet').check()
    expect(await path.inputValue()).toMatch(/claudia_messages\.parquet$/)
    await path.fill(join(work, 'exports', 'wrong.csv'))
    expect(await dialog.getByRole('alert').textContent()).toMatch(/wrong\.csv is named as a CSV file, but the export is Parquet: name it .*wrong\.parquet/)
    expect(await dialog.getByRole('button', { name: 'Export', exact: true }).isDisabled()).toBe(true)
    await page.keyboard.press('Escape')
    await expect.poll(() => dialog.count()).toBe(0)
  })

  it('opens the generated SQL in the SQL pane, where it runs to the same count', async () => {
    await page.getByRole('button', { name: 'Open in SQL' }).click()
    await expect.poll(() => page.locator('[data-testid=sql-editor] .cm-content').textContent()).toContain(`"tenant_id" IN ('${tenant}')`)
    await page.locator('[data-testid=sql-editor] .cm-content').click()
    await page.keyboard.press('ControlOrMeta+Enter')
    await expect.poll(() => page.locator('[data-testid=sql-pane] [data-testid=result-grid]').getAttribute('data-rows'), { timeout: 60_000 }).toBe(String(truth))
  })

  it('shows a SQL error where it is, and the next query works; history keeps both', async () => {
    await page.getByRole('tab', { name: 'SQL' }).click()
    await runSql('SELECT message_id\nFORM claudia_messages')
    // "FORM" reads as an alias of message_id: the error is at the table name, line 2, column 6.
    await expect
      .poll(() => page.locator('[data-testid=sql-error]').textContent(), { timeout: 60_000 })
      .toMatch(/At line 2, column 6: Parser Error: syntax error at or near "claudia_messages"/)
    await page.screenshot({ path: 'test-results/sql-error.png' })
    await runSql(`SELECT tenant_id, count(*) AS n FROM claudia_messages WHERE tenant_id = '${tenant}' GROUP BY 1`)
    await expect.poll(() => page.locator('[data-testid=sql-pane] [data-testid=result-count]').textContent(), { timeout: 60_000 }).toMatch(/^1 row · 2 columns/)
    expect(await page.locator('[data-testid=sql-error]').count()).toBe(0)
    await expect.poll(() => page.locator('[data-testid=history] li').count()).toBeGreaterThanOrEqual(2)
    // The newest entry first, once main has kept it (the list may still show the earlier ones for a moment).
    await expect.poll(() => page.locator('[data-testid=history] li').first().textContent()).toContain(tenant)
    // Kept by main across restarts: a new workspace on the same folder reads it back.
    const again = new Workspace({ dataDir: join(work, 'data'), secrets: new MemorySecretStore(), autoRefresh: false })
    expect((await again.history()).entries.map((e) => e.error !== null)).toEqual(expect.arrayContaining([true, false]))
    await again.dispose()
  })

  it('reads the tables as of an earlier hour, as the core rules on native DuckDB do', async () => {
    const asOf = new Date(Math.floor(Date.parse(demo.expected.now) / 3_600_000) * 3_600_000 - 48 * 3_600_000).toISOString()
    const db = await openDb()
    let want: number
    try {
      const snap = await readLocalBucket(demo.bucketDir)
      const t = CATALOG.find((c) => c.table === 'claudia_messages')!
      const q = logicalTableSql(t, foldersForLogicalTable(snap.inventory, t, { asOf: Date.parse(asOf) }), (k) => join(demo.bucketDir, k))
      if (!q.ok) throw new Error(q.message)
      want = Number((await db.rows(`SELECT count(*)::INTEGER AS n FROM (${q.sql})`))[0]?.['n'])
    } finally {
      db.close()
    }
    expect(want).toBeLessThan(demo.expected.tables['claudia_messages']!.rows)
    await page.getByLabel('as of hour').fill(asOf.slice(0, 16))
    await runSql('SELECT count(*) AS n FROM claudia_messages')
    await expect.poll(() => page.locator('[data-testid=sql-pane] [data-cell="0:0"]').textContent(), { timeout: 60_000 }).toBe(String(want))
    await page.getByRole('button', { name: 'latest', exact: true }).click()
    await runSql('SELECT count(*) AS n FROM claudia_messages')
    await expect
      .poll(() => page.locator('[data-testid=sql-pane] [data-cell="0:0"]').textContent(), { timeout: 60_000 })
      .toBe(String(demo.expected.tables['claudia_messages']!.rows))
  })

  it('cancels a runaway query within seconds: the engine restarts on the same "as of", a query run meanwhile waits and gets the right rows', async () => {
    const asOf = new Date(Math.floor(Date.parse(demo.expected.now) / 3_600_000) * 3_600_000 - 48 * 3_600_000).toISOString()
    const [wantAsOf, wantTenant] = [
      await nativeCount('SELECT count(*) FROM claudia_messages', asOf),
      await nativeCount(`SELECT count(*) FROM claudia_messages WHERE tenant_id = '${tenant}'`, null)
    ]
    expect(wantAsOf).toBeLessThan(demo.expected.tables['claudia_messages']!.rows)
    await page.getByLabel('as of hour').fill(asOf.slice(0, 16))
    await runSql('SELECT count(*) AS n FROM claudia_messages')
    await expect.poll(() => page.locator('[data-testid=sql-pane] [data-cell="0:0"]').textContent(), { timeout: 60_000 }).toBe(String(wantAsOf))
    // That statement waited only for claudia_messages; the other tables' views open behind it (completion), and a
    // statement asked while one of them opens waits for it, so Cancel below would find it waiting: let them finish.
    await expect.poll(() => page.locator('[data-testid=views-progress]').count(), { timeout: 120_000 }).toBe(0)
    const status = page.locator('[data-testid=sql-status]')
    const note = page.locator('[data-testid=engine-note]')
    // A long scan the interrupt stops: cancelled, and the engine goes on as it was (no restart, nothing said).
    await runSql('SELECT count(*) AS n FROM range(10000000000)')
    await expect.poll(() => status.textContent(), { timeout: 10_000 }).toMatch(/^Running… /)
    await page.getByRole('button', { name: 'Cancel' }).click()
    await expect.poll(() => status.textContent(), { timeout: 10_000 }).toMatch(/^Cancelled after /)
    expect(await note.count()).toBe(0)
    // The new worker's files are held until the query below has been asked (an event, not a wait): on a fast
    // machine the restart could otherwise end before it, and the test would not show a query waiting for it.
    let release = (): void => {}
    const released = new Promise<void>((r) => (release = r))
    const bucketBytes = (u: URL): boolean => /^\/[^/]+\/o\//.test(u.pathname)
    let held = 0
    await page.route(bucketBytes, async (route) => {
      held++
      await released
      await route.continue()
    })
    // One call of the worker that runs for many seconds (a scalar function over a 40 MB string): DuckDB-WASM's
    // interrupt cannot land in it, so only a new worker stops it. Cancel stops it either way; when it stopped without
    // a restart (the statement still waiting behind other work when Cancel came, as happened once in a full run), it
    // is asked again: the restart is what this test is for. The restart's note is set before the status says
    // "Cancelled", so its absence then is the answer, not a race.
    let restarted = false
    for (let attempt = 1; attempt <= 3 && !restarted; attempt++) {
      await runSql(`SELECT length(regexp_replace(repeat('ab', 20000000), '(a|b)', 'x', 'g')) AS n`)
      await expect.poll(() => status.textContent(), { timeout: 10_000 }).toMatch(/^Running… /)
      await page.getByRole('button', { name: 'Cancel' }).click()
      await expect.poll(() => status.textContent(), { timeout: 10_000 }).toMatch(/^Cancelled after \d+(\.\d+)? s\.$/)
      expect(await page.getByRole('button', { name: 'Run' }).isEnabled()).toBe(true)
      expect(await page.locator('[data-testid=sql-error]').count()).toBe(0)
      restarted = (await note.count()) > 0
      if (!restarted) process.stderr.write(`cancel attempt ${attempt}: stopped without a restart; asked again\n`)
    }
    expect(restarted).toBe(true)
    // The worker was ended and a new one opens the tables again (reading their files takes a while); a query run
    // now waits for it instead of failing, and reads the tables as of the same hour.
    expect(await note.getAttribute('data-kind')).toBe('restarting')
    await page.screenshot({ path: 'test-results/sql-cancel-restarting.png' })
    await runSql('SELECT count(*) AS n FROM claudia_messages')
    await expect.poll(() => status.textContent(), { timeout: 10_000 }).toMatch(/^Running… /)
    // The new worker is reading the tables' files, and held there.
    await expect.poll(() => held, { timeout: 60_000 }).toBeGreaterThan(0)
    expect(await note.getAttribute('data-kind')).toBe('restarting')
    release()
    await page.unrouteAll({ behavior: 'wait' })
    await expect.poll(() => note.textContent(), { timeout: 60_000 }).toBe('The query engine was restarted to stop the query; the tables are ready again.')
    await expect.poll(() => page.locator('[data-testid=sql-pane] [data-cell="0:0"]').textContent(), { timeout: 60_000 }).toBe(String(wantAsOf))
    expect(await page.locator('[data-testid=sql-error]').count()).toBe(0)
    await page.screenshot({ path: 'test-results/sql-cancel-restarted.png' })
    // Latest again, on the new engine: the same rows as native DuckDB over the bucket's files.
    await page.getByRole('button', { name: 'latest', exact: true }).click()
    await runSql(`SELECT count(*) AS n FROM claudia_messages WHERE tenant_id = '${tenant}'`)
    await expect.poll(() => page.locator('[data-testid=sql-pane] [data-cell="0:0"]').textContent(), { timeout: 60_000 }).toBe(String(wantTenant))
    expect(await page.locator('[data-testid=sql-pane] [data-testid=result-count]').textContent()).toMatch(/^1 row · 1 column · \d+(\.\d+)? s$/)
    expect(await note.count()).toBe(0)
    expect(await page.locator('[data-testid=history] li').filter({ hasText: 'regexp_replace' }).first().textContent()).toMatch(/· cancelled$/)
    // The tables view opens its views again on the new engine: its filters give the generator's count again.
    await page.getByRole('tab', { name: 'Tables' }).click()
    await page.getByRole('button', { name: 'Apply filters' }).click()
    await expect
      .poll(() => page.locator('[data-testid=table-browser] [data-testid=result-grid]').getAttribute('data-rows'), { timeout: 60_000 })
      .toBe(String(truth))
    await page.getByRole('tab', { name: 'SQL' }).click()
  })

  it('scrolls to the end of a million-row result, keeping only a few pages in the page', async () => {
    await runSql('SELECT range AS i, md5(range::VARCHAR) AS h, range % 97 AS bucket FROM range(1000000)')
    const grid = page.locator('[data-testid=sql-pane] [data-testid=result-grid]')
    await expect.poll(() => grid.getAttribute('data-rows'), { timeout: 120_000 }).toBe('1000000')
    await page.locator('[data-testid=sql-pane] [data-cell="0:0"]').click()
    await page.keyboard.press('ControlOrMeta+End')
    await expect
      .poll(() => page.locator('[data-testid=sql-pane] [data-row-index="999999"] [data-cell="999999:0"]').textContent(), { timeout: 30_000 })
      .toBe('999999')
    expect(Number(await grid.getAttribute('data-loaded-pages'))).toBeLessThanOrEqual(6)
    // Sort in SQL: descending on i puts 999999 first.
    await page.locator('[data-testid=sql-pane] [role=columnheader][data-column=i]').click()
    await page.locator('[data-testid=sql-pane] [role=columnheader][data-column=i]').click()
    await expect.poll(() => page.locator('[data-testid=sql-pane] [data-cell="0:0"]').textContent(), { timeout: 60_000 }).toBe('999999')
    await page.screenshot({ path: 'test-results/sql-million-rows.png' })
  })
})
