// The tables a statement names: only their views are opened, so a name missed would be a "table does not exist".
import { describe, expect, it } from 'vitest'
import { CATALOG } from '../../src/shared/catalog'
import { tablesNamed } from '../../src/shared/tables-named'

const names = (sql: string): string[] => tablesNamed(sql).map((t) => t.table)

describe('tablesNamed', () => {
  it('names a table however it is written: bare, quoted, schema-qualified, any case, its __versions', () => {
    expect(names('SELECT count(*) FROM claudia_messages')).toEqual(['claudia_messages'])
    expect(names('select * from "Claudia_Messages"')).toEqual(['claudia_messages'])
    expect(names('SELECT * FROM datamart_claudia.claudia_csat JOIN cloud_chat_tags USING (id)')).toEqual(['claudia_csat', 'cloud_chat_tags'])
    expect(names('SELECT * FROM claudia_prompt_revision__versions')).toEqual(['claudia_prompt_revision'])
  })

  it('does not take a longer name for a shorter one (claudia_conversation_feedback is not claudia_conversation)', () => {
    expect(names('SELECT * FROM claudia_conversation_feedback')).toEqual(['claudia_conversation_feedback'])
  })

  it('opens none for a statement that reads no table, every one for a statement that lists them', () => {
    expect(names('SELECT 1')).toEqual([])
    expect(tablesNamed('SHOW TABLES')).toBe(CATALOG)
    expect(tablesNamed("SELECT table_name FROM information_schema.tables WHERE table_name LIKE 'cloud%'")).toBe(CATALOG)
    expect(tablesNamed('SELECT * FROM duckdb_views()')).toBe(CATALOG)
  })
})
