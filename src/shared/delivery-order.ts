// The order in which folders were delivered: etl_date=__initial__ first, then v1 folders by date, then v2
// folders by date and hour. Decides which copy of a row is newest; never left to string comparison of
// partition values ("__initial__" sorts after every date as a string).
import type { FolderRef } from './bucket-key'
import { instantOf } from './dates'
import { V1_DELIVERY_HOUR } from './schedule'

function rank(f: FolderRef): number {
  if (f.partition.kind === 'etl' && f.partition.initial) return 0
  return f.version === 'v1' ? 1 : 2
}

/** Negative when a was delivered before b. Ties only for the same folder. */
export function compareDelivery(a: FolderRef, b: FolderRef): number {
  const r = rank(a) - rank(b)
  if (r !== 0) return r
  if (a.partition.date !== b.partition.date) return a.partition.date < b.partition.date ? -1 : 1
  const ha = a.partition.hour ?? ''
  const hb = b.partition.hour ?? ''
  if (ha !== hb) return ha < hb ? -1 : 1
  return 0
}

/** Files of one folder: by name, as the rule breaks ties within a folder (code-unit order, never locale). */
export function compareFileNames(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}

/**
 * The delivery hour a folder belongs to on the timeline: v2 date+hour; v1 the daily 07:00 delivery of its
 * date; null for etl_date=__initial__, which predates the timeline.
 */
export function deliveryInstant(f: FolderRef): number | null {
  if (f.partition.kind === 'etl' && f.partition.initial) return null
  return instantOf(f.partition.date, f.partition.hour ?? V1_DELIVERY_HOUR)
}
