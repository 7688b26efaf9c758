import { describe, expect, it } from 'vitest'
import { DEMO_TABLES } from '../../src/main/demo-bucket/demo-tables'
import { CATALOG, resolveTableName } from '../../src/shared/catalog'
import { buildInventory, foldersForLogicalTable } from '../../src/shared/inventory'
import { logicalTableSql } from '../../src/shared/logical-table-sql'
import { quoteIdent, quoteLiteral } from '../../src/shared/sql-quote'
import { obj } from '../helpers/listing'

describe('catalog', () => {
  it('has the 19 tables of the spec: 16 rewritten in full, 3 in parts with their keys and event times', () => {
    expect(CATALOG).toHaveLength(19)
    expect(CATALOG.filter((t) => t.mode === 'full')).toHaveLength(16)
    expect(CATALOG.filter((t) => t.mode === 'parts').map((t) => [t.table, t.keyColumn, t.eventTimeColumn])).toEqual([
      ['claudia_messages', 'message_id', 'send_at'],
      ['claudia_prompt_revision', 'prompt_revision_id', 'created_at'],
      ['cloud_chat_messages', null, 'created_at']
    ])
    expect(new Set(CATALOG.map((t) => t.table)).size).toBe(19)
  })

  it('resolves "schema.table" and bare names, and nothing else', () => {
    expect(resolveTableName('claudia_csat')?.schema).toBe('datamart_claudia')
    expect(resolveTableName('datamart_cloudchat_saas.cloud_chat_csat')?.table).toBe('cloud_chat_csat')
    expect(resolveTableName('datamart_claudia.cloud_chat_csat')).toBeUndefined()
    expect(resolveTableName('nope')).toBeUndefined()
  })

  it('the demo generator writes the same 19 tables, each with tenant_id', () => {
    expect(DEMO_TABLES.map((t) => `${t.schema}.${t.table}:${t.mode}`).sort()).toEqual(CATALOG.map((t) => `${t.schema}.${t.table}:${t.mode}`).sort())
    for (const t of DEMO_TABLES) expect(t.columns.map((c) => c.name)).toContain('tenant_id')
  })
})

describe('SQL quoting', () => {
  it('doubles quotes so a value cannot end its literal or identifier', () => {
    expect(quoteLiteral("it's")).toBe("'it''s'")
    expect(quoteIdent('a"b')).toBe('"a""b"')
    expect(() => quoteLiteral('a\u0000b')).toThrow()
  })

  it('never lets the engine infer partition values, and says why a table cannot be built', () => {
    const t = CATALOG.find((c) => c.table === 'claudia_conversation')!
    const manifest = obj('v2/_manifests/snapshot_date=2026-11-03/snapshot_hour=03/manifest.json')
    const prefix = 'v2/datamart_claudia/claudia_conversation/snapshot_date=2026-11-03/snapshot_hour=03/'
    const none = logicalTableSql(t, foldersForLogicalTable(buildInventory([manifest]), t), (k) => k)
    expect(none).toMatchObject({ ok: false, reason: 'no_ready_copy' })
    const empty = logicalTableSql(t, foldersForLogicalTable(buildInventory([manifest, obj(`${prefix}_SUCCESS`)]), t), (k) => k)
    expect(empty).toMatchObject({ ok: false, reason: 'no_files' })
    const q = logicalTableSql(
      t,
      foldersForLogicalTable(buildInventory([manifest, obj(`${prefix}_SUCCESS`), obj(`${prefix}it's.parquet`)]), t),
      (k) => `/data/${k}`
    )
    expect(q.ok && q.sql).toContain('hive_partitioning = false')
    expect(q.ok && q.sql).toContain(`'/data/${prefix}it''s.parquet'`)
  })
})
