// The "Use in Athena / BigQuery" panel end to end (issue 15): Debian's Chromium on the web host, the generated
// bucket on the S3 test server. One table, then the whole export (every table), copied; the engine that cannot read
// S3 says so; the call's arguments are checked at the boundary.
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { dispatch } from '../../src/main/api-handlers'
import { MemorySecretStore } from '../../src/main/connections/secret-store'
import { Workspace } from '../../src/main/workspace/workspace'
import { CATALOG } from '../../src/shared/catalog'
import { type AppUnderTest, openS3Connection, startAppUnderTest } from '../helpers/app-under-test'
import type { S3Server } from '../helpers/s3-server'

const BUCKET = 'ddl-ui-export'
let app: AppUnderTest
let page: Page

beforeAll(async () => {
  app = await startAppUnderTest({
    s3Bucket: BUCKET,
    page: { viewport: { width: 1500, height: 1000 }, permissions: ['clipboard-read', 'clipboard-write'] },
    workspace: async ({ demo, s3, work }) => {
      const w = new Workspace({
        dataDir: `${work}/data`,
        secrets: new MemorySecretStore(),
        clock: () => Date.parse(demo.expected.now),
        autoRefresh: false,
        exportDir: `${work}/exports`
      })
      await openS3Connection(w, s3 as S3Server, 'DDL S3', BUCKET)
      return w
    }
  })
  page = app.page
}, 300_000)
afterAll(async () => {
  await app?.close()
})

const text = (): Promise<string> =>
  page
    .locator('[data-testid=warehouse-ddl-text]')
    .inputValue()
    .catch(() => '')

describe('Use in Athena / BigQuery', () => {
  it('gives a table, then the whole export, ready to copy, with its notes', async () => {
    await page.goto(app.host.url)
    await page.getByRole('tab', { name: 'Tables' }).click()
    await page.locator('[data-table-item=claudia_conversation]').click()
    await page.getByRole('button', { name: 'Use in Athena / BigQuery' }).click()
    await expect.poll(text, { timeout: 120_000 }).toContain(`LOCATION 's3://${BUCKET}/v2/datamart_claudia/claudia_conversation/'`)
    expect(await text()).toContain('CREATE OR REPLACE VIEW "datamart_claudia"."claudia_conversation" AS')
    expect(await text()).not.toContain('claudia_messages')
    expect(await page.locator('[data-testid=warehouse-ddl-notes] li').count()).toBeGreaterThan(3)
    await page.getByLabel('the whole export (19 tables)').check()
    await expect.poll(text, { timeout: 120_000 }).toContain('"claudia_messages" AS')
    const whole = await text()
    for (const t of CATALOG) expect(whole).toContain(`CREATE OR REPLACE VIEW "${t.schema}"."${t.table}" AS`)
    await page.getByRole('button', { name: 'Copy', exact: true }).click()
    await expect.poll(() => page.getByRole('button', { name: 'Copied' }).count()).toBe(1)
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(whole)
    await page.screenshot({ path: 'test-results/warehouse-ddl-panel.png' })
    // One dataset for every table.
    await page.getByLabel('warehouse database').fill('vendor_export')
    await expect.poll(text, { timeout: 120_000 }).toContain('CREATE EXTERNAL TABLE IF NOT EXISTS `vendor_export`.`claudia_messages_v2`')
  }, 300_000)

  it('says that BigQuery cannot read an S3 export, and which engine can', async () => {
    await page.getByLabel('warehouse engine').selectOption('bigquery')
    await expect
      .poll(() => page.locator('[data-testid=warehouse-ddl-error]').textContent(), { timeout: 60_000 })
      .toMatch(/BigQuery reads Cloud Storage, and this export is at s3:\/\/ddl-ui-export: generate the Athena definitions instead/)
    expect(await page.locator('[data-testid=warehouse-ddl-error]').textContent()).not.toContain('--engine')
    expect(await page.locator('[data-testid=warehouse-ddl-text]').count()).toBe(0)
  }, 120_000)

  it('refuses arguments that are not an engine, a table name or a database name, at the boundary', async () => {
    expect(await dispatch(app.workspace, 'ddl', { engine: 'redshift', table: null, database: null })).toEqual({
      ok: false,
      status: 400,
      refused: { code: 'bad_argument', message: 'ddl: engine must be athena or bigquery' }
    })
    expect(await dispatch(app.workspace, 'ddl', { engine: 'athena', table: "x'; DROP", database: null })).toMatchObject({ ok: false, status: 400 })
    expect(await dispatch(app.workspace, 'ddl', { engine: 'athena', table: null, database: 'a-b' })).toMatchObject({ ok: false, status: 400 })
    expect(await dispatch(app.workspace, 'ddl', { engine: 'athena', table: 'nope', database: null })).toMatchObject({
      ok: false,
      status: 404,
      refused: { code: 'not_found', message: expect.stringMatching(/nope is not a table of the catalog/) as unknown as string }
    })
    const ok = await dispatch(app.workspace, 'ddl', { engine: 'athena', table: 'datamart_claudia.claudia_csat', database: null })
    expect(ok.ok && (ok.result as { text: string }).text).toContain('`datamart_claudia`.`claudia_csat_v1`')
  }, 120_000)
})
