// What the app tells the desktop after a refresh: each incident that opened, changed (its tables or severity) or
// resolved since the previous evaluation of the same connection (the changes `watch` tells its targets: shared
// follow/incident-changes.ts), filtered by the connection's setting (errors only, everything, never) and grouped
// into one notification per delivery hour. The first evaluation of a connection is the baseline: what was already
// open is counted in the window's title, not announced.
import type { NotifySetting } from '../../../shared/api/views'
import type { Incident } from '../../../shared/incidents'
import { type IncidentChange, type KnownIncident, incidentChanges } from '../../../shared/follow/incident-changes'
import type { Finding, FindingKind } from '../../../shared/timeline'
import { KIND_WORDS } from '../deliveries/finding-words'

export interface DesktopNotification {
  /** The same for the same hour and changes: the system replaces rather than stacks a repeat. */
  readonly tag: string
  readonly title: string
  readonly body: string
  /** A finding of the hour, for the inspector a click opens (null: nothing to open). */
  readonly finding: Finding | null
}

/** Open errors: what the window's title (the tab's, in a browser) counts. */
export const openErrorCount = (incidents: readonly Incident[]): number => incidents.filter((i) => i.resolved === null && i.severity === 'error').length

/** The window's title: the count of open errors first, so a taskbar or tab shows it. */
export function windowTitle(appName: string, connection: string | null, openErrors: number): string {
  const base = connection ? `${connection} · ${appName}` : appName
  return openErrors > 0 ? `(${openErrors}) ${base}` : base
}

/** What a connection's next evaluation is compared with: the incidents as last evaluated (incident-changes.ts) and
 * a finding of each, for the inspector a click opens (also once an incident is no longer found). */
export interface FollowMemory {
  readonly known: Readonly<Record<string, KnownIncident>>
  readonly findings: ReadonlyMap<string, Finding>
}

const wanted = (c: IncidentChange, setting: NotifySetting, before: FollowMemory): boolean =>
  setting === 'all' || c.incident.severity === 'error' || before.known[c.incident.id]?.severity === 'error'

/** "3 tables missing", "Resolved: Table missing", "Changed: 4 tables missing": what happened to the incident. */
function headline(c: IncidentChange): string {
  const words = KIND_WORDS[c.incident.kind as FindingKind]
  const what = c.incident.tables.length > 1 ? words.many(c.incident.tables.length) : words.one
  return c.change === 'resolved' ? `Resolved: ${what}` : c.change === 'changed' ? `Changed: ${what}` : what
}

/** The tables it concerns (the first four), and how it resolved. */
function detail(c: IncidentChange): string {
  const t = c.incident.tables
  const tables = t.length ? `${t.slice(0, 4).join(', ')}${t.length > 4 ? `, and ${t.length - 4} more` : ''}` : ''
  return [tables, c.change === 'resolved' ? (c.incident.resolved ?? '') : ''].filter(Boolean).join('; ')
}

/**
 * The notifications for going from `before` (null: the connection's first evaluation, the baseline, told nothing) to
 * `next`, one per delivery hour (several kinds of one hour together), newest hour first, and what the next evaluation
 * is compared with. `hourText` writes an hour in the window's zone.
 */
export function notificationsFor(
  before: FollowMemory | null,
  next: readonly Incident[],
  setting: NotifySetting,
  hourText: (t: number) => string
): { readonly notifications: DesktopNotification[]; readonly memory: FollowMemory } {
  const { changes, known } = incidentChanges(before?.known ?? null, next)
  const findings = new Map([...(before?.findings ?? [])].filter(([id]) => id in known))
  for (const i of next) if (i.id in known && i.findings[0]) findings.set(i.id, i.findings[0])
  const memory = { known, findings }
  if (before === null || setting === 'never') return { notifications: [], memory }
  const byHour = new Map<string, IncidentChange[]>()
  for (const c of changes.filter((x) => wanted(x, setting, before))) {
    const key = c.incident.hour === null ? c.incident.id : String(c.incident.hour)
    byHour.set(key, [...(byHour.get(key) ?? []), c])
  }
  const notifications = [...byHour.values()]
    .sort((a, b) => (b[0]?.incident.hour ?? 0) - (a[0]?.incident.hour ?? 0))
    .map((group) => {
      const first = group[0] as IncidentChange
      const hour = first.incident.hour
      const lead = hour === null ? '' : `${hourText(hour)}: `
      return {
        tag: group.map((c) => c.fingerprint).join(' '),
        title: group.length === 1 ? `${lead}${headline(first)}` : `${lead}${group.length} incidents`,
        body: group.length === 1 ? detail(first) : group.map((c) => [headline(c), detail(c)].filter(Boolean).join(' · ')).join('\n'),
        finding: findings.get(first.incident.id) ?? before.findings.get(first.incident.id) ?? null
      }
    })
  return { notifications, memory }
}
