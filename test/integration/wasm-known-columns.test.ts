// The query pane's engine learns a table's columns from the footers it reads when the files are registered (the type
// check of wasm-readable-files.ts), instead of a DESCRIBE reading every footer again: on DuckDB-WASM 0.9.1 (its Node
// build, files written by native DuckDB), those columns must be exactly DESCRIBE's, names and order, whatever the
// files hold (nested types, dots in names, columns added and dropped along the history); where DuckDB's own matching
// could differ (names equal but for case), the engine says it does not know and DESCRIBE answers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { globColumnsSql, globOf } from '../../src/shared/logical-table-sql'
import { quoteLiteral } from '../../src/shared/sql-quote'
import type { BrowserEngine } from '../../src/renderer/src/engine/wasm-engine'
import { guardForWasm } from '../../src/renderer/src/engine/wasm-readable-files'
import { openDb } from '../helpers/duckdb'
import { startNodeWasmEngine } from '../helpers/node-wasm-engine'
import { serveFolder } from '../helpers/static-server'

let dir: string
let files: { origin: string; close(): Promise<void> }
let wasm: BrowserEngine

/** Each set: the SELECT that writes each of its files, in delivery order. */
const SETS: Record<string, readonly string[]> = {
  history: [
    `SELECT 1::INTEGER AS id, {'a': 1, 'b': {'c': 'x', 'd.e': 2}} AS s, [1, 2] AS l, MAP {'k': 1} AS m, 'v' AS "dotted.name"`,
    `SELECT 2::INTEGER AS id, 'late' AS late, {'a': 3, 'b': {'c': 'y', 'd.e': 4}} AS s, MAP {'k': 2} AS m, 'w' AS "dotted.name"`,
    `SELECT 'only' AS third, 3::INTEGER AS id`
  ],
  cases: [`SELECT 1 AS id, 'a' AS "Tenant"`, `SELECT 2 AS id, 'b' AS tenant`]
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ee-known-columns-'))
  const db = await openDb()
  try {
    for (const [set, selects] of Object.entries(SETS))
      for (const [i, select] of selects.entries()) await db.run(`COPY (${select}) TO ${quoteLiteral(join(dir, `${set}-${i}.parquet`))} (FORMAT parquet)`)
  } finally {
    db.close()
  }
  files = await serveFolder(dir)
  wasm = await startNodeWasmEngine((key) => `${files.origin}/${key}`)
}, 300_000)
afterAll(async () => {
  await wasm?.close()
  await files?.close()
  if (dir) await rm(dir, { recursive: true, force: true })
})

/** Registers a set's files as the views name them, through the pane's guard; its known columns and DESCRIBE's. */
async function columnsOf(set: string): Promise<{ known: readonly string[] | null; described: string[] }> {
  const base = `ee/s/${set}/`
  const guarded = guardForWasm(wasm)
  const selects = SETS[set] ?? []
  await guarded.register(selects.map((_, i) => ({ name: `${base}t${i}-${String(i + 1).padStart(9, '0')}.parquet`, key: `${set}-${i}.parquet`, size: 0 })))
  const described = (await wasm.query(globColumnsSql([globOf(base)]))).map((r) => String(r['column_name']))
  return { known: guarded.columnsOf?.(globOf(base)) ?? null, described }
}

describe("the pane's known columns", () => {
  it('are DESCRIBE’s, names and order, over nested types, dotted names, and columns added and dropped', async () => {
    const { known, described } = await columnsOf('history')
    expect(described).toEqual(['id', 's', 'l', 'm', 'dotted.name', 'late', 'third'])
    expect(known).toEqual(described)
  })

  it('are not claimed where names differ only by case: DESCRIBE answers', async () => {
    const { known, described } = await columnsOf('cases')
    expect(described.map((c) => c.toLowerCase())).toEqual(['id', 'tenant'])
    expect(known).toBeNull()
  })
})
