// Which prefixes to list, so that a year of hourly deliveries is listed as many small listings in parallel
// (one per table and month) and a refresh lists only what can have changed. Pure: the listing itself runs
// in main (src/main/bucket/bucket-index.ts).
import { parseKey } from './bucket-key'
import { HOURLY_RETENTION_MS, DAY_MS } from './schedule'
import { dateOf } from './dates'

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

const PARTITION_RE = /^(.*\/(?:snapshot_date|etl_date)=)(\d{4}-\d{2})-\d{2}\/$/

/**
 * Groups a table's partition folders (from a delimiter listing) into one listing per month:
 * "…/etl_date=2026-11-03/", "…/etl_date=2026-11-04/" → "…/etl_date=2026-11". Anything else is listed as is.
 */
export function monthUnits(partitionPrefixes: readonly string[]): string[] {
  const out = new Set<string>()
  for (const p of partitionPrefixes) {
    const m = PARTITION_RE.exec(p)
    out.add(m ? `${m[1]}${m[2]}` : p)
  }
  return [...out].sort()
}

const MONTH_UNIT_RE = /^(.*=)(\d{4})-(\d{2})$/

function nextMonth(y: number, m: number): [number, number] {
  return m === 12 ? [y + 1, 1] : [y, m + 1]
}

/** Month units from the one after `unit` through the month of `now` (a refresh across a month's end). */
export function monthsAfter(unit: string, now: number): string[] {
  const m = MONTH_UNIT_RE.exec(unit)
  if (!m) return []
  const nowMonth = dateOf(now).slice(0, 7)
  const out: string[] = []
  let [y, mo] = nextMonth(Number(m[2]), Number(m[3]))
  for (let guard = 0; guard < 240; guard++) {
    const ym = `${y}-${String(mo).padStart(2, '0')}`
    if (ym > nowMonth) break
    out.push(`${m[1]}${ym}`)
    ;[y, mo] = nextMonth(y, mo)
  }
  return out
}

export interface IndexedUnit {
  readonly prefix: string
  /** The greatest key seen under the prefix, or null when it was empty. */
  readonly lastKey: string | null
}

/**
 * The listings of an incremental refresh: for each table and the manifests, the newest month after the
 * greatest key seen (new hours sort after it) and any month begun since; every folder that was still without
 * _SUCCESS (its marker sorts before its data files, so start-after would miss it); and the days of full
 * tables that crossed the 7-day retention line since (their pruned hours disappear).
 */
export function refreshUnits(units: readonly IndexedUnit[], keys: Iterable<string>, now: number, lastRefresh: number): ListingUnit[] {
  const out = new Map<string, ListingUnit>()
  const add = (u: ListingUnit): void => {
    if (!out.has(u.prefix)) out.set(u.prefix, u)
  }
  // Newest month unit per parent (table or manifests of a version).
  const newest = new Map<string, IndexedUnit>()
  for (const u of units) {
    const m = MONTH_UNIT_RE.exec(u.prefix)
    if (!m) continue
    const parent = m[1] as string
    const cur = newest.get(parent)
    if (!cur || cur.prefix < u.prefix) newest.set(parent, u)
  }
  for (const u of newest.values()) {
    add(u.lastKey === null ? { prefix: u.prefix, replace: true } : { prefix: u.prefix, startAfter: u.lastKey, replace: false })
    for (const p of monthsAfter(u.prefix, now)) add({ prefix: p, replace: true })
  }
  // Folders seen without _SUCCESS, and full-table days that retention may have pruned since the last refresh.
  const folders = new Map<string, boolean>()
  const pruneFrom = lastRefresh - HOURLY_RETENTION_MS - DAY_MS
  const pruneTo = now - HOURLY_RETENTION_MS
  for (const key of keys) {
    const r = parseKey(key)
    if (r.kind !== 'data' && r.kind !== 'marker' && r.kind !== 'ignored') continue
    folders.set(r.folder.prefix, (folders.get(r.folder.prefix) ?? false) || r.kind === 'marker')
    const p = r.folder.partition
    if (r.folder.mode === 'full' && r.folder.version === 'v2') {
      const dayStart = Date.parse(`${p.date}T00:00:00Z`)
      if (dayStart + DAY_MS > pruneFrom && dayStart <= pruneTo) {
        const dayPrefix = r.folder.prefix.slice(0, r.folder.prefix.indexOf('snapshot_hour='))
        add({ prefix: dayPrefix, replace: false, foldersOnly: true })
      }
    }
  }
  for (const [prefix, ready] of folders) if (!ready) add({ prefix, replace: true })
  return [...out.values()].sort((a, b) => (a.prefix < b.prefix ? -1 : a.prefix > b.prefix ? 1 : 0))
}
