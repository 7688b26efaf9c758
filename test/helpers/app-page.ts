// Driving the app's page as a user does: the renderer built by Vite, served by the web host; clicking timeline
// cells where they are drawn (from the canvas's geometry and the row labels) and reading the status line.
import { readdirSync, statSync } from 'node:fs'
import { join, resolve } from 'node:path'
import react from '@vitejs/plugin-react'
import type { Page } from 'playwright-core'
import { build } from 'vite'
import { sharedRendererDir } from './run-fixtures'

/** The renderer the page loads: the run's (built once, test/global-setup.ts), else built into `outDir/renderer`. */
export async function buildRenderer(outDir: string): Promise<string> {
  return sharedRendererDir() ?? (await buildRendererInto(join(outDir, 'renderer')))
}

export async function buildRendererInto(dir: string): Promise<string> {
  await build({ root: resolve('src/renderer'), plugins: [react()], logLevel: 'silent', build: { outDir: dir, emptyOutDir: true } })
  return dir
}

/** What the renderer is built from: its sources, the shared code it imports, the build's configuration and packages. */
const RENDERER_INPUTS = ['src/renderer', 'src/shared', 'electron.vite.config.ts', 'package-lock.json', 'patches']

const newestMtime = (path: string): number => {
  const s = statSync(path, { throwIfNoEntry: false })
  if (!s) return 0
  if (!s.isDirectory()) return s.mtimeMs
  let newest = s.mtimeMs
  for (const e of readdirSync(path, { recursive: true, withFileTypes: true }))
    if (e.isFile() || e.isDirectory()) newest = Math.max(newest, statSync(join(e.parentPath, e.name)).mtimeMs)
  return newest
}

/** out/renderer (what `npm test` and `electron-vite build` make) when it is newer than everything it is built from. */
export function currentBuiltRenderer(): string | null {
  const index = statSync(resolve('out/renderer/index.html'), { throwIfNoEntry: false })
  if (!index) return null
  return RENDERER_INPUTS.every((p) => newestMtime(resolve(p)) < index.mtimeMs) ? resolve('out/renderer') : null
}

/** The UTC ISO instant of a planted hour. */
export const hourIso = (h: { date: string; hour: string }): string => `${h.date}T${h.hour}:00:00.000Z`

/** Clicks the timeline cell of (table, hour) where it is drawn and returns the state the status line reads. */
export async function clickCell(page: Page, table: string, iso: string): Promise<string | null> {
  const canvas = page.locator('[data-testid=timeline-canvas]')
  await canvas.scrollIntoViewIfNeeded()
  const geo = await canvas.evaluate((c) => ({
    offset: Number(c.dataset['offset']),
    pxh: Number(c.dataset['pxh']),
    first: c.dataset['firstHour'] ?? '',
    hours: Number(c.dataset['hours'])
  }))
  const idx = (Date.parse(iso) - Date.parse(geo.first)) / 3_600_000
  if (idx < 0 || idx >= geo.hours) throw new Error(`${iso} is not on the timeline (${geo.first}, ${geo.hours} hours)`)
  const box = await canvas.boundingBox()
  const row = await page.locator(`[data-testid=heatmap] [data-row="${table}"]`).boundingBox()
  if (!box || !row) throw new Error(`no row ${table}`)
  const x = (idx - geo.offset + 0.5) * geo.pxh
  if (x < 0 || x > box.width)
    throw new Error(
      `${iso} is scrolled out of view (x ${x.toFixed(1)} of ${box.width} px; offset ${geo.offset}, ${geo.pxh} px an hour, ${geo.hours} hours from ${geo.first})`
    )
  await page.mouse.click(box.x + x, row.y + row.height / 2)
  const status = page.locator('[data-testid=timeline-status]')
  await page.waitForFunction(
    ([t, h]) => {
      const s = document.querySelector('[data-testid=timeline-status]') as HTMLElement | null
      return s?.dataset['table'] === t && s?.dataset['hour'] === h
    },
    [table, iso] as const
  )
  return status.getAttribute('data-state')
}

/** Replaces the SQL pane's editor text and runs it with Ctrl+Enter. */
export async function runSqlInPane(page: Page, sql: string): Promise<void> {
  await page.locator('[data-testid=sql-editor] .cm-content').click()
  await page.keyboard.press('ControlOrMeta+a')
  await page.keyboard.press('Delete')
  await page.keyboard.insertText(sql)
  await page.keyboard.press('Escape')
  await page.keyboard.press('ControlOrMeta+Enter')
}
