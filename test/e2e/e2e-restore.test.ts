// Bulk restore end to end: Debian's Chromium on the web host, a generated bucket with archived history served by
// the S3 test server (s3rver, whose RestoreObject finishes after a delay). The Tables view says what
// claudia_messages leaves out as archived; "Restore…" shows the count, bytes and the tier's usual delay before
// starting, with its estimated cost; the restore runs (RestoreObject on s3rver), its progress is still there after
// the page is opened again, once done the table completes itself (never "left out" beside "finished"), and
// clearing the mirror warns how long S3 keeps the restored copy. Screenshots under test-results/.
import { stat } from 'node:fs/promises'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MemorySecretStore } from '../../src/main/connections/secret-store'
import { Workspace } from '../../src/main/workspace/workspace'
import { type AppUnderTest, openS3Connection, startAppUnderTest } from '../helpers/app-under-test'
import type { S3Server } from '../helpers/s3-server'

const BUCKET = 'archived-history'
let app: AppUnderTest
let page: Page
const previousDelay = process.env['S3RVER_RESTORE_DELAY_MS']

beforeAll(async () => {
  // The server keeps a restore in progress (for an hour) until the test lets it finish (it reads the delay at each
  // request): the page is seen in progress and opened again meanwhile however slow the machine, with no wait.
  process.env['S3RVER_RESTORE_DELAY_MS'] = '3600000'
  app = await startAppUnderTest({
    s3Bucket: BUCKET,
    workspace: async ({ demo, s3, work }) => {
      const w = new Workspace({
        dataDir: join(work, 'data'),
        secrets: new MemorySecretStore(),
        clock: () => Date.parse(demo.expected.now),
        autoRefresh: false,
        restore: { intervalMs: 300 }
      })
      await openS3Connection(w, s3 as S3Server, 'Archived S3', BUCKET)
      return w
    }
  })
  page = app.page
}, 300_000)
afterAll(async () => {
  await app?.close()
  if (previousDelay === undefined) delete process.env['S3RVER_RESTORE_DELAY_MS']
  else process.env['S3RVER_RESTORE_DELAY_MS'] = previousDelay
})

const gridRows = async (): Promise<number | null> => {
  const grid = page.locator('[data-testid=table-browser] [data-testid=result-grid]')
  return (await grid.count()) ? Number(await grid.getAttribute('data-rows')) : null
}

describe('bulk restore in Chromium against S3 on loopback', () => {
  it('shows what is left out as archived, restores it with the tier chosen, and the table completes itself', async () => {
    const planted = app.demo.expected.faults.find((f) => f.kind === 'archived')!
    const date = /etl_date=([^/]+)/.exec(planted.key)?.[1] as string
    const full = app.demo.expected.tables['claudia_messages']!.rows
    await page.goto(app.host.url)
    await page.getByRole('tab', { name: 'Tables' }).click()
    await page.locator('[data-table-item=claudia_messages]').click()
    const leftOut = page.locator('[data-testid=archived-left-out]')
    await expect.poll(() => leftOut.count(), { timeout: 90_000 }).toBe(1)
    expect(await leftOut.textContent()).toMatch(
      new RegExp(
        `1 archived file \\([\\d.]+ KB\\) of datamart_claudia\\.claudia_messages is left out: delivered ${date}\\. It is in Glacier Flexible Retrieval`
      )
    )
    // The table reads without it: fewer rows than the whole history holds.
    await expect.poll(gridRows, { timeout: 90_000 }).toBeGreaterThan(0)
    const before = (await gridRows()) as number
    expect(before).toBeLessThan(full)

    await page.getByRole('button', { name: 'Restore…' }).click()
    const dialog = page.getByRole('form', { name: 'restore' })
    const summary = dialog.locator('[data-testid=restore-summary]')
    await expect
      .poll(() => summary.textContent(), { timeout: 30_000 })
      .toContain('Standard retrieval usually takes 3–5 hours for 1 file in Glacier Flexible Retrieval')
    await dialog.getByLabel('tier').selectOption('Bulk')
    await expect.poll(() => summary.textContent(), { timeout: 30_000 }).toContain('Bulk retrieval usually takes 5–12 hours')
    await dialog.getByLabel('tier').selectOption('Expedited')
    await expect.poll(() => summary.textContent(), { timeout: 30_000 }).toContain('1–5 minutes')
    // The tier's published price, labelled as an estimate.
    const cost = dialog.locator('[data-testid=restore-cost]')
    await expect
      .poll(() => cost.textContent(), { timeout: 30_000 })
      .toContain('$0.03 per GB + $10.00 per 1,000 requests (Expedited, Glacier Flexible Retrieval)')
    expect(await cost.textContent()).toMatch(/^Estimated retrieval cost: \$0\.01 for 1 file .*An estimate from AWS S3 list prices, us-east-1/)
    await dialog.getByLabel('days').fill('3')
    await expect.poll(() => summary.textContent(), { timeout: 30_000 }).toContain('readable for 3 days')
    expect(await summary.textContent()).toMatch(
      new RegExp(`Restores 1 archived file \\([\\d.]+ KB\\) that datamart_claudia\\.claudia_messages needs, delivered ${date}\\.`)
    )
    expect(await summary.textContent()).toContain('never need restoring again')
    await page.screenshot({ path: 'test-results/restore-dialog.png' })
    await dialog.getByRole('button', { name: 'Start restore of 1 file' }).click()

    const progress = page.locator('[data-testid=restore-progress]')
    await expect.poll(() => progress.getAttribute('data-finished'), { timeout: 30_000 }).toBe('false')
    expect(await progress.textContent()).toMatch(
      /Restore of 1 archived file .* of datamart_claudia\.claudia_messages, Expedited, kept 3 days, started \d{4}-\d\d-\d\d \d\d:\d\d UTC: 0 of 1 restored/
    )
    // The request reached the S3 server (its RestoreObject keeps the restore beside the object).
    const restoreRequest = join(app.s3!.directory, BUCKET, `${planted.key}._S3rver_restore.json`)
    await expect
      .poll(
        () =>
          stat(restoreRequest).then(
            (st) => st.isFile(),
            () => false
          ),
        { timeout: 30_000 }
      )
      .toBe(true)
    await page.screenshot({ path: 'test-results/restore-in-progress.png' })

    // Opened again (a new page load): the restore is still shown.
    await page.reload()
    await page.getByRole('tab', { name: 'Tables' }).click()
    await page.locator('[data-table-item=claudia_messages]').click()
    await expect.poll(() => progress.count(), { timeout: 30_000 }).toBe(1)
    expect(await progress.textContent()).toContain('Expedited, kept 3 days')
    // From here on, the page records whether "left out … Restore…" ever shows beside "finished, 1 of 1 restored".
    await page.evaluate(() => {
      const w = window as unknown as { bothShown?: boolean }
      w.bothShown = false
      const check = (): void => {
        if (document.querySelector('[data-testid=archived-left-out]') && document.querySelector('[data-testid=restore-progress][data-finished=true]'))
          w.bothShown = true
      }
      new MutationObserver(check).observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true })
    })

    // S3 finishes the restore. Done: the listing and the mirror take the file in, the note goes, the table has every row.
    process.env['S3RVER_RESTORE_DELAY_MS'] = '0'
    await expect.poll(() => progress.getAttribute('data-finished'), { timeout: 90_000 }).toBe('true')
    expect(await progress.textContent()).toMatch(/1 of 1 restored\. The restored files are in the table now, and in the local mirror/)
    await expect.poll(() => leftOut.count(), { timeout: 60_000 }).toBe(0)
    expect(await page.evaluate(() => (window as unknown as { bothShown?: boolean }).bothShown)).toBe(false)
    await expect.poll(gridRows, { timeout: 90_000 }).toBe(full)
    // Clearing the mirror warns that the restored file is readable in S3 only for the days chosen.
    await page.locator('[data-testid=mirror-panel]').getByRole('button', { name: 'Details' }).click()
    await page.getByRole('button', { name: 'Clear the mirror' }).click()
    await expect
      .poll(() => page.locator('[data-testid=mirror-restore-warning]').textContent())
      .toMatch(/The mirror holds 1 archived file restored from the archive: .*the 3 days chosen.*needs another restore/)
    await page.getByRole('button', { name: 'Keep it' }).click()
    await page.screenshot({ path: 'test-results/restore-done.png' })
  }, 300_000)
})
