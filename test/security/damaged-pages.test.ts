// A parts file with a sound frame and footer but garbage pages (issue 18 item 4): claudia_messages' newest folder holds
// one real Parquet file written by native DuckDB whose data pages were then overwritten. Only reading its pages fails.
// The mirror is built without exactly that file and records it; the CLI's query and export of claudia_messages work
// and name it; doctor reports it as corrupt_file; nothing blames another object or says the table does not exist.
import { execFile } from 'node:child_process'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { refreshBucketIndex } from '../../src/main/bucket/bucket-index'
import { LocalFolderProvider } from '../../src/main/bucket/local-provider'
import { fileStoreFor } from '../../src/main/store/connection-files'
import { Mirror } from '../../src/main/mirror/mirror'
import { findUnreadableFiles } from '../../src/main/store/parquet-frame-check'
import { manifestKey } from '../../src/shared/bucket-key'
import { buildInventory } from '../../src/shared/inventory'
import { quoteLiteral } from '../../src/shared/sql-quote'
import { openDb } from '../helpers/duckdb'
import { H03, bucketWriter, H04, MSGS, NOW, d, h, msgs03, msgs04 } from '../helpers/unreadable-bucket'
import { CLI_COMMAND } from '../helpers/cli'

const run = promisify(execFile)
const MIN = 60_000
const DAMAGED = `${msgs04}part-1.parquet`
let work: string
let root: string

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'ee-damaged-'))
  root = join(work, 'bucket')
  const db = await openDb()
  const { put, parquet } = bucketWriter(root, db)
  for (const at of [H03, H04]) {
    await put(
      manifestKey('v2', d(at), h(at)),
      at + 25 * MIN,
      JSON.stringify({ snapshot_date: d(at), snapshot_hour: h(at), complete: true, tables_delivered: [], tables_missing: [], tables_pending: [] })
    )
  }
  const rows = (keys: string[], tag: string): string =>
    `SELECT * FROM (VALUES ${keys.map((k) => `(${quoteLiteral(k)}, 'tnt_acme', ${quoteLiteral(tag)})`).join(', ')}) t(message_id, tenant_id, content)`
  await parquet(`${msgs03}part-0.parquet`, rows(['m1', 'm2'], 'h03'), H03 + 10 * MIN)
  await put(`${msgs03}_SUCCESS`, H03 + 20 * MIN, '')
  await parquet(`${msgs04}part-0.parquet`, rows(['m3'], 'h04'), H04 + 10 * MIN)
  // Enough rows for compressed pages, then garbage over the bytes between the header and the footer.
  await parquet(
    DAMAGED,
    `SELECT 'm' || (i + 4) AS message_id, 'tnt_acme' AS tenant_id, repeat('h04 ', 20) || i AS content FROM range(2000) t(i)`,
    H04 + 10 * MIN
  )
  const bytes = await readFile(join(root, DAMAGED))
  const footerAt = bytes.length - 8 - bytes.readUInt32LE(bytes.length - 8)
  for (let i = 64; i < footerAt - 64; i++) bytes[i] = (i * 7919) & 0xff
  await put(DAMAGED, H04 + 10 * MIN, bytes)
  await put(`${msgs04}_SUCCESS`, H04 + 20 * MIN, '')
  db.close()
}, 120_000)
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

describe('a parts file whose pages are garbage', () => {
  it('passes the footer check, and the mirror is built without exactly it, recorded for the next check', async () => {
    const provider = new LocalFolderProvider(root)
    const inventory = buildInventory((await refreshBucketIndex(provider, null, { now: NOW })).index.objects.values(), { now: NOW })
    const cacheFile = join(work, 'frames.json')
    const read = async (o: { key: string }, start: number, end: number): Promise<Uint8Array> => (await provider.readRange(o.key, { start, end })).body
    // The footer is sound: only reading the pages can tell.
    expect([...(await findUnreadableFiles(inventory, read, { now: NOW, cacheFile })).unreadable]).toEqual([])
    const mirror = new Mirror(join(work, 'mirror'), fileStoreFor(provider, join(work, 'data'), 'damaged'), { unreadableFile: cacheFile })
    const r = await mirror.refresh(inventory, NOW)
    expect(r.problems).toEqual([])
    expect(r.unreadable).toEqual([{ key: DAMAGED, why: expect.stringMatching(/^its pages cannot be read \(/) }])
    const segment = (await mirror.segments()).find((s) => s.table === `${MSGS.schema}.${MSGS.table}` && s.folders.some((f) => f.prefix === msgs04))
    expect(segment?.rows).toBe(1)
    expect(segment?.folders.flatMap((f) => f.leftOut)).toEqual([expect.objectContaining({ key: DAMAGED, reason: 'unreadable' })])
    // The next check knows it without the engine.
    expect([...(await findUnreadableFiles(inventory, read, { now: NOW, cacheFile })).unreadable]).toEqual([DAMAGED])
  })

  it('the CLI: query and export of claudia_messages work and name it; doctor reports corrupt_file for it', async () => {
    const q = await cli(['query', '--format', 'csv', 'SELECT message_id, content FROM claudia_messages ORDER BY 1'])
    expect([q.code, q.stdout.trim().split('\n')]).toEqual([0, ['message_id,content', 'm1,h03', 'm2,h03', 'm3,h04']])
    expect(q.stderr).toContain(`not readable Parquet and is left out: ${DAMAGED}`)
    expect(q.stderr).not.toMatch(/does not exist|archive/i)
    const out = join(work, 'messages.csv')
    const x = await cli(['export', '--table', 'claudia_messages', '--out', out])
    expect(x.code).toBe(0)
    expect(x.stderr).toContain(DAMAGED)
    expect(x.stderr).not.toMatch(/does not exist|archive/i)
    expect((await readFile(out, 'utf8')).trim().split('\n')).toHaveLength(4)
    const doctor = await cli(['doctor', '--json', '--since', d(H03)])
    const corrupt = (JSON.parse(doctor.stdout) as { findings: { kind: string; key: string; message: string }[] }).findings.filter(
      (f) => f.kind === 'corrupt_file'
    )
    expect(corrupt.map((f) => f.key)).toEqual([DAMAGED])
    expect(corrupt[0]?.message).toMatch(/is not a readable Parquet file \(its pages cannot be read \(.*\)\)\. /)
    expect(doctor.code).toBe(1)
  }, 120_000)
})
