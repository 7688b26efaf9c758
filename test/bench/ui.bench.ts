// npm run bench -- ui
// The renderer in Debian's Chromium through the web host, on a generated bucket: time to the first rows of a
// 1,000,000-row result, frames while scrolling it (a steady scroll and jumps), and the renderer's JS heap
// before, at its peak and after (after a garbage collection). Then the timeline on a year of hours
// (8,760 × 19): frames while panning and zooming. Frames are counted with requestAnimationFrame in the page;
// a frame "dropped" is each 16.7 ms beyond the first in a gap between frames.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import react from '@vitejs/plugin-react'
import type { Page } from 'playwright-core'
import { build } from 'vite'
import { MemorySecretStore } from '../../src/main/connections/secret-store'
import { startWebHost } from '../../src/main/web-host'
import { Workspace } from '../../src/main/workspace/workspace'
import { buildRenderer } from '../helpers/app-page'
import { launchChromium } from '../helpers/chromium'
import { generateDemo } from '../helpers/demo'
import { serveFolder } from '../helpers/static-server'

const MILLION = "SELECT range AS i, md5(range::VARCHAR) AS h, range % 97 AS bucket, TIMESTAMP '2026-11-01' + to_seconds(range) AS t FROM range(1000000)"

/** Runs `step` (a script with `frame` in scope) on every animation frame for `ms`, returning frame statistics.
 * The page's code is a string: functions compiled by tsx carry helpers the page does not have. */
async function frames(page: Page, ms: number, step: string): Promise<{ frames: number; dropped: number; p95: number; worst: number; blank: number }> {
  const script = `new Promise((resolve) => {
    const fn = new Function('frame', ${JSON.stringify(step)})
    const gaps = []
    let blank = 0
    let last = performance.now()
    const end = last + ${ms}
    let n = 0
    function tick(now) {
      gaps.push(now - last)
      last = now
      // Rows drawn without their values yet: the grid outran its pages.
      const cell = document.querySelector('[data-testid=grid-scroll] [data-cell]')
      if (cell && cell.textContent === '…') blank++
      if (now >= end) {
        gaps.shift()
        const sorted = [...gaps].sort((a, b) => a - b)
        const dropped = gaps.reduce((d, g) => d + Math.max(0, Math.round(g / (1000 / 60)) - 1), 0)
        resolve({ frames: gaps.length, dropped, p95: sorted[Math.floor(sorted.length * 0.95)] || 0, worst: sorted[sorted.length - 1] || 0, blank })
        return
      }
      fn(n++)
      requestAnimationFrame(tick)
    }
    requestAnimationFrame(tick)
  })`
  return page.evaluate(script) as Promise<{ frames: number; dropped: number; p95: number; worst: number; blank: number }>
}

async function heapMb(page: Page, gc: boolean): Promise<number> {
  const cdp = await page.context().newCDPSession(page)
  if (gc) await cdp.send('HeapProfiler.collectGarbage')
  const { usedSize } = (await cdp.send('Runtime.getHeapUsage')) as { usedSize: number }
  await cdp.detach()
  return usedSize / 1024 / 1024
}

const fmt = (f: { frames: number; dropped: number; p95: number; worst: number; blank?: number | undefined }): string =>
  `${f.frames} frames, ${f.dropped} dropped (${((f.dropped / (f.frames + f.dropped)) * 100).toFixed(1)}% of the frames due), p95 frame ${f.p95.toFixed(1)} ms, worst ${f.worst.toFixed(0)} ms${f.blank !== undefined ? `, ${f.blank} frames with rows still loading` : ''}`

export async function benchUi(): Promise<void> {
  const work = await mkdtemp(join(tmpdir(), 'ee-bench-ui-'))
  const demo = await generateDemo({ days: 8 })
  const workspace = new Workspace({
    dataDir: join(work, 'data'),
    secrets: new MemorySecretStore(),
    demo: { bucketDir: demo.bucketDir, now: Date.parse(demo.expected.now) },
    autoRefresh: false
  })
  const host = await startWebHost({ workspace, rendererDir: await buildRenderer(work) })
  const browser = await launchChromium()
  try {
    // The app's CSP forbids eval; the measuring scripts below need it (bypassCSP changes nothing measured).
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 }, bypassCSP: true })
    await page.goto(host.url)
    await page.waitForSelector('[data-testid=timeline-canvas]')
    await page.getByRole('tab', { name: 'SQL' }).click()
    await page.waitForSelector('[data-testid=sql-editor] .cm-content')
    // Warm the engine (start DuckDB-WASM, build the views) so the figure is the query's, not the start-up's.
    const warm = Date.now()
    await page.locator('[data-testid=sql-editor] .cm-content').click()
    await page.keyboard.press('ControlOrMeta+Enter')
    await page.waitForSelector('[data-testid=sql-pane] [data-testid=result-grid]', { timeout: 120_000 })
    const startup = Date.now() - warm
    const parquetFiles = (await workspace.engineSource({ asOf: null })).objects.filter((o) => o.key.endsWith('.parquet')).length
    const before = await heapMb(page, true)

    await page.locator('[data-testid=sql-editor] .cm-content').click()
    await page.keyboard.press('ControlOrMeta+a')
    await page.keyboard.insertText(MILLION)
    await page.keyboard.press('Escape')
    const t0 = Date.now()
    await page.keyboard.press('ControlOrMeta+Enter')
    await page.waitForFunction(
      `(() => { const g = document.querySelector('[data-testid=sql-pane] [data-testid=result-grid]'); const c = g && g.querySelector('[data-cell="0:0"]'); return !!g && g.getAttribute('data-rows') === '1000000' && !!c && c.textContent !== '…' })()`,
      undefined,
      { timeout: 120_000 }
    )
    const firstRows = Date.now() - t0

    const steady = await frames(page, 5000, "const s = document.querySelector('[data-testid=sql-pane] [data-testid=grid-scroll]'); s.scrollTop += 240")
    const peakSteady = await heapMb(page, false)
    const jumps = await frames(
      page,
      5000,
      "const s = document.querySelector('[data-testid=sql-pane] [data-testid=grid-scroll]'); if (frame % 10 === 0) s.scrollTop = Math.random() * s.scrollHeight"
    )
    const peak = Math.max(peakSteady, await heapMb(page, false))
    const after = await heapMb(page, true)
    const pages = await page.locator('[data-testid=sql-pane] [data-testid=result-grid]').getAttribute('data-loaded-pages')

    // The timeline on a year of hours.
    const harness = join(work, 'timeline-page')
    await build({ root: resolve('test/e2e/timeline-page'), plugins: [react()], logLevel: 'silent', build: { outDir: harness, emptyOutDir: true } })
    const server = await serveFolder(harness)
    const tl = await browser.newPage({ viewport: { width: 1400, height: 700 } })
    await tl.goto(`${server.origin}/index.html`)
    await tl.waitForSelector('[data-testid=timeline-canvas]')
    const hours = await tl.locator('[data-testid=timeline-canvas]').getAttribute('data-hours')
    const box = (await tl.locator('[data-testid=timeline-canvas]').boundingBox())!
    await tl.mouse.move(box.x + box.width / 2, box.y + box.height / 2)
    const dispatch = (dx: number, dy: number, ctrl: boolean): string =>
      `document.querySelector('[data-testid=timeline-canvas]').dispatchEvent(new WheelEvent('wheel', { deltaX: ${dx}, deltaY: ${dy}, ctrlKey: ${ctrl}, clientX: ${box.x + box.width / 2}, clientY: ${box.y + 100}, bubbles: true, cancelable: true }))`
    const zoomYear = await frames(tl, 3000, `${dispatch(0, 0, true).replace('deltaY: 0', 'deltaY: (Math.floor(frame / 40) % 2 ? -60 : 60)')}`)
    const pxhOut = await tl.locator('[data-testid=timeline-canvas]').getAttribute('data-pxh')
    // Zoomed in to a few pixels per hour, pan across the year.
    await tl.locator('[data-testid=timeline-canvas]').focus()
    for (let i = 0; i < 9; i++) await tl.keyboard.press('+')
    const pxh = await tl.locator('[data-testid=timeline-canvas]').getAttribute('data-pxh')
    const offset0 = Number(await tl.locator('[data-testid=timeline-canvas]').getAttribute('data-offset'))
    const panYear = await frames(tl, 3000, dispatch(-40, 0, false))
    const panned = offset0 - Number(await tl.locator('[data-testid=timeline-canvas]').getAttribute('data-offset'))
    await server.close()

    const lines = [
      `UI benchmark (Chromium ${browser.version()}, 1400×1000, one run)`,
      `  engine start-up and views over ${parquetFiles} Parquet files (first query of the session): ${(startup / 1000).toFixed(2)} s (${((startup / parquetFiles) * 1000).toFixed(0)} µs per file)`,
      `  1,000,000-row result: first rows on screen ${(firstRows / 1000).toFixed(2)} s after Ctrl+Enter`,
      `  steady scroll (240 px per frame, 5 s): ${fmt(steady)}`,
      `  jumps to random places (every 10th frame, 5 s): ${fmt(jumps)}`,
      `  renderer JS heap: ${before.toFixed(1)} MB before the query, peak ${peak.toFixed(1)} MB while scrolling, ${after.toFixed(1)} MB after (GC); pages of 200 rows held: ${pages}`,
      `  timeline, ${hours} hours × 19 tables:`,
      `    zooming in and out with Ctrl+wheel from the whole year (${Number(pxhOut).toFixed(3)} px/hour), 3 s: ${fmt({ ...zoomYear, blank: undefined })}`,
      `    panning with the wheel at ${Number(pxh).toFixed(2)} px/hour, 3 s (${Math.round(panned)} hours travelled): ${fmt({ ...panYear, blank: undefined })}`
    ]
    console.log(lines.join('\n'))
  } finally {
    await browser.close()
    await host.close()
    await workspace.dispose()
    await demo.cleanup()
    await rm(work, { recursive: true, force: true })
  }
}
