// The frame check's schema tag (parquet-footer-worker.ts), on real Parquet written by native DuckDB: files that DuckDB
// reads with the same columns and types have the same tag, whatever their rows and their other metadata; a type, a
// column's place, a nested field or Arrow's own schema that differs gives another. The mirror's build reads files of
// one tag as one schema (mirror-sql.ts), so a tag that matched files DuckDB reads otherwise would cast values.
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FooterParser, readParquetFooter } from '../../src/main/store/parquet-footer'
import { quoteLiteral } from '../../src/shared/sql-quote'
import { type Db, openDb } from '../helpers/duckdb'

let work: string
let db: Db
const parser = new FooterParser({ workers: 1 })

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'ee-schema-tag-'))
  db = await openDb()
})
afterAll(async () => {
  db?.close()
  await parser.close()
  await rm(work, { recursive: true, force: true })
})

let written = 0
/** The tag of a file DuckDB writes from `select` (with `options` added to its COPY). */
async function tagOf(select: string, options = ''): Promise<string> {
  const path = join(work, `f${++written}.parquet`)
  await db.run(`COPY (${select}) TO ${quoteLiteral(path)} (FORMAT parquet${options})`)
  const bytes = new Uint8Array(await readFile(path))
  const r = await readParquetFooter(bytes.length, async (start, end) => bytes.subarray(start, end + 1), { parser })
  if (!r.ok) throw new Error(r.why)
  return r.footer.schemaTag
}

describe('the schema tag of a Parquet file', () => {
  it('is the same for files DuckDB reads alike, whatever their rows and other metadata', async () => {
    const base = await tagOf(`SELECT 1::BIGINT AS id, 'a' AS name, [1, 2] AS tags, {'x': 1} AS s`)
    expect(base).toMatch(/^[A-Za-z0-9_-]{22}$/)
    expect(await tagOf(`SELECT range::BIGINT AS id, 'b' || range AS name, [range::INTEGER] AS tags, {'x': 7} AS s FROM range(500)`)).toBe(base)
    // Metadata that does not decide a type (a writer's own note) leaves the tag as it is.
    expect(await tagOf(`SELECT 2::BIGINT AS id, 'c' AS name, [3] AS tags, {'x': 2} AS s`, `, KV_METADATA {written_by: 'job 7'}`)).toBe(base)
  })

  it('differs when a type, a column, its place, a nested field or Arrow’s schema differs', async () => {
    const base = await tagOf(`SELECT 1::BIGINT AS id, 'a' AS name, {'x': 1} AS s`)
    const others = [
      await tagOf(`SELECT 1.5::DOUBLE AS id, 'a' AS name, {'x': 1} AS s`),
      await tagOf(`SELECT 1::INTEGER AS id, 'a' AS name, {'x': 1} AS s`),
      await tagOf(`SELECT 1::DECIMAL(18, 2) AS id, 'a' AS name, {'x': 1} AS s`),
      await tagOf(`SELECT 'a' AS name, 1::BIGINT AS id, {'x': 1} AS s`),
      await tagOf(`SELECT 1::BIGINT AS id, 'a' AS name`),
      await tagOf(`SELECT 1::BIGINT AS id, 'a' AS name, {'x': 1} AS s, 0 AS extra`),
      await tagOf(`SELECT 1::BIGINT AS id, 'a' AS name, {'x': 1, 'y': 2} AS s`),
      await tagOf(`SELECT 1::BIGINT AS id, 'a' AS name, {'x': 1::DOUBLE} AS s`),
      await tagOf(`SELECT 1::BIGINT AS ID, 'a' AS name, {'x': 1} AS s`),
      await tagOf(`SELECT 1::BIGINT AS id, 'a' AS name, {'x': 1} AS s`, `, KV_METADATA {'ARROW:schema': 'another'}`),
      await tagOf(`SELECT 1::BIGINT AS id, 'a' AS name, {'x': 1} AS s`, `, KV_METADATA {'ARROW:schema': 'yet another'}`),
      await tagOf(`SELECT 1::BIGINT AS id, 'a' AS name, {'x': 1} AS s`, `, KV_METADATA {geo: '{}'}`),
      await tagOf(`SELECT 1::BIGINT AS id, 'a'::BLOB AS name, {'x': 1} AS s`)
    ]
    expect(others.filter((t) => t === base)).toEqual([])
    expect(new Set(others).size).toBe(others.length)
    // Types that differ only in a unit, a zone, a scale or an element type.
    const kinds = [
      await tagOf(`SELECT TIMESTAMP '2026-01-01 00:00:00' AS t`),
      await tagOf(`SELECT TIMESTAMPTZ '2026-01-01 00:00:00+00' AS t`),
      await tagOf(`SELECT TIMESTAMP_MS '2026-01-01 00:00:00' AS t`),
      await tagOf(`SELECT TIMESTAMP_NS '2026-01-01 00:00:00' AS t`),
      await tagOf(`SELECT 1.5::DECIMAL(18, 2) AS t`),
      await tagOf(`SELECT 1.5::DECIMAL(18, 3) AS t`),
      await tagOf(`SELECT [1::INTEGER] AS t`),
      await tagOf(`SELECT [1::BIGINT] AS t`),
      await tagOf(`SELECT ['a'] AS t`)
    ]
    expect(new Set(kinds).size).toBe(kinds.length)
  })
})
