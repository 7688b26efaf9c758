// Which prefixes to list, so that a year of hourly deliveries is listed as ~100 listings of about one page
// each, all in parallel, and a refresh lists only what can have changed. Pure: the listing itself runs in
// main (src/main/bucket/bucket-index.ts).
import { parseKey, tablePrefix } from './bucket-key'
import { CATALOG } from './catalog'
import { dateOf } from './dates'
import { DAY_MS, FIRST_V2_DELIVERY, HOURLY_RETENTION_MS, HOUR_MS } from './schedule'

export interface ListingUnit {
  readonly prefix: string
  /** List only keys after this one (an incremental refresh); the result is merged into the index. */
  readonly startAfter?: string
  /** True when the listing is complete for the prefix: what the index held under it is replaced (removals seen). */
  readonly replace: boolean
  /**
   * Only check which folders one level down still exist (a delimiter listing, a page of folder names instead
   * of every object): the index drops what it held under folders that are gone.
   */
  readonly foldersOnly?: boolean
}

/** Months from the first v2 delivery through the month of `now`, as "YYYY-MM". */
export function v2Months(now: number): string[] {
  const out: string[] = []
  const last = dateOf(Math.max(now, FIRST_V2_DELIVERY)).slice(0, 7)
  let [y, m] = dateOf(FIRST_V2_DELIVERY).slice(0, 7).split('-').map(Number) as [number, number]
  for (let guard = 0; guard < 1200; guard++) {
    const ym = `${y}-${String(m).padStart(2, '0')}`
    if (ym > last) break
    out.push(ym)
    ;[y, m] = m === 12 ? [y + 1, 1] : [y, m + 1]
  }
  return out
}

/**
 * The listings of a cold index, sized to about a page each: v1 holds a table's whole daily history in
 * about a page a year, so one listing per table; a v2 full table keeps 7 days of hours and one copy per
 * older day, so one per table too; a v2 parts table and the v2 manifests grow by 24 folders a day, so one
 * listing per month.
 */
export function coldUnits(now: number): ListingUnit[] {
  const out: ListingUnit[] = []
  const months = v2Months(now)
  out.push({ prefix: 'v1/_manifests/', replace: true })
  for (const ym of months) out.push({ prefix: `v2/_manifests/snapshot_date=${ym}`, replace: true })
  for (const t of CATALOG) {
    out.push({ prefix: tablePrefix(t, 'v1'), replace: true })
    if (t.mode === 'full') out.push({ prefix: tablePrefix(t, 'v2'), replace: true })
    else for (const ym of months) out.push({ prefix: `${tablePrefix(t, 'v2')}etl_date=${ym}`, replace: true })
  }
  return out
}

/** Whether a prefix lies within a unit (so a folder found by discovery is already being listed). */
export function coveredBy(units: readonly { readonly prefix: string }[], prefix: string): boolean {
  return units.some((u) => prefix.startsWith(u.prefix))
}

export interface IndexedUnit {
  readonly prefix: string
  /** The greatest key seen under the prefix, or null when it was empty. */
  readonly lastKey: string | null
  /** Its last listing failed (a refusal, a dropped connection, a server error): the next refresh lists it again. */
  readonly retry?: boolean
}

const MONTH_UNIT_RE = /^(.*=)(\d{4})-(\d{2})$/
const DATE_RE = /^\d{4}-\d{2}-\d{2}$/
const SLASH = 47

/** The first `_date=YYYY-MM-DD/` of a key, or undefined. Found by indexOf: a regular expression scanning each of a
 * year's ~20,000 keys for it cost a warm start 20 ms (issue 23). */
function dateInKey(key: string): string | undefined {
  for (let i = key.indexOf('_date='); i !== -1; i = key.indexOf('_date=', i + 1)) {
    const d = key.slice(i + 6, i + 16)
    if (key.charCodeAt(i + 16) === SLASH && DATE_RE.test(d)) return d
  }
  return undefined
}
/** Folders without _SUCCESS are looked at again for this long; older ones have failed for good. */
const IN_FLIGHT_LOOKBACK_MS = 2 * DAY_MS
/** How late the vendor's retention may run after a day turns 7 days old, and still be noticed. */
const RETENTION_SLACK_MS = 6 * HOUR_MS

/**
 * The listings of an incremental refresh. New deliveries sort after the greatest key seen, so each unit is
 * listed from there: for month units only the newest month of each table, plus any month begun since. v1
 * receives nothing once the bucket is on v2, so its units are skipped then. Folders seen without _SUCCESS are
 * listed again (their marker sorts before their data files, so start-after would miss it), and so are the
 * full-table days that crossed the 7-day retention line since the last refresh (their pruned hours vanish).
 */
export function refreshUnits(units: readonly IndexedUnit[], keys: Iterable<string>, now: number, lastRefresh: number, onV2: boolean): ListingUnit[] {
  const out = new Map<string, ListingUnit>()
  const add = (u: ListingUnit): void => {
    if (!out.has(u.prefix)) out.set(u.prefix, u)
  }
  const from = (u: IndexedUnit): ListingUnit =>
    u.lastKey === null ? { prefix: u.prefix, replace: true } : { prefix: u.prefix, startAfter: u.lastKey, replace: false }
  const newestMonth = new Map<string, IndexedUnit>()
  for (const u of units) {
    // A unit whose listing failed is listed again whatever its age: its objects are missing from the index.
    if (u.retry) add(from(u))
    if (onV2 && u.prefix.startsWith('v1/')) continue
    const m = MONTH_UNIT_RE.exec(u.prefix)
    if (!m) {
      add(from(u))
      continue
    }
    const cur = newestMonth.get(m[1] as string)
    if (!cur || cur.prefix < u.prefix) newestMonth.set(m[1] as string, u)
  }
  const months = v2Months(now)
  for (const [parent, u] of newestMonth) {
    add(from(u))
    const ym = u.prefix.slice(parent.length)
    for (const later of months) if (later > ym) add({ prefix: `${parent}${later}`, replace: true })
  }
  const folders = new Map<string, boolean>()
  const pruneFrom = lastRefresh - HOURLY_RETENTION_MS - RETENTION_SLACK_MS
  const pruneTo = now - HOURLY_RETENTION_MS
  // Only recent folders can still get their _SUCCESS, and only days near the 7-day line can be pruned:
  // older keys are skipped by their date before being parsed (a year holds ~100,000 keys).
  const oldest = dateOf(Math.min(pruneFrom - DAY_MS, lastRefresh - IN_FLIGHT_LOOKBACK_MS))
  for (const key of keys) {
    const d = dateInKey(key)
    if (d !== undefined && d < oldest) continue
    const r = parseKey(key)
    if (r.kind !== 'data' && r.kind !== 'marker' && r.kind !== 'ignored') continue
    folders.set(r.folder.prefix, (folders.get(r.folder.prefix) ?? false) || r.kind === 'marker')
    if (r.folder.mode === 'full' && r.folder.version === 'v2') {
      const dayEnd = Date.parse(`${r.folder.partition.date}T00:00:00Z`) + DAY_MS
      if (dayEnd > pruneFrom && dayEnd <= pruneTo)
        add({ prefix: r.folder.prefix.slice(0, r.folder.prefix.indexOf('snapshot_hour=')), replace: false, foldersOnly: true })
    }
  }
  for (const [prefix, ready] of folders) if (!ready) add({ prefix, replace: true })
  return [...out.values()].sort((a, b) => (a.prefix < b.prefix ? -1 : a.prefix > b.prefix ? 1 : 0))
}
