// The command-line tool, run as a user would (a child process), on a generated bucket in a local folder and
// in the S3 server: the JSON shapes of the issue, the planted truth, and the exit codes.
import { execFile, spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CATALOG } from '../../src/shared/catalog'
import { listLocalFolder } from '../helpers/local-bucket'
import { buildInventory, foldersForLogicalTable } from '../../src/shared/inventory'
import { logicalTableSql } from '../../src/shared/logical-table-sql'
import { quoteLiteral } from '../../src/shared/sql-quote'
import { openDb } from '../helpers/duckdb'
import { type CliRun, CLI_COMMAND, runCli } from '../helpers/cli'
import { copyTree } from '../helpers/copy-tree'
import { type Demo, readDemo } from '../helpers/demo'
import { S3_TEST_KEYS, type S3Server, startS3Server } from '../helpers/s3-server'
import { startHungServer } from '../helpers/hung-server'

const run = promisify(execFile)
let demo: Demo
let s3: S3Server
let cache: string

beforeAll(async () => {
  // The run's shared demo, read in place: the tool reads it and writes only under its cache; s3rver gets hard links.
  demo = await readDemo({ days: 8 })
  s3 = await startS3Server()
  await s3.seed('cli-bucket', demo.bucketDir, 'export/')
  cache = await mkdtemp(join(tmpdir(), 'ee-cli-cache-'))
}, 300_000)
afterAll(async () => {
  await s3?.close()
  await demo?.cleanup()
  await rm(cache, { recursive: true, force: true })
})

const cli = (args: string[], env: Record<string, string> = {}): Promise<CliRun> => runCli(args, cache, env)

const s3Env = { AWS_ACCESS_KEY_ID: S3_TEST_KEYS.accessKeyId, AWS_SECRET_ACCESS_KEY: S3_TEST_KEYS.secretAccessKey, AWS_REGION: 'us-east-1' }
const targets: [string, () => string[], () => Record<string, string>][] = [
  ['a local folder', () => ['--bucket', demo.bucketDir], () => ({})],
  ['the S3 server', () => ['--bucket', 's3://cli-bucket/export', '--endpoint', s3.endpoint], () => s3Env]
]

describe.each(targets)('on %s', (_name, bucketArgs, env) => {
  const now = (): string[] => ['--now', demo.expected.now]

  it('status --json gives the version and each table as the generator planted it', async () => {
    const r = await cli(['status', ...bucketArgs(), ...now(), '--json'], env())
    expect(r.code).toBe(0)
    const out = JSON.parse(r.stdout) as {
      version: string
      tables: { schema: string; table: string; mode: string; latest_ready: unknown; ready_folders: number | null; newest_folder: { prefix: string } | null }[]
    }
    expect(out.version).toBe('v2')
    expect(out.tables.map((t) => t.table)).toEqual(CATALOG.map((t) => t.table))
    for (const t of out.tables) {
      if (t.mode === 'full') expect({ table: t.table, latest: t.latest_ready }).toEqual({ table: t.table, latest: demo.expected.latest_ready[t.table] })
      else {
        expect(t.ready_folders).toBe(demo.expected.tables[t.table]!.ready_folders)
        expect(t.newest_folder?.prefix).toBe(demo.expected.tables[t.table]!.newest_folder?.prefix)
      }
    }
  })

  it('timeline --json gives every hour of the range with the planted cell states', async () => {
    const missing = demo.expected.planted_hours['missingHour']!
    const r = await cli(['timeline', ...bucketArgs(), ...now(), '--json', '--from', missing.date, '--to', missing.date], env())
    expect(r.code).toBe(0)
    const out = JSON.parse(r.stdout) as { hours: { date: string; hour: string; manifest: string | null; cells: Record<string, string> }[] }
    expect(out.hours).toHaveLength(24)
    const h = out.hours.find((x) => x.hour === missing.hour)!
    expect(h.manifest).toBe('absent')
    expect(Object.values(h.cells).every((s) => s === 'missing')).toBe(true)
    expect(Object.keys(h.cells).sort()).toEqual(CATALOG.map((t) => t.table).sort())
  })

  it('doctor --json reports the planted faults and exits 1', async () => {
    const r = await cli(['doctor', ...bucketArgs(), ...now(), '--json', '--since', '2026-10-01'], env())
    expect(r.code).toBe(1)
    const out = JSON.parse(r.stdout) as {
      ok: boolean
      findings: { kind: string; severity: string; date: string | null; hour: string | null; table: string | null; key: string; message: string }[]
    }
    expect(out.ok).toBe(false)
    const got = out.findings.map((f) => [f.kind, f.date, f.hour, f.table, f.key].join('|')).sort()
    expect(got).toEqual(demo.expected.faults.map((f) => [f.kind, f.date, f.hour, f.table, f.key].join('|')).sort())
    expect(out.findings.every((f) => f.message.length > 20 && ['error', 'warning', 'info'].includes(f.severity))).toBe(true)
  })

  it('doctor exits 0 when the range holds warnings but no error', async () => {
    // Evaluated an hour before the failed folder: the manifest faults before it are warnings only.
    const failed = demo.expected.planted_hours['failedFolder']!
    const at = new Date(Date.parse(`${failed.date}T${failed.hour}:00:00Z`) - 10 * 60_000).toISOString()
    const since = demo.expected.planted_hours['manifestAbsent']!.date
    const r = await cli(['doctor', ...bucketArgs(), '--now', at, '--since', since, '--json'], env())
    const findings = JSON.parse(r.stdout).findings as { kind: string; severity: string }[]
    expect(findings.filter((f) => f.severity === 'error')).toEqual([])
    expect(findings.map((f) => f.kind)).toEqual(
      expect.arrayContaining(['manifest_absent', 'manifest_mismatch', 'delivered_through_lag', 'manifest_malformed', 'late'])
    )
    expect(r.code).toBe(0)
  })

  it('doctor reports what a table leaves out now (an archived file) whatever --since', async () => {
    const r = await cli(['doctor', ...bucketArgs(), ...now(), '--json', '--since', demo.expected.planted_hours['missingHour']!.date], env())
    const out = JSON.parse(r.stdout) as { findings: { kind: string; date: string; key: string; status: string }[] }
    const planted = demo.expected.faults.filter((f) => f.kind === 'archived')
    expect(planted.length).toBeGreaterThan(0)
    expect(out.findings.filter((f) => f.kind === 'archived').map((f) => [f.key, f.date, f.status])).toEqual(planted.map((f) => [f.key, f.date, 'open']))
  })

  it('doctor --json says when, since when, and which findings are open or resolved; the exit code follows the open errors', async () => {
    const r = await cli(['doctor', ...bucketArgs(), ...now(), '--json', '--since', '2026-10-01'], env())
    const out = JSON.parse(r.stdout) as {
      now: string
      since: string
      summary: { findings: number; open: { error: number }; resolved: number }
      listing: { ok: boolean }
      findings: {
        kind: string
        severity: string
        status: string
        resolved: { how: string; at?: string; words: string } | null
        date: string
        hour: string
        table: string
      }[]
    }
    expect([Date.parse(out.now), out.since, out.listing.ok]).toEqual([Date.parse(demo.expected.now), '2026-10-01T00:00:00.000Z', true])
    expect(out.summary.findings).toBe(out.findings.length)
    expect(out.summary.resolved).toBe(out.findings.filter((f) => f.status === 'resolved').length)
    expect(out.summary.open.error).toBe(out.findings.filter((f) => f.status === 'open' && f.severity === 'error').length)
    expect(out.findings.every((f) => (f.status === 'open') === (f.resolved === null))).toBe(true)
    // The hour when all 19 tables were missing: each full table is superseded by the next hour's copy.
    const m = demo.expected.planted_hours['missingHour']!
    const next = new Date(Date.parse(`${m.date}T${m.hour}:00:00Z`) + 3_600_000).toISOString()
    const full = out.findings.filter(
      (f) => f.kind === 'missing' && f.date === m.date && f.hour === m.hour && CATALOG.find((c) => c.table === f.table)?.mode === 'full'
    )
    expect(full).toHaveLength(CATALOG.filter((c) => c.mode === 'full').length)
    for (const f of full) expect(f.resolved).toMatchObject({ how: 'superseded', at: next })
    expect(r.code).toBe(out.summary.open.error > 0 ? 1 : 0)
  })
})

describe('could not check is not "missing"', () => {
  const expectCouldNotCheck = (r: CliRun, message: RegExp) => {
    expect(r.code).toBe(2)
    const out = JSON.parse(r.stdout) as { ok: boolean; could_not_check: { message: string; use_instead: string[] }; findings?: unknown }
    expect(out.ok).toBe(false)
    expect(out.findings).toBeUndefined()
    expect(out.could_not_check.message).toMatch(message)
    expect(r.stderr).toMatch(/could not check/)
    return out.could_not_check
  }

  it("doctor --thresholds judges volume with the file's thresholds; a bad file exits 2 naming it and the field", async () => {
    const at = ['--bucket', demo.bucketDir, '--now', demo.expected.now, '--json', '--since', '2026-10-01']
    const volume = (stdout: string): string[] =>
      (JSON.parse(stdout) as { findings: { kind: string; table: string | null }[] }).findings
        .filter((f) => f.kind === 'volume_anomaly')
        .map((f) => f.table ?? '')
    expect(volume((await cli(['doctor', ...at])).stdout)).toEqual([])
    const file = join(cache, 'thresholds.json')
    await writeFile(file, JSON.stringify({ tables: { claudia_messages: { madFactor: 0.5, minRelativeBand: 0, countNoise: 0, maxRatio: 1, youngRatio: 1 } } }))
    const narrowed = volume((await cli(['doctor', ...at, '--thresholds', file])).stdout)
    expect(narrowed.length).toBeGreaterThan(5)
    expect(new Set(narrowed)).toEqual(new Set(['claudia_messages']))
    await writeFile(file, JSON.stringify({ all: { madFactor: 'wide' } }))
    const bad = await cli(['doctor', ...at, '--thresholds', file])
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain(`--thresholds ${file}: all.madFactor: madFactor must be a number`)
  })

  it('a folder that does not exist, the folder above the export, a folder that is not an export: exit 2 with what to fix', async () => {
    const at = ['--now', demo.expected.now, '--json']
    expectCouldNotCheck(await cli(['doctor', '--bucket', join(demo.dir, 'no-such-folder'), ...at]), /does not exist|no such|not found/i)
    const above = expectCouldNotCheck(await cli(['doctor', '--bucket', demo.dir, ...at]), /.+/)
    expect(above.use_instead[0]).toBe(demo.bucketDir)
    expectCouldNotCheck(await cli(['doctor', '--bucket', join(demo.bucketDir, 'v2', 'datamart_claudia'), ...at]), /.+/)
    // status too: a cron job whose mount is down is told, never answered with an empty export.
    expect((await cli(['status', '--bucket', join(demo.dir, 'no-such-folder'), '--now', demo.expected.now])).code).toBe(2)
  })

  it('the S3 bucket top when the export is under export/: exit 2, and the prefix to use', async () => {
    const r = await cli(['doctor', '--bucket', 's3://cli-bucket', '--endpoint', s3.endpoint, '--now', demo.expected.now, '--json'], s3Env)
    expect(expectCouldNotCheck(r, /.+/).use_instead).toContain('export/')
  })
})

describe('query and export', () => {
  let plain: string
  let out: string
  beforeAll(async () => {
    // A copy without the planted GLACIER object, so that every table can be read.
    plain = join(cache, 'plain-bucket')
    await copyTree(demo.bucketDir, plain)
    await writeFile(join(plain, '.export-explorer', 'storage-classes.json'), '{}')
    out = await mkdtemp(join(tmpdir(), 'ee-cli-out-'))
  }, 120_000)
  afterAll(() => rm(out, { recursive: true, force: true }))

  it('query prints JSON rows and CSV, on a folder and on the S3 server', async () => {
    const sql = 'SELECT count(*)::INTEGER AS n, count(DISTINCT message_id)::INTEGER AS k FROM claudia_messages'
    const local = await cli(['query', sql, '--bucket', plain, '--format', 'json'])
    expect(local.code).toBe(0)
    expect(JSON.parse(local.stdout)).toEqual([
      { n: demo.expected.tables['claudia_messages']!.rows, k: demo.expected.tables['claudia_messages']!.distinct_keys }
    ])
    const remote = await cli(
      [
        'query',
        'SELECT count(*)::INTEGER AS n FROM datamart_cloudchat_saas.cloud_chat_messages',
        '--bucket',
        's3://cli-bucket/export',
        '--endpoint',
        s3.endpoint,
        '--format',
        'csv'
      ],
      s3Env
    )
    expect(remote.stdout).toBe(`n\n${demo.expected.tables['cloud_chat_messages']!.rows}\n`)
  })

  it('every logical table equals the truth through the CLI, from a folder and from the S3 server', async () => {
    const sql = CATALOG.map((t) => `SELECT '${t.table}' AS t, count(*)::INTEGER AS n FROM ${t.schema}.${t.table}`).join(' UNION ALL ')
    const want = Object.fromEntries(CATALOG.map((t) => [t.table, demo.expected.tables[t.table]!.rows]))
    const local = await cli(['query', sql, '--bucket', plain, '--format', 'json'])
    expect(Object.fromEntries((JSON.parse(local.stdout) as { t: string; n: number }[]).map((r) => [r.t, r.n]))).toEqual(want)
    // The S3 copy still holds the GLACIER object: every table but claudia_messages, which names it.
    const remote = await cli(
      [
        'query',
        sql.replace(/ UNION ALL SELECT 'claudia_messages'[^U]*/, ' '),
        '--bucket',
        's3://cli-bucket/export',
        '--endpoint',
        s3.endpoint,
        '--format',
        'json'
      ],
      s3Env
    )
    const { claudia_messages: _skipped, ...others } = want
    expect(Object.fromEntries((JSON.parse(remote.stdout) as { t: string; n: number }[]).map((r) => [r.t, r.n]))).toEqual(others)
    const bad = await cli(['query', 'SELEC 1', '--bucket', plain])
    expect(bad.code).toBe(1)
    expect(bad.stderr).toMatch(/syntax error/i)
  })

  it('reads a table from its readable history, naming the archived object it leaves out and what to do', async () => {
    const r = await cli(['query', 'SELECT count(*) AS n FROM claudia_messages', '--bucket', demo.bucketDir, '--format', 'json'])
    expect(r.code).toBe(0)
    const n = (JSON.parse(r.stdout) as { n: number }[])[0]?.n ?? 0
    expect(n).toBeGreaterThan(0)
    expect(n).toBeLessThanOrEqual(demo.expected.tables['claudia_messages']!.rows)
    expect(r.stderr).toContain(demo.expected.faults.find((f) => f.kind === 'archived')!.key)
    expect(r.stderr).toMatch(
      /1 archived file .* cannot be read until restored and is left out.*; its rows are not in the table.*Restore it to complete the table/
    )
  })

  it('exports CSV and Parquet that read back equal to the same query on native DuckDB', async () => {
    const where = "tenant_id = 'tnt_acme' AND send_at >= TIMESTAMP '2026-11-05 00:00:00'"
    const csv = join(out, 'messages.csv')
    const r = await cli(['export', '--table', 'claudia_messages', '--where', where, '--out', csv, '--bucket', plain])
    expect(r.code).toBe(0)
    // It says what the file holds: which bucket, and "latest" (no --as-of).
    expect(r.stderr).toContain(`to ${csv} from ${plain}, latest`)
    const parquet = join(out, 'messages.parquet')
    expect(
      (await cli(['export', '--sql', `SELECT * FROM claudia_messages WHERE ${where}`, '--format', 'parquet', '--out', parquet, '--bucket', plain])).code
    ).toBe(0)
    const db = await openDb()
    try {
      const inv = buildInventory(await listLocalFolder(plain))
      const t = CATALOG.find((c) => c.table === 'claudia_messages')!
      const q = logicalTableSql(t, foldersForLogicalTable(inv, t), (k) => join(plain, k))
      if (!q.ok) throw new Error(q.message)
      const digest = (from: string): string =>
        `SELECT count(*)::INTEGER AS n, sum(hash(message_id, content, strftime(send_at, '%Y-%m-%d %H:%M:%S')))::VARCHAR AS h FROM ${from}`
      const [want] = await db.rows(digest(`(${q.sql}) WHERE ${where}`))
      const [fromCsv] = await db.rows(digest(`read_csv(${quoteLiteral(csv)}, header = true, auto_detect = true)`))
      const [fromParquet] = await db.rows(digest(`read_parquet(${quoteLiteral(parquet)})`))
      expect((want as { n: number }).n).toBeGreaterThan(10)
      expect(fromCsv).toEqual(want)
      expect(fromParquet).toEqual(want)
    } finally {
      db.close()
    }
    expect((await readdir(out)).sort()).toEqual(['messages.csv', 'messages.parquet'])
  })

  it("an export's name is its format: a name that says the other one exits 2 and writes nothing; no --format follows the name", async () => {
    const wrong = await cli(['export', '--table', 'claudia_csat', '--format', 'parquet', '--out', join(out, 'named.csv'), '--bucket', plain])
    expect(wrong.code).toBe(2)
    expect(wrong.stderr).toMatch(/named\.csv is named as a CSV file, but the export is Parquet: name it .*named\.parquet/)
    expect(existsSync(join(out, 'named.csv'))).toBe(false)
    const byName = join(out, 'by-name.parquet')
    expect((await cli(['export', '--table', 'claudia_csat', '--out', byName, '--bucket', plain])).code).toBe(0)
    const bytes = await readFile(byName)
    expect([bytes.subarray(0, 4).toString(), bytes.subarray(-4).toString()]).toEqual(['PAR1', 'PAR1'])
    await rm(byName)
  })

  it('replaces an existing file only when asked', async () => {
    const target = join(out, 'keep.csv')
    await writeFile(target, 'precious')
    const r = await cli(['export', '--table', 'claudia_csat', '--out', target, '--bucket', plain])
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/already exists/)
    expect(await readFile(target, 'utf8')).toBe('precious')
    expect((await cli(['export', '--table', 'claudia_csat', '--out', target, '--force', '--bucket', plain])).code).toBe(0)
    expect((await readFile(target, 'utf8')).split('\n')[0]).toBe('csat_id,tenant_id,conversation_id,score,created_at,updated_at')
  })

  it('a cancelled export leaves no file behind', async () => {
    const target = join(out, 'big.csv')
    const child = spawn(
      process.execPath,
      [...CLI_COMMAND, 'export', '--sql', 'SELECT * FROM claudia_messages, range(400)', '--out', target, '--bucket', plain],
      { env: { ...process.env, EXPORT_EXPLORER_CACHE: cache } }
    )
    let stderr = ''
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
    // Wait until DuckDB is writing the file (in the engine's own scratch folder), then interrupt.
    const writing = async (): Promise<boolean> =>
      (await readdir(join(cache, 'engine'), { recursive: true }).catch(() => [])).some((f) => /scratch\/[^/]+\.csv$/.test(String(f)))
    for (let i = 0; i < 400 && !(await writing()); i++) await new Promise((r) => setTimeout(r, 50))
    expect(await writing()).toBe(true)
    child.kill('SIGINT')
    const code = await new Promise<number | null>((r) => child.once('exit', r))
    expect(code).toBe(130)
    expect(stderr).toMatch(/cancelled; no file was written/)
    expect((await readdir(out)).filter((f) => f.startsWith('big.csv') || f.includes('big.csv'))).toEqual([])
    // Nothing of the interrupted export is left in the cache either.
    expect(await writing()).toBe(false)
  }, 120_000)
})

describe('the built tool', () => {
  // npm run build writes it (CI builds before testing); a bare checkout has no out/ yet.
  it.runIf(existsSync('out/main/export-explorer.js'))('runs as the package bin, without tsx', async () => {
    const r = await run(process.execPath, ['out/main/export-explorer.js', 'status', '--bucket', demo.bucketDir, '--now', demo.expected.now, '--json'], {
      env: { ...process.env, EXPORT_EXPLORER_CACHE: cache }
    })
    expect(JSON.parse(r.stdout).version).toBe('v2')
  })
})

describe('errors', () => {
  it('exits 2 with a message on stderr when the bucket cannot be reached, and nothing on stdout', async () => {
    const r = await cli(['doctor', '--bucket', 's3://cli-bucket/export', '--endpoint', 'http://127.0.0.1:9', '--json'], { ...s3Env, AWS_MAX_ATTEMPTS: '1' })
    expect(r.code).toBe(2)
    // The JSON says the bucket could not be checked, and nothing else (no findings from an old index).
    expect(Object.keys(JSON.parse(r.stdout))).toEqual(['ok', 'could_not_check'])
    expect(r.stderr).toMatch(/could not list|Network error|network|could not reach|connect/i)
  })

  it("leaves no engine folder behind, whether the bucket's refresh fails or the query runs (DuckDB starts before the refresh)", async () => {
    const own = await mkdtemp(join(tmpdir(), 'ee-cli-engine-'))
    try {
      const failed = await runCli(
        ['query', 'SELECT count(*) FROM claudia_messages', '--bucket', 's3://cli-bucket/export', '--endpoint', 'http://127.0.0.1:9'],
        own,
        { ...s3Env, AWS_MAX_ATTEMPTS: '1' }
      )
      expect(failed.code).toBe(2)
      expect(failed.stderr).toMatch(/could not list|Network error|network|could not reach|connect/i)
      expect(await readdir(join(own, 'engine')).catch(() => [])).toEqual([])
      const ran = await runCli(
        ['query', 'SELECT count(*) AS n FROM claudia_csat', '--bucket', demo.bucketDir, '--now', demo.expected.now, '--format', 'json'],
        own
      )
      expect(ran.code).toBe(0)
      expect(JSON.parse(ran.stdout)).toEqual([{ n: expect.any(Number) }])
      expect(await readdir(join(own, 'engine'))).toEqual([])
    } finally {
      await rm(own, { recursive: true, force: true })
    }
  })

  it('Ctrl+C while the bucket is refreshed: exit 130, and the engine started meanwhile leaves no folder', async () => {
    const hung = await startHungServer('silent')
    const own = await mkdtemp(join(tmpdir(), 'ee-cli-interrupt-'))
    try {
      const child = spawn(process.execPath, [...CLI_COMMAND, 'query', 'SELECT 1', '--bucket', 's3://cli-bucket/export', '--endpoint', hung.endpoint], {
        env: { ...process.env, ...s3Env, EXPORT_EXPLORER_CACHE: own }
      })
      const exited = new Promise<number | null>((r) => child.once('exit', r))
      // DuckDB starts as the bucket opens; the listing then waits on the server, which never answers.
      const engineFolders = async (): Promise<string[]> => readdir(join(own, 'engine')).catch(() => [])
      for (let i = 0; i < 400 && (await engineFolders()).length === 0; i++) await new Promise((r) => setTimeout(r, 50))
      expect(await engineFolders()).toHaveLength(1)
      await expect.poll(() => hung.accepted(), { timeout: 60_000 }).toBeGreaterThan(0)
      child.kill('SIGINT')
      expect(await exited).toBe(130)
      expect(await engineFolders()).toEqual([])
    } finally {
      await hung.close()
      await rm(own, { recursive: true, force: true })
    }
  }, 120_000)

  it('exits 2 on bad usage, with the usage', async () => {
    const r = await cli(['frobnicate', '--bucket', demo.bucketDir])
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/unknown command "frobnicate"[\s\S]*usage: export-explorer/)
    expect((await cli(['status', '--bucket', demo.bucketDir, '--now', 'yesterday'])).stderr).toMatch(/--now must be an ISO-8601 instant/)
  })
})
