// The views' read notes (tables this pane's engine reads otherwise than the others, and why: bucket-views.ts) that a
// statement meets: those of the tables it names (the shared tablesNamed, the words main's engine opens views by).
import type { ViewsResult } from '../../../shared/bucket-views'
import { tablesNamed } from '../../../shared/tables-named'

type ReadNote = ViewsResult['reads'][number]

/** The notes of the tables `text` names, in the views' order. */
export function readNotesFor(text: string, reads: readonly ReadNote[]): ReadNote[] {
  const named = new Set(tablesNamed(text).map((t) => `${t.schema}.${t.table}`))
  return reads.filter((r) => named.has(r.table))
}
