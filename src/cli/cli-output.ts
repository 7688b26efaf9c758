// Query results on stdout: an aligned table, DuckDB's own CSV, or JSON rows (values: src/main/engine/json-values.ts and the usage text).
import { once } from 'node:events'
import { createReadStream } from 'node:fs'
import { rm } from 'node:fs/promises'
import { duckdb } from '../main/engine/duckdb-api'
import { toJsonValue } from '../main/engine/json-values'
import type { NativeEngine } from '../main/engine/native-engine'

const TABLE_ROWS = 1000

export async function writeOut(chunk: string | Uint8Array): Promise<void> {
  if (!process.stdout.write(chunk)) await once(process.stdout, 'drain')
}

/** CSV as native DuckDB's COPY writes it (the same bytes as an exported file), streamed to stdout. */
export async function writeCsv(engine: NativeEngine, sql: string, signal: AbortSignal): Promise<void> {
  const { path } = await engine.copyToScratch(sql, 'csv', { signal })
  try {
    for await (const chunk of createReadStream(path)) await writeOut(chunk as Buffer)
  } finally {
    await rm(path, { force: true })
  }
}

/** One JSON array of row objects, written as rows arrive (values: see json-values.ts and --help). */
export async function writeJson(engine: NativeEngine, sql: string, signal: AbortSignal): Promise<void> {
  let first = true
  await engine.select(
    sql,
    async (columns, rows) => {
      const isFloat = columns.types.map((t) => t.typeId === duckdb.DuckDBTypeId.FLOAT)
      for (const r of rows) {
        const obj = Object.fromEntries(columns.names.map((c, i) => [c, toJsonValue(r[i] ?? null, isFloat[i])]))
        await writeOut(`${first ? '[' : ','}\n${JSON.stringify(obj)}`)
        first = false
      }
    },
    { signal }
  )
  await writeOut(first ? '[]\n' : '\n]\n')
}

/** An aligned table of the first 1,000 rows, each value as DuckDB casts it to VARCHAR. */
export async function writeTable(engine: NativeEngine, sql: string, signal: AbortSignal): Promise<void> {
  const shown: (string | null)[][] = []
  let more = false
  const columns = await engine.select(
    sql,
    (_columns, rows) => {
      for (const r of rows) {
        if (shown.length < TABLE_ROWS) shown.push(r.map((v) => (v === null ? null : String(v))))
        else more = true
      }
    },
    { signal, asText: true }
  )
  const cell = (v: string | null): string => (v === null ? 'NULL' : v)
  const widths = columns.names.map((c, i) => Math.min(40, Math.max(c.length, ...shown.map((r) => cell(r[i] ?? null).length))))
  await writeOut(`${columns.names.map((c, i) => c.padEnd(widths[i] as number)).join('  ')}\n`)
  for (const r of shown)
    await writeOut(
      `${columns.names
        .map((_, i) =>
          cell(r[i] ?? null)
            .slice(0, 40)
            .padEnd(widths[i] as number)
        )
        .join('  ')}\n`
    )
  if (more) process.stderr.write(`(the first ${TABLE_ROWS} rows; --format csv or json gives them all)\n`)
}
