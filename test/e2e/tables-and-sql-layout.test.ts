// The tables view and the SQL pane as a user reads them at 1280 and 1920 px, in Chromium on the demo bucket: a
// wide result scrolls inside its grid (never the page), filters stay with their table, the grid says its zone, and
// the empty states say what to do.
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type AppUnderTest, demoWorkspace, startAppUnderTest } from '../helpers/app-under-test'
import { runSqlInPane } from '../helpers/app-page'

let app: AppUnderTest
let page: Page

beforeAll(async () => {
  app = await startAppUnderTest({
    workspace: demoWorkspace
  })
  page = app.page
  await page.goto(app.host.url)
}, 300_000)
afterAll(async () => {
  await app?.close()
})

/** Replaces the SQL editor's text and runs it with Ctrl+Enter. */
const runSql = (sql: string): Promise<void> => runSqlInPane(page, sql)

/** 18 columns of 40 characters each: wider than any window. */
const WIDE_SQL = `SELECT ${Array.from({ length: 18 }, (_, i) => `repeat('x', 40) AS wide_column_${String(i + 1).padStart(2, '0')}`).join(', ')} FROM range(30)`

describe('empty states', () => {
  it('the SQL pane before a run says how, what to try and the tables; History says what it keeps; a zero-row grid says so', async () => {
    await page.getByRole('tab', { name: 'SQL' }).click()
    const start = page.locator('[data-testid=sql-start]')
    await expect.poll(() => start.textContent()).toContain('Ctrl/⌘+Enter')
    await expect.poll(() => page.locator('[data-testid=sql-start-tables] button').count(), { timeout: 120_000 }).toBeGreaterThan(10)
    expect(await page.locator('[data-testid=history-empty]').textContent()).toContain('No queries yet')
    await page.locator('[data-testid=sql-start-tables] button', { hasText: 'claudia_csat' }).click()
    await expect.poll(() => page.locator('[data-testid=sql-editor] .cm-content').textContent()).toBe('SELECT * FROM datamart_claudia.claudia_csat LIMIT 100')
    await runSql('SELECT * FROM range(0) AS t(n)')
    await expect.poll(() => page.locator('[data-testid=sql-pane] [data-testid=grid-empty]').textContent(), { timeout: 120_000 }).toContain('No rows')
    expect(await start.count()).toBe(0)
    await expect.poll(() => page.locator('[data-testid=history-empty]').count()).toBe(0)
  })
})

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

describe('filters of a table', () => {
  it('stay with it: another table shows none, coming back shows them and their rows', async () => {
    await page.setViewportSize({ width: 1280, height: 900 })
    await page.getByRole('tab', { name: 'Tables' }).click()
    await page.locator('[data-table-item=claudia_messages]').click()
    const grid = page.locator('[data-testid=table-browser] [data-testid=result-grid]')
    await expect.poll(() => grid.getAttribute('data-rows'), { timeout: 120_000 }).not.toBeNull()
    const all = Number(await grid.getAttribute('data-rows'))
    await page.getByRole('button', { name: '+ filter' }).click()
    await page.getByLabel('filter column').selectOption('message_id')
    await page.getByLabel('filter operator').selectOption('contains')
    await page.getByLabel('filter value').fill('1')
    await page.getByRole('button', { name: 'Apply filters' }).click()
    await expect.poll(async () => Number(await grid.getAttribute('data-rows')), { timeout: 60_000 }).toBeLessThan(all)
    const filtered = await grid.getAttribute('data-rows')
    await page.locator('[data-table-item=claudia_csat]').click()
    await expect.poll(() => page.locator('[data-filter-row]').count()).toBe(0)
    await page.locator('[data-table-item=claudia_messages]').click()
    await expect.poll(() => page.getByLabel('filter value').inputValue()).toBe('1')
    await expect.poll(() => page.getByLabel('filter column').inputValue(), { timeout: 60_000 }).toBe('message_id')
    // The rows shown are the kept filters' (applied again), not the whole table.
    await expect.poll(() => grid.getAttribute('data-rows'), { timeout: 60_000 }).toBe(filtered)
    expect(await page.locator('[data-testid=generated-sql]').textContent()).toContain('"message_id"')
  })
})

/** The text of row 0's cell under the header of `column` (the grid's cells sit under their header). */
async function firstCellOf(column: string): Promise<string | null> {
  return page.evaluate((c) => {
    const root = document.querySelector('[data-testid=table-browser] [data-testid=result-grid]')
    const h = root?.querySelector(`[role=columnheader][data-column="${c}"]`) as HTMLElement | null
    if (!h) return null
    const cell = [...(root?.querySelectorAll('[data-row-index="0"] [data-cell]') ?? [])].find((e) => (e as HTMLElement).style.left === h.style.left)
    return cell?.textContent ?? null
  }, column)
}

describe('times in the grid', () => {
  it('read on the zone picked, the header and the toolbar say which, and the value is the same instant', async () => {
    await page.getByRole('tab', { name: 'Tables' }).click()
    await page.locator('[data-table-item=claudia_conversation]').click()
    const grid = page.locator('[data-testid=table-browser] [data-testid=result-grid]')
    await expect.poll(() => grid.getAttribute('data-rows'), { timeout: 120_000 }).not.toBeNull()
    await expect.poll(() => page.locator('[data-testid=grid-zone]').textContent(), { timeout: 60_000 }).toBe('times in UTC')
    const column = await page.evaluate(() => {
      const h = [...document.querySelectorAll('[data-testid=table-browser] [role=columnheader]')].find((e) =>
        /^TIMESTAMP/.test((e as HTMLElement).dataset['type'] ?? '')
      )
      return (h as HTMLElement | undefined)?.dataset['column'] ?? null
    })
    expect(column).not.toBeNull()
    await expect.poll(() => firstCellOf(column!), { timeout: 30_000 }).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}/)
    const utc = (await firstCellOf(column!)) as string
    await page.getByLabel('filter time zone').selectOption('brasilia')
    await expect.poll(() => page.locator('[data-testid=grid-zone]').textContent()).toBe('times in Brasília')
    expect(await page.locator(`[data-testid=table-browser] [role=columnheader][data-column="${column}"]`).textContent()).toContain('Brasília')
    const brasilia = (await firstCellOf(column!)) as string
    // Brasília is UTC−3 all year (no daylight saving since 2019); the fraction of a second stays as written.
    const instant = (t: string): number => Date.parse(`${t.slice(0, 19).replace(' ', 'T')}Z`)
    expect(instant(utc) - instant(brasilia)).toBe(3 * 3_600_000)
    expect(brasilia.slice(19)).toBe(utc.slice(19))
  })
})
