// The monitors cost no request of their own: their facts are the footers the refresh's frame check reads. A
// refresh with nothing new reads no data file at all and still gives every delivery's facts (from the frame
// check's cache), the same as the first refresh, which read each data file's footer once at most.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { BucketProvider } from '../../src/main/bucket/bucket-provider'
import { LocalFolderProvider } from '../../src/main/bucket/local-provider'
import { findingInputs, refreshBucket } from '../../src/main/bucket/refresh-pipeline'
import { type Demo, readDemo } from '../helpers/demo'

let demo: Demo
let dataDir = ''

beforeAll(async () => {
  demo = await readDemo({ days: 8 })
  dataDir = await mkdtemp(join(tmpdir(), 'ee-monitor-requests-'))
}, 180_000)
afterAll(async () => {
  await demo?.cleanup()
  if (dataDir) await rm(dataDir, { recursive: true, force: true })
})

/** The provider, with each read of a data file counted by key. */
function counting(inner: BucketProvider): { provider: BucketProvider; reads: Map<string, number> } {
  const reads = new Map<string, number>()
  const count = (key: string): void => {
    if (key.endsWith('.parquet')) reads.set(key, (reads.get(key) ?? 0) + 1)
  }
  const provider = new Proxy(inner, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver) as unknown
      if (prop === 'readRange' || prop === 'readStream')
        return (key: string, ...rest: unknown[]) => {
          count(key)
          return (value as (...a: unknown[]) => unknown).call(target, key, ...rest)
        }
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value
    }
  })
  return { provider, reads }
}

describe('the monitors’ requests', () => {
  it('are the frame check’s footer reads only: none again on a refresh with nothing new, the facts the same', async () => {
    const now = Date.parse(demo.expected.now)
    const first = counting(new LocalFolderProvider(demo.bucketDir))
    const r1 = await refreshBucket(first.provider, dataDir, 'demo', { now })
    const facts1 = findingInputs(r1).deliveries ?? []
    expect(facts1.length).toBeGreaterThan(500)
    const dataFiles = [...r1.inventory.folders.values()].reduce((n, f) => n + f.dataFiles.length, 0)
    // Each data file's footer at most once per read kind (the tail, then the footer when it is longer).
    expect([...first.reads.values()].every((n) => n <= 2)).toBe(true)
    expect(first.reads.size).toBeGreaterThan(500)
    expect(first.reads.size).toBeLessThanOrEqual(dataFiles)

    const again = counting(new LocalFolderProvider(demo.bucketDir))
    const r2 = await refreshBucket(again.provider, dataDir, 'demo', { now })
    expect(again.reads.size).toBe(0)
    const key = (d: (typeof facts1)[number]): string => `${d.key}|${d.rows}|${d.bytes}|${JSON.stringify(d.columns)}`
    expect((findingInputs(r2).deliveries ?? []).map(key).sort()).toEqual(facts1.map(key).sort())
  })
})
