// Completion of bare column names in the SQL pane, as a pure function on CodeMirror's state (no DOM): the columns
// offered are those of the tables the statement under the cursor reads, never after a qualifier or in a string.
import { CompletionContext } from '@codemirror/autocomplete'
import { EditorState } from '@codemirror/state'
import { describe, expect, it } from 'vitest'
import { statementColumns, statementColumnsSource, statementTableNames } from '../../src/renderer/src/sql/statement-columns'

const SCHEMA = {
  'datamart_claudia.claudia_messages': ['message_id', 'tenant_id', 'send_at'],
  'datamart_claudia.claudia_csat': ['csat_id', 'tenant_id', 'score'],
  cloud_chat_tags: ['tag_id', 'name', 'Created At']
}

/** The labels offered with the cursor at `|` in `doc`. */
function offered(doc: string, explicit = false): string[] | null {
  const pos = doc.indexOf('|')
  const state = EditorState.create({ doc: doc.replace('|', '') })
  const r = statementColumnsSource(SCHEMA)(new CompletionContext(state, pos, explicit))
  if (r === null || r instanceof Promise) return null
  return r.options.map((o) => o.label).filter((l) => l.toLowerCase().startsWith(state.sliceDoc(r.from, pos).toLowerCase()))
}

describe('the tables a statement reads', () => {
  it('names after FROM and JOIN, qualified or quoted, with aliases and FROM lists', () => {
    expect(statementTableNames('SELECT * FROM claudia_messages m JOIN datamart_claudia."claudia_csat" AS c ON m.x = c.x')).toEqual([
      'claudia_messages',
      'datamart_claudia.claudia_csat'
    ])
    expect(statementTableNames('SELECT 1 FROM a x, b AS y, c WHERE 1')).toEqual(['a', 'b', 'c'])
    expect(statementTableNames("SELECT 'FROM nothing' -- FROM neither\nFROM t")).toEqual(['t'])
  })
})

describe('bare column completion', () => {
  it('offers the columns of the statement’s tables for a bare name', () => {
    expect(offered('SELECT * FROM claudia_messages WHERE ten|')).toEqual(['tenant_id'])
    expect(offered('SELECT * FROM datamart_claudia.claudia_csat WHERE s|')).toEqual(['score'])
    // Before the FROM is written further on, the statement's tables still count.
    expect(offered('SELECT ten| FROM claudia_messages')).toEqual(['tenant_id'])
  })

  it('a column of two tables is offered once, saying both', () => {
    const state = EditorState.create({ doc: 'SELECT * FROM claudia_messages JOIN claudia_csat USING (tenant_id) WHERE ' })
    const opts = statementColumns(SCHEMA, state.doc.toString(), state.doc.length)
    expect(opts.filter((o) => o.label === 'tenant_id')).toEqual([
      expect.objectContaining({ detail: 'datamart_claudia.claudia_messages, datamart_claudia.claudia_csat' })
    ])
  })

  it('only the statement under the cursor counts, and a name DuckDB would fold goes in quoted', () => {
    expect(offered('SELECT * FROM claudia_csat;\nSELECT * FROM claudia_messages WHERE s|')).toEqual(['send_at'])
    const state = EditorState.create({ doc: 'SELECT Cre FROM cloud_chat_tags' })
    const r = statementColumnsSource(SCHEMA)(new CompletionContext(state, 10, false))
    expect(r && !(r instanceof Promise) ? r.options.find((o) => o.label === 'Created At')?.apply : null).toBe('"Created At"')
  })

  it('offers nothing after a qualifier, in a string or a comment, or for a statement without known tables', () => {
    expect(offered('SELECT m.ten| FROM claudia_messages m')).toBeNull()
    expect(offered("SELECT * FROM claudia_messages WHERE x = 'ten|")).toBeNull()
    expect(offered('SELECT * FROM claudia_messages -- ten|')).toBeNull()
    expect(offered('SELECT ten| FROM unknown_table')).toBeNull()
  })
})
