// Corrupt and zero-byte Parquet files (issue 12 item 10) without the engine: learned from ranged reads of each
// file's ends, once per key + ETag; each is a corrupt_file finding (doctor --json, the app's findings); status says
// which copy a full table reads instead and which files a parts table leaves out. The bucket: test/helpers/unreadable-bucket.ts.
import { execFile } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ConnectionSnapshot } from '../../src/main/session/connection-snapshot'
import { refreshBucketIndex } from '../../src/main/bucket/bucket-index'
import { LocalFolderProvider } from '../../src/main/bucket/local-provider'
import { findUnreadableFiles } from '../../src/main/store/parquet-frame-check'
import { buildInventory } from '../../src/shared/inventory'
import { openDb } from '../helpers/duckdb'
import { BAD, CSAT, H03, H04, MSGS, NOW, csat03, d, h, writeUnreadableBucket } from '../helpers/unreadable-bucket'
import { CLI_COMMAND } from '../helpers/cli'

const run = promisify(execFile)
let work: string
let root: string

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'ee-unreadable-'))
  root = join(work, 'bucket')
  const db = await openDb()
  await writeUnreadableBucket(root, db)
  db.close()
})
afterAll(async () => {
  await rm(work, { recursive: true, force: true })
})

async function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const r = await run(process.execPath, [...CLI_COMMAND, ...args, '--bucket', root, '--now', new Date(NOW).toISOString()], {
      env: { ...process.env, EXPORT_EXPLORER_CACHE: join(work, 'cli-cache') }
    })
    return { code: 0, stdout: r.stdout, stderr: r.stderr }
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string }
    return { code: err.code, stdout: err.stdout, stderr: err.stderr }
  }
}

describe('unreadable Parquet files, without the engine', () => {
  it("are learned from each file's ends, once per key and ETag (the fallback copy checked in turn)", async () => {
    const provider = new LocalFolderProvider(root)
    const inv = buildInventory((await refreshBucketIndex(provider, null, { now: NOW })).index.objects.values(), { now: NOW })
    const ranges: string[] = []
    const read = async (o: { key: string }, start: number, end: number): Promise<Uint8Array> => {
      ranges.push(`${o.key}:${start}-${end}`)
      return (await provider.readRange(o.key, { start, end })).body
    }
    const cacheFile = join(work, 'frames.json')
    const first = await findUnreadableFiles(inv, read, { now: NOW, cacheFile })
    expect([...first.unreadable].sort()).toEqual([...BAD].sort())
    // Zero-byte files need no read; csat's previous copy is checked once its newest one is passed over.
    expect(first.read).toBe(5)
    // (A file within the footer's 64 KiB tail is read whole, in one read: its head is in it.)
    expect(ranges.filter((r) => r.startsWith(`${csat03}part-0.parquet:`))).toEqual([expect.stringMatching(/:0-\d+$/)])
    expect(ranges.some((r) => r.startsWith(BAD[1]))).toBe(false)
    ranges.length = 0
    const again = await findUnreadableFiles(inv, read, { now: NOW, cacheFile })
    expect([...again.unreadable].sort()).toEqual([...BAD].sort())
    expect([again.read, ranges]).toEqual([0, []])
  })

  it('doctor --json reports each as corrupt_file (error, hour, table, key) and exits 1; status says which copy it reads', async () => {
    const r = await cli(['doctor', '--json', '--since', d(H03)])
    expect(r.code).toBe(1)
    const findings = (
      JSON.parse(r.stdout) as { findings: { kind: string; severity: string; date: string; hour: string; table: string; key: string; message: string }[] }
    ).findings
    const corrupt = findings.filter((f) => f.kind === 'corrupt_file')
    expect(corrupt.map((f) => [f.severity, f.date, f.hour, f.table, f.key])).toEqual([
      ['error', d(H04), h(H04), CSAT.table, BAD[0]],
      ['error', d(H04), h(H04), CSAT.table, BAD[1]],
      ['error', d(H04), h(H04), MSGS.table, BAD[2]],
      ['error', d(H04), h(H04), MSGS.table, BAD[3]]
    ])
    expect(corrupt[1]?.message).toMatch(
      /part-1\.parquet is not a readable Parquet file \(zero bytes\)\. .*the previous readable ready copy .*snapshot_hour=03\/ is read instead/
    )
    const status = await cli(['status', '--json'])
    const tables = (JSON.parse(status.stdout) as { tables: { table: string; latest_ready: { prefix: string } | null; note: string | null }[] }).tables
    expect(tables.find((t) => t.table === CSAT.table)).toMatchObject({ latest_ready: { prefix: csat03 }, note: expect.stringMatching(/is read instead/) })
    expect(tables.find((t) => t.table === MSGS.table)?.note).toMatch(/2 files are not readable Parquet and are left out/)
  }, 60_000)

  it("the app's findings and overview (ConnectionSnapshot) have them too", async () => {
    const service = new ConnectionSnapshot({ provider: new LocalFolderProvider(root), connectionId: 'unreadable', dataDir: join(work, 'app'), now: () => NOW })
    try {
      const tl = await service.timeline({ fromHours: 6 })
      expect(tl.findings.filter((f) => f.kind === 'corrupt_file').map((f) => f.key)).toEqual([...BAD])
      const ov = await service.overview()
      expect(ov.findings.error).toBeGreaterThanOrEqual(4)
      expect(ov.tables.find((t) => t.table === CSAT.table)?.newestPrefix).toBe(csat03)
      const { unreadable } = await service.snapshot()
      expect([...unreadable].sort()).toEqual([...BAD].sort())
    } finally {
      service.close()
    }
  })
})
