// The app as the end-to-end tests drive it: the run's demo bucket, read in place (served by the S3 server on loopback
// when a bucket name is given), the renderer built by Vite, a workspace behind the web host, Debian's Chromium on it.
// Page errors are written to the test's output. `close()` stops everything in reverse order.
import { mkdir, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, BrowserContextOptions, Page } from 'playwright-core'
import { type WebHost, startWebHost } from '../../src/main/web-host'
import { MemorySecretStore } from '../../src/main/connections/secret-store'
import { Workspace } from '../../src/main/workspace/workspace'
import { buildRenderer } from './app-page'
import { launchChromium } from './chromium'
import { type Demo, generateDemo, readDemo } from './demo'
import { S3_TEST_KEYS, type S3Server, startS3Server } from './s3-server'

export interface AppUnderTest {
  /** The run's shared demo (readDemo): read it, never write under it (a test that does passes writesBucket: a copy of its own). */
  readonly demo: Demo
  readonly s3: S3Server | null
  readonly work: string
  /** The built renderer the host serves (the run's, from the global setup). */
  readonly rendererDir: string
  readonly workspace: Workspace
  /**
   * host.url is the one-time address the host prints: `page` exchanges it on first load and keeps the session secret in its
   * sessionStorage, so opening host.url again in `page` keeps working; another tab needs host.newAddress().
   */
  readonly host: WebHost
  readonly browser: Browser
  readonly page: Page
  close(): Promise<void>
}

/** The workspace most browser tests drive: the demo bucket as its built-in connection, at the demo's instant, no timer. */
export const demoWorkspace = ({ demo, work }: { demo: Demo; work: string }): Workspace =>
  new Workspace({
    dataDir: join(work, 'data'),
    secrets: new MemorySecretStore(),
    demo: { bucketDir: demo.bucketDir, now: Date.parse(demo.expected.now) },
    autoRefresh: false
  })

export async function startAppUnderTest(opts: {
  /** Seed the S3 server's bucket of this name with the generated bucket. */
  readonly s3Bucket?: string
  /** Before the workspace opens (e.g. restore an archived object). */
  readonly prepare?: (ctx: { demo: Demo; s3: S3Server | null; work: string }) => Promise<void>
  readonly workspace: (ctx: { demo: Demo; s3: S3Server | null; work: string }) => Workspace | Promise<Workspace>
  readonly page?: BrowserContextOptions
  /** The test writes into its bucket: a copy of its own (generateDemo), not the run's shared demo. */
  readonly writesBucket?: boolean
}): Promise<AppUnderTest> {
  const demo = opts.writesBucket ? await generateDemo({ days: 8 }) : await readDemo({ days: 8 })
  const s3 = opts.s3Bucket ? await startS3Server() : null
  if (s3 && opts.s3Bucket) await s3.seed(opts.s3Bucket, demo.bucketDir)
  const work = await mkdtemp(join(tmpdir(), 'ee-app-'))
  await opts.prepare?.({ demo, s3, work })
  const rendererDir = await buildRenderer(work)
  const workspace = await opts.workspace({ demo, s3, work })
  const host = await startWebHost({ workspace, rendererDir })
  const browser = await launchChromium()
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 }, ...opts.page })
  // Playwright's own 30 s for an action is no safety net here: with the load at ~20 on 2 cores the first S3 listing
  // alone takes longer, and every click after it failed. Actions wait for their element; this only bounds a hang.
  page.setDefaultTimeout(120_000)
  page.on('pageerror', (e) => process.stderr.write(`page error: ${e.message}\n`))
  page.on('console', (m) => {
    if (m.type() === 'error') process.stderr.write(`page console: ${m.text().slice(0, 400)}\n`)
  })
  await mkdir('test-results', { recursive: true })
  return {
    demo,
    s3,
    work,
    rendererDir,
    workspace,
    host,
    browser,
    page,
    async close() {
      await browser.close()
      await host.close()
      await workspace.dispose()
      await s3?.close()
      await demo.cleanup()
      // Retried: a file main finishes writing as it stops (ENOTEMPTY once in a clean-clone run) is not a failure of the test.
      await rm(work, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 })
    }
  }
}

/** Saves and opens an S3 connection to `bucket` on the test server (its static keys; the secret in the workspace's store), or through a proxy's endpoint. */
export async function openS3Connection(w: Workspace, s3: S3Server, name: string, bucket: string, endpoint = s3.endpoint): Promise<void> {
  const { id } = await w.connectionSave({
    connection: {
      name,
      provider: 's3',
      bucket,
      prefix: '',
      endpoint,
      region: 'us-east-1',
      auth: { kind: 'static', accessKeyId: S3_TEST_KEYS.accessKeyId }
    } as never,
    secretAccessKey: S3_TEST_KEYS.secretAccessKey
  })
  await w.connectionOpen({ id })
}
