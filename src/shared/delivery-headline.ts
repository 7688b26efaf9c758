// "Is the last hour there?" at a glance: the newest hour that is due, how many tables it holds and how many
// are missing, failed, pending or still in flight, its manifest, and, when the feed has stopped, since when
// nothing has arrived. Pure: from the overview and the timeline's view.
import type { Overview, TableStatus, TimelineView } from './api/views'
import { decodeCell } from './api/cell-encoding'
import { type CellState, type ManifestState, USABLE_STATES } from './timeline'

export interface DeliveryHeadline {
  /** The newest hour on the timeline that is due (UTC ISO), or null when none is. */
  readonly hour: string | null
  /** Every table of that hour usable (ready on time or late) or explained (pruned, no delivery due). */
  readonly complete: boolean
  readonly counts: Readonly<Partial<Record<CellState, number>>>
  readonly tables: number
  readonly manifest: ManifestState | null
  /** The newest delivery hour any table has a ready copy of (UTC ISO), or null. */
  readonly lastArrival: string | null
  /** True when nothing has arrived for more than 3 hours after the newest due hour was due. */
  readonly stopped: boolean
}

const FINE: readonly CellState[] = ['ready', 'late', 'pruned', 'no_delivery']
const STOPPED_AFTER_MS = 3 * 3_600_000

export function deliveryHeadline(
  overview: Pick<Overview, 'now'> & { readonly tables: readonly Pick<TableStatus, 'newest'>[] },
  view: TimelineView
): DeliveryHeadline {
  const n = view.tables.length
  const due = [...view.hours]
    .reverse()
    .find((h) => [...Array(n).keys()].some((i) => decodeCell(h.cells, i) !== 'not_due' && decodeCell(h.cells, i) !== 'no_delivery'))
  const counts: Partial<Record<CellState, number>> = {}
  if (due) for (let i = 0; i < n; i++) counts[decodeCell(due.cells, i)] = (counts[decodeCell(due.cells, i)] ?? 0) + 1
  const newest = overview.tables
    .map((t) => t.newest)
    .filter((x): x is string => x !== null)
    .sort()
  const lastArrival = newest[newest.length - 1] ?? null
  // An hour is due 40 minutes after it starts: the feed has stopped when the newest arrival is well behind that.
  const stopped = lastArrival === null || Date.parse(overview.now) - Date.parse(lastArrival) > STOPPED_AFTER_MS + 40 * 60_000
  const complete = due !== undefined && [...Array(n).keys()].every((i) => FINE.includes(decodeCell(due.cells, i)))
  const arrived = USABLE_STATES.reduce((s, k) => s + (counts[k] ?? 0), 0)
  return { hour: due?.start ?? null, complete: complete && arrived > 0, counts, tables: n, manifest: due?.manifest ?? null, lastArrival, stopped }
}
