// Hostile Parquet footers (issue 18 item 3): files with a valid frame and a footer crafted to cost a parser gigabytes
// (2^24 empty structs, 16 MB; 2^22 of them, 4 MB), a list claiming 2^31 elements in a few bytes, a footer length past
// the file, a footer 100,000 structs deep, and one within every declared bound that only the worker's heap limit stops.
// Through the real services: each becomes corrupt_file naming its bucket key, claudia_csat falls back to its previous
// readable copy, claudia_messages leaves them out, the main thread keeps answering, and native DuckDB never opens them.
import { execFile } from 'node:child_process'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ConnectionSnapshot } from '../../src/main/session/connection-snapshot'
import { LocalFolderProvider } from '../../src/main/bucket/local-provider'
import { FooterParser, readParquetFooter } from '../../src/main/store/parquet-footer'
import { quoteLiteral } from '../../src/shared/sql-quote'
import { openDb } from '../helpers/duckdb'
import { HOSTILE, HOSTILE_CSAT, HOSTILE_MSGS, heavySchemaFooter, hostileFiles, withFooter, writeHostileBucket } from '../helpers/hostile-parquet'
import { CSAT, H03, H04, MSGS, NOW, csat03, d } from '../helpers/unreadable-bucket'
import { CLI_COMMAND } from '../helpers/cli'

const run = promisify(execFile)
let work: string
let root: string

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'ee-hostile-'))
  root = join(work, 'bucket')
  const db = await openDb()
  await writeHostileBucket(root, db)
  db.close()
})
afterAll(async () => {
  await rm(work, { recursive: true, force: true })
})

async function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const r = await run(process.execPath, [...CLI_COMMAND, ...args, '--bucket', root, '--now', new Date(NOW).toISOString()], {
      env: { ...process.env, EXPORT_EXPLORER_CACHE: join(work, 'cli-cache') },
      maxBuffer: 16 * 1024 ** 2
    })
    return { code: 0, stdout: r.stdout, stderr: r.stderr }
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string }
    return { code: err.code, stdout: err.stdout, stderr: err.stderr }
  }
}

const readerOf =
  (b: Uint8Array) =>
  async (start: number, end: number): Promise<Uint8Array> =>
    b.subarray(start, end + 1)

describe('the bounded footer reader', () => {
  it('refuses each hostile footer with its reason, and still reads a real one', async () => {
    const files = hostileFiles()
    const why = async (name: string): Promise<string> => {
      const b = files[name] as Buffer
      const r = await readParquetFooter(b.length, readerOf(b))
      return r.ok ? 'readable' : r.why
    }
    expect(await why('structs-16mb.parquet')).toMatch(/its footer claims 16777\d+ bytes, more than the 8 MiB allowed/)
    expect(await why('structs-4mb.parquet')).toMatch(/not sound: it holds more than 1000000 values/)
    expect(await why('claims-2g.parquet')).toMatch(/a list claims 2147483648 elements where 1 bytes are left/)
    expect(await why('length-past-file.parquet')).toMatch(/footer length \(10000000 bytes\) does not fit in the file/)
    expect(await why('nested.parquet')).toMatch(/nests deeper than 32 levels/)
    const good = await readFile(join(root, `${csat03}part-0.parquet`))
    const r = await readParquetFooter(good.length, readerOf(good))
    expect(r).toEqual({
      ok: true,
      footer: {
        rows: 3,
        rowGroups: 1,
        columns: expect.arrayContaining([{ name: 'csat_id', type: 'VARCHAR' }]),
        schemaTag: expect.stringMatching(/^[A-Za-z0-9_-]{22}$/)
      }
    })
  })

  it('a large real footer (100 row groups × 30 columns with statistics, written by DuckDB) is within every bound', async () => {
    const db = await openDb()
    const file = join(work, 'wide.parquet')
    const columns = Array.from({ length: 30 }, (_, k) => `i * ${k + 1} AS c${k}`).join(', ')
    await db.run(`COPY (SELECT ${columns} FROM range(204800) t(i)) TO ${quoteLiteral(file)} (FORMAT parquet, ROW_GROUP_SIZE 2048)`)
    db.close()
    const b = await readFile(file)
    const r = await readParquetFooter(b.length, readerOf(b))
    expect(r).toMatchObject({ ok: true, footer: { rows: 204800 } })
    expect(r.ok && r.footer.rowGroups).toBeGreaterThanOrEqual(90)
  })

  it('a footer within every declared bound that would exhaust memory ends its worker at the heap limit, and the next parse works', async () => {
    const parser = new FooterParser({ workers: 1, heapMb: 32, timeoutMs: 60_000 })
    try {
      const heavy = withFooter(heavySchemaFooter(490_000))
      const r = await readParquetFooter(heavy.length, readerOf(heavy), { parser })
      expect(r).toEqual({ ok: false, why: 'parsing its footer needed more than 32 MB' })
      const good = await readFile(join(root, `${csat03}part-0.parquet`))
      expect(await readParquetFooter(good.length, readerOf(good), { parser })).toMatchObject({ ok: true, footer: { rows: 3 } })
    } finally {
      await parser.close()
    }
  })

  it('a footer that exhausts memory in a batch of footers is judged alone; the others of its batch are read', async () => {
    // Every footer batched (the heavy one too), one worker: the first goes alone, the four waiting behind it together.
    const parser = new FooterParser({ workers: 1, heapMb: 32, timeoutMs: 60_000, batchedBytes: 64 * 1024 ** 2 })
    try {
      const good = await readFile(join(root, `${csat03}part-0.parquet`))
      const heavy = withFooter(heavySchemaFooter(490_000))
      const files = [good, good, heavy, good, good]
      const answers = await Promise.all(files.map((b) => readParquetFooter(b.length, readerOf(b), { parser })))
      expect(answers.map((r) => (r.ok ? r.footer.rows : r.why))).toEqual([3, 3, 'parsing its footer needed more than 32 MB', 3, 3])
    } finally {
      await parser.close()
    }
  })

  it('a parse that outlasts its time limit ends its worker and answers why', async () => {
    // 1 ms: no parse of 400,000 schema elements (a second of work for hyparquet) is done by then.
    const parser = new FooterParser({ workers: 1, timeoutMs: 1 })
    try {
      const slow = withFooter(heavySchemaFooter(400_000))
      expect(await readParquetFooter(slow.length, readerOf(slow), { parser })).toEqual({
        ok: false,
        why: 'parsing its footer took longer than 0.001 s',
        transient: true
      })
    } finally {
      await parser.close()
    }
  })
})

describe('hostile footers in the bucket', () => {
  it('the app: corrupt_file per file with its key, the full table falls back, the main thread keeps answering, the inspector says why', async () => {
    const service = new ConnectionSnapshot({ provider: new LocalFolderProvider(root), connectionId: 'hostile', dataDir: join(work, 'app'), now: () => NOW })
    const delay = monitorEventLoopDelay({ resolution: 10 })
    const rssBefore = process.memoryUsage().rss
    try {
      delay.enable()
      await service.refresh()
      const tl = await service.timeline({ fromHours: 6 })
      expect(
        tl.findings
          .filter((f) => f.kind === 'corrupt_file')
          .map((f) => f.key)
          .sort()
      ).toEqual([...HOSTILE].sort())
      const ov = await service.overview()
      expect(ov.tables.find((t) => t.table === CSAT.table)?.newestPrefix).toBe(csat03)
      expect([...(await service.snapshot()).unreadable].sort()).toEqual([...HOSTILE].sort())
      // The hour inspector parses every footer of 04:00 again (off the main thread): overview answers meanwhile.
      let inspected = false
      const hour = service.hour({ start: new Date(H04).toISOString() }).then((x) => {
        inspected = true
        return x
      })
      await service.overview()
      expect(inspected).toBe(false)
      const detail = await hour
      delay.disable()
      const files = new Map(detail.tables.flatMap((t) => t.files).map((f) => [f.key, f]))
      expect(files.get(HOSTILE_CSAT)?.rowsError).toMatch(/^not a readable Parquet file: its footer is not sound/)
      expect(files.get(HOSTILE_MSGS[0])?.rowsError).toMatch(/more than the 8 MiB allowed/)
      expect(files.get(HOSTILE_MSGS[4])?.rows ?? null).toBeNull()
      expect(files.get(HOSTILE_MSGS[0].replace('part-1', 'part-0'))?.rows).toBe(1)
      // The attack froze the main thread for 25 s at 3.4 GB; a stall of seconds would mean a parse on it again.
      expect(delay.max / 1e6).toBeLessThan(2000)
      expect(process.memoryUsage().rss - rssBefore).toBeLessThan(512 * 1024 ** 2)
    } finally {
      delay.disable()
      service.close()
    }
  })

  it('the CLI: doctor reports each as corrupt_file, status says what is read instead, query reads the rest without opening them', async () => {
    const doctor = await cli(['doctor', '--json', '--since', d(H03)])
    expect(doctor.code).toBe(1)
    const findings = (JSON.parse(doctor.stdout) as { findings: { kind: string; table: string; key: string; message: string }[] }).findings
    const corrupt = findings.filter((f) => f.kind === 'corrupt_file')
    expect(corrupt.map((f) => f.key).sort()).toEqual([...HOSTILE].sort())
    expect(corrupt.find((f) => f.key === HOSTILE_CSAT)?.message).toMatch(
      /is not a readable Parquet file \(its footer is not sound: it holds more than 1000000 values\)\. .*the previous readable ready copy .* is read instead/
    )
    expect(corrupt.find((f) => f.key === HOSTILE_MSGS[1])?.message).toMatch(/a list claims 2147483648 elements/)
    const status = await cli(['status', '--json'])
    const tables = (JSON.parse(status.stdout) as { tables: { table: string; latest_ready: { prefix: string } | null; note: string | null }[] }).tables
    expect(tables.find((t) => t.table === CSAT.table)?.latest_ready?.prefix).toBe(csat03)
    expect(tables.find((t) => t.table === MSGS.table)?.note).toMatch(/5 files are not readable Parquet and are left out/)
    const q = await cli(['query', '--format', 'csv', 'SELECT message_id, content FROM claudia_messages ORDER BY 1'])
    expect(q.stderr).not.toMatch(/TProtocolException|out of memory/)
    expect([q.code, q.stdout.trim().split('\n')]).toEqual([0, ['message_id,content', 'm1,h03', 'm2,h03', 'm3,h04']])
    for (const key of HOSTILE_MSGS) expect(q.stderr).toContain(key)
    const csat = await cli(['query', '--format', 'csv', 'SELECT DISTINCT tag FROM claudia_csat'])
    expect([csat.code, csat.stdout.trim()]).toEqual([0, 'tag\nh03'])
    expect(csat.stderr).toContain(HOSTILE_CSAT)
  }, 120_000)
})
