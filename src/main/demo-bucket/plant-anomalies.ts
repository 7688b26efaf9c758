// Plants the monitors' anomalies in a written demo bucket (generate-demo --anomalies): a full copy shrunk to a
// twentieth, a parts hour with no rows, and a dropped column, each rewritten by native DuckDB with its object time
// and its manifest's rows kept in step. Returns what the monitors must find, in expected.json's fault shape. The
// rest of expected.json is the truth of the bucket before them: a planted bucket is for the monitors, not the rules.
import { duckdb } from '../engine/duckdb-api'
import { readFile, rename, stat, utimes, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { DemoPlan, Fault, FolderWrite } from './demo-plan'
import { manifestKey } from '../../shared/bucket-key'
import { quoteIdent as sqlIdent, quoteLiteral as sqlString } from '../../shared/sql-quote'

/** The tables the anomalies go to (a full table of several rows an hour; the two busiest parts tables). */
export const ANOMALY_TABLES = { shrunk: 'claudia_conversation', empty: 'claudia_messages', dropped: 'cloud_chat_messages' } as const
/** The column dropped from one hour of `ANOMALY_TABLES.dropped`. */
export const DROPPED_COLUMN = 'body'

/** Hours before the last delivery where each is planted: late enough for a week of the same hour before it. */
const HOURS_BEFORE_END = { shrunk: 30, empty: 20, dropped: 40 } as const

const usable = (f: FolderWrite, corrupt: ReadonlySet<string>): boolean =>
  f.delivery.kind === 'v2' && f.marker !== null && f.files.length > 0 && f.files.every((x) => !corrupt.has(x.key))

export async function plantMonitorAnomalies(bucketDir: string, plan: DemoPlan): Promise<Fault[]> {
  const corrupt = new Set(plan.corruptFiles)
  const lastH = Math.max(...plan.folders.map((f) => f.delivery.h ?? -1))
  const v2Of = (table: string): FolderWrite[] =>
    plan.folders.filter((f) => f.table.table === table && usable(f, corrupt)).sort((a, b) => (a.delivery.h as number) - (b.delivery.h as number))
  /** The table's usable folder at `hoursBefore` the end, or the nearest one before it. */
  const pick = (table: string, hoursBefore: number): { folder: FolderWrite; next: FolderWrite | undefined } => {
    const list = v2Of(table)
    const i = list.findLastIndex((f) => (f.delivery.h as number) <= lastH - hoursBefore)
    if (i < 0) throw new Error(`generator: no ready v2 folder of ${table} to plant an anomaly in (generate more --days)`)
    return { folder: list[i] as FolderWrite, next: list[i + 1] }
  }
  const fault = (kind: string, f: FolderWrite): Fault => ({ kind, date: f.delivery.date, hour: f.delivery.hour, table: f.table.table, key: f.prefix })

  const instance = await duckdb.DuckDBInstance.create(':memory:', { autoinstall_known_extensions: 'false', autoload_known_extensions: 'false' })
  const conn = await instance.connect()
  /** Rewrites each of the folder's files as `select` over it (`FROM file`), keeping its object time; returns its rows. */
  const rewrite = async (f: FolderWrite, select: (from: string) => string): Promise<number> => {
    let rows = 0
    for (const file of f.files) {
      const path = join(bucketDir, file.key)
      const from = `read_parquet(${sqlString(path)}, hive_partitioning = false)`
      const tmp = `${path}.planting`
      await conn.run(`COPY (${select(from)}) TO ${sqlString(tmp)} (FORMAT parquet)`)
      rows += Number(
        (await (await conn.runAndReadAll(`SELECT count(*) FROM read_parquet(${sqlString(tmp)}, hive_partitioning = false)`)).getRows())[0]?.[0] ?? 0
      )
      const { mtime } = await stat(path)
      await rename(tmp, path)
      await utimes(path, mtime, mtime)
    }
    return rows
  }
  const countRows = async (f: FolderWrite): Promise<number> => {
    const files = f.files.map((x) => sqlString(join(bucketDir, x.key))).join(', ')
    return Number((await (await conn.runAndReadAll(`SELECT count(*) FROM read_parquet([${files}], hive_partitioning = false)`)).getRows())[0]?.[0] ?? 0)
  }
  /** The hour's manifest gives the rows the vendor wrote: kept in step, so the anomaly is not also a mismatch. */
  const setManifestRows = async (f: FolderWrite, rows: number): Promise<void> => {
    const path = join(bucketDir, manifestKey('v2', f.delivery.date, f.delivery.hour))
    let json: { tables_delivered?: { table?: string; rows?: number }[] }
    try {
      json = JSON.parse(await readFile(path, 'utf8')) as typeof json
    } catch {
      return // no manifest, or the planted malformed one: nothing says the rows
    }
    const entry = json.tables_delivered?.find((e) => typeof e === 'object' && e.table === f.table.table)
    if (!entry || entry.rows === undefined) return
    entry.rows = rows
    const { mtime } = await stat(path)
    await writeFile(path, JSON.stringify(json, null, 2))
    await utimes(path, mtime, mtime)
  }

  try {
    const faults: Fault[] = []
    const shrunk = pick(ANOMALY_TABLES.shrunk, HOURS_BEFORE_END.shrunk).folder
    const total = await countRows(shrunk)
    const keep = Math.max(1, Math.floor(total / (20 * shrunk.files.length)))
    await setManifestRows(shrunk, await rewrite(shrunk, (from) => `SELECT * FROM ${from} LIMIT ${keep}`))
    faults.push(fault('volume_anomaly', shrunk))

    const empty = pick(ANOMALY_TABLES.empty, HOURS_BEFORE_END.empty).folder
    await setManifestRows(empty, await rewrite(empty, (from) => `SELECT * FROM ${from} WHERE false`))
    faults.push(fault('volume_anomaly', empty))

    const { folder: dropped, next } = pick(ANOMALY_TABLES.dropped, HOURS_BEFORE_END.dropped)
    await rewrite(dropped, (from) => `SELECT * EXCLUDE (${sqlIdent(DROPPED_COLUMN)}) FROM ${from}`)
    // Dropped at its hour (a warning), back at the next delivery (information).
    faults.push(fault('schema_change', dropped))
    if (next) faults.push(fault('schema_change', next))
    return faults
  } finally {
    conn.closeSync()
    instance.closeSync()
  }
}
