// Once per vitest run, before any test file: the shared demo buckets, the renderer, the engine page and one Chromium
// (test/helpers/run-fixtures.ts).
// Generating a demo bucket costs ~20 s of DuckDB work on 2 cores; ~30 files used to each generate their own.
import { statfsSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium } from 'playwright-core'
import { writeDemoBucket } from '../src/main/demo-bucket/write-demo-bucket'
import { buildRendererInto, currentBuiltRenderer } from './helpers/app-page'
import { CHROMIUM_OPTIONS } from './helpers/chromium'
import { buildEnginePageInto } from './helpers/engine-page'
import {
  RUN_CHROMIUM_ENV,
  RUN_DEMOS_ENV,
  RUN_ENGINE_PAGE_ENV,
  RUN_RENDERER_ENV,
  SHARED_DEMOS,
  demoKey,
  fingerprintChanges,
  folderFingerprint
} from './helpers/run-fixtures'

/** The run names only unit test files (`npm run test:unit`, `vitest run test/unit/x.test.ts`): they share nothing worth making up front. */
function unitOnly(argv: readonly string[]): boolean {
  const filters = argv.filter((a) => !a.startsWith('-') && a !== 'run')
  return filters.length > 0 && filters.every((f) => f.replaceAll('\\', '/').includes('test/unit'))
}

/** Linux's RAM file system (statfs's f_type for tmpfs). */
const TMPFS_MAGIC = 0x01021994

/**
 * A folder on a RAM file system for the run's temporary files, where the machine has one (/dev/shm): the files make
 * and remove some hundred thousand files (demo copies, the S3 test server's objects, mirrors, caches), which on the
 * disk's ext4 (mounted with discard) cost kernel time the tests then wait on. Null where there is none.
 */
async function ramTemporaryFolder(): Promise<string | null> {
  try {
    if (statfsSync('/dev/shm').type !== TMPFS_MAGIC) return null
    return await mkdtemp(join('/dev/shm', 'export-explorer-tests-'))
  } catch {
    return null
  }
}

export default async function setup(): Promise<(() => Promise<void>) | undefined> {
  if (unitOnly(process.argv.slice(2))) return undefined
  // Set before anything is made: os.tmpdir() reads TMPDIR each time, and the workers and their children inherit it.
  const ram = await ramTemporaryFolder()
  if (ram) process.env['TMPDIR'] = ram
  const run = await mkdtemp(join(tmpdir(), 'ee-run-'))
  const started = Date.now()
  // The builds (Vite, on this thread) run while DuckDB writes the demos (on its own threads): 2 cores, both busy.
  const builds = (async () => {
    // `npm test` builds out/ first: its renderer is used when no source is newer than it.
    const renderer = currentBuiltRenderer() ?? (await buildRendererInto(join(run, 'renderer')))
    return { renderer, enginePage: await buildEnginePageInto(join(run, 'engine-page')) }
  })()
  const demos = (async () => {
    for (const o of SHARED_DEMOS) await writeDemoBucket(join(run, 'demos', demoKey(o)), { ...o, v1Days: 5 })
  })()
  // One Chromium for the ~20 browsers the files open (each connects and makes contexts of its own).
  const browser = chromium.launchServer(CHROMIUM_OPTIONS)
  const [{ renderer, enginePage }, , server] = await Promise.all([builds, demos, browser])
  process.stderr.write(
    `global setup: ${SHARED_DEMOS.length} demo buckets, the renderer (${renderer}), the engine page and Chromium in ${((Date.now() - started) / 1000).toFixed(1)} s\n`
  )
  // Read by the test workers, which vitest starts after this (they inherit the environment).
  process.env[RUN_DEMOS_ENV] = join(run, 'demos')
  process.env[RUN_RENDERER_ENV] = renderer
  process.env[RUN_ENGINE_PAGE_ENV] = enginePage
  process.env[RUN_CHROMIUM_ENV] = server.wsEndpoint()
  // Files that only read a demo use the shared one in place (readDemo): the run fails if one of them wrote into it.
  const demosDir = join(run, 'demos')
  const before = folderFingerprint(demosDir)
  return async () => {
    await server.close()
    const changes = fingerprintChanges(before, folderFingerprint(demosDir))
    await rm(ram ?? run, { recursive: true, force: true })
    if (changes.length > 0) {
      // vitest reports an error thrown here but keeps the exit code of the tests: set it too.
      process.exitCode = 1
      throw new Error(
        `A test wrote into a shared demo bucket (test/helpers/demo.ts readDemo is for files that only read it; use generateDemo for a copy of its own):\n${changes.join('\n')}`
      )
    }
  }
}
