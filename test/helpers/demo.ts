// Generates a demo bucket once per test file, in a fresh temporary folder.
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
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
  const written = await writeDemoBucket(dir, {
    seed: opts.seed ?? 7,
    days: opts.days ?? 8,
    scale: opts.scale ?? 1,
    v1Days: 5,
    ...(opts.start !== undefined ? { start: opts.start } : {})
  })
  const expected = JSON.parse(await readFile(written.expectedPath, 'utf8')) as Expected
  return { dir, bucketDir: written.bucketDir, expected, cleanup: () => rm(dir, { recursive: true, force: true }) }
}
