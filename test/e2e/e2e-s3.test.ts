// End to end, as a new user: Debian's Chromium on the web host, data served by a real S3-compatible server on
// loopback from a generated bucket. Connect through the connection manager (a wrong secret first), see the
// planted missing hour and late delivery where the generator put them, the malformed manifest's warning in
// the inspector, then a new hour lands in the bucket and Refresh shows it. Screenshots under test-results/.
import { readFile, readdir } from 'node:fs/promises'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MemorySecretStore } from '../../src/main/connections/secret-store'
import { Workspace } from '../../src/main/workspace/workspace'
import { CATALOG } from '../../src/shared/catalog'
import { clickCell, hourIso } from '../helpers/app-page'
import { type AppUnderTest, startAppUnderTest } from '../helpers/app-under-test'
import { type Demo } from '../helpers/demo'
import { S3_TEST_KEYS, type S3Server } from '../helpers/s3-server'

const BUCKET = 'vendor-export'
let app: AppUnderTest
let demo: Demo
let s3: S3Server
let host: AppUnderTest['host']
let page: Page
let clock: number

beforeAll(async () => {
  app = await startAppUnderTest({
    s3Bucket: BUCKET,
    workspace: ({ demo, work }) => {
      clock = Date.parse(demo.expected.now)
      return new Workspace({ dataDir: join(work, 'data'), secrets: new MemorySecretStore(), clock: () => clock, autoRefresh: false })
    }
  })
  ;({ demo, host, page } = app)
  s3 = app.s3 as S3Server
}, 300_000)
afterAll(async () => {
  await app?.close()
})

describe('end to end against S3 on loopback', () => {
  it('connects through the connection manager: a wrong secret gets a clear verdict, the right one opens the bucket', async () => {
    await page.goto(host.url)
    await expect.poll(() => page.locator('[role=alert]').first().textContent()).toContain('No connection is open')
    await page.getByRole('button', { name: 'Connections…' }).click()
    await page.getByRole('button', { name: 'New connection…' }).click()
    const form = page.getByRole('form', { name: 'connection' })
    await form.getByLabel('kind').selectOption('s3')
    await form.getByLabel('name').fill('Vendor export (S3)')
    await form.getByLabel('bucket').fill(BUCKET)
    await form.getByLabel('endpoint').fill(s3.endpoint)
    await form.getByLabel('region').fill('us-east-1')
    await form.getByLabel('credentials').selectOption('static')
    // s3rver checks the access key id, not SigV4 signatures: a wrong key id stands for wrong keys.
    await form.getByLabel('access key id').fill('AKIAWRONGKEY')
    await form.getByLabel('secret access key').fill(S3_TEST_KEYS.secretAccessKey)
    await form.getByRole('button', { name: 'Test connection' }).click()
    const verdict = page.locator('[data-testid=verdict]')
    await expect.poll(() => verdict.getAttribute('data-ok'), { timeout: 30_000 }).toBe('false')
    expect(await verdict.textContent()).toMatch(/credential|signature|access|denied|key/i)
    await form.getByLabel('access key id').fill(S3_TEST_KEYS.accessKeyId)
    await form.getByRole('button', { name: 'Test connection' }).click()
    await expect.poll(() => verdict.getAttribute('data-ok'), { timeout: 30_000 }).toBe('true')
    expect(await verdict.textContent()).toContain('on v2')
    await page.screenshot({ path: 'test-results/connection-manager.png' })
    await form.getByRole('button', { name: 'Save and open' }).click()
    await page.waitForSelector('[data-testid=timeline-canvas]', { timeout: 180_000 })
    await expect.poll(() => page.locator('[data-testid=version]').textContent()).toBe('v2')
    expect(await page.locator('select[aria-label=connection] option:checked').textContent()).toBe('Vendor export (S3)')
    expect(await page.locator('[data-testid=overview]').textContent()).toContain(`s3://${BUCKET}/`)
  })

  it('shows the planted missing hour and late delivery where the generator put them', async () => {
    const p = demo.expected.planted_hours
    for (const t of CATALOG) expect(await clickCell(page, t.table, hourIso(p['missingHour']!)), t.table).toBe('missing')
    for (const t of CATALOG) expect(await clickCell(page, t.table, hourIso(p['lateHour']!)), t.table).toBe('late')
    // Its neighbours are not: the fault is where it was planted, not smeared.
    const after = new Date(Date.parse(hourIso(p['lateHour']!)) + 3_600_000).toISOString()
    expect(await clickCell(page, 'claudia_csat', after)).toBe('ready')
    await page.mouse.move(10, 10)
    await page.screenshot({ path: 'test-results/e2e-timeline.png' })
  })

  it("shows the malformed manifest's warning in the inspector", async () => {
    await page.locator('[data-testid=findings] li[data-kind=manifest_malformed] button').click()
    await expect.poll(() => page.locator('[data-testid=manifest-warnings]').textContent()).toMatch(/not valid JSON/)
    expect(await page.locator('[data-testid=inspector] h2').textContent()).toContain(
      `${demo.expected.planted_hours['malformedManifest']!.date} ${demo.expected.planted_hours['malformedManifest']!.hour}:00`
    )
    // Row counts come from the Parquet footers, read through S3.
    expect(await page.locator('[data-inspector-table=claudia_csat]').textContent()).toMatch(/part-00000\.parquet · [\d.]+ KB · .* · STANDARD · [\d,]+ rows/)
    await page.screenshot({ path: 'test-results/e2e-inspector.png', fullPage: true })
  })

  it('shows a new hour after Refresh once it has landed in the bucket', async () => {
    const canvas = page.locator('[data-testid=timeline-canvas]')
    const lastShown = async (): Promise<string> => {
      const [first, n] = await canvas.evaluate((c) => [c.dataset['firstHour'] ?? '', Number(c.dataset['hours'])] as const)
      return new Date(Date.parse(first) + (n - 1) * 3_600_000).toISOString()
    }
    // The vendor delivers the next hour: every folder of the last hour again, one hour on, and its manifest.
    const last = Math.floor(Date.parse(demo.expected.now) / 3_600_000) * 3_600_000
    const next = last + 3_600_000
    const fmt = (t: number): { date: string; hour: string } => ({ date: new Date(t).toISOString().slice(0, 10), hour: new Date(t).toISOString().slice(11, 13) })
    const a = fmt(last)
    const b = fmt(next)
    const move = (key: string): string =>
      key
        .replaceAll(`date=${a.date}/snapshot_hour=${a.hour}`, `date=${b.date}/snapshot_hour=${b.hour}`)
        .replaceAll(`date=${a.date}/etl_hour=${a.hour}`, `date=${b.date}/etl_hour=${b.hour}`)
    const files = (await readdir(join(demo.bucketDir, 'v2'), { recursive: true })).filter(
      (f) => f.includes(`date=${a.date}/snapshot_hour=${a.hour}/`) || f.includes(`date=${a.date}/etl_hour=${a.hour}/`)
    )
    expect(files.length).toBeGreaterThan(CATALOG.length)
    for (const f of files.sort((x, y) => (x.endsWith('_SUCCESS') ? 1 : 0) - (y.endsWith('_SUCCESS') ? 1 : 0))) {
      const body = f.endsWith('manifest.json')
        ? (await readFile(join(demo.bucketDir, 'v2', f), 'utf8'))
            .replaceAll(`"snapshot_date": "${a.date}"`, `"snapshot_date": "${b.date}"`)
            .replaceAll(`"snapshot_hour": "${a.hour}"`, `"snapshot_hour": "${b.hour}"`)
            .replaceAll(`snapshot_hour=${a.hour}/`, `snapshot_hour=${b.hour}/`)
            .replaceAll(`etl_hour=${a.hour}/`, `etl_hour=${b.hour}/`)
        : await readFile(join(demo.bucketDir, 'v2', f))
      await s3.put(BUCKET, move(`v2/${f}`), body, new Date(next + 12 * 60_000))
    }
    clock = next + 55 * 60_000
    const iso = new Date(next).toISOString()
    expect(await lastShown()).toBe(new Date(last).toISOString())
    // A focused cell stays on its hour when the refresh shifts the columns.
    expect(await clickCell(page, 'cloud_chat_tags', new Date(last).toISOString())).toBe('ready')
    await page.getByRole('button', { name: 'Refresh', exact: true }).click()
    await expect.poll(lastShown, { timeout: 60_000 }).toBe(iso)
    const status = page.locator('[data-testid=timeline-status]')
    expect([await status.getAttribute('data-hour'), await status.getAttribute('data-table')]).toEqual([new Date(last).toISOString(), 'cloud_chat_tags'])
    expect(await clickCell(page, 'claudia_csat', iso)).toBe('ready')
    expect(await clickCell(page, 'claudia_messages', iso)).toBe('ready')
    await expect.poll(() => page.locator('[data-testid=refresh-status]').textContent()).toMatch(/Refreshed/)
    await page.screenshot({ path: 'test-results/e2e-after-refresh.png' })
  })
})
