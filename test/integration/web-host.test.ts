// The app in a real browser through the web host, on a generated bucket opened as the built-in demo: the
// host's guards (token, Host header, argument validation), the overview, the timeline (cells clicked where
// they are drawn, keyboard, zoom, axis zone), the findings list that jumps to its hour, and the inspector.
// Screenshots are saved under test-results/.
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MemorySecretStore } from '../../src/main/connections/secret-store'
import { Workspace } from '../../src/main/workspace'
import { CATALOG } from '../../src/shared/catalog'
import { clickCell, hourIso } from '../helpers/app-page'
import { type AppUnderTest, startAppUnderTest } from '../helpers/app-under-test'
import { type Demo } from '../helpers/demo'

let app: AppUnderTest
let demo: Demo
let host: AppUnderTest['host']
let page: Page

beforeAll(async () => {
  app = await startAppUnderTest({
    workspace: ({ demo, work }) => new Workspace({ dataDir: join(work, 'data'), secrets: new MemorySecretStore(), demo: { bucketDir: demo.bucketDir, now: Date.parse(demo.expected.now) }, autoRefresh: false })
  })
  ;({ demo, host, page } = app)
}, 300_000)
afterAll(async () => {
  await app?.close()
})

const post = (call: string, body: string, token = host.token): Promise<Response> => fetch(`${host.url}api/${token}/${call}`, { method: 'POST', body })

describe('web host', () => {
  it('guards the API: launch token, Host header, validated arguments, no secret in any answer', async () => {
    expect((await post('overview', '{}', '0'.repeat(48))).status).toBe(403)
    const ok = await post('overview', '{}')
    expect(ok.status).toBe(200)
    expect(((await ok.json()) as { result: { version: string } }).result.version).toBe('v2')
    expect((await post('timeline', '{"fromHours": "all"}')).status).toBe(400)
    expect((await post('timeline', '{"fromHours": 24, "extra": 1}')).status).toBe(400)
    expect((await post('hour', '{"start": "2026-11-05T14:30:00Z"}')).status).toBe(400)
    expect((await post('connectionOpen', '{"id": "../../etc"}')).status).toBe(400)
    expect((await post('noSuchCall', '{}')).status).toBe(404)
    expect((await post('overview', 'not json')).status).toBe(400)
    // A connection with a static key: the secret goes in, never comes out.
    const saved = await post('connectionSave', JSON.stringify({ connection: { name: 'k', provider: 's3', bucket: 'b', prefix: '', endpoint: 'http://127.0.0.1:9', auth: { kind: 'static', accessKeyId: 'AKIAEXAMPLE' } }, secretAccessKey: 'very-secret-value' }))
    expect(saved.status).toBe(200)
    const { id } = ((await saved.json()) as { result: { id: string } }).result
    const answers = await Promise.all([post('connections', '{}'), post('connectionGet', JSON.stringify({ id }))].map(async (r) => (await r).text()))
    expect(answers[1]).toContain('AKIAEXAMPLE')
    for (const a of answers) expect(a).not.toContain('very-secret-value')
    expect((await post('connectionDelete', JSON.stringify({ id }))).status).toBe(200)
    expect((await post('connectionDelete', JSON.stringify({ id: 'demo' }))).status).toBe(500)
    const port = new URL(host.url).port
    const { request } = await import('node:http')
    const status = await new Promise<number>((r) => request({ host: '127.0.0.1', port, path: '/', headers: { host: `evil.example:${port}` } }, (res) => r(res.statusCode ?? 0)).end())
    expect(status).toBe(421)
  })

  it('opens on the demo bucket: overview, latest copies, and the planted faults where the generator put them', async () => {
    await page.goto(host.url)
    await page.waitForSelector('[data-testid=timeline-canvas]')
    const errors = demo.expected.faults.filter((f) => ['missing', 'failed', 'pending_not_caught_up'].includes(f.kind)).length
    await expect.poll(() => page.locator('[data-testid=overview] [data-severity=error]').textContent()).toBe(`${errors} errors`)
    expect(await page.locator('[data-testid=version]').textContent()).toBe('v2')
    expect(await page.locator('select[aria-label=connection] option:checked').textContent()).toBe('Demo bucket (built in)')
    // Latest ready copy of each table with its age.
    expect(await page.locator('[data-testid=latest-copies] tr[data-latest]').count()).toBe(CATALOG.length)
    const latestCsat = demo.expected.latest_ready['claudia_csat'] as { snapshot_date: string; snapshot_hour: string }
    expect(await page.locator('tr[data-latest=claudia_csat]').textContent()).toContain(`${latestCsat.snapshot_date} ${latestCsat.snapshot_hour}:00 UTC`)

    const p = demo.expected.planted_hours
    for (const t of ['claudia_csat', 'cloud_chat_tags', 'claudia_messages']) expect(await clickCell(page, t, hourIso(p['missingHour']!))).toBe('missing')
    for (const t of ['claudia_contents', 'cloud_chat_team_metrics']) expect(await clickCell(page, t, hourIso(p['lateHour']!))).toBe('late')
    expect(await clickCell(page, 'claudia_csat', hourIso(p['failedFolder']!))).toBe('failed')
    expect(await page.locator('[data-testid=timeline-status]').textContent()).toMatch(/UTC · \d\d:00 Brasília · \d\d:\d\d local · failed/)
    // The click opened the inspector: the failed folder's file, no _SUCCESS, and what to do.
    await expect.poll(() => page.locator('[data-inspector-table=claudia_csat]').textContent()).toMatch(/failed.*—.*part-00000\.parquet.*rows/)
    expect(await page.locator('[data-testid=inspector-findings]').textContent()).toMatch(/failed claudia_csat.*report it to the vendor/)
    await page.screenshot({ path: 'test-results/overview-timeline.png', fullPage: true })
  })

  it('moves through the timeline with the keyboard and opens an hour with Enter', async () => {
    const p = demo.expected.planted_hours
    await clickCell(page, 'claudia_csat', hourIso(p['lateHour']!))
    await page.keyboard.press('ArrowRight')
    const next = new Date(Date.parse(hourIso(p['lateHour']!)) + 3_600_000).toISOString()
    await expect.poll(() => page.locator('[data-testid=timeline-status]').getAttribute('data-hour')).toBe(next)
    await page.keyboard.press('ArrowLeft')
    await page.keyboard.press('ArrowUp')
    const status = page.locator('[data-testid=timeline-status]')
    const above = CATALOG[CATALOG.findIndex((t) => t.table === 'claudia_csat') - 1]?.table
    await expect.poll(() => status.getAttribute('data-table')).toBe(above)
    expect(await status.getAttribute('data-state')).toBe('late')
    await page.keyboard.press('Shift+ArrowLeft')
    await expect.poll(() => status.getAttribute('data-hour')).toBe(new Date(Date.parse(hourIso(p['lateHour']!)) - 24 * 3_600_000).toISOString())
    await page.keyboard.press('Enter')
    await expect.poll(() => page.locator('[data-testid=inspector] h2').textContent()).toContain(new Date(Date.parse(hourIso(p['lateHour']!)) - 24 * 3_600_000).toISOString().slice(0, 13).replace('T', ' '))
  })

  it('zooms with the keyboard, switches the axis to Brasília, and shows the whole export at once', async () => {
    const canvas = page.locator('[data-testid=timeline-canvas]')
    const before = Number(await canvas.getAttribute('data-pxh'))
    await canvas.focus()
    await page.keyboard.press('+')
    await expect.poll(async () => Number(await canvas.getAttribute('data-pxh'))).toBeCloseTo(before * 1.5, 3)
    await page.keyboard.press('-')
    await page.selectOption('select[aria-label="axis time zone"]', 'brasilia')
    await expect.poll(() => page.locator('[data-testid=heatmap]').textContent()).toContain('hour (Brasília)')
    await page.selectOption('select[aria-label="hours shown"]', String(366 * 24))
    // The whole export (8 days here) fits: fewer hours than a year, every one of them drawn.
    await expect.poll(async () => Number(await canvas.getAttribute('data-hours'))).toBeGreaterThan(8 * 24)
    expect(Number(await canvas.getAttribute('data-offset'))).toBeLessThanOrEqual(0)
    await page.screenshot({ path: 'test-results/timeline-whole-export-brasilia.png' })
    await page.selectOption('select[aria-label="axis time zone"]', 'utc')
  })

  it('jumps from a finding to its hour and shows the malformed manifest in the inspector', async () => {
    await page.selectOption('select[aria-label="hours shown"]', String(48))
    const finding = page.locator('[data-testid=findings] li[data-kind=manifest_malformed] button')
    expect(await finding.count()).toBe(1)
    // Older than the two days shown: the range widens to reach it.
    await finding.click()
    const at = hourIso(demo.expected.planted_hours['malformedManifest']!)
    await expect.poll(() => page.locator('[data-testid=timeline-status]').getAttribute('data-hour'), { timeout: 15_000 }).toBe(at)
    await expect.poll(() => page.locator('[data-testid=manifest-warnings]').textContent()).toMatch(/not valid JSON/)
    expect(await page.locator('[data-testid=inspector]').textContent()).toContain('Manifest: malformed')
    await page.locator('[data-testid=inspector] summary').click()
    await page.screenshot({ path: 'test-results/inspector-malformed-manifest.png', fullPage: true })
  })
})
