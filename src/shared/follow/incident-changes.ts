// What changed between two evaluations of the incidents (opened, changed, resolved), each change with a stable
// identity so every target is told it exactly once, across restarts. Pure: the CLI's watch and the app share it.
import type { Incident } from '../incidents'
import type { Severity } from '../timeline'

export type ChangeKind = 'opened' | 'changed' | 'resolved'

/** An incident as last evaluated: what a later evaluation compares with (kept in the watch's state file). */
export interface KnownIncident {
  readonly id: string
  readonly kind: string
  readonly severity: Severity
  readonly hour: number | null
  readonly tables: readonly string[]
  readonly status: 'open' | 'resolved'
  /** Null while open; how it resolved otherwise. */
  readonly resolved: string | null
  /** The findings' messages, joined: what a person reads. */
  readonly words: string
  readonly keys: readonly string[]
}

export interface IncidentChange {
  /** Told once per target: incident id, status, severity and tables (not the words: a stopped feed's words grow every hour). */
  readonly fingerprint: string
  readonly change: ChangeKind
  readonly incident: KnownIncident
}

export function knownIncident(i: Incident): KnownIncident {
  return {
    id: i.id,
    kind: i.kind,
    severity: i.severity,
    hour: i.hour,
    tables: [...i.tables],
    status: i.resolved === null ? 'open' : 'resolved',
    resolved: i.resolved,
    words: [...new Set(i.findings.map((f) => f.message))].join(' '),
    keys: [...new Set(i.findings.map((f) => f.key))]
  }
}

export function fingerprintOf(k: Pick<KnownIncident, 'id' | 'status' | 'severity' | 'tables'>): string {
  return `${k.id}|${k.status}|${k.severity}|${k.tables.join(',')}`
}

/** Words for an incident told open that the rules no longer find (its hour now reads differently). */
export const NO_LONGER_FOUND = 'no longer found: the hour now reads differently'

/**
 * The changes from `previous` (null: the first evaluation, when every open incident is new) to `current`, and what to
 * keep for the next comparison (the open incidents and those just resolved). A resolved incident never seen open is
 * history, not news; an open one that vanished resolved itself.
 */
export function incidentChanges(
  previous: Readonly<Record<string, KnownIncident>> | null,
  current: readonly Incident[]
): { changes: IncidentChange[]; known: Record<string, KnownIncident> } {
  const before = previous ?? {}
  const changes: IncidentChange[] = []
  const known: Record<string, KnownIncident> = {}
  const seen = new Set<string>()
  for (const inc of current) {
    const now = knownIncident(inc)
    seen.add(now.id)
    const was = before[now.id]
    if (now.status === 'open') {
      known[now.id] = now
      if (!was || was.status === 'resolved') changes.push({ fingerprint: fingerprintOf(now), change: 'opened', incident: now })
      else if (fingerprintOf(was) !== fingerprintOf(now)) changes.push({ fingerprint: fingerprintOf(now), change: 'changed', incident: now })
    } else if (was) {
      known[now.id] = now
      if (was.status === 'open') changes.push({ fingerprint: fingerprintOf(now), change: 'resolved', incident: now })
    }
  }
  for (const was of Object.values(before)) {
    if (seen.has(was.id) || was.status !== 'open') continue
    const gone: KnownIncident = { ...was, status: 'resolved', resolved: NO_LONGER_FOUND }
    changes.push({ fingerprint: fingerprintOf(gone), change: 'resolved', incident: gone })
  }
  return { changes, known }
}

/** One target's queue after an evaluation: what it was not yet told (failed before, or new), never what it was told. */
export function pendingFor(pending: readonly IncidentChange[], told: ReadonlySet<string>, changes: readonly IncidentChange[]): IncidentChange[] {
  const out: IncidentChange[] = []
  const queued = new Set<string>()
  for (const c of [...pending, ...changes]) {
    if (told.has(c.fingerprint) || queued.has(c.fingerprint)) continue
    queued.add(c.fingerprint)
    out.push(c)
  }
  return out
}

/** How many told fingerprints a target remembers: enough for weeks of hourly incidents, bounded for the file. */
export const TOLD_MEMORY = 5000

/** The told list with `fingerprint` added, oldest dropped beyond TOLD_MEMORY. */
export function rememberTold(told: readonly string[], fingerprint: string): string[] {
  const next = [...told.filter((f) => f !== fingerprint), fingerprint]
  return next.length > TOLD_MEMORY ? next.slice(next.length - TOLD_MEMORY) : next
}
