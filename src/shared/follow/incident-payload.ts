// What a target is told about one incident change: kind, hour, tables, status, words, bucket keys, the delivery
// headline and a one-line summary, with a `text` field so a Slack incoming webhook takes the same body. Pure.
import { countText } from '../counts'
import type { DeliveryHeadline } from '../delivery-headline'
import type { IncidentChange } from './incident-changes'

export interface IncidentPayload {
  /** An incident's change, or `exported`: a watch's file for a delivery hour (`export` says which). */
  readonly change: IncidentChange['change'] | 'exported'
  readonly fingerprint: string
  readonly id: string
  readonly kind: string
  readonly severity: string
  /** The delivery hour (UTC ISO), or null for an incident of no hour. */
  readonly hour: string | null
  readonly tables: readonly string[]
  readonly status: 'open' | 'resolved'
  readonly resolved: string | null
  readonly words: string
  readonly keys: readonly string[]
  /** Where: the bucket's location as the tool names it. */
  readonly location: string
  readonly headline: DeliveryHeadline | null
  readonly summary: string
  /** Slack's incoming webhooks show this. */
  readonly text: string
  /** Only on a test sent from the app's Follow panel: nothing happened to the feed. */
  readonly test?: true
  /** `watch --export-dir`: the file written for a delivery hour and its rows (src/shared/follow/export-payload.ts). */
  readonly export?: { readonly file: string; readonly rows: number; readonly table: string; readonly format: string; readonly superseding: number }
}

/** "2026-11-14 05:00 UTC", or "no delivery hour". */
export const hourText = (t: number | null): string => (t === null ? 'no delivery hour' : `${new Date(t).toISOString().slice(0, 16).replace('T', ' ')} UTC`)

/** "missing opened for 2026-11-14 05:00 UTC: 3 tables (a, b, c)". */
export function changeSummary(c: IncidentChange): string {
  const i = c.incident
  const tables = i.tables.length === 0 ? 'the whole hour' : i.tables.length <= 3 ? i.tables.join(', ') : `${countText(i.tables.length, 'table')}`
  const how = c.change === 'resolved' ? ` (${i.resolved ?? 'resolved'})` : ''
  return `${i.kind.replace(/_/g, ' ')} ${c.change} for ${hourText(i.hour)}: ${tables}${how}`
}

export function incidentPayload(c: IncidentChange, where: { readonly location: string; readonly headline: DeliveryHeadline | null }): IncidentPayload {
  const i = c.incident
  const summary = changeSummary(c)
  const mark = c.change === 'resolved' ? 'RESOLVED' : i.severity.toUpperCase()
  return {
    change: c.change,
    fingerprint: c.fingerprint,
    id: i.id,
    kind: i.kind,
    severity: i.severity,
    hour: i.hour === null ? null : new Date(i.hour).toISOString(),
    tables: i.tables,
    status: i.status,
    resolved: i.resolved,
    words: i.words,
    keys: i.keys,
    location: where.location,
    headline: where.headline,
    summary,
    text: `[${mark}] ${where.location}: ${summary}\n${i.words}`
  }
}

/** What "Send a test" sends: a payload of the usual shape, marked as a test in every field a reader looks at. */
export function testPayload(where: { readonly location: string; readonly at: number }): IncidentPayload {
  const summary = 'a test sent from the Follow panel of Export Explorer: nothing happened to the feed'
  return {
    change: 'opened',
    fingerprint: `test|${where.at}`,
    id: 'test',
    kind: 'test',
    severity: 'info',
    hour: null,
    tables: [],
    status: 'open',
    resolved: null,
    words: 'This is a test. The incidents of this connection are told here as they open, change and resolve.',
    keys: [],
    location: where.location,
    headline: null,
    summary,
    text: `[TEST] ${where.location}: ${summary}`,
    test: true
  }
}

/** The environment variables an `--exec` command gets (the JSON is on its stdin). */
export function payloadEnv(p: IncidentPayload): Record<string, string> {
  return {
    EE_CHANGE: p.change,
    EE_KIND: p.kind,
    EE_SEVERITY: p.severity,
    EE_HOUR: p.hour ?? '',
    EE_STATUS: p.status,
    EE_TABLES: p.tables.join(','),
    EE_KEYS: p.keys.join(','),
    EE_LOCATION: p.location,
    EE_SUMMARY: p.summary,
    EE_FINGERPRINT: p.fingerprint,
    ...(p.test ? { EE_TEST: '1' } : {}),
    ...(p.export ? { EE_FILE: p.export.file, EE_ROWS: String(p.export.rows) } : {})
  }
}
