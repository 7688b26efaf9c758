// Which of the views' read notes a statement meets: the tables it names (schema.table, table, table__versions, quoted
// or not), not a table whose name merely contains another's or a word inside a longer identifier.
import { describe, expect, it } from 'vitest'
import { readNotesFor } from '../../src/renderer/src/engine/read-notes'

const reads = [
  { table: 'datamart_claudia.claudia_messages', message: 'messages are read one type at a time' },
  { table: 'datamart_cloudchat_saas.cloud_chat_messages', message: 'chat messages too' }
]

describe('read notes a statement meets', () => {
  it('finds the tables a statement names, in any of their names', () => {
    expect(readNotesFor('SELECT count(*) FROM claudia_messages', reads).map((r) => r.table)).toEqual(['datamart_claudia.claudia_messages'])
    expect(readNotesFor('select * from datamart_claudia."claudia_messages" m', reads)).toHaveLength(1)
    expect(readNotesFor('SELECT _file FROM claudia_messages__versions', reads)).toHaveLength(1)
    expect(readNotesFor('SELECT * FROM CLOUD_CHAT_MESSAGES JOIN claudia_messages USING (x)', reads)).toHaveLength(2)
  })

  it('ignores a name inside a longer identifier and tables not named', () => {
    expect(readNotesFor('SELECT * FROM claudia_messages_backup', reads)).toEqual([])
    expect(readNotesFor('SELECT * FROM my_claudia_messages', reads)).toEqual([])
    expect(readNotesFor('SELECT 1', reads)).toEqual([])
    expect(readNotesFor('SELECT * FROM claudia_messages', [])).toEqual([])
  })
})
