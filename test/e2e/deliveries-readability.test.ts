// The deliveries view read at 1280×800 in Chromium on the demo bucket: the hour inspector fits its panel (no
// sideways scrolling, one line per table, findings by severity), the row labels tell tables apart, the canvas
// shows where the keyboard is when tabbed to, and the axis keeps its last label inside the canvas.
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FINDING_SEVERITY, type FindingKind } from '../../src/shared/timeline'
import { type AppUnderTest, demoWorkspace, startAppUnderTest } from '../helpers/app-under-test'

let app: AppUnderTest
let page: Page

beforeAll(async () => {
  app = await startAppUnderTest({
    workspace: demoWorkspace,
    page: { viewport: { width: 1280, height: 800 } }
  })
  page = app.page
  await page.goto(app.host.url)
  await page.waitForSelector('[data-testid=timeline-canvas]', { timeout: 120_000 })
}, 300_000)
afterAll(async () => {
  await app?.close()
})

/** Opens the last due hour (a missing table, an unreadable file, a pending one and a stray .crc) from the headline. */
async function openLastHour(): Promise<void> {
  await page.getByTestId('headline-hour').click()
  await page.locator('[data-testid=inspector] [data-inspector-table]').first().waitFor({ timeout: 60_000 })
}

describe('the deliveries view at 1280×800', () => {
  it('the hour inspector reads without sideways scrolling: one line per table, badges and lists inside their boxes', async () => {
    await openLastHour()
    const inspector = page.getByTestId('inspector')
    // The panel and whatever scrolls inside it (its body) scroll up and down only.
    const fit = await inspector.evaluate((panel) =>
      [panel, ...panel.querySelectorAll<HTMLElement>('*')]
        .filter((el) => el === panel || /auto|scroll/.test(getComputedStyle(el).overflowX))
        .filter((el) => el.tagName !== 'PRE')
        .map((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }))
    )
    for (const f of fit) expect(f.scroll).toBeLessThanOrEqual(f.client)
    const rows = await inspector
      .locator('[data-inspector-table]')
      .evaluateAll((trs) => trs.map((tr) => ({ table: tr.getAttribute('data-inspector-table'), height: tr.getBoundingClientRect().height })))
    expect(rows).toHaveLength(19)
    const lineHeight = await inspector
      .locator('[data-inspector-table]')
      .first()
      .evaluate((tr) => parseFloat(getComputedStyle(tr).lineHeight) || 16)
    for (const r of rows) expect(r.height, r.table ?? '').toBeLessThan(2 * lineHeight)
    // Nothing written inside the panel overflows its own box (the state badges, the tables_delivered list).
    const spilled = await inspector.evaluate((panel) => {
      const box = panel.getBoundingClientRect()
      const out: string[] = []
      for (const el of panel.querySelectorAll<HTMLElement>('[data-testid=manifest-fields] > *, [data-inspector-table] *')) {
        const r = el.getBoundingClientRect()
        if (r.width === 0) continue
        if (el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).textOverflow !== 'ellipsis') out.push(`${el.tagName} ${el.textContent?.slice(0, 40)}`)
        if (r.right > box.right + 1 || r.left < box.left - 1) out.push(`${el.tagName} outside: ${el.textContent?.slice(0, 40)}`)
      }
      return out
    })
    expect(spilled).toEqual([])
    // The files are folded: a table's line opens to them.
    const csat = inspector.locator('[data-inspector-table=claudia_csat]')
    expect(await csat.innerText()).not.toMatch(/\.parquet · /)
    await csat.locator('summary').click()
    expect(await csat.innerText()).toMatch(/\.parquet · /)
    const open = await page.getByTestId('inspector-body').evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }))
    expect(open.scroll).toBeLessThanOrEqual(open.client)
    await page.screenshot({ path: 'test-results/readability-inspector-1280.png' })
  })

  it("the inspector lists the hour's findings by severity: errors, then warnings, then notes", async () => {
    await openLastHour()
    const kinds = await page.locator('[data-testid=inspector-findings] > li b[title]').evaluateAll((bs) => bs.map((b) => b.getAttribute('title') as string))
    const rank = { error: 0, warning: 1, info: 2 } as const
    const ranks = kinds.map((k) => rank[FINDING_SEVERITY[k as FindingKind]])
    // The hour has both ends of the scale (a missing table, a stray .crc file), so the order means something.
    expect(kinds).toContain('missing')
    expect(kinds).toContain('ignored_key')
    expect(ranks).toEqual([...ranks].sort((a, b) => a - b))
  })

  it('the inspector panel is resizable: dragging its edge widens it and the timeline gives way', async () => {
    await openLastHour()
    const inspector = page.getByTestId('inspector')
    const before = (await inspector.boundingBox())!
    const handle = page.getByRole('separator', { name: 'inspector width' })
    const h = (await handle.boundingBox())!
    await page.mouse.move(h.x + h.width / 2, h.y + h.height / 2)
    await page.mouse.down()
    await page.mouse.move(h.x + h.width / 2 - 150, h.y + h.height / 2, { steps: 5 })
    await page.mouse.up()
    await expect.poll(async () => (await inspector.boundingBox())!.width).toBeGreaterThan(before.width + 100)
    const after = await page.getByTestId('inspector-body').evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }))
    expect(after.scroll).toBeLessThanOrEqual(after.client)
    // The keyboard moves it too.
    await handle.focus()
    const wide = (await inspector.boundingBox())!.width
    await page.keyboard.press('ArrowRight')
    await expect.poll(async () => (await inspector.boundingBox())!.width).toBeLessThan(wide)
    await page.getByRole('button', { name: 'Close' }).click()
  })

  it("the row labels tell the cloud_chat_conversations_* tables apart, and a label's title is the table's full name", async () => {
    const names = ['cloud_chat_conversations_custom_fields', 'cloud_chat_conversations_first_reply_metrics', 'cloud_chat_conversations_tags']
    for (const name of names) {
      const label = page.locator(`[data-testid=heatmap] [data-row="${name}"]`)
      expect(await label.getAttribute('title')).toBe(name)
      // The part after "cloud_chat_conversations_" is what tells them apart: all of it is drawn inside the label.
      const tailShown = await label.evaluate((el, tail) => {
        const box = el.getBoundingClientRect()
        const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT)
        let text = ''
        const nodes: Text[] = []
        for (let n = walker.nextNode(); n; n = walker.nextNode()) {
          nodes.push(n as Text)
          text += (n as Text).data
        }
        if (!text.endsWith(tail)) return `text "${text}" does not end in ${tail}`
        let skip = text.length - tail.length
        for (const n of nodes) {
          for (let i = 0; i < n.data.length; i++, skip--) {
            if (skip > 0) continue
            const range = document.createRange()
            range.setStart(n, i)
            range.setEnd(n, i + 1)
            const r = range.getBoundingClientRect()
            // Strictly inside the label and the element that holds the letter: a letter a hair over an edge is
            // already one an ellipsis replaces.
            const own = (n.parentElement ?? el).getBoundingClientRect()
            for (const b of [box, own])
              if (r.right > b.right + 0.01 || r.left < b.left - 0.01) return `"${n.data[i]}" at ${r.left}–${r.right} is outside ${b.left}–${b.right}`
          }
        }
        return 'shown'
      }, name.slice('cloud_chat_conversations_'.length))
      expect(tailShown, name).toBe('shown')
    }
  })

  it('tabbing to the canvas shows a focus ring and a focused cell, read out in the status line', async () => {
    await page.getByLabel('axis time zone').focus()
    await page.keyboard.press('Tab')
    const canvas = page.getByTestId('timeline-canvas')
    expect(await canvas.evaluate((el) => el === document.activeElement)).toBe(true)
    const ring = await canvas.evaluate((el) => {
      const s = getComputedStyle(el)
      return { style: s.outlineStyle, width: parseFloat(s.outlineWidth) }
    })
    expect(ring.style).not.toBe('none')
    expect(ring.width).toBeGreaterThan(0)
    const status = page.getByTestId('timeline-status')
    await expect.poll(() => status.getAttribute('data-table')).toBeTruthy()
    expect(await canvas.getAttribute('aria-describedby')).toBe(await status.getAttribute('id'))
    // The arrows move from there.
    const first = await status.getAttribute('data-table')
    await page.keyboard.press('ArrowDown')
    await expect.poll(() => status.getAttribute('data-table')).not.toBe(first)
    await page.screenshot({ path: 'test-results/readability-focus-1280.png' })
  })

  it("the axis's last label is drawn inside the canvas, at 1280 and at 1920", async () => {
    const canvas = page.getByTestId('timeline-canvas')
    // The timeline alone, as wide as the window lets it be.
    if (await page.getByTestId('inspector').isVisible()) await page.getByRole('button', { name: 'Close' }).click()
    for (const width of [1280, 1920]) {
      await page.setViewportSize({ width, height: width === 1280 ? 800 : 1080 })
      // Redrawn for the new width: the canvas's pixels fill its box, which fills what the labels leave of the frame.
      await expect
        .poll(() =>
          canvas.evaluate((el) => {
            const c = el as HTMLCanvasElement
            const frame = c.closest('[data-testid=heatmap]')?.getBoundingClientRect().width ?? 0
            const labels = c.previousElementSibling?.getBoundingClientRect().width ?? 0
            return (
              Math.abs(c.width / devicePixelRatio - c.getBoundingClientRect().width) < 1 && Math.abs(frame - 2 - labels - c.getBoundingClientRect().width) < 1
            )
          })
        )
        .toBe(true)
      expect(await page.evaluate(() => innerWidth)).toBe(width)
      const css = await canvas.evaluate((c) => c.getBoundingClientRect().width)
      await expect.poll(async () => Number(await canvas.getAttribute('data-axis-end')), { message: `at ${width}` }).toBeGreaterThan(0)
      expect(Number(await canvas.getAttribute('data-axis-end'))).toBeLessThanOrEqual(css)
    }
    await page.setViewportSize({ width: 1280, height: 800 })
  })
})
