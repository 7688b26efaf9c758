// A first listing takes a minute on a large bucket: the main area says how far it has got while nothing else can be
// shown. In Chromium, an S3 connection on loopback whose table listings the fault proxy holds until the test lets them
// go: the page shows "Reading the bucket: n/N folders listed" with a bar, then the timeline once the listing ends.
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MemorySecretStore } from '../../src/main/connections/secret-store'
import { Workspace } from '../../src/main/workspace/workspace'
import { type AppUnderTest, openS3Connection, startAppUnderTest } from '../helpers/app-under-test'
import { type FaultProxy, startFaultProxy } from '../helpers/fault-proxy'
import type { S3Server } from '../helpers/s3-server'
import { join } from 'node:path'

const BUCKET = 'slow-listing'
let app: AppUnderTest
let page: Page
let proxy: FaultProxy
let release: () => void = () => {}
let opening: Promise<void> = Promise.resolve()
const hold = {
  match: (req: { url?: string }) => /[?&]prefix=[^&]*%3D|[?&]prefix=[^&]*=/.test(req.url ?? ''),
  released: new Promise<void>((r) => (release = r)),
  held: 0
}

beforeAll(async () => {
  app = await startAppUnderTest({
    s3Bucket: BUCKET,
    workspace: async ({ demo, s3, work }) => {
      const w = new Workspace({ dataDir: join(work, 'data'), secrets: new MemorySecretStore(), clock: () => Date.parse(demo.expected.now), autoRefresh: false })
      proxy = await startFaultProxy((s3 as S3Server).endpoint, { hold })
      // The connection test lists the bucket's top, not its partitions: it answers; the refresh's listings of
      // partition prefixes (a `=` in the prefix) wait for the test.
      opening = openS3Connection(w, s3 as S3Server, 'Slow S3', BUCKET, proxy.endpoint)
      return w
    }
  })
  page = app.page
}, 300_000)
afterAll(async () => {
  release()
  await opening.catch(() => {})
  await app?.close()
  await proxy?.close()
})

describe('the first listing of a connection', () => {
  it('shows how far it has got where the eye is, then the timeline', async () => {
    await page.goto(app.host.url)
    const reading = page.locator('[data-testid=reading-bucket]')
    await expect.poll(() => hold.held, { timeout: 120_000 }).toBeGreaterThan(0)
    await expect.poll(() => reading.textContent(), { timeout: 120_000 }).toMatch(/^Reading the bucket: \d+\/[1-9][\d,]* folders listed, [\d,]+ objects$/)
    expect(await reading.locator('progress').count()).toBe(1)
    await page.screenshot({ path: 'test-results/listing-progress.png' })
    release()
    await expect.poll(() => page.locator('[data-testid=timeline-canvas]').count(), { timeout: 300_000 }).toBe(1)
    await expect.poll(() => reading.count()).toBe(0)
  })
})
