// Issue 18, items 2 and 5: what the user's SQL may do in main's engine. Every attack of the review, through the
// engine API (over the S3 server: a real file store and mirror) and the CLI (query as table, JSON and CSV, export,
// over a local bucket folder): nothing appears in or leaves the bucket folder, the store or the mirror, the views
// stay as they were, and DuckDB's temp folder (its relative `.tmp` default was readable) and memory are the engine's.
import { createHash } from 'node:crypto'
import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { refreshBucketIndex } from '../../src/main/bucket/bucket-index'
import { S3Provider } from '../../src/main/bucket/s3-provider'
import { StatementRefused } from '../../src/main/engine/engine-error'
import { engineMemoryLimits } from '../../src/main/engine/engine-memory-limits'
import { NativeEngine } from '../../src/main/engine/native-engine'
import { type BucketEngine, openBucketEngine } from '../../src/main/engine/open-bucket-engine'
import { fileStoreFor } from '../../src/main/store/connection-files'
import { exportQuery } from '../../src/main/export/export-to-file'
import { Mirror } from '../../src/main/mirror/mirror'
import { buildInventory } from '../../src/shared/inventory'
import { quoteLiteral } from '../../src/shared/sql-quote'
import { type CliRun, runCli } from '../helpers/cli'
import { type Demo, generateDemo } from '../helpers/demo'
import { S3_TEST_KEYS, type S3Server, startS3Server } from '../helpers/s3-server'

let demo: Demo
let s3: S3Server
let work: string

beforeAll(async () => {
  demo = await generateDemo({ days: 8 })
  // The planted GLACIER object would (rightly) stop claudia_messages; these tests read it.
  await writeFile(join(demo.bucketDir, '.export-explorer', 'storage-classes.json'), '{}')
  s3 = await startS3Server()
  await s3.seed('sql', demo.bucketDir)
  work = await mkdtemp(join(tmpdir(), 'ee-sql-'))
}, 600_000)
afterAll(async () => {
  await s3?.close()
  await demo?.cleanup()
  if (work) await rm(work, { recursive: true, force: true })
})

/** A hash of every file under a folder, by path and content (the mirror's index is rewritten, the same, by each run). */
async function folderHash(dir: string): Promise<string> {
  const h = createHash('sha256')
  const walk = async (d: string): Promise<void> => {
    for (const e of (await readdir(d, { withFileTypes: true })).sort((a, b) => a.name.localeCompare(b.name))) {
      const p = join(d, e.name)
      if (e.isDirectory()) await walk(p)
      else
        h.update(
          `${p}\0${createHash('sha256')
            .update(await readFile(p))
            .digest('hex')}\n`
        )
    }
  }
  await walk(dir)
  return h.digest('hex')
}

const V1_MESSAGES = 'v1/datamart_claudia/claudia_messages'

/** The review's statements, aimed at `dir` (a bucket folder, the store, the mirror). */
function writesInto(dir: string): string[] {
  const file = quoteLiteral(join(dir, 'planted.csv'))
  return [
    `EXPLAIN ANALYZE COPY (SELECT 1 AS x) TO ${file}`,
    `explain /* the plan */ analyse COPY (SELECT 1 AS x) TO ${file} (FORMAT csv)`,
    `EXPLAIN (ANALYZE) COPY (SELECT 1 AS x) TO ${file}`,
    `EXPLAIN (FORMAT json, ANALYZE) COPY (SELECT 1 AS x) TO ${file}`,
    `EXPLAIN COPY (SELECT 1 AS x) TO ${file}`,
    `COPY (SELECT 1 AS x) TO ${file}`,
    `SELECT * FROM enable_logging(storage = 'file', storage_config = {'path': ${quoteLiteral(join(dir, 'logs'))}})`,
    `SELECT * FROM query(${quoteLiteral(`SELECT 1`)})`
  ]
}

/** Statements that would change the views or leave something behind in the engine. */
const CHANGES_VIEWS = [
  'EXPLAIN ANALYZE CREATE MACRO planted() AS 1',
  'EXPLAIN ANALYZE CREATE TABLE planted AS SELECT 1 AS x',
  'EXPLAIN ANALYZE CREATE OR REPLACE VIEW claudia_messages AS SELECT 1 AS message_id',
  'EXPLAIN ANALYZE DROP VIEW claudia_messages',
  'DROP VIEW claudia_messages',
  'CREATE TEMP TABLE planted AS SELECT 1 AS x',
  "ATTACH ':memory:' AS planted",
  'SET VARIABLE planted = 1',
  'PRAGMA version',
  'CALL pragma_version()'
]

describe('the engine API (app, web host, exports)', () => {
  let be: BucketEngine
  let mirrorDir: string
  let storeDir: string
  let engineDir: string
  let rowsBefore: unknown
  beforeAll(async () => {
    const provider = new S3Provider({ bucket: 'sql', endpoint: s3.endpoint, region: 'us-east-1', credentials: { kind: 'static', ...S3_TEST_KEYS } })
    const now = Date.parse(demo.expected.now)
    const { index } = await refreshBucketIndex(provider, null, { now })
    const inventory = buildInventory(index.objects.values())
    const store = fileStoreFor(provider, join(work, 'data'), 'api')
    storeDir = store.dir
    mirrorDir = join(work, 'mirror')
    const mirror = new Mirror(mirrorDir, store)
    await mirror.refresh(inventory, now)
    engineDir = join(work, 'engine')
    be = await openBucketEngine(store, inventory, index.objects, engineDir, { now, mirror })
    rowsBefore = (await be.engine.selectAll('SELECT count(*), max(message_id) FROM claudia_messages')).rows
  }, 600_000)
  afterAll(async () => {
    await be?.engine.close()
  })

  it('refuses every statement that writes into the store or the mirror, as a query and as an export, and nothing changes', async () => {
    expect((await readdir(mirrorDir)).length).toBeGreaterThan(0)
    const before = [await folderHash(storeDir), await folderHash(mirrorDir)]
    for (const dir of [storeDir, mirrorDir, join(mirrorDir, 'segments')]) {
      for (const sql of writesInto(dir)) {
        await expect(be.engine.selectAll(sql), sql).rejects.toThrow(StatementRefused)
        await expect(be.engine.copyToScratch(sql, 'csv'), sql).rejects.toThrow(StatementRefused)
        const target = join(work, 'exported.csv')
        await expect(exportQuery(be.engine, sql, target, { format: 'csv' }), sql).rejects.toThrow(StatementRefused)
        expect(existsSync(target)).toBe(false)
      }
    }
    expect([await folderHash(storeDir), await folderHash(mirrorDir)]).toEqual(before)
    // The engine still answers (enable_logging() from a SELECT used to fail every later query).
    expect((await be.engine.selectAll('SELECT 41 + 1')).rows).toEqual([[42]])
  })

  it('says why EXPLAIN ANALYZE is refused and what runs instead', async () => {
    await expect(be.engine.selectAll('EXPLAIN ANALYZE SELECT 1')).rejects.toThrow(
      /EXPLAIN ANALYZE runs its statement and is refused; EXPLAIN of a SELECT is fine/
    )
    await expect(be.engine.selectAll('DROP VIEW claudia_messages')).rejects.toThrow(/Only queries that read run here.*DROP statement is refused/)
    await expect(be.engine.selectAll('SELECT * FROM enable_logging()')).rejects.toThrow(/enable_logging\(\) cannot be called here/)
  })

  it('keeps the views as they were: no statement creates, replaces or drops anything', async () => {
    for (const sql of CHANGES_VIEWS) await expect(be.engine.selectAll(sql), sql).rejects.toThrow(StatementRefused)
    expect((await be.engine.selectAll('SELECT count(*), max(message_id) FROM claudia_messages')).rows).toEqual(rowsBefore)
    const left = await be.engine.selectAll(
      "SELECT (SELECT count(*) FROM duckdb_tables()) + (SELECT count(*) FROM duckdb_functions() WHERE function_name = 'planted') + (SELECT count(*) FROM duckdb_databases() WHERE database_name = 'planted')"
    )
    expect(left.rows).toEqual([[0n]])
  })

  it('still runs SELECT in its every form, and EXPLAIN of a SELECT (plain and with a format)', async () => {
    const reads = [
      'SELECT count(*) FROM claudia_messages',
      'FROM claudia_messages LIMIT 1',
      'WITH m AS (SELECT message_id FROM claudia_messages) SELECT count(*) FROM m',
      'VALUES (1), (2)',
      'DESCRIBE claudia_messages',
      'SHOW TABLES',
      'SUMMARIZE SELECT 1 AS a',
      'SELECT * FROM range(3);',
      'EXPLAIN SELECT count(*) FROM claudia_messages',
      '/* the plan */ explain (FORMAT json) SELECT count(*) FROM claudia_messages',
      'EXPLAIN (FORMAT text) FROM claudia_messages'
    ]
    for (const sql of reads) expect((await be.engine.selectAll(sql)).rows.length, sql).toBeGreaterThan(0)
    const plan = await be.engine.selectAll('EXPLAIN (FORMAT json) SELECT count(*) FROM claudia_messages')
    expect(() => JSON.parse(String(plan.rows[0]?.[1]))).not.toThrow()
    // An export of a SELECT still writes its file.
    expect((await be.engine.copyToScratch('SELECT 1 AS x;', 'csv')).rows).toBe(1)
  })

  it('reads no file outside its folders, and DuckDB spills to its own temp folder within its memory limit', async () => {
    const secret = join(work, 'secret.txt')
    await writeFile(secret, 'not for SQL\n')
    for (const sql of [
      `SELECT * FROM read_text(${quoteLiteral(secret)})`,
      `SELECT * FROM glob(${quoteLiteral(`${work}/*`)})`,
      "SELECT * FROM read_text('.tmp/x')"
    ])
      await expect(be.engine.selectAll(sql), sql).rejects.toThrow(/Permission Error/)
    const settings = Object.fromEntries(
      (await be.engine.selectAll("SELECT name, value FROM duckdb_settings() WHERE name IN ('temp_directory', 'memory_limit', 'allowed_directories')")).rows.map(
        (r) => [String(r[0]), String(r[1])]
      )
    )
    expect(settings.temp_directory?.startsWith(`${engineDir}/`)).toBe(true)
    expect(settings.allowed_directories).not.toContain(join(process.cwd(), '.tmp'))
    expect(settings.allowed_directories).not.toContain(be.engine.scratchDir)
    const asked = engineMemoryLimits().memoryBytes
    const [, n, unit] = /^([\d.]+) (MiB|GiB)$/.exec(settings.memory_limit ?? '') ?? []
    expect(Math.abs(Number(n) * (unit === 'GiB' ? 2 ** 30 : 2 ** 20) - asked) / asked).toBeLessThan(0.01)
    expect(asked).toBeLessThanOrEqual(2 ** 31)
  })

  it('takes the memory limit it is given', async () => {
    const engine = await NativeEngine.open({ workDir: join(work, 'limited'), readableRoots: [], limits: { memoryBytes: 300 * 2 ** 20, tempBytes: 2 ** 30 } })
    try {
      const r = await engine.selectAll("SELECT value FROM duckdb_settings() WHERE name IN ('memory_limit', 'max_temp_directory_size') ORDER BY name")
      expect(r.rows).toEqual([['1.0 GiB'], ['300.0 MiB']])
    } finally {
      await engine.close()
    }
  })
})

describe('the CLI (query as table, JSON and CSV; export), over a local bucket folder', () => {
  let cache: string
  let cwd: string
  let mirrorDir: string
  const bucket = (): string => demo.bucketDir
  const cli = (args: string[], env: Record<string, string> = {}): Promise<CliRun> =>
    runCli([...args, '--bucket', bucket(), '--now', demo.expected.now], cache, env, cwd)
  const hashes = async (): Promise<string[]> => [await folderHash(bucket()), await folderHash(join(cache, 'mirror'))]

  beforeAll(async () => {
    cache = join(work, 'cli-cache')
    // A working folder holding DuckDB's default temp folder, with a file in it.
    cwd = join(work, 'cwd')
    await mkdir(join(cwd, '.tmp'), { recursive: true })
    await writeFile(join(cwd, '.tmp', 'secret'), 'aws_secret_access_key = not-for-sql\n')
    const first = await cli(['query', 'SELECT count(*) AS n FROM claudia_messages', '--format', 'json'])
    expect(first.code, first.stderr).toBe(0)
    const [id] = await readdir(join(cache, 'mirror'))
    mirrorDir = join(cache, 'mirror', id as string)
  }, 600_000)

  it('refuses EXPLAIN ANALYZE of a COPY into the bucket folder, its v1 history or the mirror, with exit 2, and nothing changes', async () => {
    const before = await hashes()
    const attacks: [string[], RegExp][] = [
      [['query', writesInto(bucket())[0] as string, '--format', 'table'], /EXPLAIN ANALYZE runs its statement and is refused/],
      [['query', writesInto(mirrorDir)[0] as string, '--format', 'json'], /EXPLAIN ANALYZE runs its statement and is refused/],
      [
        [
          'query',
          `EXPLAIN ANALYZE COPY (SELECT * FROM claudia_messages) TO ${quoteLiteral(join(bucket(), V1_MESSAGES))} (FORMAT parquet, PARTITION_BY (etl_date), OVERWRITE)`,
          '--format',
          'table'
        ],
        /EXPLAIN ANALYZE runs its statement and is refused/
      ],
      [['query', `COPY (SELECT 1 AS x) TO ${quoteLiteral(join(bucket(), 'planted.csv'))}`, '--format', 'csv'], /Only queries that read run here/],
      [
        ['export', '--sql', writesInto(join(mirrorDir, 'segments'))[0] as string, '--out', join(work, 'out.csv')],
        /EXPLAIN ANALYZE runs its statement and is refused/
      ],
      [['export', '--sql', 'EXPLAIN ANALYZE CREATE MACRO planted() AS 1', '--out', join(work, 'out.csv')], /EXPLAIN ANALYZE runs its statement/]
    ]
    for (const [args, why] of attacks) {
      const r = await cli(args)
      expect(r.code, args.join(' ')).toBe(2)
      expect(r.stderr).toMatch(why)
    }
    expect(existsSync(join(work, 'out.csv'))).toBe(false)
    expect(await hashes()).toEqual(before)
    expect((await readdir(join(bucket(), V1_MESSAGES))).some((d) => d.startsWith('etl_date='))).toBe(true)
  }, 300_000)

  it('refuses statements that change the views, in table and JSON output, and EXPLAIN of a SELECT still runs', async () => {
    for (const [sql, format] of [
      ['EXPLAIN ANALYZE CREATE OR REPLACE VIEW claudia_messages AS SELECT 1 AS message_id', 'json'],
      ['EXPLAIN ANALYZE CREATE TABLE planted AS SELECT 1 AS x', 'table'],
      ['DROP VIEW claudia_messages', 'json']
    ] as const) {
      const r = await cli(['query', sql, '--format', format])
      expect(r.code, sql).toBe(2)
      expect(r.stderr).toMatch(/the query was refused/)
    }
    const plan = await cli(['query', 'EXPLAIN SELECT count(*) FROM claudia_messages', '--format', 'table'])
    expect(plan.code, plan.stderr).toBe(0)
    expect(plan.stdout).toMatch(/physical_plan/)
    const json = await cli(['query', 'EXPLAIN (FORMAT json) SELECT 1', '--format', 'json'])
    expect(json.code, json.stderr).toBe(0)
  }, 300_000)

  it('cannot read DuckDB\u2019s default temp folder in the working directory, and its temp folder and memory are the engine\u2019s', async () => {
    for (const sql of [
      "SELECT * FROM read_text('.tmp/secret')",
      `SELECT * FROM read_text(${quoteLiteral(join(cwd, '.tmp', 'secret'))})`,
      "SELECT * FROM glob('.tmp/*')"
    ]) {
      const r = await cli(['query', sql, '--format', 'json'])
      expect(r.code, sql).toBe(1)
      expect(r.stderr).toMatch(/Permission Error/)
      expect(r.stdout).not.toMatch(/secret/)
    }
    const r = await cli(
      ['query', "SELECT name, value FROM duckdb_settings() WHERE name IN ('temp_directory', 'memory_limit') ORDER BY name", '--format', 'json'],
      {
        EXPORT_EXPLORER_MEMORY_LIMIT_MB: '300'
      }
    )
    expect(r.code, r.stderr).toBe(0)
    const [limit, temp] = JSON.parse(r.stdout) as { value: string }[]
    expect(limit?.value).toBe('300.0 MiB')
    expect(temp?.value.startsWith(join(cache, 'engine'))).toBe(true)
  }, 300_000)
})
