// The connection manager's verdicts in Debian's Chromium, on the web host, against s3rver on loopback and a
// local folder: a prefix that does not exist is red, says so and offers the export beside it; the bucket's
// top is amber and offers "Use exports/", which fills the prefix and tests again (green), then opens; the same
// for a local folder's parent. Screenshots of the three verdicts under test-results/.
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MemorySecretStore } from '../../src/main/connections/secret-store'
import { Workspace } from '../../src/main/workspace/workspace'
import { type AppUnderTest, startAppUnderTest } from '../helpers/app-under-test'
import { S3_TEST_KEYS, type S3Server } from '../helpers/s3-server'

const BUCKET = 'acme-data'
let app: AppUnderTest
let s3: S3Server
let page: Page

beforeAll(async () => {
  app = await startAppUnderTest({
    s3Bucket: 'unused-root',
    // The export sits one folder down in its bucket, as vendors often deliver it.
    prepare: async ({ demo, s3 }) => void (await s3?.seed(BUCKET, demo.bucketDir, 'exports/')),
    workspace: ({ demo, work }) =>
      new Workspace({ dataDir: join(work, 'data'), secrets: new MemorySecretStore(), clock: () => Date.parse(demo.expected.now), autoRefresh: false })
  })
  page = app.page
  s3 = app.s3 as S3Server
}, 300_000)
afterAll(async () => {
  await app?.close()
})

const verdict = (): ReturnType<Page['locator']> => page.locator('[data-testid=verdict]')
/** Clicks, then waits for the verdict of this level (the previous verdict is cleared as a test starts). */
async function expectLevelAfter(click: () => Promise<void>, level: 'red' | 'amber' | 'green'): Promise<void> {
  await click()
  await expect.poll(() => verdict().getAttribute('data-level'), { timeout: 30_000 }).toBe(level)
}
const stripe = (): Promise<string> => verdict().evaluate((el) => getComputedStyle(el).borderLeftColor)

describe('connection verdicts in the connection manager', () => {
  it('a missing prefix is red; the bucket top offers "Use exports/", which fills the prefix and turns green', async () => {
    await page.goto(app.host.url)
    await page.getByRole('button', { name: 'Connections…' }).click()
    await page.getByRole('button', { name: 'New connection…' }).click()
    const form = page.getByRole('form', { name: 'connection' })
    await form.getByLabel('kind').selectOption('s3')
    await form.getByLabel('name').fill('Acme export')
    await form.getByLabel('bucket').fill(BUCKET)
    await form.getByLabel('prefix').fill('export/')
    await form.getByLabel('endpoint').fill(s3.endpoint)
    await form.getByLabel('region').fill('us-east-1')
    await form.getByLabel('credentials').selectOption('static')
    await form.getByLabel('access key id').fill(S3_TEST_KEYS.accessKeyId)
    await form.getByLabel('secret access key').fill(S3_TEST_KEYS.secretAccessKey)
    const testButton = form.getByRole('button', { name: 'Test connection' })

    await expectLevelAfter(() => testButton.click(), 'red')
    const red = await verdict().innerText()
    expect(red).toContain(`There is no folder s3://${BUCKET}/export/`)
    // Next to the folder asked for, the bucket's top holds the export: offered even on a red verdict.
    expect(red).toContain('The folder above holds the export in exports/: use exports/.')
    expect(await verdict().getByRole('button', { name: 'Use exports/' }).isVisible()).toBe(true)
    expect(red).not.toMatch(/NoSuch|AccessDenied|InvalidAccessKeyId|Error/)
    const redStripe = await stripe()
    await page.screenshot({ path: 'test-results/connection-verdict-missing.png' })

    await form.getByLabel('prefix').fill('')
    await expectLevelAfter(() => testButton.click(), 'amber')
    expect(await verdict().innerText()).toContain(`s3://${BUCKET}/ holds no v1/ or v2/ folder, but its folder exports/ does`)
    const amberStripe = await stripe()
    const use = verdict().getByRole('button', { name: 'Use exports/' })
    expect(await use.isVisible()).toBe(true)
    await page.screenshot({ path: 'test-results/connection-verdict-offer.png' })

    await expectLevelAfter(() => use.click(), 'green')
    expect(await form.getByLabel('prefix').inputValue()).toBe('exports/')
    expect(await verdict().innerText()).toContain(`Connected to s3://${BUCKET}/exports/: the export is on v2.`)
    const greenStripe = await stripe()
    expect(new Set([redStripe, amberStripe, greenStripe]).size).toBe(3)
    await page.screenshot({ path: 'test-results/connection-verdict-green.png' })

    await form.getByRole('button', { name: 'Save and open' }).click()
    await page.waitForSelector('[data-testid=timeline-canvas]', { timeout: 180_000 })
    expect(await page.locator('[data-testid=overview]').textContent()).toContain(`s3://${BUCKET}/exports/`)
  })

  it('a local folder above the export offers the export folder, and a missing one is red', async () => {
    await page.getByRole('button', { name: 'Connections…' }).click()
    await page.getByRole('button', { name: 'New connection…' }).click()
    const form = page.getByRole('form', { name: 'connection' })
    await form.getByLabel('kind').selectOption('local')
    const testButton = form.getByRole('button', { name: 'Test connection' })
    await form.getByLabel('folder').fill(join(app.demo.dir, 'no-such-folder'))
    await expectLevelAfter(() => testButton.click(), 'red')
    expect(await verdict().innerText()).toContain(`The folder ${join(app.demo.dir, 'no-such-folder')} does not exist`)

    const parent = join(app.demo.bucketDir, '..')
    await form.getByLabel('folder').fill(parent)
    await expectLevelAfter(() => testButton.click(), 'amber')
    const use = verdict().getByRole('button', { name: `Use ${app.demo.bucketDir}` })
    await expectLevelAfter(() => use.click(), 'green')
    expect(await form.getByLabel('folder').inputValue()).toBe(app.demo.bucketDir)
  })
})
