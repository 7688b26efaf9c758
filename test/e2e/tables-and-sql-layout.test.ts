// The tables view and the SQL pane as a user reads them at 1280 and 1920 px, in Chromium on the demo bucket: a
// wide result scrolls inside its grid (never the page), filters stay with their table, the grid says its zone.
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MemorySecretStore } from '../../src/main/connections/secret-store'
import { Workspace } from '../../src/main/workspace/workspace'
import { type AppUnderTest, startAppUnderTest } from '../helpers/app-under-test'

let app: AppUnderTest
let page: Page

beforeAll(async () => {
  app = await startAppUnderTest({
    workspace: ({ demo, work }) =>
      new Workspace({
        dataDir: join(work, 'data'),
        secrets: new MemorySecretStore(),
        demo: { bucketDir: demo.bucketDir, now: Date.parse(demo.expected.now) },
        autoRefresh: false
      })
  })
  page = app.page
  await page.goto(app.host.url)
}, 300_000)
afterAll(async () => {
  await app?.close()
})

/** Replaces the SQL editor's text and runs it with Ctrl+Enter. */
async function runSql(sql: string): Promise<void> {
  await page.locator('[data-testid=sql-editor] .cm-content').click()
  await page.keyboard.press('ControlOrMeta+a')
  await page.keyboard.press('Delete')
  await page.keyboard.insertText(sql)
  await page.keyboard.press('Escape')
  await page.keyboard.press('ControlOrMeta+Enter')
}

/** 18 columns of 40 characters each: wider than any window. */
const WIDE_SQL = `SELECT ${Array.from({ length: 18 }, (_, i) => `repeat('x', 40) AS wide_column_${String(i + 1).padStart(2, '0')}`).join(', ')} FROM range(30)`

describe('a wide result', () => {
  for (const width of [1280, 1920]) {
    it(`scrolls inside its grid at ${width} px; the page does not scroll sideways and History and Copy stay in view`, async () => {
      await page.setViewportSize({ width, height: 900 })
      await page.getByRole('tab', { name: 'SQL' }).click()
      await runSql(WIDE_SQL)
      const grid = page.locator('[data-testid=sql-pane] [data-testid=result-grid]')
      await expect.poll(() => grid.getAttribute('data-rows'), { timeout: 120_000 }).toBe('30')
      await expect.poll(() => page.locator('[data-testid=result-count]').textContent()).toContain('18 columns')
      const m = await page.evaluate(() => {
        const s = document.querySelector('[data-testid=sql-pane] [data-testid=grid-scroll]') as HTMLElement
        return { page: document.scrollingElement?.scrollWidth ?? 0, inner: window.innerWidth, grid: s.scrollWidth, box: s.clientWidth }
      })
      expect(m.page).toBeLessThanOrEqual(m.inner)
      // The grid itself scrolls: its content is wider than its box.
      expect(m.grid).toBeGreaterThan(m.box)
      for (const name of [/^Copy cell|^Copy selection/, /^Copy row/]) {
        const b = await page.getByRole('button', { name }).boundingBox()
        expect(b).not.toBeNull()
        expect(b!.x + b!.width).toBeLessThanOrEqual(width)
      }
      const h = await page.getByRole('heading', { name: 'History' }).boundingBox()
      expect(h).not.toBeNull()
      expect(h!.x + h!.width).toBeLessThanOrEqual(width)
    })
  }
})
