// Main's engine (native DuckDB, opened as openBucketEngine opens it) cancels a running query within a second of the
// abort and keeps answering. Timed on the wall clock, so it runs alone (vitest.config.ts); the engine over a bucket,
// in the parallel pool: engine.test.ts.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { toJsonValue } from '../../src/main/engine/json-values'
import { NativeEngine } from '../../src/main/engine/native-engine'

let work: string
let engine: NativeEngine

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'ee-engine-cancel-'))
  engine = await NativeEngine.open({ workDir: join(work, 'engine'), readableRoots: [] })
})
afterAll(async () => {
  await engine?.close()
  if (work) await rm(work, { recursive: true, force: true })
})

it('cancels a running query within a second and keeps working', async () => {
  const ac = new AbortController()
  const running = engine.selectAll('SELECT count(*) FROM range(3000000000) a, range(10) b WHERE a.range % 7 = b.range', { signal: ac.signal })
  await new Promise((r) => setTimeout(r, 300))
  const t0 = Date.now()
  ac.abort()
  await expect(running).rejects.toThrow(/cancelled/i)
  expect(Date.now() - t0).toBeLessThan(1000)
  const r = await engine.selectAll('SELECT 2 * 21')
  expect(r.rows.map((row) => row.map((v) => toJsonValue(v)))).toEqual([[42]])
})
