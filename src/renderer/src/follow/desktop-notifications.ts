// What the app tells the desktop after a refresh: each incident that opened, changed (its tables or severity) or
// resolved since the previous evaluation of the same connection, filtered by the connection's setting (errors only,
// everything, never) and grouped into one notification per delivery hour. The first evaluation of a connection is
// the baseline: what was already open is counted in the window's title, not announced.
import type { NotifySetting } from '../../../shared/api/views'
import type { Incident } from '../../../shared/incidents'
import type { Finding } from '../../../shared/timeline'
import { KIND_WORDS } from '../deliveries/finding-words'

export interface DesktopNotification {
  /** The same for the same hour and changes: the system replaces rather than stacks a repeat. */
  readonly tag: string
  readonly title: string
  readonly body: string
  /** A finding of the hour, for the inspector a click opens (null: nothing to open). */
  readonly finding: Finding | null
}

/** What happened to an incident: it opened, changed, resolved itself (the core says how), or is no longer found. */
type Change = { readonly incident: Incident; readonly how: 'opened' | 'changed' | 'resolved' | 'cleared' }

/** What makes two evaluations of an incident the same for the user: still open or not, its severity and tables. */
export const incidentFingerprint = (i: Incident): string => `${i.id}|${i.resolved === null ? 'open' : 'resolved'}|${i.severity}|${i.tables.join(',')}`

/** Open errors: what the window's title (the tab's, in a browser) counts. */
export const openErrorCount = (incidents: readonly Incident[]): number => incidents.filter((i) => i.resolved === null && i.severity === 'error').length

/** The window's title: the count of open errors first, so a taskbar or tab shows it. */
export function windowTitle(appName: string, connection: string | null, openErrors: number): string {
  const base = connection ? `${connection} · ${appName}` : appName
  return openErrors > 0 ? `(${openErrors}) ${base}` : base
}

function changesBetween(prev: readonly Incident[], next: readonly Incident[]): Change[] {
  const before = new Map(prev.map((i) => [i.id, i]))
  const out: Change[] = []
  for (const i of next) {
    const p = before.get(i.id)
    if (!p) {
      if (i.resolved === null) out.push({ incident: i, how: 'opened' })
    } else if (p.resolved === null && i.resolved !== null) out.push({ incident: i, how: 'resolved' })
    else if (i.resolved === null && incidentFingerprint(p) !== incidentFingerprint(i))
      out.push({ incident: i, how: p.resolved === null ? 'changed' : 'opened' })
  }
  // An open incident the new evaluation no longer finds (its files arrived before it was ever resolved): it cleared.
  const now = new Set(next.map((i) => i.id))
  for (const p of prev) if (p.resolved === null && !now.has(p.id)) out.push({ incident: p, how: 'cleared' })
  return out
}

const wanted = (c: Change, setting: NotifySetting, prev: ReadonlyMap<string, Incident>): boolean =>
  setting === 'all' || c.incident.severity === 'error' || prev.get(c.incident.id)?.severity === 'error'

/** "3 tables missing", "Resolved: Table missing", "Changed: 4 tables missing": what happened to the incident. */
function headline(c: Change): string {
  const words = KIND_WORDS[c.incident.kind]
  const what = c.incident.tables.length > 1 ? words.many(c.incident.tables.length) : words.one
  return c.how === 'resolved' || c.how === 'cleared' ? `Resolved: ${what}` : c.how === 'changed' ? `Changed: ${what}` : what
}

/** The tables it concerns (the first four), and how it resolved. */
function detail(c: Change): string {
  const t = c.incident.tables
  const tables = t.length ? `${t.slice(0, 4).join(', ')}${t.length > 4 ? `, and ${t.length - 4} more` : ''}` : ''
  const how = c.how === 'resolved' ? (c.incident.resolved ?? '') : c.how === 'cleared' ? 'no longer found after the latest refresh' : ''
  return [tables, how].filter(Boolean).join('; ')
}

/**
 * The notifications for going from `prev` to `next` (null: the connection's first evaluation, told nothing), one per
 * delivery hour (several kinds of one hour together), newest hour first. `hourText` writes an hour in the window's zone.
 */
export function notificationsFor(
  prev: readonly Incident[] | null,
  next: readonly Incident[],
  setting: NotifySetting,
  hourText: (t: number) => string
): DesktopNotification[] {
  if (prev === null || setting === 'never') return []
  const before = new Map(prev.map((i) => [i.id, i]))
  const changes = changesBetween(prev, next).filter((c) => wanted(c, setting, before))
  const byHour = new Map<string, Change[]>()
  for (const c of changes) {
    const key = c.incident.hour === null ? c.incident.id : String(c.incident.hour)
    byHour.set(key, [...(byHour.get(key) ?? []), c])
  }
  return [...byHour.values()]
    .sort((a, b) => (b[0]?.incident.hour ?? 0) - (a[0]?.incident.hour ?? 0))
    .map((group) => {
      const first = group[0] as Change
      const hour = first.incident.hour
      const lead = hour === null ? '' : `${hourText(hour)}: `
      const title = group.length === 1 ? `${lead}${headline(first)}` : `${lead}${group.length} incidents`
      const body = group.length === 1 ? detail(first) : group.map((c) => [headline(c), detail(c)].filter(Boolean).join(' · ')).join('\n')
      return {
        tag: group.map((c) => incidentFingerprint(c.incident)).join(' '),
        title,
        body,
        finding: first.incident.findings[0] ?? null
      }
    })
}
