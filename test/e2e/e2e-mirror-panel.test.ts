// The "Local mirror" panel in Debian's Chromium, on the web host, over a generated bucket in the S3 test server:
// the first build's progress (bar, folders, files, bytes, time left), Cancel (what was built stays; a table not
// mirrored yet says how far along it is and still reads right, from the bucket's files), Resume to the end, disk
// use per table and the limit, and "Clear the mirror" confirmed. Screenshots under test-results/.
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { listAll } from '../../src/main/bucket/bucket-provider'
import { LocalFolderProvider } from '../../src/main/bucket/local-provider'
import { isArchived } from '../../src/shared/listing'
import { MemorySecretStore } from '../../src/main/connections/secret-store'
import { Workspace } from '../../src/main/workspace/workspace'
import { type AppUnderTest, startAppUnderTest } from '../helpers/app-under-test'
import { runSqlInPane } from '../helpers/app-page'
import { type FaultProxy, startFaultProxy } from '../helpers/fault-proxy'
import { S3_TEST_KEYS, type S3Server } from '../helpers/s3-server'
import { refreshBucket } from '../../src/main/bucket/refresh-pipeline'
import { S3Provider } from '../../src/main/bucket/s3-provider'
import { fileStoreFor } from '../../src/main/store/connection-files'

const BUCKET = 'mirror-panel'
/** Whole-object downloads (the mirror's: the refresh knows every file's frame already) let through before the first
 * build is held. */
const DOWNLOADS_BEFORE_HOLD = 20
let app: AppUnderTest
let page: Page
let proxy: FaultProxy
let downloads = 0
let release: () => void = () => {}

beforeAll(async () => {
  app = await startAppUnderTest({
    s3Bucket: BUCKET,
    // No archived object here (the raw files, read while a table is not mirrored yet, would refuse a table that needs one).
    prepare: async ({ demo, s3 }) => {
      for await (const o of listAll(new LocalFolderProvider(demo.bucketDir), '')) {
        if (isArchived(o, Date.parse(demo.expected.now)))
          await (s3 as S3Server).put(BUCKET, o.key, await readFile(join(demo.bucketDir, o.key)), new Date(o.lastModified))
      }
    },
    workspace: async ({ demo, s3, work }) => {
      // The first build is held part-way, by a proxy that keeps the mirror's downloads unanswered until the test has
      // seen it running and cancelled it: it is under way however fast or slow the machine (it used to be able to end
      // before the page looked). Idle timeouts long enough that only Cancel ends the held downloads.
      proxy = await startFaultProxy((s3 as S3Server).endpoint, {
        hold: {
          match: (req) =>
            req.method === 'GET' &&
            !req.headers.range &&
            /\.parquet$/.test(new URL(req.url ?? '/', 'http://x').pathname) &&
            ++downloads > DOWNLOADS_BEFORE_HOLD,
          released: new Promise<void>((r) => (release = r)),
          held: 0
        }
      })
      const w = new Workspace({
        dataDir: join(work, 'data'),
        secrets: new MemorySecretStore(),
        clock: () => Date.parse(demo.expected.now),
        autoRefresh: false,
        openOptions: { timeouts: { connectMs: 10_000, idleMs: 900_000 } }
      })
      const { id } = await w.connectionSave({
        connection: {
          name: 'Mirror S3',
          provider: 's3',
          bucket: BUCKET,
          prefix: '',
          endpoint: proxy.endpoint,
          region: 'us-east-1',
          auth: { kind: 'static', accessKeyId: S3_TEST_KEYS.accessKeyId }
        } as never,
        secretAccessKey: S3_TEST_KEYS.secretAccessKey
      })
      // Every file's frame known from an earlier refresh, and the files downloaded for the mirror cleared since: the
      // build downloads every data file (the refresh reads none), and the proxy holds those downloads.
      const direct = new S3Provider({
        bucket: BUCKET,
        endpoint: (s3 as S3Server).endpoint,
        region: 'us-east-1',
        credentials: { kind: 'static', ...S3_TEST_KEYS }
      })
      await refreshBucket(direct, join(work, 'data'), id, { now: Date.parse(demo.expected.now), manifests: false })
      await fileStoreFor(direct, join(work, 'data'), id).clear()
      await w.connectionOpen({ id })
      return w
    }
  })
  ;({ page } = app)
}, 300_000)
afterAll(async () => {
  release()
  // The proxy first: its connections closed, nothing of the workspace waits on it (its idle timeout is long).
  await proxy?.close()
  await app?.close()
})

/** The rows the grid shows, or the table's problem when it cannot be read. */
const rowsShown = async (): Promise<string | null> =>
  (await page.locator('[data-testid=table-problem]').count())
    ? page.locator('[data-testid=table-problem]').textContent()
    : (await page.locator('[data-testid=result-grid]').count())
      ? page.locator('[data-testid=result-grid]').getAttribute('data-rows')
      : null

const panel = (): ReturnType<Page['locator']> => page.locator('[data-testid=mirror-panel]')

describe('the local mirror panel', () => {
  it('shows the build, cancels and resumes it, shows disk use per table, and clears the mirror', async () => {
    await page.goto(app.host.url)
    await page.getByRole('tab', { name: 'Tables' }).click()
    // The first build, under way: a bar, folders, files and bytes of the total, and the time left.
    await expect.poll(() => panel().getAttribute('data-state'), { timeout: 120_000 }).toBe('running')
    await expect
      .poll(() => page.locator('[data-testid=mirror-progress]').textContent(), { timeout: 60_000 })
      .toMatch(/^Table \d of 3 \(\w+\) · [\d,]+ of [\d,]+ folders · [\d,]+ of [\d,]+ files · .+ of .+ · (about .+ left|estimating the time left|finishing)$/)
    await expect.poll(() => panel().getByRole('progressbar', { name: 'mirror build progress' }).count()).toBe(1)
    await page.screenshot({ path: 'test-results/mirror-panel-building.png' })

    // Held, not ended: the downloads past the first ones wait on the proxy.
    await expect.poll(() => proxy.rules.hold?.held ?? 0).toBeGreaterThan(0)
    expect(await panel().getAttribute('data-state')).toBe('running')

    await panel().getByRole('button', { name: 'Cancel' }).click()
    await expect.poll(() => panel().getAttribute('data-state'), { timeout: 60_000 }).toBe('cancelled')
    // The rest reads the bucket as it is (the raw files, then Resume): nothing held any more.
    proxy.rules.hold = null
    release()
    await expect
      .poll(() => page.locator('[data-testid=mirror-message]').textContent())
      .toMatch(/^Cancelled: the mirror keeps what it built \([\d,]+ of [\d,]+ folders\)\. Resume, or the next refresh, goes on from there/)
    // A table the mirror does not hold whole says how far along it is, and reads right (what the mirror holds and the
    // bucket's files of the rest).
    await panel().getByRole('button', { name: 'Details' }).click()
    const rows = panel().locator('[data-testid=mirror-details] tbody tr')
    await expect.poll(() => rows.count()).toBe(3)
    const held = await rows.evaluateAll((trs) => trs.map((tr) => ({ table: (tr as HTMLElement).dataset['table'] ?? '', text: tr.textContent ?? '' })))
    const partial = held.find((r) => !/\(100%\)/.test(r.text))
    expect(partial, JSON.stringify(held)).toBeDefined()
    const table = partial!.table.split('.')[1]!
    const percent = /\((\d+)%\)/.exec(partial!.text)![1]
    await page.locator(`[data-table-item=${table}]`).click()
    await expect
      .poll(() => page.locator('[data-testid=mirror-table-note]').textContent())
      .toBe(
        percent === '0'
          ? `${table}: not mirrored yet — 0% (reading the bucket's files meanwhile)`
          : `${table}: ${percent}% mirrored (the rest read from the bucket's files meanwhile)`
      )
    await page.screenshot({ path: 'test-results/mirror-panel-cancelled.png' })
    // As without a mirror: its rows (claudia_messages too, whose raw files drift from BIGINT to DOUBLE).
    const truth = String(app.demo.expected.tables[table]?.rows)
    await expect.poll(() => rowsShown(), { timeout: 300_000 }).toBe(truth)

    await panel().getByRole('button', { name: 'Resume' }).click()
    await expect.poll(() => panel().getAttribute('data-state'), { timeout: 30_000 }).toBe('running')
    await expect.poll(() => panel().getAttribute('data-state'), { timeout: 300_000 }).toBe('done')
    await expect.poll(() => page.locator('[data-testid=mirror-state]').textContent()).toBe('up to date')
    await expect.poll(() => page.locator('[data-testid=mirror-table-note]').count()).toBe(0)
    await expect.poll(() => rows.evaluateAll((trs) => trs.every((tr) => /\(100%\)/.test(tr.textContent ?? '')))).toBe(true)
    await expect
      .poll(() => page.locator('[data-testid=mirror-usage]').textContent())
      .toMatch(
        /^Uses .+ on disk \(compacted .+, the bucket's files downloaded for it .+\) of .+ allowed \(the default: a quarter of the free space when it was first built\)\.$/
      )
    // From the mirror now, whole: its rows.
    await expect.poll(() => rowsShown(), { timeout: 300_000 }).toBe(truth)
    await page.screenshot({ path: 'test-results/mirror-panel-ready.png' })

    // A limit chosen is saved; the default comes back with one click.
    await panel().getByLabel('mirror limit in GB').fill('2')
    await panel().getByRole('button', { name: 'Set limit' }).click()
    await expect.poll(() => page.locator('[data-testid=mirror-usage]').textContent()).toMatch(/of 2\.0 GB allowed\.$/)
    await panel().getByRole('button', { name: 'Default limit' }).click()
    await expect
      .poll(() => page.locator('[data-testid=mirror-usage]').textContent())
      .toMatch(/\(the default: a quarter of the free space when it was first built\)\.$/)

    // Clear, confirmed: nothing on disk, and the table says it is not mirrored yet.
    await panel().getByRole('button', { name: 'Clear the mirror' }).click()
    await expect
      .poll(() => panel().getByRole('group', { name: 'confirm clearing the mirror' }).textContent())
      .toMatch(/^Remove the mirror and the files downloaded for it \(.+\)\? The next refresh builds it again\./)
    await panel().getByRole('button', { name: 'Clear', exact: true }).click()
    await expect.poll(() => panel().getAttribute('data-state'), { timeout: 60_000 }).toBe('idle')
    await expect.poll(() => panel().textContent()).toContain('0 B on disk')
    await expect
      .poll(() => page.locator('[data-testid=mirror-table-note]').textContent())
      .toBe(`${table}: not mirrored yet — 0% (reading the bucket's files meanwhile)`)
    await page.screenshot({ path: 'test-results/mirror-panel-cleared.png' })

    // Nothing mirrored: claudia_messages, whose files drift from BIGINT to DOUBLE, still answers here, from the bucket's
    // files read one type at a time, with the newest version of each message, and says how it is read.
    const messages = app.demo.expected.tables['claudia_messages']!
    await page.locator('[data-table-item=claudia_messages]').click()
    await expect.poll(() => rowsShown(), { timeout: 300_000 }).toBe(String(messages.rows))
    await expect
      .poll(() => page.locator('[data-testid=read-note]').textContent())
      .toMatch(
        /^datamart_claudia\.claudia_messages is read here from the bucket's files one type at a time: tokens is INT64 \(INT_64\) in \d+ files, then DOUBLE from v2\/\S+ \(\d+ files\)\./
      )
    await page.getByRole('tab', { name: 'SQL' }).click()
    await runSqlInPane(page, 'SELECT message_id, tokens FROM claudia_messages')
    const grid = page.locator('[data-testid=sql-pane] [data-testid=result-grid]')
    await expect.poll(() => grid.getAttribute('data-rows'), { timeout: 300_000 }).toBe(String(messages.rows))
    await expect
      .poll(() => page.locator('[data-testid=sql-read-note]').textContent())
      .toMatch(/^datamart_claudia\.claudia_messages is read here from the bucket's files one type at a time/)
    await expect.poll(() => page.locator('[data-testid=sql-error]').count()).toBe(0)
    await page.screenshot({ path: 'test-results/mirror-panel-raw-drift.png' })
  }, 900_000)
})
