// Findings as support staff act on them: one incident per delivery hour and kind (the tables inside), each
// open or resolved, and a resolved one says how (a later ready copy superseded it; the pending rows were
// caught up; it was only late). Open incidents come first, newest hour first. Pure: from the timeline's view.
import { type TimelineView, decodeCell } from './api-contract'
import { CATALOG } from './catalog'
import { type Finding, type FindingKind, type Severity, findingHour } from './timeline'

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

const SEVERITY_RANK: Record<Severity, number> = { error: 0, warning: 1, info: 2 }
/** How an hour reads in a resolution: UTC unless the caller (the window, in its chosen zone) says otherwise. */
export type HourWords = (t: number) => string
const utcHour: HourWords = (t) => `${new Date(t).toISOString().slice(0, 13).replace('T', ' ')}:00 UTC`

/** The first hour after `t` at which the table has a ready (or late) copy on the timeline, or null. */
function nextReady(view: TimelineView, tableIndex: number, t: number): number | null {
  for (const h of view.hours) {
    const at = Date.parse(h.start)
    if (at <= t) continue
    const s = decodeCell(h.cells, tableIndex)
    if (s === 'ready' || s === 'late') return at
  }
  return null
}

/** How one finding resolved itself, or null when it still needs someone. */
function resolution(f: Finding, view: TimelineView, fmtHour: HourWords): string | null {
  const t = findingHour(f)
  if (f.kind === 'late') return 'arrived late; the data is complete'
  if (f.kind === 'pending_not_caught_up') {
    const m = /caught up at (\d{4}-\d\d-\d\d) (\d\d):00/.exec(f.message)
    return m ? `caught up at ${fmtHour(Date.parse(`${m[1]}T${m[2]}:00:00Z`))}, later than 6 hours` : null
  }
  if (t === null || f.table === null) return null
  const entry = CATALOG.find((c) => c.table === f.table)
  // A later ready copy of a full table replaces the whole table: nothing of this hour is needed any more.
  if (entry?.mode === 'full' && (f.kind === 'missing' || f.kind === 'failed' || f.kind === 'empty_copy')) {
    const index = view.tables.findIndex((x) => x.table === f.table)
    const next = index < 0 ? null : nextReady(view, index, t)
    return next === null ? null : `superseded by the later copy of ${fmtHour(next)}`
  }
  return null
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
    const how = findings.map((f) => resolution(f, view, fmtHour))
    // Resolved only when every table of it is; the words of the last one (the latest to resolve) stand for all.
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

function sameOrLast(how: readonly string[]): string {
  return how.every((h) => h === how[0]) ? (how[0] as string) : `${how[how.length - 1] as string} (the latest of them)`
}
