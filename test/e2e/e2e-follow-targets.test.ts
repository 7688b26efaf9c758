// The Follow panel's targets in Debian's Chromium on the web host, at 1280 px: a webhook (a receiver on 127.0.0.1)
// added in the panel, shown by its origin and path only (its token never on the page), "Send a test" received as
// a test and its answer shown beside it. A screenshot of the panel goes to test-results/.
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type AppUnderTest, demoWorkspace, startAppUnderTest } from '../helpers/app-under-test'
import { RECEIVER_TOKEN, type WebhookReceiver, startWebhookReceiver } from '../helpers/webhook-receiver'

let app: AppUnderTest
let page: Page
let hook: WebhookReceiver

beforeAll(async () => {
  hook = await startWebhookReceiver()
  app = await startAppUnderTest({ workspace: demoWorkspace, page: { viewport: { width: 1280, height: 900 } } })
  ;({ page } = app)
}, 300_000)
afterAll(async () => {
  await app?.close()
  await hook?.close()
})

describe('the Follow panel’s webhooks', () => {
  it('adds a webhook, sends a test the receiver gets, and shows its answer', async () => {
    await page.goto(app.host.url)
    const panel = page.getByRole('region', { name: 'follow' })
    await expect.poll(() => panel.getByTestId('targets-none').count(), { timeout: 120_000 }).toBe(1)
    await panel.getByLabel('webhook URL').fill(hook.url)
    await panel.getByRole('button', { name: 'Add webhook' }).click()
    const target = panel.getByTestId('target')
    await expect.poll(() => target.count()).toBe(1)
    expect(await target.locator('code').textContent()).toBe(`${new URL(hook.url).origin}/hooks/T000`)
    expect(await panel.getByLabel('webhook URL').inputValue()).toBe('')
    expect(await page.content()).not.toContain(RECEIVER_TOKEN)

    await target.getByRole('button', { name: 'Send a test' }).click()
    await hook.waitFor((b) => b.length > 0)
    expect(hook.bodies).toHaveLength(1)
    expect(hook.bodies[0]).toMatchObject({ test: true, kind: 'test', text: expect.stringMatching(/^\[TEST\] /) })
    await expect.poll(() => target.getByTestId('delivery-answer').first().textContent()).toBe('HTTP 200')
    expect(await target.getByTestId('deliveries').textContent()).toContain('Test')
    await panel.scrollIntoViewIfNeeded()
    await panel.screenshot({ path: 'test-results/follow-targets.png' })
    expect(await page.content()).not.toContain(RECEIVER_TOKEN)
  })
})
