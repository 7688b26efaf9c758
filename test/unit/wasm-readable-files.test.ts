// What the query pane's engine cannot read, decided from parquet_schema rows: leaf columns per file (struct
// fields by path), the columns whose Parquet type differs across files, oldest files first in the message.
import { describe, expect, it } from 'vitest'
import type { MirrorStatusView } from '../../src/shared/api/views'
import { waitsForMirror, withViewProblem } from '../../src/renderer/src/engine/missing-view'
import { leafColumns, typeConflictMessage, typeConflicts } from '../../src/renderer/src/engine/wasm-readable-files'

const row = (
  file_name: string,
  name: string,
  type: string | null,
  num_children = 0,
  converted_type: string | null = null,
  logical_type: string | null = null
) => ({ file_name, name, type, num_children, converted_type, logical_type, scale: null, precision: null })

describe('files DuckDB-WASM 0.9.1 cannot combine', () => {
  // Newer file first, as parquet_schema may list them; names end with the delivery rank.
  const rows = [
    row('ee/s/t/b-000000001.parquet', 'duckdb_schema', null, 2),
    row('ee/s/t/b-000000001.parquet', 'id', 'BYTE_ARRAY', 0, 'UTF8'),
    row('ee/s/t/b-000000001.parquet', 'meta', null, 2),
    row('ee/s/t/b-000000001.parquet', 'n', 'INT64', 0, 'INT_64'),
    row('ee/s/t/b-000000001.parquet', 'at', 'INT64', 0, null, 'TimestampType(isAdjustedToUTC=1, unit=TimeUnit(MICROS=MicroSeconds()))'),
    row('ee/s/t/a-000000000.parquet', 'schema', null, 2),
    row('ee/s/t/a-000000000.parquet', 'id', 'BYTE_ARRAY', 0, 'UTF8'),
    row('ee/s/t/a-000000000.parquet', 'meta', null, 2),
    row('ee/s/t/a-000000000.parquet', 'n', 'INT32', 0, 'INT_32'),
    row('ee/s/t/a-000000000.parquet', 'at', 'INT64', 0, null, 'TimestampType(isAdjustedToUTC=0, unit=TimeUnit(MICROS=MicroSeconds()))')
  ]

  it('reads struct fields by path and tells types apart by their annotation, UTC-adjusted timestamps included', () => {
    const cols = leafColumns(rows)
    expect(cols.filter((c) => c.file.startsWith('ee/s/t/a')).map((c) => `${c.column}: ${c.type}`)).toEqual([
      'id: BYTE_ARRAY (UTF8)',
      'meta.n: INT32 (INT_32)',
      'meta.at: INT64 (TIMESTAMP)'
    ])
    expect(cols.find((c) => c.file.startsWith('ee/s/t/b') && c.column === 'meta.at')?.type).toBe('INT64 (TIMESTAMP UTC)')
    expect(typeConflicts(cols).map((c) => c.column)).toEqual(['meta.n', 'meta.at'])
  })

  it('names the older type and file first, by bucket key', () => {
    const msg = typeConflictMessage('s.t', typeConflicts(leafColumns(rows)), (n) =>
      n.includes('a-') ? 'v1/s/t/etl_date=__initial__/part-0.parquet' : 'v2/s/t/etl_date=2026-11-03/etl_hour=03/part-0.parquet'
    )
    expect(msg).toContain(
      'column meta.n is INT32 (INT_32) in 1 file (v1/s/t/etl_date=__initial__/part-0.parquet), but INT64 (INT_64) in 1 file (v2/s/t/etl_date=2026-11-03/etl_hour=03/part-0.parquet)'
    )
    expect(msg).toMatch(/^s\.t cannot be opened in the query pane/)
  })

  it('finds no conflict where the files agree', () => {
    expect(
      typeConflicts(
        leafColumns(
          rows
            .filter((r) => r.name !== 'n' && r.name !== 'at')
            .map((r) => (r.num_children === 2 && r.name === 'meta' ? { ...r, num_children: 0, type: 'INT32' } : r))
        )
      )
    ).toEqual([])
  })
})

describe('a query naming a table without a view', () => {
  const problems = [{ table: 'datamart_claudia.claudia_messages', message: 'datamart_claudia.claudia_messages cannot be opened in the query pane: …' }]
  it('says why the view is missing', () => {
    const msg = withViewProblem('Catalog Error: Table with name claudia_messages does not exist!\nDid you mean "x"?', problems)
    expect(msg).toMatch(/\n\nWhy datamart_claudia\.claudia_messages has no view: datamart_claudia\.claudia_messages cannot be opened in the query pane/)
    expect(withViewProblem('Catalog Error: Table with name other does not exist!', problems)).toBe('Catalog Error: Table with name other does not exist!')
  })
})

describe('a table the mirror is compacting for the pane', () => {
  const table = 'datamart_claudia.claudia_messages'
  const conflict = typeConflictMessage(
    table,
    typeConflicts(
      leafColumns([
        row('a-1.parquet', 'schema', null, 1),
        row('a-1.parquet', 'n', 'INT32'),
        row('b-2.parquet', 'schema', null, 1),
        row('b-2.parquet', 'n', 'INT64')
      ])
    ),
    (n) => n
  )
  const problems = [{ table, message: conflict }]
  const failed = 'Catalog Error: Table with name claudia_messages does not exist!'
  const mirror = (state: MirrorStatusView['state'], folders: number): MirrorStatusView => ({
    state,
    atLimit: false,
    message: null,
    progress: null,
    tables: [{ table, folders, foldersTotal: 192, segments: 1, bytes: 1000 }],
    usage: { mirror: 0, downloaded: 0, total: 0 },
    limit: null,
    last: null
  })

  it('says in plain words that it is being prepared, how far, and that the query waits for it', () => {
    const msg = withViewProblem(failed, problems, mirror('running', 40))
    expect(msg).toMatch(/^datamart_claudia\.claudia_messages is being prepared: the local mirror is compacting it \(40 hours of 192 so far\)/)
    expect(msg).toContain('the query runs again by itself')
    expect(msg).not.toMatch(/^Catalog Error/)
    expect(waitsForMirror(failed, problems, mirror('running', 40))).toBe(table)
  })

  it('says what to do when the mirror is not building, and waits for nothing', () => {
    expect(withViewProblem(failed, problems, mirror('cancelled', 40))).toMatch(/start or resume the mirror in the Mirror panel/)
    expect(waitsForMirror(failed, problems, mirror('cancelled', 40))).toBeNull()
  })

  it('keeps the engine words for a problem the mirror does not solve, or with no mirror', () => {
    const archived = [{ table, message: `${table} needs 1 archived object that cannot be read until restored` }]
    expect(withViewProblem(failed, archived, mirror('running', 40))).toMatch(/^Catalog Error: .*\n\nWhy datamart_claudia\.claudia_messages has no view: /s)
    expect(waitsForMirror(failed, archived, mirror('running', 40))).toBeNull()
    expect(withViewProblem(failed, problems, null)).toMatch(/^Catalog Error/)
  })
})
