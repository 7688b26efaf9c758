// Where the built-in demo bucket is, generating it on first run when no copy ships with the app: the first
// folder of `candidates` holding one, else `fallback` (generated there). Its "now" is the generator's own.
import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { DEFAULT_DEMO_OPTIONS } from './demo-plan'
import { writeDemoBucket } from './write-demo-bucket'

export async function ensureDemoBucket(candidates: readonly string[], fallback: string): Promise<{ bucketDir: string; now: number }> {
  let dir = candidates.find((d) => existsSync(join(d, 'expected.json')))
  if (!dir) {
    if (!existsSync(join(fallback, 'expected.json'))) await writeDemoBucket(fallback, DEFAULT_DEMO_OPTIONS)
    dir = fallback
  }
  const expected = JSON.parse(await readFile(join(dir, 'expected.json'), 'utf8')) as { now: string }
  return { bucketDir: join(dir, 'bucket'), now: Date.parse(expected.now) }
}
