// When the rules' answer over a listing can change with the clock alone. They read the evaluation instant in three
// places: an object written after it does not exist yet (inventory.ts), an archived object's restored copy expires
// (listing.ts), and the mirror's newest periods are the current day's days and hours (mirror-plan.ts). Between the
// window's ends, with the same listing, every rule gives the same answer: what the CLI's saved views rely on.
import { type ListedObject, isArchived } from './listing'
import { writtenAt } from './inventory'
import { DAY_MS } from './schedule'

/** Instants (UTC ms): the answer at `now` holds for every instant in [from, until). */
export interface ClockWindow {
  readonly from: number
  readonly until: number
}

/**
 * The window around `now` within which the listing's answer holds: from its newest write at or before `now` (and the
 * day's start) to its next write after `now` (and the day's end). Null when an object is archived or has a restore state:
 * what can be read then also depends on the restore's expiry and on what was downloaded while restored.
 */
export function clockWindow(objects: Iterable<ListedObject>, now: number): ClockWindow | null {
  const dayStart = Math.floor(now / DAY_MS) * DAY_MS
  let from = dayStart
  let until = dayStart + DAY_MS
  for (const o of objects) {
    if (o.restore !== undefined || isArchived(o, now)) return null
    const at = writtenAt(o)
    if (at <= now) from = Math.max(from, at)
    else until = Math.min(until, at)
  }
  return { from, until }
}
