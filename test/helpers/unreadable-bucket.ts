// A small bucket written by native DuckDB with unreadable Parquet files (issue 12 item 10): claudia_csat's newest
// ready copy holds a file cut short and a zero-byte file; claudia_messages' newest folder holds one good file, one
// cut short and one of zero bytes. Object times are set on the files (the local provider and s3rver keep them).
import { mkdir, readFile, truncate, utimes, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { folderPrefix, manifestKey } from '../../src/shared/bucket-key'
import { CATALOG, type CatalogTable } from '../../src/shared/catalog'
import { quoteLiteral } from '../../src/shared/sql-quote'
import type { Db } from './duckdb'

const MIN = 60_000
const HOUR = 60 * MIN
export const d = (t: number): string => new Date(t).toISOString().slice(0, 10)
export const h = (t: number): string => new Date(t).toISOString().slice(11, 13)
const table = (name: string): CatalogTable => CATALOG.find((t) => t.table === name) as CatalogTable
export const CSAT = table('claudia_csat')
export const MSGS = table('claudia_messages')
export const H03 = Date.UTC(2026, 10, 3, 3)
export const H04 = H03 + HOUR
/** The instant the bucket is evaluated at. */
export const NOW = H04 + 2 * HOUR
export const csat03 = folderPrefix(CSAT, 'v2', d(H03), h(H03))
export const csat04 = folderPrefix(CSAT, 'v2', d(H04), h(H04))
export const msgs03 = folderPrefix(MSGS, 'v2', d(H03), h(H03))
export const msgs04 = folderPrefix(MSGS, 'v2', d(H04), h(H04))
/** The unreadable files, in key order: csat's cut-short and zero-byte, messages' cut-short and zero-byte. */
export const BAD = [`${csat04}part-0.parquet`, `${csat04}part-1.parquet`, `${msgs04}part-1.parquet`, `${msgs04}part-2.parquet`] as const

/** Writes a test bucket's objects with their delivery times: `put` a file (or only its time), `parquet` a query's rows. */
export function bucketWriter(
  root: string,
  db: Db
): { put: (key: string, at: number, body?: string | Buffer) => Promise<void>; parquet: (key: string, select: string, at: number) => Promise<void> } {
  const put = async (key: string, at: number, body?: string | Buffer): Promise<void> => {
    await mkdir(dirname(join(root, key)), { recursive: true })
    if (body !== undefined) await writeFile(join(root, key), body)
    await utimes(join(root, key), new Date(at), new Date(at))
  }
  const parquet = async (key: string, select: string, at: number): Promise<void> => {
    await mkdir(dirname(join(root, key)), { recursive: true })
    await db.run(`COPY (${select}) TO ${quoteLiteral(join(root, key))} (FORMAT parquet)`)
    await put(key, at)
  }
  return { put, parquet }
}

export async function writeUnreadableBucket(root: string, db: Db): Promise<void> {
  const { put, parquet } = bucketWriter(root, db)
  // A real Parquet file cut in half: its footer is gone.
  const truncated = async (key: string, select: string, at: number): Promise<void> => {
    await parquet(key, select, at)
    await truncate(join(root, key), Math.floor((await readFile(join(root, key))).length / 2))
    await put(key, at)
  }
  const csatRows = (k: number, tag: string): string => `SELECT 'r' || i AS csat_id, 'tnt_acme' AS tenant_id, ${quoteLiteral(tag)} AS tag FROM range(${k}) t(i)`
  const msgRows = (keys: string[], tag: string): string =>
    `SELECT * FROM (VALUES ${keys.map((k) => `(${quoteLiteral(k)}, 'tnt_acme', ${quoteLiteral(tag)})`).join(', ')}) t(message_id, tenant_id, content)`
  for (const at of [H03, H04]) {
    await put(
      manifestKey('v2', d(at), h(at)),
      at + 25 * MIN,
      JSON.stringify({ snapshot_date: d(at), snapshot_hour: h(at), complete: true, tables_delivered: [], tables_missing: [], tables_pending: [] })
    )
  }
  await parquet(`${csat03}part-0.parquet`, csatRows(3, 'h03'), H03 + 10 * MIN)
  await put(`${csat03}_SUCCESS`, H03 + 20 * MIN, '')
  await truncated(`${csat04}part-0.parquet`, csatRows(5, 'h04'), H04 + 10 * MIN)
  await put(`${csat04}part-1.parquet`, H04 + 10 * MIN, '')
  await put(`${csat04}_SUCCESS`, H04 + 20 * MIN, '')
  await parquet(`${msgs03}part-0.parquet`, msgRows(['m1', 'm2'], 'h03'), H03 + 10 * MIN)
  await put(`${msgs03}_SUCCESS`, H03 + 20 * MIN, '')
  await parquet(`${msgs04}part-0.parquet`, msgRows(['m3'], 'h04'), H04 + 10 * MIN)
  await truncated(`${msgs04}part-1.parquet`, msgRows(['m1', 'm4'], 'h04'), H04 + 10 * MIN)
  await put(`${msgs04}part-2.parquet`, H04 + 10 * MIN, '')
  await put(`${msgs04}_SUCCESS`, H04 + 20 * MIN, '')
}
