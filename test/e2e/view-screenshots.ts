// Screenshots of every view at 1280×800 (or the width given; the deliveries view's states at 1920×1080 too) on the
// generated demo bucket, for comparing the look before and after a change side by side: `npx tsx
// test/e2e/view-screenshots.ts <label> [width]` writes test-results/css-<label>-<view>.png.
import { clickCell, hourIso } from '../helpers/app-page'
import { demoWorkspace, startAppUnderTest } from '../helpers/app-under-test'

async function main(label: string, width: number): Promise<void> {
  const app = await startAppUnderTest({
    workspace: demoWorkspace,
    page: { viewport: { width, height: 800 } }
  })
  const { page, host, demo } = app
  const shot = (view: string, fullPage = false): Promise<Buffer> => page.screenshot({ path: `test-results/css-${label}-${view}.png`, fullPage })
  try {
    await page.goto(host.url)
    await page.waitForSelector('[data-testid=timeline-canvas]', { timeout: 120_000 })
    await page.mouse.move(5, 5)
    await shot('deliveries')
    await shot('deliveries-full', true)
    await clickCell(page, 'claudia_csat', hourIso(demo.expected.planted_hours['lateHour']!))
    await page.mouse.move(5, 5)
    await shot('inspector', true)
    // The deliveries view's states at 1280×800 and at 1920×1080: the last hour open in the inspector (a table's
    // files unfolded), the panel widened by its edge, and the timeline reached by Tab (focus ring, focused cell).
    for (const [w, h] of [
      [1280, 800],
      [1920, 1080]
    ] as const) {
      await page.setViewportSize({ width: w, height: h })
      // A fresh view: the inspector at its default width again.
      await page.reload()
      await page.waitForSelector('[data-testid=timeline-canvas]', { timeout: 120_000 })
      await page.getByTestId('headline-hour').click()
      await page.locator('[data-inspector-table=claudia_csat] summary').click()
      await page.mouse.move(5, 5)
      await shot(`inspector-last-hour-${w}`)
      const edge = await page.getByRole('separator', { name: 'inspector width' }).boundingBox()
      if (edge) {
        await page.mouse.move(edge.x + 3, edge.y + edge.height / 2)
        await page.mouse.down()
        await page.mouse.move(edge.x - 200, edge.y + edge.height / 2, { steps: 4 })
        await page.mouse.up()
        await page.mouse.move(5, 5)
        await shot(`inspector-wide-${w}`)
      }
      await page.getByRole('button', { name: 'Close' }).click()
      await page.getByLabel('axis time zone').focus()
      await page.keyboard.press('Tab')
      await page.keyboard.press('ArrowDown')
      await shot(`timeline-focus-${w}`)
    }
    await page.setViewportSize({ width: 1280, height: 800 })
    await page.getByRole('tab', { name: 'Tables' }).click()
    await page.locator('[data-table-item=claudia_messages]').click()
    await page.locator('[data-testid=table-browser] [data-testid=grid-scroll]').waitFor({ timeout: 120_000 })
    await page.waitForTimeout(1500)
    await shot('tables')
    await shot('tables-full', true)
    await page.getByRole('tab', { name: 'SQL' }).click()
    await page.locator('[data-testid=sql-editor] .cm-content').click()
    await page.keyboard.press('ControlOrMeta+a')
    await page.keyboard.press('Delete')
    await page.keyboard.insertText('SELECT tag_id, name, created_at FROM cloud_chat_tags ORDER BY created_at LIMIT 50')
    await page.keyboard.press('Escape')
    await page.keyboard.press('ControlOrMeta+Enter')
    await page.locator('[data-testid=sql-pane] [data-testid=result-grid]').waitFor({ timeout: 120_000 })
    await shot('sql')
    await page.locator('[data-testid=sql-editor] .cm-content').click()
    await page.keyboard.press('ControlOrMeta+a')
    await page.keyboard.press('Delete')
    await page.keyboard.insertText('SELECT tag_id,\n  count(*) FROM FROM cloud_chat_tags')
    await page.keyboard.press('Escape')
    await page.keyboard.press('ControlOrMeta+Enter')
    await page.locator('[data-testid=sql-error]').waitFor({ timeout: 60_000 })
    await shot('sql-error')
    await page.getByRole('button', { name: 'Connections…' }).click()
    await shot('connections')
    await page.getByRole('button', { name: 'New connection…' }).click()
    await page.getByRole('form', { name: 'connection' }).getByLabel('credentials').selectOption('static')
    await shot('connection-form')
  } finally {
    await app.close()
  }
}

main(process.argv[2] ?? 'now', Number(process.argv[3] ?? 1280)).then(
  () => process.exit(0),
  (e: unknown) => {
    process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`)
    process.exit(1)
  }
)
