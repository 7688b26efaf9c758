// A demo bucket of the test file's own, in a fresh temporary folder: a copy of the run's shared one where the run
// generated these options (test/global-setup.ts), else generated here. Or, for a file that only reads its bucket,
// the run's shared one itself (readDemo): no copy (~1.3 CPU s to copy and remove its 7,500 files).
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { copyTree } from './copy-tree'
import { type DemoOpts, sharedDemoDir } from './run-fixtures'
import type { Expected } from '../../src/main/demo-bucket/demo-plan'
import { writeDemoBucket } from '../../src/main/demo-bucket/write-demo-bucket'

export interface Demo {
  readonly dir: string
  readonly bucketDir: string
  readonly expected: Expected
  cleanup(): Promise<void>
}

type DemoOptions = { seed?: number; days?: number; scale?: number; start?: number }

const optionsOf = (opts: DemoOptions): DemoOpts => ({
  seed: opts.seed ?? 7,
  days: opts.days ?? 8,
  scale: opts.scale ?? 1,
  ...(opts.start !== undefined ? { start: opts.start } : {})
})

export async function generateDemo(opts: DemoOptions = {}): Promise<Demo> {
  const dir = await mkdtemp(join(tmpdir(), 'ee-demo-'))
  const o = optionsOf(opts)
  const shared = sharedDemoDir(o)
  // A copy, not the shared folder: tests write into their bucket (files cut short, removed, re-timed).
  if (shared) await copyTree(shared, dir)
  const written = shared ? { bucketDir: join(dir, 'bucket'), expectedPath: join(dir, 'expected.json') } : await writeDemoBucket(dir, { ...o, v1Days: 5 })
  const expected = JSON.parse(await readFile(written.expectedPath, 'utf8')) as Expected
  return { dir, bucketDir: written.bucketDir, expected, cleanup: () => rm(dir, { recursive: true, force: true }) }
}

/**
 * A demo bucket the caller only reads (nothing in the test writes under bucketDir): the run's shared one itself, which
 * cleanup() leaves in place; outside a run, one of its own (generateDemo). The global setup checks at the end of the
 * run that no file of a shared demo was added, removed, changed or re-timed, and fails the run naming it if one was.
 */
export async function readDemo(opts: DemoOptions = {}): Promise<Demo> {
  const shared = sharedDemoDir(optionsOf(opts))
  if (!shared) return generateDemo(opts)
  const expected = JSON.parse(await readFile(join(shared, 'expected.json'), 'utf8')) as Expected
  return { dir: shared, bucketDir: join(shared, 'bucket'), expected, cleanup: async () => {} }
}

/** A demo bucket of the test's own (generateDemo) whose archived object is made readable (no storage classes): a
 * bucket every table reads whole, and whose listing the CLI's saved views may be saved for. */
export async function readableDemo(opts: DemoOptions = {}): Promise<Demo> {
  const demo = await generateDemo(opts)
  await writeFile(join(demo.bucketDir, '.export-explorer', 'storage-classes.json'), '{}')
  return demo
}
