// npm run bench -- year
// The support person's view of a whole year: the generator's plan for 365 days of v2 hourly deliveries (plus
// the v1 history) laid out in a local folder (~93,000 objects; data files empty, manifests real), opened as a
// connection. Times the first overview (cold listing, manifests, analysis), an incremental refresh, the
// timeline of the whole year (the API answer and its size), and in Chromium: drawing the year, and frames
// while zooming and panning it. And the volume and schema monitors' cost on the year: the analysis with every ready
// folder's footer facts (as a refresh that read them all holds) against the analysis without, the monitors alone,
// and a table's year of volume points (the Tables chart's answer); they make no request (the facts are the footers
// the frame check already read).
import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { MemorySecretStore } from '../../src/main/connections/secret-store'
import { planDemoBucket } from '../../src/main/demo-bucket/demo-plan'
import { startWebHost } from '../../src/main/web-host'
import { Workspace } from '../../src/main/workspace/workspace'
import { buildRenderer } from '../helpers/app-page'
import { launchChromium } from '../helpers/chromium'
import { readLocalBucket } from '../helpers/local-bucket'
import { CATALOG } from '../../src/shared/catalog'
import { type FooterFacts, deliveryFacts } from '../../src/shared/delivery-facts'
import { monitorDeliveries } from '../../src/shared/delivery-monitors'
import { analyzeTimeline } from '../../src/shared/timeline'

/** The monitors' cost on the bucket: every ready folder given footer facts (rows with a daily rhythm and noise). */
async function monitorCost(
  bucket: string,
  now: number
): Promise<{ deliveries: number; withMs: number; withoutMs: number; aloneMs: number; findings: number; points: number; pointsBytes: number }> {
  const r = await readLocalBucket(bucket, now)
  const columns = [
    { name: 'id', type: 'BIGINT' },
    { name: 'body', type: 'VARCHAR' }
  ]
  // Each data file's footer as the frame check would have read it: rows with a daily rhythm and some noise.
  const footers = new Map<string, FooterFacts>()
  for (const f of r.inventory.folders.values())
    for (const o of f.dataFiles) {
      const t = Date.parse(o.lastModified)
      const rows = Math.round(2000 + 800 * Math.sin((new Date(t).getUTCHours() / 24) * 2 * Math.PI) + ((t / 3_600_000) % 97) - 48)
      footers.set(o.key, { rows, columns })
    }
  const deliveries = deliveryFacts(r.inventory, footers)
  const time = <T>(fn: () => T): { ms: number; value: T } => {
    const t0 = performance.now()
    const value = fn()
    return { ms: performance.now() - t0, value }
  }
  // Each twice, the second timed: the first warms the parsed-manifest cache and the JIT alike for both.
  const parsedCache = new Map()
  analyzeTimeline(r.inventory, r.manifests, { now, parsedCache })
  const without = time(() => analyzeTimeline(r.inventory, r.manifests, { now, parsedCache }))
  analyzeTimeline(r.inventory, r.manifests, { now, parsedCache, deliveries })
  const withFacts = time(() => analyzeTimeline(r.inventory, r.manifests, { now, parsedCache, deliveries }))
  const isFull = (table: string): boolean => CATALOG.find((c) => c.table === table)?.mode !== 'parts'
  const alone = time(() => monitorDeliveries(deliveries, { isFull }))
  const points = withFacts.value.volumes.get('claudia_messages') ?? []
  return {
    deliveries: deliveries.length,
    withMs: withFacts.ms,
    withoutMs: without.ms,
    aloneMs: alone.ms,
    findings: alone.value.findings.length,
    points: points.length,
    pointsBytes: Buffer.byteLength(JSON.stringify(points))
  }
}

export async function benchYear(): Promise<void> {
  const days = Number(process.env['BENCH_DAYS'] ?? 365)
  const work = await mkdtemp(join(tmpdir(), 'ee-bench-year-'))
  const bucket = join(work, 'bucket')
  try {
    const plan = planDemoBucket({ seed: 7, days, scale: 1, v1Days: 30 })
    const writes: [string, string, number][] = []
    for (const f of plan.folders) {
      for (const file of f.files) writes.push([file.key, '', file.mtime])
      if (f.marker !== null) writes.push([`${f.prefix}_SUCCESS`, '', f.marker])
    }
    for (const t of plan.texts) writes.push([t.key, t.text, t.mtime])
    process.stderr.write(`writing ${writes.length} objects…\n`)
    for (let i = 0; i < writes.length; i += 500) {
      await Promise.all(
        writes.slice(i, i + 500).map(async ([k, body, mtime]) => {
          const p = join(bucket, k)
          await mkdir(dirname(p), { recursive: true })
          await writeFile(p, body)
          await utimes(p, new Date(mtime), new Date(mtime))
        })
      )
    }
    const now = Date.parse(plan.expected.now)
    const monitors = await monitorCost(bucket, now)
    const workspace = new Workspace({ dataDir: join(work, 'data'), secrets: new MemorySecretStore(), demo: { bucketDir: bucket, now }, autoRefresh: false })
    let t0 = performance.now()
    const overview = await workspace.sessionOrOpenFirst().then((s) => s.snapshot.overview())
    const cold = performance.now() - t0
    t0 = performance.now()
    await workspace.refresh({ full: false })
    await workspace.running
    const warm = performance.now() - t0
    const service = (await workspace.sessionOrOpenFirst()).snapshot
    t0 = performance.now()
    const view = await service.timeline({ fromHours: 366 * 24 })
    const timelineMs = performance.now() - t0
    const bytes = Buffer.byteLength(JSON.stringify(view))
    // The same call from a renderer that holds the findings already (another range, a refresh that changed none).
    t0 = performance.now()
    const held = await service.timelineAnswer({ fromHours: 366 * 24, findingsOf: view.findingsOf })
    const heldMs = performance.now() - t0
    const heldBytes = Buffer.byteLength(JSON.stringify(held))

    const host = await startWebHost({ workspace, rendererDir: await buildRenderer(work) })
    const browser = await launchChromium()
    let drawMs = 0
    let zoom = { frames: 0, dropped: 0 }
    let pan = { frames: 0, dropped: 0 }
    try {
      const page = await browser.newPage({ viewport: { width: 1400, height: 1000 }, bypassCSP: true })
      await page.goto(host.url)
      await page.waitForSelector('[data-testid=timeline-canvas]', { timeout: 120_000 })
      t0 = performance.now()
      await page.selectOption('select[aria-label="hours shown"]', String(366 * 24))
      await page.waitForFunction(`Number(document.querySelector('[data-testid=timeline-canvas]').dataset.hours) > ${24 * 300}`, undefined, { timeout: 120_000 })
      drawMs = performance.now() - t0
      const measure = (step: string, ms: number): Promise<{ frames: number; dropped: number }> =>
        page.evaluate(`new Promise((resolve) => {
          const c = document.querySelector('[data-testid=timeline-canvas]'); const r = c.getBoundingClientRect()
          const gaps = []; let last = performance.now(); const end = last + ${ms}; let frame = 0
          function tick(now) { gaps.push(now - last); last = now
            if (now >= end) { gaps.shift(); resolve({ frames: gaps.length, dropped: gaps.reduce((d, g) => d + Math.max(0, Math.round(g / (1000 / 60)) - 1), 0) }); return }
            ${step}; frame++; requestAnimationFrame(tick) }
          requestAnimationFrame(tick) })`) as Promise<{ frames: number; dropped: number }>
      zoom = await measure(
        `c.dispatchEvent(new WheelEvent('wheel', { deltaY: Math.floor(frame / 40) % 2 ? -60 : 60, ctrlKey: true, clientX: r.x + r.width / 2, clientY: r.y + 100, bubbles: true, cancelable: true }))`,
        3000
      )
      await page.locator('[data-testid=timeline-canvas]').focus()
      for (let i = 0; i < 9; i++) await page.keyboard.press('+')
      pan = await measure(
        `c.dispatchEvent(new WheelEvent('wheel', { deltaX: -40, clientX: r.x + r.width / 2, clientY: r.y + 100, bubbles: true, cancelable: true }))`,
        3000
      )
      await page.screenshot({ path: 'test-results/bench-year-timeline.png' })
    } finally {
      await browser.close()
      await host.close()
      await workspace.dispose()
    }
    const pct = (f: { frames: number; dropped: number }): string =>
      `${f.frames} frames, ${f.dropped} dropped (${((f.dropped / (f.frames + f.dropped)) * 100).toFixed(1)}%)`
    console.log(
      [
        `Year benchmark: ${writes.length} objects, ${days} days of v2 hours (local folder, one run)`,
        `  first overview (cold listing, ${overview.tables.length} tables, manifests, analysis): ${(cold / 1000).toFixed(2)} s`,
        `  refresh with nothing new: ${(warm / 1000).toFixed(2)} s`,
        `  timeline API for the whole year: ${view.hours.length} hours, ${view.findings.length} findings, ${timelineMs.toFixed(0)} ms, ${(bytes / 1024 / 1024).toFixed(2)} MB of JSON; ` +
          `to a renderer holding its findings: ${heldMs.toFixed(0)} ms, ${(heldBytes / 1024 / 1024).toFixed(2)} MB`,
        `  Chromium: the year on screen ${(drawMs / 1000).toFixed(2)} s after choosing "1 year"; zoom (3 s): ${pct(zoom)}; pan zoomed in (3 s): ${pct(pan)}`,
        `  monitors on ${monitors.deliveries} deliveries: analysis ${monitors.withMs.toFixed(0)} ms with the footers' facts vs ${monitors.withoutMs.toFixed(0)} ms without ` +
          `(+${(monitors.withMs - monitors.withoutMs).toFixed(0)} ms, ${(monitors.withMs / monitors.withoutMs).toFixed(2)}×; goal: ≤ 1 s added); the monitors alone ${monitors.aloneMs.toFixed(0)} ms; ` +
          `${monitors.findings} findings; claudia_messages' year of points: ${monitors.points} (${(monitors.pointsBytes / 1024).toFixed(0)} KiB of JSON)`
      ].join('\n')
    )
  } finally {
    if (process.env['BENCH_KEEP']) process.stderr.write(`kept ${work}\n`)
    else await rm(work, { recursive: true, force: true })
  }
}
