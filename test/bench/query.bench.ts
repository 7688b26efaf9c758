// npm run bench -- query
// claudia_messages with >= 2,000,000 row versions in >= 500 hourly folders (real Parquet written by native
// DuckDB, keys re-delivered across folders). Times the logical table's count(*), a filtered aggregate by
// send_at day and a CSV export through the app's engine (native DuckDB 1.5, locked down, views from the core
// over the local file store: what the CLI and the app's exports run) and through a plain native DuckDB on the same
// files with the same rules, in one run.
import { mkdir, mkdtemp, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DuckDBInstance } from '@duckdb/node-api'
import { LocalFolderProvider } from '../../src/main/bucket/local-provider'
import { listAll } from '../../src/main/bucket/bucket-provider'
import { openBucketEngine } from '../../src/main/engine/open-bucket-engine'
import { fileStoreFor } from '../../src/main/store/connection-files'
import { exportQuery } from '../../src/main/export/export-to-file'
import { CATALOG } from '../../src/shared/catalog'
import { buildInventory, foldersForLogicalTable } from '../../src/shared/inventory'
import type { ListedObject } from '../../src/shared/listing'
import { logicalTableSql } from '../../src/shared/logical-table-sql'

const HOURS = Number(process.env['BENCH_HOURS'] ?? 520)
const ROWS_PER_HOUR = Number(process.env['BENCH_ROWS_PER_HOUR'] ?? 4000)
const START = Date.UTC(2026, 10, 3, 3)

/** claudia_messages' hourly folders from the v2 switch on (`hours` of them, `rowsPerHour` new rows each plus 10% re-deliveries). */
export async function writeBucket(root: string, hours = HOURS, rowsPerHour = ROWS_PER_HOUR): Promise<void> {
  const HOURS = hours
  const ROWS_PER_HOUR = rowsPerHour
  const db = await DuckDBInstance.create(':memory:')
  const c = await db.connect()
  await c.run(`CREATE TABLE ids AS SELECT range AS i FROM range(${HOURS * ROWS_PER_HOUR})`)
  for (let h = 0; h < HOURS; h++) {
    const t = new Date(START + h * 3_600_000)
    const d = t.toISOString().slice(0, 10)
    const hh = t.toISOString().slice(11, 13)
    const dir = join(root, `v2/datamart_claudia/claudia_messages/etl_date=${d}/etl_hour=${hh}`)
    await mkdir(dir, { recursive: true })
    // New messages of the hour, plus 10% re-deliveries of earlier messages (newer versions).
    const fresh = `SELECT 'message_' || lpad(CAST(${h * ROWS_PER_HOUR} + i AS VARCHAR), 9, '0') AS message_id, 'conv_' || ((${h * ROWS_PER_HOUR} + i) % 50000) AS conversation_id,
      ['tnt_acme','tnt_globex','tnt_initech','tnt_umbrella'][1 + (i % 4)] AS tenant_id, CASE WHEN i % 2 = 0 THEN 'user' ELSE 'assistant' END AS role,
      'text of message ' || i || ' in hour ${h}' AS content, (i % 900)::BIGINT AS tokens,
      TIMESTAMP '${new Date(START + h * 3_600_000 - 3_600_000).toISOString().replace('T', ' ').replace('Z', '')}' + to_seconds((i % 3600)::BIGINT) AS send_at,
      TIMESTAMP '${t.toISOString().replace('T', ' ').replace('Z', '')}' AS updated_at FROM range(${ROWS_PER_HOUR}) r(i)`
    const redo =
      h === 0
        ? ''
        : ` UNION ALL SELECT 'message_' || lpad(CAST(j AS VARCHAR), 9, '0'), 'conv_' || (j % 50000), 'tnt_acme', 'user', 'edited in hour ${h}', 1,
      TIMESTAMP '2026-11-03 02:00:00', TIMESTAMP '${t.toISOString().replace('T', ' ').replace('Z', '')}' FROM (SELECT (i * 7919 + ${h}) % ${h * ROWS_PER_HOUR} AS j FROM range(${ROWS_PER_HOUR / 10}) r(i))`
    await c.run(`COPY (${fresh}${redo}) TO '${dir}/part-00000.parquet' (FORMAT parquet, ROW_GROUP_SIZE 100000)`)
    await (await import('node:fs/promises')).writeFile(join(dir, '_SUCCESS'), '')
  }
  await (await import('node:fs/promises')).mkdir(join(root, 'v2/_manifests/snapshot_date=2026-11-03/snapshot_hour=03'), { recursive: true })
  await (await import('node:fs/promises')).writeFile(join(root, 'v2/_manifests/snapshot_date=2026-11-03/snapshot_hour=03/manifest.json'), '{}')
  c.closeSync()
  db.closeSync()
}

async function time<T>(run: () => Promise<T>): Promise<[number, T]> {
  const t0 = performance.now()
  const r = await run()
  return [performance.now() - t0, r]
}

export async function benchQuery(): Promise<void> {
  const work = await mkdtemp(join(tmpdir(), 'ee-bench-query-'))
  try {
    const root = join(work, 'bucket')
    process.stderr.write(`writing ${HOURS} folders of claudia_messages…\n`)
    await writeBucket(root)
    const provider = new LocalFolderProvider(root)
    const objects = new Map<string, ListedObject>()
    for await (const o of listAll(provider, '')) objects.set(o.key, o)
    const inv = buildInventory(objects.values())
    const t = CATALOG.find((c) => c.table === 'claudia_messages')!
    const folders = foldersForLogicalTable(inv, t)
    const totalBytes = [...objects.values()].filter((o) => o.key.endsWith('.parquet')).reduce((s, o) => s + o.size, 0)

    // Native DuckDB on the same files, with the same rules (the list form of the SQL).
    const nativeDb = await DuckDBInstance.create(':memory:')
    const native = await nativeDb.connect()
    const q = logicalTableSql(t, folders, (k) => join(root, k))
    if (!q.ok) throw new Error(q.message)
    await native.run(`CREATE VIEW claudia_messages AS ${q.sql}`)

    const store = fileStoreFor(provider, join(work, 'data'), 'bench')
    const [openMs, be] = await time(() => openBucketEngine(store, inv, objects, join(work, 'engine')))
    const queries: [string, string][] = [
      ['count(*)', 'SELECT count(*) FROM claudia_messages'],
      [
        'rows per send_at day, one tenant',
        "SELECT CAST(send_at AS DATE) AS day, count(*) AS n, sum(tokens) AS tokens FROM claudia_messages WHERE tenant_id = 'tnt_acme' GROUP BY 1 ORDER BY 1"
      ]
    ]
    const lines: string[] = []
    let versions = 0
    {
      const r = await native.runAndReadAll(`SELECT count(*) FROM (${q.sql.replace(/QUALIFY[\s\S]*$/, '')})`)
      versions = Number(r.getRows()[0]?.[0])
    }
    for (const [label, sql] of queries) {
      const [nativeMs, nr] = await time(async () => (await native.runAndReadAll(sql)).getRows())
      const [oursMs, or] = await time(() => be.engine.selectAll(sql))
      if (nr.length !== or.rows.length) throw new Error(`${label}: native gave ${nr.length} rows, ours ${or.rows.length}`)
      lines.push(`  ${label.padEnd(36)} native ${(nativeMs / 1000).toFixed(2)} s   ours ${(oursMs / 1000).toFixed(2)} s   ${(oursMs / nativeMs).toFixed(1)}x`)
    }
    const exportSql = "SELECT * FROM claudia_messages WHERE send_at >= TIMESTAMP '2026-11-10 00:00:00'"
    const [nativeExportMs] = await time(() => native.run(`COPY (${exportSql}) TO '${join(work, 'native.csv')}' (FORMAT csv, HEADER)`))
    const [oursExportMs, exported] = await time(() => exportQuery(be.engine, exportSql, join(work, 'ours.csv'), { format: 'csv' }))
    lines.push(
      `  ${`CSV export (${exported.rows} rows)`.padEnd(36)} native ${(nativeExportMs / 1000).toFixed(2)} s   ours ${(oursExportMs / 1000).toFixed(2)} s   ${(oursExportMs / nativeExportMs).toFixed(1)}x`
    )

    await be.engine.close()
    native.closeSync()
    nativeDb.closeSync()

    const mb = (b: number): string => `${(b / 1e6).toFixed(1)} MB`
    console.log(`query benchmark: claudia_messages, ${versions} row versions in ${folders.length} folders (${mb(totalBytes)} of Parquet)`)
    console.log(`  app engine: ${be.engine.version}; opening it with the views (links to ${folders.length} folders' files): ${(openMs / 1000).toFixed(2)} s`)
    for (const l of lines) console.log(l)
    void (await stat(join(work, 'ours.csv')))
  } finally {
    await rm(work, { recursive: true, force: true })
  }
}
