// Every value leaves main's engine right: random tables of DuckDB's types go through each output (the CLI's
// table text and JSON, exported CSV and Parquet) and are compared with a plain native DuckDB's own rendering of
// the same SQL (CAST … AS VARCHAR, COPY … (FORMAT csv), read_parquet). And the CLI, run as a user would, prints
// sum() over an INTEGER column (a HUGEINT) as the number it is.
import { execFile } from 'node:child_process'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { toJsonValue } from '../../src/main/engine/json-values'
import { NativeEngine } from '../../src/main/engine/native-engine'
import { exportQuery } from '../../src/main/export/export-to-file'
import { quoteLiteral } from '../../src/shared/sql-quote'
import { type Db, openDb } from '../helpers/duckdb'
import { CLI_COMMAND } from '../helpers/cli'

let work: string
let engine: NativeEngine
let plain: Db

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'ee-values-'))
  engine = await NativeEngine.open({ workDir: join(work, 'engine'), readableRoots: [] })
  plain = await openDb()
  await plain.run("SET TimeZone = 'UTC'")
})
afterAll(async () => {
  await engine?.close()
  plain?.close()
  await rm(work, { recursive: true, force: true })
})

type Kind = 'int' | 'big' | 'decimal' | 'float' | 'double' | 'text' | 'other' | 'nested'
interface Column {
  readonly type: string
  readonly kind: Kind
  readonly value: fc.Arbitrary<string>
}

const twoTo = (n: number): bigint => 2n ** BigInt(n)
const scaled = (v: bigint, scale: number): string => {
  const s = (v < 0n ? -v : v).toString().padStart(scale + 1, '0')
  return `${v < 0n ? '-' : ''}${s.slice(0, -scale)}.${s.slice(-scale)}`
}
const str = fc.string({ unit: 'grapheme', maxLength: 12 })

const COLUMNS: Column[] = [
  { type: 'INTEGER', kind: 'int', value: fc.integer().map(String) },
  { type: 'BIGINT', kind: 'big', value: fc.bigInt(-(twoTo(63) - 1n), twoTo(63) - 1n).map(String) },
  { type: 'HUGEINT', kind: 'big', value: fc.oneof(fc.bigInt(-twoTo(126), twoTo(126)), fc.bigInt(-(twoTo(53) - 1n), twoTo(53) - 1n)).map(String) },
  { type: 'DECIMAL(18,3)', kind: 'decimal', value: fc.bigInt(-(10n ** 18n - 1n), 10n ** 18n - 1n).map((v) => scaled(v, 3)) },
  { type: 'DECIMAL(38,10)', kind: 'decimal', value: fc.bigInt(-(10n ** 38n - 1n), 10n ** 38n - 1n).map((v) => scaled(v, 10)) },
  {
    type: 'DOUBLE',
    kind: 'double',
    value: fc
      .double()
      .map((d) => quoteLiteral(Number.isNaN(d) ? 'nan' : d === Infinity ? 'inf' : d === -Infinity ? '-inf' : Object.is(d, -0) ? '-0.0' : String(d)))
  },
  { type: 'FLOAT', kind: 'float', value: fc.float({ noNaN: true, noDefaultInfinity: true }).map((d) => quoteLiteral(String(d))) },
  { type: 'VARCHAR', kind: 'text', value: str.map(quoteLiteral) },
  { type: 'BOOLEAN', kind: 'other', value: fc.boolean().map(String) },
  { type: 'DATE', kind: 'other', value: fc.integer({ min: -800_000, max: 800_000 }).map((d) => `(DATE '1970-01-01' + ${d})`) },
  { type: 'TIME', kind: 'other', value: fc.integer({ min: 0, max: 86_399_999_999 }).map((us) => `(TIME '00:00:00' + to_microseconds(${us}))`) },
  { type: 'TIMESTAMP', kind: 'other', value: fc.bigInt(-(10n ** 16n), 10n ** 16n).map((us) => `make_timestamp(${us})`) },
  { type: 'TIMESTAMPTZ', kind: 'other', value: fc.bigInt(-(10n ** 16n), 10n ** 16n).map((us) => `make_timestamp(${us})::TIMESTAMPTZ`) },
  // Parquet's INTERVAL holds milliseconds (DuckDB drops the microseconds on writing): the README says so.
  {
    type: 'INTERVAL',
    kind: 'other',
    value: fc
      .tuple(fc.integer({ min: -5000, max: 5000 }), fc.integer({ min: -5000, max: 5000 }), fc.integer({ min: -1e9, max: 1e9 }))
      .map(([m, d, ms]) => `(to_months(${m}) + to_days(${d}) + to_microseconds(${ms * 1000}))`)
  },
  { type: 'UUID', kind: 'other', value: fc.uuid().map(quoteLiteral) },
  { type: 'BLOB', kind: 'other', value: fc.uint8Array({ maxLength: 10 }).map((b) => `from_hex('${Buffer.from(b).toString('hex')}')`) },
  { type: "ENUM('low', 'mid', 'high')", kind: 'other', value: fc.constantFrom('low', 'mid', 'high').map(quoteLiteral) },
  {
    type: 'INTEGER[]',
    kind: 'nested',
    value: fc
      .array(fc.option(fc.integer({ min: -1e6, max: 1e6 })), { maxLength: 4 })
      .map((a) => `[${a.map((x) => (x === null ? 'NULL' : x)).join(', ')}]::INTEGER[]`)
  },
  {
    type: 'STRUCT(a INTEGER, b VARCHAR)',
    kind: 'nested',
    value: fc.tuple(fc.integer({ min: -1e6, max: 1e6 }), str).map(([a, b]) => `{'a': ${a}, 'b': ${quoteLiteral(b)}}`)
  },
  {
    type: 'MAP(VARCHAR, INTEGER)',
    kind: 'nested',
    value: fc
      .uniqueArray(fc.tuple(fc.string({ minLength: 1, maxLength: 5 }), fc.integer({ min: -1e6, max: 1e6 })), { selector: (t) => t[0], maxLength: 3 })
      .map((es) => `MAP {${es.map(([k, v]) => `${quoteLiteral(k)}: ${v}`).join(', ')}}`)
  }
]

const tableSql = (rows: (string | null)[][]): string =>
  `SELECT * FROM (VALUES ${rows.map((r) => `(${r.map((v, i) => `CAST(${v ?? 'NULL'} AS ${COLUMNS[i]!.type})`).join(', ')})`).join(', ')}) t(${COLUMNS.map((_, i) => `c${i}`).join(', ')})`

const rowsArb = fc.array(fc.tuple(...COLUMNS.map((c) => fc.option(c.value, { freq: 8 }))), { minLength: 1, maxLength: 12 })

/** What a JSON reader must get for one value, from DuckDB's own text of it (and its to_json for nested ones). */
function expectJson(kind: Kind, text: string | null, nestedJson: string | null, got: unknown): void {
  if (text === null) return void expect(got).toBeNull()
  const exactDecimal = (n: number): boolean =>
    Number(text) === n && String(n) === (text.includes('.') ? text.replace(/0+$/, '').replace(/\.$/, '') : text).replace(/^-0$/, '0')
  switch (kind) {
    case 'int':
      return void expect(got).toBe(Number(text))
    case 'big':
      return void expect(got).toBe(Number.isSafeInteger(Number(text)) && BigInt(text) === BigInt(Number(text)) ? Number(text) : text)
    case 'decimal':
      return void (typeof got === 'number' ? expect(exactDecimal(got), `${text} → ${got}`).toBe(true) : expect(got).toBe(text))
    case 'double': {
      const special: Record<string, string> = { inf: 'Infinity', '-inf': '-Infinity', nan: 'NaN', '-nan': 'NaN' }
      return void expect(got).toBe(special[text] ?? Number(text) + 0)
    }
    case 'float':
      // Exact as a float: it reads back to the same single-precision value DuckDB printed (its text may be longer).
      return void expect(Math.fround(got as number)).toBe(Math.fround(Number(text)))
    case 'nested':
      return void expect(got).toEqual(JSON.parse(nestedJson as string))
    default:
      return void expect(got).toBe(text === 'true' ? true : text === 'false' ? false : text)
  }
}

describe('every value leaves the engine right', () => {
  it('table text, JSON, CSV and Parquet equal native DuckDB on random tables of every type', async () => {
    let run = 0
    await fc.assert(
      fc.asyncProperty(rowsArb, async (rows) => {
        run++
        const sql = tableSql(rows)
        const names = COLUMNS.map((_, i) => `c${i}`)
        // DuckDB's own text of every value, and to_json of the nested ones.
        const ref = await plain.rows(
          `SELECT ${names.map((n) => `CAST(${n} AS VARCHAR) AS ${n}`).join(', ')}, ${names.map((n) => `to_json(${n})::VARCHAR AS j_${n}`).join(', ')} FROM (${sql})`
        )

        const text = await engine.selectAll(sql, { asText: true })
        expect(
          text.rows.map((r) => r.map((v) => (v === null ? null : String(v)))),
          sql
        ).toEqual(ref.map((r) => names.map((n) => r[n] ?? null)))

        const typed = await engine.selectAll(sql)
        const isFloat = typed.columns.types.map((t) => t.toString() === 'FLOAT')
        typed.rows.forEach((r, ri) =>
          r.forEach((v, ci) => {
            const json = JSON.parse(JSON.stringify(toJsonValue(v, isFloat[ci])))
            expectJson(COLUMNS[ci]!.kind, (ref[ri]![names[ci]!] as string | null) ?? null, (ref[ri]![`j_${names[ci]}`] as string | null) ?? null, json)
          })
        )

        // CSV: byte for byte what DuckDB's own COPY writes.
        const ours = join(work, `ours-${run}.csv`)
        const theirs = join(work, `theirs-${run}.csv`)
        await exportQuery(engine, sql, ours, { format: 'csv' })
        await plain.run(`COPY (${sql}) TO ${quoteLiteral(theirs)} (FORMAT csv, HEADER true)`)
        expect(await readFile(ours, 'utf8')).toBe(await readFile(theirs, 'utf8'))

        // Parquet reads back to the same values, in the same order.
        const pq = join(work, `ours-${run}.parquet`)
        if (/to_months\(-|to_days\(-|to_microseconds\(-/.test(sql)) {
          // Parquet has no negative intervals: DuckDB refuses, and the export says so instead of writing a wrong file.
          await expect(exportQuery(engine, sql, pq, { format: 'parquet' })).rejects.toThrow(/negative intervals/)
          return
        }
        await exportQuery(engine, sql, pq, { format: 'parquet' })
        const back = await plain.rows(`SELECT ${names.map((n) => `CAST(${n} AS VARCHAR) AS ${n}`).join(', ')} FROM read_parquet(${quoteLiteral(pq)})`)
        expect(back.map((r) => names.map((n) => r[n] ?? null))).toEqual(ref.map((r) => names.map((n) => r[n] ?? null)))
      }),
      { numRuns: 25 }
    )
  })

  it('JSON writes the year 1 BC as DuckDB does (the property above found node-api writing "0000-12-31")', async () => {
    const bc = `(DATE '1970-01-01' - 719163)`
    const sql = `SELECT ${bc} AS d, ${bc}::TIMESTAMP + INTERVAL 5 HOUR AS ts, (${bc}::TIMESTAMP)::TIMESTAMPTZ AS tz, (${bc}::TIMESTAMP)::TIMESTAMP_MS AS ms, DATE '1970-01-01' - 800000 AS d2`
    const names = ['d', 'ts', 'tz', 'ms', 'd2']
    const ref = await plain.rows(`SELECT ${names.map((n) => `CAST(${n} AS VARCHAR) AS ${n}`).join(', ')} FROM (${sql})`)
    const typed = await engine.selectAll(sql)
    expect(typed.rows[0]?.map((v) => toJsonValue(v))).toEqual(names.map((n) => ref[0]?.[n]))
    expect(ref[0]?.['d']).toBe('0001-12-31 (BC)')
  })

  it('an export of sum() over an INTEGER column holds the right number, in CSV and in Parquet', async () => {
    const sql = 'SELECT sum(x) AS s FROM (SELECT 2147483647::INTEGER AS x FROM range(5000000))'
    const csv = join(work, 'sum.csv')
    const pq = join(work, 'sum.parquet')
    await exportQuery(engine, sql, csv, { format: 'csv' })
    await exportQuery(engine, `${sql} UNION ALL SELECT 170141183460469231731687303715884105727::HUGEINT // 10`, pq, { format: 'parquet' })
    expect(await readFile(csv, 'utf8')).toBe('s\n10737418235000000\n')
    // Past 2^53 and past a double's precision: the Parquet file holds it exactly (DECIMAL(38,0), not DOUBLE).
    expect(await plain.rows(`SELECT s::VARCHAR AS s, typeof(s) AS t FROM read_parquet(${quoteLiteral(pq)})`)).toEqual([
      { s: '10737418235000000', t: 'DECIMAL(38,0)' },
      { s: '17014118346046923173168730371588410572', t: 'DECIMAL(38,0)' }
    ])
  })

  it('the CLI prints sum() over INTEGERs and other wide numbers exactly, in table, JSON and CSV', async () => {
    const bucket = await mkdtemp(join(tmpdir(), 'ee-values-bucket-'))
    const cli = (format: string): Promise<{ stdout: string }> =>
      promisify(execFile)(process.execPath, [...CLI_COMMAND, 'query', sumSql, '--bucket', bucket, '--format', format], {
        env: { ...process.env, EXPORT_EXPLORER_CACHE: join(work, 'cli-cache') }
      })
    // 2,000 INTEGERs of 2^31-1: the sum is a HUGEINT past 2^32; a HUGEINT past 2^53 and a DECIMAL a double cannot
    // hold are strings in JSON, a DECIMAL it can hold is a number.
    const sumSql =
      'SELECT sum(x) AS s, sum(x)::HUGEINT * 10000000 AS wide, 1234567890123.4567::DECIMAL(18,4) AS d, 12.5::DECIMAL(18,4) AS e FROM (SELECT 2147483647::INTEGER AS x FROM range(2000))'
    try {
      expect(JSON.parse((await cli('json')).stdout)).toEqual([{ s: 4294967294000, wide: '42949672940000000000', d: '1234567890123.4567', e: 12.5 }])
      expect((await cli('csv')).stdout).toBe('s,wide,d,e\n4294967294000,42949672940000000000,1234567890123.4567,12.5000\n')
      const table = (await cli('table')).stdout.split('\n').map((l) => l.trim().split(/\s+/))
      expect(table.slice(0, 2)).toEqual([
        ['s', 'wide', 'd', 'e'],
        ['4294967294000', '42949672940000000000', '1234567890123.4567', '12.5000']
      ])
    } finally {
      await rm(bucket, { recursive: true, force: true })
    }
  })
})
