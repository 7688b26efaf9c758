// When `watch` checks next: at each hour's due time (40 minutes after it starts) a full refresh, and, while the due
// hour's markers (its manifest, each table's _SUCCESS) have not all landed, a cheap poll of just those prefixes.
// Pure: the app's follow timer uses the same rules.
import { folderPrefix, manifestKey, SUCCESS_MARKER } from '../bucket-key'
import { CATALOG } from '../catalog'
import { dateOf, hourOf } from '../dates'
import { DUE_AFTER_MS, HOUR_MS } from '../schedule'

/** The hour (its start, UTC ms) most recently due at `now`, and the due instant of the one after. */
export function dueHourAt(now: number): { hour: number; nextDue: number } {
  const hour = Math.floor((now - DUE_AFTER_MS) / HOUR_MS) * HOUR_MS
  return { hour, nextDue: hour + HOUR_MS + DUE_AFTER_MS }
}

/** The prefixes where an hour's manifest and _SUCCESS markers appear (v2): list these, not the bucket. */
export function markerPrefixes(hour: number): string[] {
  const date = dateOf(hour)
  const h = hourOf(hour)
  const manifest = manifestKey('v2', date, h)
  return [manifest.slice(0, manifest.lastIndexOf('/') + 1), ...CATALOG.map((t) => folderPrefix(t, 'v2', date, h))]
}

/** The marker keys an hour is complete with: its manifest and every table's _SUCCESS. */
export function markerKeys(hour: number): string[] {
  const [manifestFolder, ...folders] = markerPrefixes(hour)
  return [`${manifestFolder}manifest.json`, ...folders.map((f) => `${f}${SUCCESS_MARKER}`)]
}

/** How often the due hour's markers are polled while they have not landed (watch's --poll, the app's follow timer). */
export const DEFAULT_POLL_MS = 60_000

/**
 * The markers of `hour` still awaited, given what the listing has (`has`): none once its manifest is there (the vendor's
 * trigger: a table it lists as missing or pending comes in a later hour), else every marker not listed yet.
 */
export function awaitedMarkers(hour: number, has: (key: string) => boolean): string[] {
  const [manifest, ...folders] = markerKeys(hour)
  return manifest !== undefined && has(manifest) ? [] : [manifest as string, ...folders].filter((k) => !has(k))
}

export type NextCheck = { readonly at: number; readonly kind: 'full' | 'poll'; readonly hour: number }

/**
 * The next check after one at `now`: the next due time (a full refresh), or sooner, every `pollMs`, a poll of the due
 * hour's marker prefixes while some of its markers are missing (`awaiting`).
 */
export function nextCheck(now: number, opts: { readonly awaiting: boolean; readonly pollMs: number }): NextCheck {
  const { hour, nextDue } = dueHourAt(now)
  if (opts.awaiting && now + opts.pollMs < nextDue) return { at: now + opts.pollMs, kind: 'poll', hour }
  return { at: nextDue, kind: 'full', hour: nextDue - DUE_AFTER_MS }
}

/** At most this many listings per poll: a quiet check stays cheap however many tables are awaited. */
export const POLL_LISTINGS = 5

/**
 * The prefixes the `round`-th poll lists for the markers still awaited: the manifest's folder whenever the manifest is
 * awaited (the vendor's trigger), then awaited table folders in turn, POLL_LISTINGS in all.
 */
export function pollPrefixes(awaitingKeys: readonly string[], round: number): string[] {
  const folders = [...new Set(awaitingKeys.map((k) => k.slice(0, k.lastIndexOf('/') + 1)))]
  const manifest = folders.filter((f) => f.startsWith('v2/_manifests/'))
  const tables = folders.filter((f) => !f.startsWith('v2/_manifests/'))
  const room = Math.min(tables.length, POLL_LISTINGS - manifest.length)
  const start = tables.length === 0 ? 0 : (round * room) % tables.length
  return [...manifest, ...Array.from({ length: room }, (_, i) => tables[(start + i) % tables.length] as string)]
}
