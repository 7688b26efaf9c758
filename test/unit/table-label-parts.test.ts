// The words that tell a table's name apart from the catalog's others: what a narrow timeline label keeps whole.
import { describe, expect, it } from 'vitest'
import { CATALOG } from '../../src/shared/catalog'
import { labelParts } from '../../src/renderer/src/deliveries/table-label-parts'

const names = CATALOG.map((t) => t.table)

describe('table label parts', () => {
  it('keeps whole the words after those shared with another table', () => {
    expect(labelParts('cloud_chat_conversations_custom_fields', names)).toEqual({ head: 'cloud_chat_conversations_', tail: 'custom_fields' })
    expect(labelParts('cloud_chat_conversations_first_reply_metrics', names).tail).toBe('first_reply_metrics')
    expect(labelParts('cloud_chat_conversations_tags', names).tail).toBe('tags')
    // A name that is the start of others keeps its own last word.
    expect(labelParts('cloud_chat_conversations', names)).toEqual({ head: 'cloud_chat_', tail: 'conversations' })
    expect(labelParts('claudia_conversation_feedback', names).tail).toBe('feedback')
  })

  it('gives tables whose shared heads elide alike different tails, and head + tail is the name', () => {
    for (const t of CATALOG) {
      const { head, tail } = labelParts(t.table, names)
      expect(head + tail).toBe(t.table)
      expect(tail.length).toBeGreaterThan(0)
      const alike = CATALOG.filter((o) => o.table !== t.table && labelParts(o.table, names).head === head && labelParts(o.table, names).tail === tail)
      expect(
        alike.map((o) => o.table),
        t.table
      ).toEqual([])
    }
  })

  it('a name that shares nothing is all tail', () => {
    expect(labelParts('orders', ['orders', 'customers'])).toEqual({ head: '', tail: 'orders' })
  })
})
