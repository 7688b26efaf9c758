// The views' read notes (tables this pane's engine reads otherwise than the others, and why: bucket-views.ts) that a
// statement meets: those of the tables it names, by schema.table, table or table__versions, as a word of the text.
import type { ViewsResult } from '../../../shared/bucket-views'

type ReadNote = ViewsResult['reads'][number]

const named = (text: string, name: string): boolean => new RegExp(`(^|[^\\w$])"?${name.replace(/[.$]/g, '\\$&')}"?($|[^\\w$])`, 'i').test(text)

/** The notes of the tables `text` names, once each, in the views' order. */
export function readNotesFor(text: string, reads: readonly ReadNote[]): ReadNote[] {
  return reads.filter((r) => {
    const table = r.table.slice(r.table.indexOf('.') + 1)
    return named(text, table) || named(text, `${table}__versions`)
  })
}
