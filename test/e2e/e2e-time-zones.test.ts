// Times in the window, in Chromium on the demo bucket: a range typed on Brasília's clock selects the rows of
// those UTC instants (counted by native DuckDB with hand-written UTC bounds), the generated SQL shows the UTC
// instants and says what was typed, and the deliveries view reads its times in the zone picked.
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readLocalBucket } from '../helpers/local-bucket'
import { CATALOG } from '../../src/shared/catalog'
import { foldersForLogicalTable } from '../../src/shared/inventory'
import { logicalTableSql } from '../../src/shared/logical-table-sql'
import { type AppUnderTest, demoWorkspace, startAppUnderTest } from '../helpers/app-under-test'
import { openDb } from '../helpers/duckdb'

let app: AppUnderTest
let page: Page
// A day in the middle of the demo, the morning of which is read on Brasília's clock (UTC−3).
let day: string
let brasiliaCount: number
let utcCount: number

beforeAll(async () => {
  app = await startAppUnderTest({
    workspace: demoWorkspace
  })
  page = app.page
  const db = await openDb()
  try {
    const snap = await readLocalBucket(app.demo.bucketDir)
    const t = CATALOG.find((c) => c.table === 'cloud_chat_messages')!
    const q = logicalTableSql(t, foldersForLogicalTable(snap.inventory, t), (k) => join(app.demo.bucketDir, k))
    if (!q.ok) throw new Error(q.message)
    await db.run(`CREATE VIEW m AS ${q.sql}`)
    const days = (await db.rows(`SELECT DISTINCT strftime(created_at, '%Y-%m-%d') AS d FROM m WHERE created_at IS NOT NULL ORDER BY 1`)).map((r) =>
      String(r['d'])
    )
    day = days[Math.floor(days.length / 2)] as string
    const count = async (from: string, to: string): Promise<number> =>
      Number(
        (await db.rows(`SELECT count(*)::INTEGER AS n FROM m WHERE created_at >= '${day} ${from}'::TIMESTAMP AND created_at < '${day} ${to}'::TIMESTAMP`))[0]?.[
          'n'
        ]
      )
    // 00:00–12:00 in Brasília is 03:00–15:00 UTC.
    brasiliaCount = await count('03:00:00', '15:00:00')
    utcCount = await count('00:00:00', '12:00:00')
  } finally {
    db.close()
  }
}, 300_000)
afterAll(async () => {
  await app?.close()
})

describe('time zones in the window', () => {
  it('a range typed in Brasília time gives the rows of its UTC instants, and the SQL shows them in UTC', async () => {
    // The test means something only if the two readings of the morning select different rows.
    expect(brasiliaCount).toBeGreaterThan(0)
    expect(brasiliaCount).not.toBe(utcCount)
    await page.goto(app.host.url)
    await page.getByRole('tab', { name: 'Tables' }).click()
    await page.locator('[data-table-item=cloud_chat_messages]').click()
    await expect.poll(() => page.locator('[data-testid=result-grid]').getAttribute('data-rows'), { timeout: 120_000 }).not.toBeNull()
    await page.getByLabel('filter time zone').selectOption('brasilia')
    expect(await page.locator('[data-testid=filters] legend').first().textContent()).toBe('created_at (Brasília)')
    await page.getByLabel('time from').fill(`${day}T00:00`)
    await page.getByLabel('time to').fill(`${day}T12:00`)
    const generated = (await page.locator('[data-testid=generated-sql]').textContent()) ?? ''
    expect(generated).toMatch(new RegExp(`"created_at" >= TRY_CAST\\('${day} 03:00:00(\\+00)?' AS TIMESTAMP[A-Z ]*\\) /\\* = ${day} 00:00 Brasília \\*/`))
    expect(generated).toMatch(new RegExp(`"created_at" < TRY_CAST\\('${day} 15:00:00(\\+00)?' AS TIMESTAMP[A-Z ]*\\) /\\* = ${day} 12:00 Brasília \\*/`))
    await page.getByRole('button', { name: 'Apply filters' }).click()
    await expect.poll(() => page.locator('[data-testid=result-grid]').getAttribute('data-rows'), { timeout: 60_000 }).toBe(String(brasiliaCount))
    await expect.poll(() => page.locator('[data-cell="0:0"]').textContent(), { timeout: 30_000 }).toMatch(/^message_/)
    await page.screenshot({ path: 'test-results/tables-brasilia-range.png' })

    // The same wall-clock times read as UTC select the other rows.
    await page.getByLabel('filter time zone').selectOption('utc')
    expect(await page.locator('[data-testid=generated-sql]').textContent()).toContain(`"created_at" >= TRY_CAST('${day} 00:00:00`)
    await page.getByRole('button', { name: 'Apply filters' }).click()
    await expect.poll(() => page.locator('[data-testid=result-grid]').getAttribute('data-rows'), { timeout: 60_000 }).toBe(String(utcCount))
  })

  it('the deliveries view reads its times in the zone picked, in words, with readable ages', async () => {
    await page.getByRole('tab', { name: 'Deliveries' }).click()
    const headline = page.locator('[data-testid=headline]')
    await expect.poll(() => headline.textContent(), { timeout: 60_000 }).toMatch(/\d{4}-\d\d-\d\d \d\d:00 UTC/)
    await page.getByLabel('axis time zone').selectOption('brasilia')
    await expect.poll(() => headline.textContent()).toMatch(/\d{4}-\d\d-\d\d \d\d:00 Brasília/)
    const overview = (await page.locator('[data-testid=overview]').textContent()) ?? ''
    expect(overview).toMatch(/As of \d{4}-\d\d-\d\d \d\d:\d\d Brasília/)
    const incidents = (await page.locator('[aria-label=incidents]').textContent()) ?? ''
    expect(incidents).toMatch(/Brasília/)
    // Resolutions too: no hour of the incidents list reads in UTC any more.
    expect(await page.getByTestId('resolution').count()).toBeGreaterThan(0)
    const heads = await page.locator('[data-testid=findings] > li > button').allTextContents()
    expect(heads.length).toBeGreaterThan(0)
    for (const h of heads) expect(h).not.toMatch(/ UTC\b/)
    // No raw ISO instant, no code for a finding kind, no "(s)", no "N minutes" anywhere in the window's text.
    const text = (await page.locator('body').innerText()) ?? ''
    expect(text).not.toMatch(/\d{4}-\d\d-\d\dT\d\d:\d\d/)
    expect(text).not.toMatch(/\b(manifest_absent|pending_not_caught_up|delivered_through_lag|manifest_mismatch)\b/)
    expect(text).not.toMatch(/\(s\)|\d{3,} minutes|\b1 rows\b/)
    await page.screenshot({ path: 'test-results/deliveries-brasilia.png', fullPage: true })

    // The inspector of an hour with a lagging delivered-through: its times on the same clock, none in ISO form.
    await page.locator('[data-testid=findings] > li[data-kind=delivered_through_lag] > button').first().click()
    const inspector = page.locator('[data-testid=inspector]')
    await expect.poll(() => inspector.innerText(), { timeout: 30_000 }).toMatch(/^\d{4}-\d\d-\d\d \d\d:00 Brasília · v2 hourly delivery/)
    const inspected = await inspector.innerText()
    expect(inspected).toMatch(/Manifest: (complete|incomplete)/)
    expect(inspected).toMatch(/\d\d:\d\d:\d\d Brasília/)
    expect(inspected).not.toMatch(/\d{4}-\d\d-\d\dT\d\d:\d\d/)
    await inspector.screenshot({ path: 'test-results/inspector-brasilia.png' })
  })
})
