// Findings as support staff act on them: one incident per delivery hour and kind (the tables inside), each
// open or resolved, and a resolved one says how (a later ready copy superseded it; the pending rows were
// caught up; it was only late). Open incidents come first, newest hour first. Pure: from the timeline's view.
import type { TimelineView } from './api/views'
import { CATALOG } from './catalog'
import { SEVERITY_RANK } from './severity-order'
import { type Finding, type FindingKind, type Resolution, type Severity, findingHour } from './timeline'

export interface Incident {
  /** Stable within a timeline: kind and hour. */
  readonly id: string
  readonly kind: FindingKind
  readonly severity: Severity
  /** The delivery hour (UTC ms), or null for a finding that belongs to no hour. */
  readonly hour: number | null
  readonly findings: readonly Finding[]
  /** The tables it concerns, in catalog order (empty for a finding about the whole hour). */
  readonly tables: readonly string[]
  /** Null while open; else how it resolved itself, in plain words. */
  readonly resolved: string | null
}

/** How an hour reads in a resolution: UTC unless the caller (the window, in its chosen zone) says otherwise. */
export type HourWords = (t: number) => string
export const utcHour: HourWords = (t) => `${new Date(t).toISOString().slice(0, 13).replace('T', ' ')}:00 UTC`

/** How a resolved finding resolved, in plain words (the core decided it from the whole history). */
export function resolutionWords(r: Resolution, fmtHour: HourWords = utcHour): string {
  switch (r.how) {
    case 'arrived_late':
      return 'arrived late; the data is complete'
    case 'superseded':
      return `superseded by the later copy of ${fmtHour(r.at)}`
    case 'caught_up':
      return `caught up by the delivery of ${fmtHour(r.at)}`
    case 'resumed':
      return `deliveries resumed at ${fmtHour(r.at)}`
  }
}

export function incidentsOf(view: TimelineView, fmtHour: HourWords = utcHour): Incident[] {
  const groups = new Map<string, Finding[]>()
  for (const f of view.findings) {
    const t = findingHour(f)
    // Findings without an hour (a key outside the layout) stay one incident each: they name different keys.
    const id = t === null ? `${f.kind}|${f.key}` : `${f.kind}|${t}`
    const list = groups.get(id)
    if (list) list.push(f)
    else groups.set(id, [f])
  }
  const order = new Map(CATALOG.map((c, i) => [c.table, i]))
  const incidents = [...groups].map(([id, findings]): Incident => {
    const first = findings[0] as Finding
    const how = findings.map((f) => (f.resolved ? resolutionWords(f.resolved, fmtHour) : null))
    // Resolved only when every table of it is; when they resolved differently, how many each way.
    const resolved = how.every((h) => h !== null) ? (how.length === 1 ? (how[0] ?? null) : sameOrLast(how as string[])) : null
    const tables = [...new Set(findings.map((f) => f.table).filter((x): x is string => x !== null))].sort((a, b) => (order.get(a) ?? 99) - (order.get(b) ?? 99))
    const severity = findings.reduce<Severity>((s, f) => (SEVERITY_RANK[f.severity] < SEVERITY_RANK[s] ? f.severity : s), first.severity)
    return { id, kind: first.kind, severity, hour: findingHour(first), findings, tables, resolved }
  })
  return incidents.sort(
    (a, b) =>
      Number(a.resolved !== null) - Number(b.resolved !== null) ||
      (b.hour ?? -Infinity) - (a.hour ?? -Infinity) ||
      SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity] ||
      a.kind.localeCompare(b.kind)
  )
}

/** One resolution for all, or how many tables resolved each way ("16 superseded by …; 3 caught up by …"). */
function sameOrLast(how: readonly string[]): string {
  if (how.every((h) => h === how[0])) return how[0] as string
  const counts = new Map<string, number>()
  for (const h of how) counts.set(h, (counts.get(h) ?? 0) + 1)
  return [...counts].map(([words, n]) => `${n} ${words}`).join('; ')
}
