// The warehouse definitions' decisions on small hand-made listings (issue 15): what each rule's edge case writes
// and the note that says so. The generated bucket's run (parsers, DuckDB equivalence) is test/integration/warehouse-ddl.test.ts.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { FolderRef } from '../../src/shared/bucket-key'
import { compareDelivery } from '../../src/shared/delivery-order'
import { CATALOG, qualifiedName } from '../../src/shared/catalog'
import { buildInventory } from '../../src/shared/inventory'
import type { ListedObject } from '../../src/shared/listing'
import { parseDuckDbTypeName as parseDuckDbType } from '../../src/shared/duckdb-type-name'
import { type WarehouseDdlInput, copyKey, warehouseDdl, warehouseLocation } from '../../src/shared/warehouse-ddl/warehouse-ddl'

const at = (iso: string): string => new Date(Date.parse(iso)).toISOString()
const file = (key: string, written: string, size = 100): ListedObject => ({ key, size, lastModified: at(written), etag: key })
const folder = (prefix: string, written: string, opts: { files?: number; ready?: boolean } = {}): ListedObject[] => [
  ...Array.from({ length: opts.files ?? 1 }, (_, i) => file(`${prefix}part-${String(i).padStart(5, '0')}.parquet`, written)),
  ...(opts.ready === false ? [] : [file(`${prefix}_SUCCESS`, written, 0)])
]
const COLUMNS = new Map(
  CATALOG.map((t) => [
    qualifiedName(t),
    [
      { name: 'tenant_id', type: 'VARCHAR' },
      { name: t.keyColumn ?? 'id', type: 'BIGINT' }
    ]
  ])
)

function ddl(objects: ListedObject[], over: Partial<WarehouseDdlInput> = {}) {
  const now = Date.parse('2026-11-05T12:50:00Z')
  const r = warehouseDdl({
    engine: 'athena',
    location: 's3://b/p',
    database: null,
    table: null,
    inventory: buildInventory(objects, { now }),
    columns: COLUMNS,
    now,
    ...over
  })
  if (!r.ok) throw new Error(r.message)
  return r
}

const conv = 'v2/datamart_claudia/claudia_conversation/'
const msgs = (v: string) => `${v}/datamart_claudia/claudia_messages/`

describe('warehouse definitions on hand-made listings', () => {
  it('on v1 (before the switch): v1 dates up to NOW for full tables, v2 from the switch day, and a note to regenerate the enumerated etl_date', () => {
    const r = ddl(
      [
        ...folder('v1/datamart_claudia/claudia_conversation/snapshot_date=2026-10-30/', '2026-10-30T07:20:00Z'),
        ...folder(`${msgs('v1')}etl_date=__initial__/`, '2026-10-01T07:20:00Z'),
        ...folder(`${msgs('v1')}etl_date=2026-10-30/`, '2026-10-30T07:20:00Z')
      ],
      { table: null }
    )
    const get = (name: string): string => r.statements.find((s) => s.creates === name)?.sql ?? ''
    expect(get('datamart_claudia.claudia_conversation_v1')).toContain("'projection.snapshot_date.range' = '2026-10-30,NOW'")
    expect(get('datamart_claudia.claudia_conversation_v2')).toContain("'projection.snapshot_date.range' = '2026-11-03,NOW'")
    expect(get('datamart_claudia.claudia_messages_v1')).toContain("'projection.etl_date.values' = '__initial__,2026-10-30'")
    expect(r.notes.some((n) => /claudia_messages: the bucket is still on v1/.test(n))).toBe(true)
  })

  it('a latest ready copy without Parquet, and a newer folder without _SUCCESS, are each named; the pinned query reads the ready copy', () => {
    const objects = [
      file('v2/_manifests/snapshot_date=2026-11-03/snapshot_hour=03/manifest.json', '2026-11-03T03:30:00Z'),
      ...folder(`${conv}snapshot_date=2026-11-05/snapshot_hour=10/`, '2026-11-05T10:30:00Z'),
      ...folder(`${conv}snapshot_date=2026-11-05/snapshot_hour=11/`, '2026-11-05T11:30:00Z', { files: 0 }),
      ...folder(`${conv}snapshot_date=2026-11-05/snapshot_hour=12/`, '2026-11-05T12:30:00Z', { ready: false })
    ]
    const r = ddl(objects, { table: 'claudia_conversation' })
    expect(r.notes.join('\n')).toMatch(/claudia_conversation: its latest ready copy v2\/.*snapshot_hour=11\/ holds no Parquet file/)
    expect(r.notes.join('\n')).toMatch(
      /claudia_conversation: 1 folder\(s\) without _SUCCESS hold files the view reads as if ready \(v2\/.*snapshot_hour=12\/\)/
    )
    expect(r.statements.find((s) => s.kind === 'pinned')?.sql).toMatch(
      /FROM "datamart_claudia"\."claudia_conversation_v2"\nWHERE "snapshot_date" = '2026-11-05' AND "snapshot_hour" = '11'$/
    )
  })

  it('v2 parts folders before the bucket is on v2: the view reads them, the note says the app does not yet', () => {
    const r = ddl(
      [
        ...folder(`${msgs('v1')}etl_date=2026-11-01/`, '2026-11-01T07:20:00Z'),
        ...folder(`${msgs('v2')}etl_date=2026-11-03/etl_hour=03/`, '2026-11-03T03:20:00Z')
      ],
      { table: 'claudia_messages' }
    )
    expect(r.notes.some((n) => /claudia_messages: its v2 folders do not count yet for the app/.test(n))).toBe(true)
  })

  it('an export that started on v2 has no v1 table; a table whose columns are unknown gets no statement, and says why', () => {
    const columns = new Map(COLUMNS)
    columns.set('datamart_claudia.claudia_csat', { unknown: 'every file is archived' } as never)
    const r = ddl(
      [
        file('v2/_manifests/snapshot_date=2026-11-03/snapshot_hour=14/manifest.json', '2026-11-03T14:30:00Z'),
        ...folder(`${conv}snapshot_date=2026-11-03/snapshot_hour=14/`, '2026-11-03T14:30:00Z')
      ],
      { columns }
    )
    const created = r.statements.map((s) => s.creates)
    expect(created).toContain('datamart_claudia.claudia_conversation_v2')
    expect(created).not.toContain('datamart_claudia.claudia_conversation_v1')
    expect(r.statements.find((s) => s.creates === 'datamart_claudia.claudia_conversation')?.sql).not.toContain('_v1')
    expect(created.filter((c) => c?.startsWith('datamart_claudia.claudia_csat'))).toEqual([])
    expect(r.notes).toContain(
      'datamart_claudia.claudia_csat: no definition written, its columns are unknown (every file is archived). Open the table in the app once its files can be read, then generate again.'
    )
  })

  it('orders copies by their SQL key exactly as the core orders deliveries (600 random pairs), and the views build that key', () => {
    const date = fc.date({ min: new Date('2025-01-01'), max: new Date('2027-12-31'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10))
    const hour = fc.integer({ min: 0, max: 23 }).map((h) => String(h).padStart(2, '0'))
    const ref = fc.oneof(
      date.map((d) => ({ version: 'v1', partition: { kind: 'snapshot', date: d, hour: null } })),
      fc.tuple(date, hour).map(([d, h]) => ({ version: 'v2', partition: { kind: 'snapshot', date: d, hour: h } }))
    ) as fc.Arbitrary<FolderRef>
    fc.assert(
      fc.property(ref, ref, (a, b) => Math.sign(compareDelivery(a, b)) === Math.sign(copyKey(a) < copyKey(b) ? -1 : copyKey(a) > copyKey(b) ? 1 : 0)),
      { numRuns: 600 }
    )
    const view = ddl([], { table: 'claudia_conversation' }).statements.find((s) => s.kind === 'view')?.sql ?? ''
    const v1 = copyKey({ version: 'v1', partition: { kind: 'snapshot', date: 'D', hour: null } }).split('D')
    const v2 = copyKey({ version: 'v2', partition: { kind: 'snapshot', date: 'D', hour: 'H' } }).split(/D|H/)
    expect(view).toContain(`'${v1[0]}' || "snapshot_date" || '${v1[1]}' AS "ee_copy"`)
    expect(view).toContain(`'${v2[0]}' || "snapshot_date" || '${v2[1]}' || "snapshot_hour" AS "ee_copy"`)
  })

  it('says where the export lives as a warehouse names it', () => {
    expect(warehouseLocation({ id: 'a', name: 'a', provider: 's3', bucket: 'b', prefix: 'exports/acme/', auth: { kind: 'default' } })).toBe(
      's3://b/exports/acme'
    )
    expect(warehouseLocation({ id: 'a', name: 'a', provider: 'gcs', bucket: 'b', prefix: '', auth: { kind: 'adc' } })).toBe('gs://b')
    expect(warehouseLocation({ id: 'a', name: 'a', provider: 'local', path: '/tmp/x' })).toBeNull()
  })

  it('reads DuckDB type names with quoted fields, nested lists, maps and multi-word names', () => {
    expect(parseDuckDbType('STRUCT("a ""b""" INTEGER, c MAP(VARCHAR, DOUBLE[])[])')).toEqual({
      kind: 'struct',
      fields: [
        { name: 'a "b"', type: { kind: 'scalar', name: 'INTEGER' } },
        {
          name: 'c',
          type: {
            kind: 'list',
            element: { kind: 'map', key: { kind: 'scalar', name: 'VARCHAR' }, value: { kind: 'list', element: { kind: 'scalar', name: 'DOUBLE' } } }
          }
        }
      ]
    })
    expect(parseDuckDbType('TIMESTAMP WITH TIME ZONE')).toEqual({ kind: 'scalar', name: 'TIMESTAMP WITH TIME ZONE' })
    expect(parseDuckDbType("ENUM('a', 'b)')")).toEqual({ kind: 'scalar', name: 'ENUM' })
    expect(parseDuckDbType('STRUCT(a INTEGER')).toBeNull()
  })
})
