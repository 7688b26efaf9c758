// Filters without SQL, run by native DuckDB on a real table: each operator selects exactly the rows it says,
// the time range is [from, to) in UTC, and no value (quotes, SQL, wildcards) changes the statement.
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type ColumnType, tableFiltersSql } from '../../src/shared/filter-sql'
import { quoteLiteral } from '../../src/shared/sql-quote'
import { type Db, openDb } from '../helpers/duckdb'

let db: Db
const COLUMNS: ColumnType[] = [
  { name: 'id', type: 'VARCHAR' },
  { name: 'tenant_id', type: 'VARCHAR' },
  { name: 'tokens', type: 'BIGINT' },
  { name: 'send_at', type: 'TIMESTAMP' },
  { name: 'odd name"', type: 'VARCHAR' }
]
const ROWS = [
  ['a', 't1', 10, '2026-11-05 13:59:59', "it's"],
  ['b', 't1', 20, '2026-11-05 14:00:00', '100%_done'],
  ['c', 't2', 30, '2026-11-05 15:30:00', null],
  ['d', 't3', null, '2026-11-06 00:00:00', 'DROP TABLE m; --'],
  ['e', 't2', 50, null, 'x']
] as const

beforeAll(async () => {
  db = await openDb()
  await db.run(`CREATE SCHEMA s; CREATE TABLE s.m (id VARCHAR, tenant_id VARCHAR, tokens BIGINT, send_at TIMESTAMP, "odd name""" VARCHAR)`)
  for (const r of ROWS)
    await db.run(`INSERT INTO s.m VALUES (${r.map((v) => (v === null ? 'NULL' : typeof v === 'number' ? String(v) : quoteLiteral(v))).join(', ')})`)
})
afterAll(() => db?.close())

const ids = async (sql: string): Promise<string[]> => (await db.rows(`SELECT id FROM (${sql}) ORDER BY id`)).map((r) => String(r['id']))
const q = (over: Partial<Parameters<typeof tableFiltersSql>[0]>): string => tableFiltersSql({ schema: 's', table: 'm', filters: [], ...over }, COLUMNS)

describe('tableFiltersSql', () => {
  it('no filter reads the whole table', async () => {
    expect(q({})).toBe('SELECT * FROM "s"."m"')
    expect(await ids(q({}))).toEqual(['a', 'b', 'c', 'd', 'e'])
  })
  it('each operator selects what it says', async () => {
    expect(await ids(q({ filters: [{ column: 'tokens', op: 'equals', value: '20' }] }))).toEqual(['b'])
    expect(await ids(q({ filters: [{ column: 'tokens', op: 'in', values: ['10', '30', ''] }] }))).toEqual(['a', 'c'])
    expect(await ids(q({ filters: [{ column: 'tokens', op: 'range', from: '20', to: '50' }] }))).toEqual(['b', 'c'])
    expect(await ids(q({ filters: [{ column: 'tokens', op: 'is_null' }] }))).toEqual(['d'])
    expect(await ids(q({ filters: [{ column: 'tokens', op: 'not_null' }] }))).toEqual(['a', 'b', 'c', 'e'])
    expect(await ids(q({ filters: [{ column: 'odd name"', op: 'contains', value: '%_' }] }))).toEqual(['b'])
    expect(await ids(q({ filters: [{ column: 'odd name"', op: 'contains', value: 'drop' }] }))).toEqual(['d'])
    expect(await ids(q({ filters: [{ column: 'tokens', op: 'equals', value: 'not a number' }] }))).toEqual([])
  })
  it('the time range is [from, to) in UTC and tenants combine with AND', async () => {
    const time = { column: 'send_at', from: '2026-11-05T14:00', to: '2026-11-06T00:00:00Z' }
    expect(await ids(q({ time }))).toEqual(['b', 'c'])
    expect(await ids(q({ time, tenants: ['t1'] }))).toEqual(['b'])
    expect(await ids(q({ time: { column: 'send_at', to: '2026-11-05T14:00' } }))).toEqual(['a'])
    expect(q({ time: { column: 'send_at' } })).toBe('SELECT * FROM "s"."m"')
  })
  it('no value changes the statement: equals finds exactly the rows holding it', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.string({ maxLength: 12 }).filter((s) => !s.includes('\u0000')),
        async (v) => {
          const sql = q({ filters: [{ column: 'odd name"', op: 'equals', value: v }] })
          const expected = ROWS.filter((r) => r[4] === v).map((r) => r[0])
          expect(await ids(sql)).toEqual(expected)
        }
      ),
      { numRuns: 200 }
    )
    expect(await ids(q({ filters: [{ column: 'odd name"', op: 'equals', value: "it's" }] }))).toEqual(['a'])
  })
})

describe('ranges typed on another zone’s clock', () => {
  const BRT = { id: 'America/Sao_Paulo', label: 'Brasília' }
  it('converts Brasília wall-clock times to UTC instants in the SQL, and says what was typed', async () => {
    // 2026-11-05 11:00 Brasília = 14:00 UTC; 12:30 Brasília = 15:30 UTC (exclusive).
    const sql = q({ zone: BRT, time: { column: 'send_at', from: '2026-11-05T11:00', to: '2026-11-05T12:30' } })
    expect(sql).toContain(`"send_at" >= TRY_CAST('2026-11-05 14:00:00' AS TIMESTAMP) /* = 2026-11-05 11:00 Brasília */`)
    expect(sql).toContain(`"send_at" < TRY_CAST('2026-11-05 15:30:00' AS TIMESTAMP) /* = 2026-11-05 12:30 Brasília */`)
    expect(await ids(sql)).toEqual(['b'])
    // The same for "between" on a timestamp column; a number range is not a time.
    const between = q({ zone: BRT, filters: [{ column: 'send_at', op: 'range', from: '2026-11-05 10:59:59', to: '2026-11-05 21:00' }] })
    expect(await ids(between)).toEqual(['a', 'b', 'c'])
    expect(await ids(q({ zone: BRT, filters: [{ column: 'tokens', op: 'range', from: '20', to: '50' }] }))).toEqual(['b', 'c'])
    // Opened as a subquery (statistics, exports), the comments change nothing.
    expect(await ids(`SELECT * FROM (${between}) AS t`)).toEqual(['a', 'b', 'c'])
  })
  it('a time written with Z stays UTC; UTC adds no comment', () => {
    expect(q({ zone: BRT, time: { column: 'send_at', from: '2026-11-05T14:00:00Z' } })).toBe(
      `SELECT * FROM "s"."m"\nWHERE "send_at" >= TRY_CAST('2026-11-05 14:00:00' AS TIMESTAMP)`
    )
    expect(q({ zone: { id: 'UTC', label: 'UTC' }, time: { column: 'send_at', from: '2026-11-05T14:00' } })).toBe(
      `SELECT * FROM "s"."m"\nWHERE "send_at" >= TRY_CAST('2026-11-05 14:00:00' AS TIMESTAMP)`
    )
  })
  it('a TIMESTAMPTZ column compares the UTC instant, whatever the engine’s TimeZone setting', async () => {
    await db.run(`CREATE TABLE s.tz AS SELECT id, (strftime(send_at, '%Y-%m-%d %H:%M:%S') || '+00')::TIMESTAMPTZ AS ts FROM s.m`)
    const sql = tableFiltersSql(
      { schema: 's', table: 'tz', filters: [], zone: BRT, time: { column: 'ts', from: '2026-11-05T11:00', to: '2026-11-05T12:30' } },
      [
        { name: 'id', type: 'VARCHAR' },
        { name: 'ts', type: 'TIMESTAMP WITH TIME ZONE' }
      ]
    )
    expect(sql).toContain(`TRY_CAST('2026-11-05 14:00:00+00' AS TIMESTAMP WITH TIME ZONE)`)
    try {
      for (const tz of ['America/New_York', 'Asia/Tokyo', 'UTC']) {
        await db.run(`SET TimeZone = '${tz}'`)
        expect(await ids(sql)).toEqual(['b'])
      }
    } finally {
      await db.run(`SET TimeZone = 'UTC'`)
    }
  })
})
