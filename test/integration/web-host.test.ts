// The app in a real browser through the web host, on a generated bucket: the overview, the timeline with
// the planted missing hour and late delivery where the generator put them, the findings; and the host's
// guards (token, Host header). Screenshots are saved under test-results/.
import { mkdir, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import react from '@vitejs/plugin-react'
import { build } from 'vite'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AppService } from '../../src/main/app-service'
import { LocalFolderProvider } from '../../src/main/bucket/local-provider'
import { startWebHost } from '../../src/main/web-host'
import { CATALOG } from '../../src/shared/catalog'
import { launchChromium } from '../helpers/chromium'
import { type Demo, generateDemo } from '../helpers/demo'

let demo: Demo
let work: string
let host: { url: string; token: string; close(): Promise<void> }

beforeAll(async () => {
  demo = await generateDemo({ days: 8 })
  work = await mkdtemp(join(tmpdir(), 'ee-web-'))
  await build({ root: resolve('src/renderer'), plugins: [react()], logLevel: 'silent', build: { outDir: join(work, 'renderer'), emptyOutDir: true } })
  const service = new AppService({ provider: new LocalFolderProvider(demo.bucketDir), connectionId: 'demo', dataDir: join(work, 'data'), now: () => Date.parse(demo.expected.now) })
  host = await startWebHost({ service, rendererDir: join(work, 'renderer') })
}, 300_000)
afterAll(async () => {
  await host?.close()
  await demo?.cleanup()
  if (work) await rm(work, { recursive: true, force: true })
})

describe('web host', () => {
  it('guards the API with the launch token and refuses other hosts', async () => {
    expect((await fetch(`${host.url}api/${'0'.repeat(48)}/overview`, { method: 'POST', body: '{}' })).status).toBe(403)
    const ok = await fetch(`${host.url}api/${host.token}/overview`, { method: 'POST', body: '{}' })
    expect(ok.status).toBe(200)
    expect((await ok.json()).version).toBe('v2')
    expect((await fetch(`${host.url}api/${host.token}/timeline`, { method: 'POST', body: '{"fromHours": "all"}' })).status).toBe(400)
    const port = new URL(host.url).port
    const { request } = await import('node:http')
    const status = await new Promise<number>((r) => request({ host: '127.0.0.1', port, path: '/', headers: { host: `evil.example:${port}` } }, (res) => r(res.statusCode ?? 0)).end())
    expect(status).toBe(421)
  })

  it('shows the overview and the timeline a support person reads: the planted missing hour and late delivery', async () => {
    const browser = await launchChromium()
    try {
      const page = await browser.newPage({ viewport: { width: 1400, height: 900 } })
      await page.goto(host.url)
      await page.waitForSelector('[data-testid=heatmap] td[data-state]')
      const errors = demo.expected.faults.filter((f) => ['missing', 'failed', 'pending_not_caught_up'].includes(f.kind)).length
      await expect.poll(() => page.locator('[data-testid=overview]').textContent()).toContain(`${errors} errors`)
      expect(await page.locator('[data-testid=overview]').textContent()).toContain('on v2')
      const at = (name: string): string => {
        const h = demo.expected.planted_hours[name]!
        return `${h.date}T${h.hour}:00:00.000Z`
      }
      for (const t of CATALOG) {
        expect(await page.locator(`td[data-table="${t.table}"][data-hour="${at('missingHour')}"]`).getAttribute('data-state')).toBe('missing')
        expect(await page.locator(`td[data-table="${t.table}"][data-hour="${at('lateHour')}"]`).getAttribute('data-state')).toBe('late')
      }
      expect(await page.locator(`td[data-table="claudia_csat"][data-hour="${at('failedFolder')}"]`).getAttribute('data-state')).toBe('failed')
      expect(await page.locator(`td[data-table="claudia_csat"][data-hour="${at('missingHour')}"]`).getAttribute('title')).toMatch(/UTC \(.* Brasília\) · missing/)
      expect(await page.locator('[data-testid=findings] li[data-kind=manifest_malformed]').count()).toBe(1)
      await mkdir('test-results', { recursive: true })
      await page.screenshot({ path: 'test-results/overview-timeline.png' })
      // The inspector: the malformed manifest's warning and raw text; a failed folder's files without _SUCCESS.
      await page.locator(`td[data-table="claudia_csat"][data-hour="${at('malformedManifest')}"]`).click()
      await expect.poll(() => page.locator('[data-testid=manifest-warnings]').textContent()).toMatch(/not valid JSON/)
      expect(await page.locator('[data-testid=inspector]').textContent()).toContain('Manifest: malformed')
      await page.screenshot({ path: 'test-results/inspector-malformed-manifest.png', fullPage: true })
      await page.locator(`td[data-table="claudia_csat"][data-hour="${at('failedFolder')}"]`).click()
      await expect.poll(() => page.locator('[data-inspector-table=claudia_csat]').textContent()).toMatch(/failed.*—.*part-00000\.parquet/)
      expect(await page.locator('[data-testid=inspector-findings]').textContent()).toMatch(/failed claudia_csat/)
      await page.selectOption('select[aria-label="hours shown"]', String(48))
      await expect.poll(() => page.locator('[data-testid=heatmap] thead th').count()).toBe(49)
      await page.screenshot({ path: 'test-results/timeline-2-days.png' })
    } finally {
      await browser.close()
    }
  })
})
