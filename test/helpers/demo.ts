// A demo bucket of the test file's own, in a fresh temporary folder: a copy of the run's shared one where the run
// generated these options (test/global-setup.ts), else generated here.
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { copyTree } from './copy-tree'
import { sharedDemoDir } from './run-fixtures'
import type { Expected } from '../../src/main/demo-bucket/demo-plan'
import { writeDemoBucket } from '../../src/main/demo-bucket/write-demo-bucket'

export interface Demo {
  readonly dir: string
  readonly bucketDir: string
  readonly expected: Expected
  cleanup(): Promise<void>
}

export async function generateDemo(opts: { seed?: number; days?: number; scale?: number; start?: number } = {}): Promise<Demo> {
  const dir = await mkdtemp(join(tmpdir(), 'ee-demo-'))
  const o = { seed: opts.seed ?? 7, days: opts.days ?? 8, scale: opts.scale ?? 1, ...(opts.start !== undefined ? { start: opts.start } : {}) }
  const shared = sharedDemoDir(o)
  // A copy, not the shared folder: tests write into their bucket (files cut short, removed, re-timed).
  if (shared) await copyTree(shared, dir)
  const written = shared ? { bucketDir: join(dir, 'bucket'), expectedPath: join(dir, 'expected.json') } : await writeDemoBucket(dir, { ...o, v1Days: 5 })
  const expected = JSON.parse(await readFile(written.expectedPath, 'utf8')) as Expected
  return { dir, bucketDir: written.bucketDir, expected, cleanup: () => rm(dir, { recursive: true, force: true }) }
}
