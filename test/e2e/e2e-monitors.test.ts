// The volume and schema monitors in the window, in Chromium, on a copy of the demo bucket with the generator's
// anomalies planted (a full copy shrunk, a parts hour with no rows, a dropped column): the timeline marks their
// cells without hiding the state, the hour inspector shows the hour's rows beside the usual band, and the Tables
// view's chart of rows per delivery marks the anomaly at its hour, and none on a table without one.
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Fault } from '../../src/main/demo-bucket/demo-plan'
import { planDemoBucket } from '../../src/main/demo-bucket/demo-plan'
import { ANOMALY_TABLES, plantMonitorAnomalies } from '../../src/main/demo-bucket/plant-anomalies'
import { type AppUnderTest, demoWorkspace, startAppUnderTest } from '../helpers/app-under-test'
import { clickCell, hourIso } from '../helpers/app-page'

let app: AppUnderTest
let page: Page
let planted: Fault[] = []

beforeAll(async () => {
  app = await startAppUnderTest({
    writesBucket: true,
    // The run's demo is written with these options (test/helpers/demo.ts): the same plan, so the same folders.
    prepare: async ({ demo }) => {
      planted = await plantMonitorAnomalies(demo.bucketDir, planDemoBucket({ seed: 7, days: 8, scale: 1, v1Days: 5 }))
    },
    workspace: demoWorkspace
  })
  page = app.page
}, 300_000)
afterAll(async () => {
  await app?.close()
})

const emptyHour = (): Fault => {
  const f = planted.find((x) => x.kind === 'volume_anomaly' && x.table === ANOMALY_TABLES.empty)
  if (!f) throw new Error(`no planted empty hour in ${JSON.stringify(planted)}`)
  return f
}

/** The colour drawn at a point of the timeline canvas (CSS pixels from its top-left), as "r,g,b". */
const pixel = (p: Page, x: number, y: number): Promise<string> =>
  p.locator('[data-testid=timeline-canvas]').evaluate(
    (c, [px, py]) => {
      const canvas = c as HTMLCanvasElement
      const dpr = canvas.width / canvas.getBoundingClientRect().width
      const d = canvas.getContext('2d')?.getImageData(Math.floor(px * dpr), Math.floor(py * dpr), 1, 1).data
      return d ? `${d[0]},${d[1]},${d[2]}` : ''
    },
    [x, y] as const
  )

const rgbOf = (hex: string): string => {
  const n = parseInt(hex.trim().slice(1), 16)
  return `${(n >> 16) & 255},${(n >> 8) & 255},${n & 255}`
}

describe('the monitors in the window', () => {
  it('marks the anomalous cell over its state, and the inspector shows its rows beside the usual band', async () => {
    const f = emptyHour()
    await page.goto(app.host.url)
    await page.waitForSelector('[data-testid=timeline-canvas]')
    expect(await clickCell(page, f.table as string, hourIso(f as { date: string; hour: string }))).toBe('ready')
    await expect.poll(() => page.locator('[data-testid=timeline-status]').getAttribute('data-monitors')).toBe('volume_anomaly')

    // The inspector opens beside the timeline, which narrows and draws again: judged once it has.
    const inspector = page.locator('[data-testid=inspector]')
    await expect.poll(() => inspector.locator('[data-testid=inspector-findings]').textContent()).toContain('Rows or bytes far from the usual')

    // The mark sits in the cell's top-right corner; the cell's middle keeps its state's colour.
    const tokens = await page.evaluate(() => {
      const s = getComputedStyle(document.documentElement)
      return { mark: s.getPropertyValue('--monitor-mark'), ready: s.getPropertyValue('--cell-ready') }
    })
    const cellPixels = async (): Promise<{ corner: string; middle: string; pxh: number }> => {
      const geo = await page.locator('[data-testid=timeline-canvas]').evaluate((c) => ({
        offset: Number((c as HTMLElement).dataset['offset']),
        pxh: Number((c as HTMLElement).dataset['pxh']),
        first: (c as HTMLElement).dataset['firstHour'] ?? '',
        top: c.getBoundingClientRect().top
      }))
      const row = await page.locator(`[data-testid=heatmap] [data-row="${f.table}"]`).boundingBox()
      if (!row) throw new Error('no row')
      const left = ((Date.parse(hourIso(f as { date: string; hour: string })) - Date.parse(geo.first)) / 3_600_000 - geo.offset) * geo.pxh
      const y = row.y - geo.top
      return {
        corner: await pixel(page, left + Math.max(1, geo.pxh - 1) - 1, y + 2),
        middle: await pixel(page, left + geo.pxh / 2 - 0.5, y + row.height - 4),
        pxh: geo.pxh
      }
    }
    await expect.poll(cellPixels).toEqual({ corner: rgbOf(tokens.mark), middle: rgbOf(tokens.ready), pxh: expect.any(Number) })

    // The inspector: the hour's finding, and its rows (none) beside the band of the same hour on earlier days.
    const line = inspector.locator(`[data-inspector-table="${f.table}"]`)
    await line.locator('summary').click()
    const band = line.locator('[data-testid=volume-band]')
    expect(await band.getAttribute('data-anomalous')).toBe('true')
    expect(await band.textContent()).toMatch(/^0 rows; usual 1–[\d,]+ \(median of the same hour on the last \d days ± 3 MAD\): out of the usual band/)
    // A usual table of the same hour: judged, within its band.
    const other = inspector.locator('[data-inspector-table="cloud_chat_messages"]')
    await other.locator('summary').click()
    expect(await other.locator('[data-testid=volume-band]').getAttribute('data-anomalous')).toBe('false')
    await inspector.screenshot({ path: 'test-results/monitors-inspector.png' })
  })

  it('charts rows per delivery in Tables, the planted hour marked, and none on a table without an anomaly', async () => {
    const f = emptyHour()
    await page.getByRole('tab', { name: 'Tables' }).click()
    await page.locator(`[data-table-item=${f.table}]`).click()
    const chart = page.locator('[data-testid=volume-chart]')
    await expect.poll(() => chart.getAttribute('data-anomalies'), { timeout: 120_000 }).toBe('1')
    // The demo's last 7 days of an hourly table: one point a delivery.
    expect(Number(await chart.getAttribute('data-points'))).toBeGreaterThan(100)
    expect(await chart.locator('[data-anomaly]').getAttribute('data-anomaly')).toBe(hourIso(f as { date: string; hour: string }))
    // Pointed at until the readout says it: a chart drawn again meanwhile (its volume reloaded) forgets the pointer.
    await expect
      .poll(
        async () => {
          await page.mouse.move(0, 0)
          await chart.locator('[data-anomaly]').hover()
          return chart.locator('[data-testid=volume-readout]').textContent()
        },
        { timeout: 60_000 }
      )
      .toMatch(/: 0 rows; usual 1–[\d,]+ · out of the usual band$/)
    await chart.screenshot({ path: 'test-results/monitors-volume-chart.png' })

    await page.locator('[data-table-item=cloud_chat_messages]').click()
    await expect.poll(() => chart.getAttribute('data-table'), { timeout: 60_000 }).toMatch(/\.cloud_chat_messages$/)
    expect(await chart.getAttribute('data-anomalies')).toBe('0')
    expect(await chart.locator('figcaption').textContent()).toContain('none out of the usual band')

    // The connection narrows this table's band to its least: its usual noise is now out of it, judged at once.
    const form = page.locator('[data-testid=volume-thresholds]')
    // Opened once it stays open: the chart's table may settle after the first click (a click on the one before is lost).
    await expect
      .poll(
        async () => {
          if ((await form.getAttribute('open')) === null) await form.locator('summary').click()
          return form.getAttribute('open')
        },
        { timeout: 60_000 }
      )
      .not.toBeNull()
    // The section is there while its thresholds load; its form once they are.
    await expect.poll(() => form.locator('summary').textContent(), { timeout: 60_000 }).toContain('(the defaults)')
    for (const [name, value] of [
      ['madFactor', '0.5'],
      ['minRelativeBand', '0'],
      ['countNoise', '0'],
      ['maxRatio', '1']
    ] as const)
      await form.locator(`input[name=${name}]`).fill(value)
    await form.getByRole('button', { name: 'Save for this table' }).click()
    await expect.poll(async () => Number(await chart.getAttribute('data-anomalies')), { timeout: 60_000 }).toBeGreaterThan(0)
    expect(await form.locator('summary').textContent()).toContain('(set for this table)')
    await chart.screenshot({ path: 'test-results/monitors-thresholds.png' })
    await form.getByRole('button', { name: 'Use the defaults' }).click()
    await expect.poll(() => chart.getAttribute('data-anomalies'), { timeout: 60_000 }).toBe('0')
  })
})
