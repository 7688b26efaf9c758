// The order in which folders were delivered: etl_date=__initial__ first, then v1 folders by date, then v2
// folders by date and hour. Decides which copy of a row is newest; never left to string comparison of
// partition values ("__initial__" sorts after every date as a string).
import type { FolderRef } from './bucket-key'
import { instantOf } from './dates'
import { V1_DELIVERY_HOUR } from './schedule'

function rank(f: Pick<FolderRef, 'version' | 'partition'>): number {
  if (f.partition.kind === 'etl' && f.partition.initial) return 0
  return f.version === 'v1' ? 1 : 2
}

/**
 * A folder's place in delivery order as a sort key, most significant first: rank (0 __initial__, 1 v1, 2 v2), date,
 * hour ('' for v1). Compared element by element (code units) it is compareDelivery; engines that sort rows themselves
 * (the Athena and BigQuery views, src/shared/warehouse-ddl) order by the same key.
 */
export function deliverySortKey(f: Pick<FolderRef, 'version' | 'partition'>): readonly [number, string, string] {
  return [rank(f), f.partition.date, f.partition.hour ?? '']
}

/** A folder's place in delivery order as one integer (the mirror's rank column): the same order as deliverySortKey. */
export function deliveryOrderKey(f: Pick<FolderRef, 'version' | 'partition'>): number {
  const r = rank(f)
  if (r === 0) return 0
  const date = f.partition.date
  const hour = f.partition.hour ?? ''
  // Asked of every folder at each plan and view (a year's 8,760, several times a query): read digit by digit.
  const day = digits(date, 0, 4) * 1e4 + digits(date, 5, 7) * 100 + digits(date, 8, 10)
  return r * 1e10 + day * 100 + (hour === '' ? 0 : digits(hour, 0, hour.length))
}

/** The number the digits of text[from, to) write (a checked date's or hour's part), NaN when one is not a digit. */
function digits(text: string, from: number, to: number): number {
  let n = 0
  for (let i = from; i < to; i++) {
    const d = text.charCodeAt(i) - 48
    if (!(d >= 0 && d <= 9)) return NaN
    n = n * 10 + d
  }
  return n
}

/** Negative when a was delivered before b. Ties only for the same folder. */
export function compareDelivery(a: FolderRef, b: FolderRef): number {
  // deliverySortKey element by element, without building it (a year's folders are sorted at every start).
  const ra = rank(a)
  const rb = rank(b)
  if (ra !== rb) return ra - rb
  const da = a.partition.date
  const db = b.partition.date
  if (da !== db) return da < db ? -1 : 1
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
