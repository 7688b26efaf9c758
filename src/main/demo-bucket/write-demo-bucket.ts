// Writes a planned demo bucket to a folder: real Parquet written by native DuckDB, _SUCCESS markers,
// manifests, object times (file mtimes), the storage-class sidecar the local provider reads, and
// expected.json beside the bucket.
import type { DuckDBConnection } from '@duckdb/node-api'
import { duckdb } from '../engine/duckdb-api'
import { copyFile, mkdir, rm, stat, truncate, utimes, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { DEMO_TABLES, type DemoTable } from './demo-tables'
import { type DemoOptions, type DemoPlan, type FolderWrite, planDemoBucket } from './demo-plan'
import { plantMonitorAnomalies } from './plant-anomalies'
import { LOCAL_METADATA_DIR, STORAGE_CLASS_SIDECAR } from '../bucket/local-sidecar'
import { tablePrefix } from '../../shared/bucket-key'

export interface WrittenDemo {
  /** The bucket folder (what a connection opens). */
  readonly bucketDir: string
  readonly expectedPath: string
  readonly plan: DemoPlan
}

// Thousands of small COPY statements, each mostly one thread's fixed cost: several connections writing folders at
// once keep both cores busy (measured on 2 cores: see write-demo-bucket's commit). Each file's bytes do not depend on it.
const COPY_WRITERS = 4
const COPY_THREADS = 1

const sqlString = (s: string): string => `'${s.replaceAll("'", "''")}'`
const sqlIdent = (s: string): string => `"${s.replaceAll('"', '""')}"`
const sqlTimestamp = (t: number): string => `TIMESTAMP '${new Date(t).toISOString().replace('T', ' ').replace('Z', '')}'`

async function loadRows(conn: DuckDBConnection, t: DemoTable, plan: DemoPlan): Promise<void> {
  const extra = t.table === plan.addedColumn.table ? [{ name: plan.addedColumn.column, type: 'VARCHAR' as const }] : []
  const cols = [...t.columns, ...extra]
  const meta = t.mode === 'full' ? '__n BIGINT' : '__folder VARCHAR, __file INTEGER, __seq INTEGER'
  await conn.run(`CREATE TABLE ${sqlIdent(t.table)} (${cols.map((c) => `${sqlIdent(c.name)} ${c.type}`).join(', ')}, ${meta})`)
  const app = await conn.createAppender(t.table)
  const appendRow = (values: Record<string, unknown>): void => {
    for (const c of cols) {
      const v = values[c.name]
      if (v === null || v === undefined) app.appendNull()
      else if (c.type === 'VARCHAR') app.appendVarchar(String(v))
      else if (c.type === 'BIGINT') app.appendBigInt(BigInt(v as number))
      else if (c.type === 'DOUBLE') app.appendDouble(v as number)
      else if (c.type === 'BOOLEAN') app.appendBoolean(v as boolean)
      else app.appendTimestamp(duckdb.timestampValue(BigInt(v as number) * 1000n))
    }
  }
  if (t.mode === 'full') {
    plan.fullRows.get(t.table)!.forEach((r, i) => {
      appendRow(r.values)
      app.appendBigInt(BigInt(i))
      app.endRow()
    })
  } else {
    for (const v of plan.versions.get(t.table)!) {
      if (!v.delivery) continue
      appendRow(v.values)
      app.appendVarchar(prefixKey(t, v.delivery))
      app.appendInteger(v.file)
      app.appendInteger(v.seq)
      app.endRow()
    }
  }
  app.closeSync()
}

function prefixKey(t: DemoTable, d: { kind: string; date: string; hour: string | null }): string {
  const base = tablePrefix(t, d.kind === 'v2' ? 'v2' : 'v1')
  if (d.kind === 'initial') return `${base}etl_date=__initial__/`
  return d.kind === 'v2' ? `${base}etl_date=${d.date}/etl_hour=${d.hour}/` : `${base}etl_date=${d.date}/`
}

async function touch(path: string, mtime: number): Promise<void> {
  const at = new Date(mtime)
  await utimes(path, at, at)
}

/** One folder: its Parquet files (each a COPY of its rows), then its _SUCCESS marker, with their object times. */
async function writeFolder(conn: DuckDBConnection, bucketDir: string, f: FolderWrite, corrupt: ReadonlySet<string>): Promise<void> {
  const dir = join(bucketDir, f.prefix)
  await mkdir(dir, { recursive: true })
  const cols = f.columns.map((c) => (f.casts[c] ? `CAST(${sqlIdent(c)} AS ${f.casts[c]}) AS ${sqlIdent(c)}` : sqlIdent(c))).join(', ')
  for (const file of f.files) {
    const where =
      f.table.mode === 'full'
        ? `created_at < ${sqlTimestamp(f.delivery.cutoff)}${file.parts > 1 ? ` AND __n % ${file.parts} = ${file.part}` : ''} ORDER BY __n`
        : `__folder = ${sqlString(f.prefix)} AND __file = ${file.part} ORDER BY __seq`
    const path = join(bucketDir, file.key)
    await conn.run(`COPY (SELECT ${cols} FROM ${sqlIdent(f.table.table)} WHERE ${where}) TO ${sqlString(path)} (FORMAT parquet)`)
    // An upload cut short: the first half of a real file, its footer gone.
    if (corrupt.has(file.key)) await truncate(path, Math.floor((await stat(path)).size / 2))
    await touch(path, file.mtime)
  }
  if (f.marker !== null) {
    const path = join(dir, '_SUCCESS')
    await writeFile(path, '')
    await touch(path, f.marker)
  }
}

/** Plans and writes a demo bucket into `outDir/bucket`, with `outDir/expected.json`. Replaces what was there. */
export async function writeDemoBucket(outDir: string, options: DemoOptions, onProgress?: (done: number, total: number) => void): Promise<WrittenDemo> {
  const plan = planDemoBucket(options)
  const bucketDir = join(outDir, 'bucket')
  await rm(bucketDir, { recursive: true, force: true })
  await mkdir(bucketDir, { recursive: true })

  const corrupt = new Set(plan.corruptFiles)
  const instance = await duckdb.DuckDBInstance.create(':memory:')
  const conns: DuckDBConnection[] = []
  try {
    const first = await instance.connect()
    conns.push(first)
    await first.run(`SET threads = ${COPY_THREADS}`)
    for (const t of DEMO_TABLES) await loadRows(first, t, plan)
    for (let i = 1; i < COPY_WRITERS; i++) conns.push(await instance.connect())
    // Each folder is written whole by one writer; the writers take the next folder in plan order.
    let next = 0
    let done = 0
    const writer = async (conn: DuckDBConnection): Promise<void> => {
      while (next < plan.folders.length) {
        const f = plan.folders[next++]!
        await writeFolder(conn, bucketDir, f, corrupt)
        onProgress?.(++done, plan.folders.length)
      }
    }
    await Promise.all(conns.map(writer))
  } finally {
    for (const c of conns) c.closeSync()
    instance.closeSync()
  }

  for (const c of plan.hiddenCopies) {
    await copyFile(join(bucketDir, c.from), join(bucketDir, c.to))
    await touch(join(bucketDir, c.to), c.mtime)
  }
  for (const t of plan.texts) {
    const path = join(bucketDir, t.key)
    await mkdir(dirname(path), { recursive: true })
    await writeFile(path, t.text)
    await touch(path, t.mtime)
  }
  await mkdir(join(bucketDir, LOCAL_METADATA_DIR), { recursive: true })
  await writeFile(join(bucketDir, LOCAL_METADATA_DIR, STORAGE_CLASS_SIDECAR), JSON.stringify(plan.storageClasses, null, 2))
  const expectedPath = join(outDir, 'expected.json')
  const planted = options.anomalies ? await plantMonitorAnomalies(bucketDir, plan) : []
  const expected = { ...plan.expected, faults: [...plan.expected.faults, ...planted] }
  await writeFile(expectedPath, JSON.stringify(expected, null, 2))
  return { bucketDir, expectedPath, plan: { ...plan, expected } }
}
