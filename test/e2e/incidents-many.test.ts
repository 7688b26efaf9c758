// A broken export's incidents in Chromium: ten days of the generator's deliveries with every data file empty (so
// each one is an unreadable file, a finding of its own, as in `npm run bench -- year`). The list shows a page of
// incidents and adds a page at each "Show more"; an incident's findings are drawn when it is opened. Drawing them
// all (a year was 35,000 findings) made the year's timeline take seconds to appear.
import { mkdir, utimes, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MemorySecretStore } from '../../src/main/connections/secret-store'
import { planDemoBucket } from '../../src/main/demo-bucket/demo-plan'
import { Workspace } from '../../src/main/workspace/workspace'
import { INCIDENTS_PAGE } from '../../src/renderer/src/deliveries/incidents-list'
import { type AppUnderTest, startAppUnderTest } from '../helpers/app-under-test'

let app: AppUnderTest
let page: Page

beforeAll(async () => {
  const plan = planDemoBucket({ seed: 11, days: 10, scale: 1, v1Days: 3 })
  app = await startAppUnderTest({
    workspace: async ({ work }) => {
      const bucket = join(work, 'bucket')
      const objects: [string, string, number][] = [...plan.texts.map((t): [string, string, number] => [t.key, t.text, t.mtime])]
      for (const f of plan.folders) {
        for (const file of f.files) objects.push([file.key, '', file.mtime])
        if (f.marker !== null) objects.push([`${f.prefix}_SUCCESS`, '', f.marker])
      }
      for (const [key, body, at] of objects) {
        await mkdir(dirname(join(bucket, key)), { recursive: true })
        await writeFile(join(bucket, key), body)
        await utimes(join(bucket, key), new Date(at), new Date(at))
      }
      const now = Date.parse(plan.expected.now)
      return new Workspace({ dataDir: join(work, 'data'), secrets: new MemorySecretStore(), demo: { bucketDir: bucket, now }, autoRefresh: false })
    }
  })
  page = app.page
  await page.goto(app.host.url)
  await page.waitForSelector('[data-testid=timeline-canvas]', { timeout: 120_000 })
  await page.selectOption('select[aria-label="hours shown"]', String(30 * 24))
}, 300_000)
afterAll(async () => {
  await app?.close()
})

const items = (): Promise<number> => page.locator('[data-testid=findings] > li').count()

describe('many incidents', () => {
  it('shows a page of them, then a page more at each "Show more", until all are shown', async () => {
    const heading = page.getByTestId('incidents-heading')
    await expect.poll(() => heading.textContent()).toMatch(/^Incidents: \d+ open/)
    const open = Number(/(\d+) open/.exec((await heading.textContent()) ?? '')?.[1])
    const total = Number(
      /(\d+) open, (\d+) resolved/
        .exec((await heading.textContent()) ?? '')
        ?.slice(1, 3)
        .reduce((n, x) => n + Number(x), 0)
    )
    // Ten days of hours, each with unreadable files: more than a page.
    expect(total).toBeGreaterThan(INCIDENTS_PAGE)
    await expect.poll(items).toBe(INCIDENTS_PAGE)
    const more = page.getByTestId('incidents-more')
    expect(await more.textContent()).toBe(`Show ${Math.min(INCIDENTS_PAGE, total - INCIDENTS_PAGE)} more (${total - INCIDENTS_PAGE} not shown)`)
    for (let shown = INCIDENTS_PAGE; shown < total; shown += INCIDENTS_PAGE) {
      await more.click()
      await expect.poll(items).toBe(Math.min(total, shown + INCIDENTS_PAGE))
    }
    expect(await more.count()).toBe(0)
    // Another range starts again at a page, and so does this one when it comes back.
    await page.selectOption('select[aria-label="hours shown"]', String(7 * 24))
    await expect.poll(items).toBe(INCIDENTS_PAGE)
    await page.selectOption('select[aria-label="hours shown"]', String(30 * 24))
    await expect.poll(() => heading.textContent()).toMatch(new RegExp(`^Incidents: ${open} open`))
    await expect.poll(items).toBe(INCIDENTS_PAGE)
  })

  it("draws an incident's findings when it is opened, each naming its file", async () => {
    const incident = page.locator('[data-testid=findings] > li[data-kind=corrupt_file]').first()
    // Closed: its findings are not in the page.
    expect(await incident.locator('details li').count()).toBe(0)
    await incident.locator('summary').click()
    const findings = incident.locator('details li')
    await expect.poll(() => findings.count()).toBeGreaterThan(0)
    for (const text of await findings.allTextContents()) {
      expect(text).toMatch(/\.parquet is not a readable Parquet file \(zero bytes\)\. .*Ask the vendor to deliver it again\.$/)
      // Its own file only, not its table's list of them.
      expect(text.match(/\.parquet/g)).toHaveLength(1)
    }
  })
})
