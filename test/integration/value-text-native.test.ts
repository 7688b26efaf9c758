// The grid's text for nested values against native DuckDB 1.5's own `CAST(x AS VARCHAR)`: random LIST, STRUCT
// and MAP values (depth ≤ 3) of every scalar type the grid shows, read back as the page query reads them (the
// same nesting with VARCHAR leaves) and put together by the renderer's formatter, must be the same text.
import { DuckDBInstance, type DuckDBValue, DuckDBListValue, DuckDBMapValue, DuckDBStructValue } from '@duckdb/node-api'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type TypeShape, parseDuckDbType, varcharShapeSql } from '../../src/renderer/src/common/duckdb-type'
import { displayText } from '../../src/renderer/src/common/format-value'
import { quoteIdent, quoteLiteral } from '../../src/shared/sql-quote'

type Gen = { readonly type: string; readonly value: fc.Arbitrary<string> }

const CHARS = fc.constantFrom('a', 'b', 'N', 'u', 'l', ' ', ',', "'", '\\', '"', '(', ')', ':', '=', '[', ']', '{', '}', '\t', '\n', 'é', '1')
const text = fc.oneof(
  fc.constantFrom('', 'NULL', 'null', ' ', ' a', 'a ', 'x,y', "it's", 'a\\b', '[1]', 'a=b', 'plain'),
  fc.string({ unit: CHARS, maxLength: 6 })
)
const leaves: Gen[] = [
  { type: 'VARCHAR', value: text.map(quoteLiteral) },
  { type: 'INTEGER', value: fc.integer().map(String) },
  { type: 'HUGEINT', value: fc.bigInt({ min: -(2n ** 127n) + 1n, max: 2n ** 127n - 1n }).map((n) => `'${n}'::HUGEINT`) },
  { type: 'DECIMAL(18,3)', value: fc.bigInt({ min: -(10n ** 18n) + 1n, max: 10n ** 18n - 1n }).map((n) => `'${scaled(n, 3)}'::DECIMAL(18,3)`) },
  { type: 'DECIMAL(38,10)', value: fc.bigInt({ min: -(10n ** 38n) + 1n, max: 10n ** 38n - 1n }).map((n) => `'${scaled(n, 10)}'::DECIMAL(38,10)`) },
  { type: 'DOUBLE', value: fc.double().map((d) => `'${String(d)}'::DOUBLE`) },
  { type: 'DATE', value: fc.integer({ min: -700_000, max: 700_000 }).map((n) => `DATE '1970-01-01' + ${n}`) },
  { type: 'TIMESTAMP', value: fc.bigInt({ min: -60_000_000_000_000_000n, max: 60_000_000_000_000_000n }).map((n) => `make_timestamp(${n})`) },
  {
    type: 'TIMESTAMP WITH TIME ZONE',
    value: fc.bigInt({ min: -60_000_000_000_000_000n, max: 60_000_000_000_000_000n }).map((n) => `make_timestamp(${n})::TIMESTAMPTZ`)
  },
  {
    type: 'INTERVAL',
    value: fc
      .tuple(fc.integer({ min: -1000, max: 1000 }), fc.integer({ min: -1000, max: 1000 }), fc.bigInt({ min: -(10n ** 12n), max: 10n ** 12n }))
      .map(([m, d, us]) => `to_months(${m}) + to_days(${d}) + to_microseconds(${us})`)
  },
  { type: 'TIME', value: fc.bigInt({ min: 0n, max: 86_399_999_999n }).map((us) => `TIME '00:00:00' + to_microseconds(${us})`) },
  { type: 'UUID', value: fc.uuid().map((u) => `'${u}'::UUID`) },
  { type: 'BLOB', value: fc.uint8Array({ maxLength: 6 }).map((b) => `from_hex('${Buffer.from(b).toString('hex')}')`) },
  { type: 'BOOLEAN', value: fc.boolean().map(String) },
  { type: `ENUM('sad', 'x,y', 'NULL')`, value: fc.constantFrom('sad', 'x,y', 'NULL').map(quoteLiteral) }
]
/** An integer n as the decimal text of n / 10^scale. */
function scaled(n: bigint, scale: number): string {
  const digits = (n < 0n ? -n : n).toString().padStart(scale + 1, '0')
  return `${n < 0n ? '-' : ''}${digits.slice(0, -scale)}.${digits.slice(-scale)}`
}
const nullable = (a: fc.Arbitrary<string>): fc.Arbitrary<string> => fc.oneof({ weight: 1, arbitrary: fc.constant('NULL') }, { weight: 5, arbitrary: a })

function gen(depth: number): fc.Arbitrary<Gen> {
  const leaf = fc.constantFrom(...leaves)
  if (depth === 0) return leaf
  const list = gen(depth - 1).map((c) => ({ type: `${c.type}[]`, value: fc.array(nullable(c.value), { maxLength: 4 }).map((xs) => `[${xs.join(', ')}]`) }))
  const names = fc.uniqueArray(fc.string({ unit: CHARS, minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 3, selector: (s) => s.toLowerCase() })
  const struct = names.chain((ns) =>
    fc.tuple(...ns.map(() => gen(depth - 1))).map((cs) => ({
      type: `STRUCT(${ns.map((n, i) => `${quoteIdent(n)} ${cs[i]!.type}`).join(', ')})`,
      value: fc.tuple(...cs.map((c) => nullable(c.value))).map((vs) => `{${ns.map((n, i) => `${quoteLiteral(n)}: ${vs[i]}`).join(', ')}}`)
    }))
  )
  const map = gen(depth - 1).map((v) => ({
    type: `MAP(VARCHAR, ${v.type})`,
    value: fc
      .uniqueArray(text, { maxLength: 3 })
      .chain((ks) => fc.tuple(...ks.map(() => nullable(v.value))).map((vs) => `MAP {${ks.map((k, i) => `${quoteLiteral(k)}: ${vs[i]}`).join(', ')}}`))
  }))
  return fc.oneof({ weight: 2, arbitrary: leaf }, { weight: 2, arbitrary: list }, { weight: 2, arbitrary: struct }, { weight: 1, arbitrary: map })
}

/** Native values of the VARCHAR-leaf cast, in the form the formatter takes (Arrow rows iterate [name, value]). */
function asRendered(v: DuckDBValue, shape: TypeShape): unknown {
  if (v === null) return null
  switch (shape.kind) {
    case 'leaf':
      return v
    case 'list':
      return (v as DuckDBListValue).items.map((x) => asRendered(x, shape.child))
    case 'struct':
      return shape.fields.map((f) => [f.name, asRendered((v as DuckDBStructValue).entries[f.name] ?? null, f.type)])
    case 'map':
      return (v as DuckDBMapValue).entries.map((e) => [asRendered(e.key, shape.key), asRendered(e.value, shape.value)])
  }
}

let instance: DuckDBInstance
let conn: Awaited<ReturnType<DuckDBInstance['connect']>>
beforeAll(async () => {
  instance = await DuckDBInstance.create(':memory:')
  conn = await instance.connect()
  await conn.run(`SET TimeZone = 'UTC'`)
})
afterAll(() => {
  conn?.closeSync()
  instance?.closeSync()
})

describe('nested values in the grid, against native DuckDB 1.5', () => {
  it('random LIST/STRUCT/MAP values give the text of CAST(x AS VARCHAR)', async () => {
    const samples = fc.sample(
      gen(3).chain((g) => g.value.map((value) => ({ type: g.type, value }))),
      { numRuns: 400, seed: 11 }
    )
    let nested = 0
    for (const s of samples) {
      const v = `CAST(${s.value} AS ${s.type})`
      const [head] = (await (await conn.runAndReadAll(`SELECT CAST(${v} AS VARCHAR) AS want, typeof(${v}) AS t`)).getRowObjects()) as {
        want: string | null
        t: string
      }[]
      const shape = parseDuckDbType(head!.t)
      // The type name DuckDB prints reads into the nesting it was built with.
      expect(varcharShapeSql(shape)).toBe(varcharShapeSql(parseDuckDbType(s.type)))
      const [row] = await (await conn.runAndReadAll(`SELECT CAST(${v} AS ${varcharShapeSql(shape)}) AS x`)).getRowObjects()
      const got = displayText(asRendered(row!['x']!, shape), shape)
      expect({ sql: v, got }).toEqual({ sql: v, got: head!.want })
      if (shape.kind !== 'leaf') nested++
    }
    expect(nested).toBeGreaterThan(150)
  })
})
