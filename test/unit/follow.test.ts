// Following the feed, the pure part: what changed between two evaluations of the incidents (told once each, a
// stopped feed once and again when it resumes), when the next check is due, and the payload a webhook receives.
import { describe, expect, it } from 'vitest'
import type { TimelineView } from '../../src/shared/api/views'
import { CATALOG } from '../../src/shared/catalog'
import { incidentsOf } from '../../src/shared/incidents'
import { incidentChanges, NO_LONGER_FOUND, pendingFor, rememberTold, TOLD_MEMORY } from '../../src/shared/follow/incident-changes'
import { awaitedMarkers, dueHourAt, markerKeys, markerPrefixes, nextCheck, POLL_LISTINGS, pollPrefixes } from '../../src/shared/follow/check-schedule'
import { incidentPayload, payloadEnv } from '../../src/shared/follow/incident-payload'
import { type Finding, FINDING_SEVERITY, type FindingKind, type Resolution } from '../../src/shared/timeline'

const H = 3_600_000
const T0 = Date.UTC(2026, 10, 14, 5)
const finding = (kind: FindingKind, hourAt: number, table: string | null, resolved: Resolution | null = null, message = `${kind} ${table}`): Finding => ({
  kind,
  severity: FINDING_SEVERITY[kind],
  date: new Date(hourAt).toISOString().slice(0, 10),
  hour: new Date(hourAt).toISOString().slice(11, 13),
  table,
  key: `v2/x/${table ?? 'hour'}/etl_date=${new Date(hourAt).toISOString().slice(0, 10)}/`,
  message,
  resolved
})
const view = (findings: Finding[]): TimelineView => ({ tables: [], hours: [], findings })
const inc = (...f: Finding[]) => incidentsOf(view(f))

describe('incident changes', () => {
  it('tells every open incident on the first evaluation, none of the resolved history', () => {
    const { changes, known } = incidentChanges(null, inc(finding('missing', T0, 'a'), finding('late', T0 - H, 'b', { how: 'arrived_late' })))
    expect(changes.map((c) => [c.change, c.incident.kind])).toEqual([['opened', 'missing']])
    expect(Object.keys(known)).toEqual([`missing|${T0}`])
  })

  it('nothing changes: nothing is told', () => {
    const first = incidentChanges(null, inc(finding('missing', T0, 'a')))
    expect(incidentChanges(first.known, inc(finding('missing', T0, 'a'))).changes).toEqual([])
  })

  it('a table joins an incident: changed, with a new fingerprint; it resolves: resolved, once', () => {
    const a = incidentChanges(null, inc(finding('missing', T0, 'a')))
    const b = incidentChanges(a.known, inc(finding('missing', T0, 'a'), finding('missing', T0, 'b')))
    expect(b.changes.map((c) => c.change)).toEqual(['changed'])
    expect(b.changes[0]?.fingerprint).not.toBe(a.changes[0]?.fingerprint)
    const resolved = inc(finding('missing', T0, 'a', { how: 'superseded', at: T0 + H }), finding('missing', T0, 'b', { how: 'superseded', at: T0 + H }))
    const c = incidentChanges(b.known, resolved)
    expect(c.changes.map((x) => [x.change, x.incident.status])).toEqual([['resolved', 'resolved']])
    expect(incidentChanges(c.known, resolved).changes).toEqual([])
  })

  it('an open incident the rules no longer find is told resolved', () => {
    const a = incidentChanges(null, inc(finding('missing', T0, 'a')))
    const b = incidentChanges(a.known, inc(finding('late', T0, 'a', { how: 'arrived_late' })))
    expect(b.changes.map((c) => [c.change, c.incident.id, c.incident.resolved])).toEqual([['resolved', `missing|${T0}`, NO_LONGER_FOUND]])
    expect(incidentChanges(b.known, inc(finding('late', T0, 'a', { how: 'arrived_late' }))).changes).toEqual([])
  })

  it('a stopped feed is told once while its words grow, then once more when it resumes', () => {
    const stop = (n: number, resolved: Resolution | null = null) => inc(finding('feed_stopped', T0, null, resolved, `nothing for ${n} hours`))
    const a = incidentChanges(null, stop(6))
    const b = incidentChanges(a.known, stop(7))
    const c = incidentChanges(b.known, stop(8, { how: 'resumed', at: T0 + 8 * H }))
    expect([...a.changes, ...b.changes, ...c.changes].map((x) => x.change)).toEqual(['opened', 'resolved'])
  })

  it('a target is never queued what it was told, and keeps what failed', () => {
    const { changes } = incidentChanges(null, inc(finding('missing', T0, 'a'), finding('failed', T0, 'b')))
    const [x, y] = changes
    expect(pendingFor([], new Set([x!.fingerprint]), changes)).toEqual([y])
    expect(pendingFor([y!], new Set(), [y!, x!])).toEqual([y, x])
    const told = rememberTold(
      Array.from({ length: TOLD_MEMORY }, (_, i) => `f${i}`),
      'new'
    )
    expect(told).toHaveLength(TOLD_MEMORY)
    expect(told.at(-1)).toBe('new')
    expect(told[0]).toBe('f1')
  })
})

describe('check schedule', () => {
  it('awaits every marker not listed until the manifest lands, then none (its missing tables come later)', () => {
    const hour = Date.UTC(2026, 10, 14, 5)
    const [manifest, first, ...rest] = markerKeys(hour) as [string, string, ...string[]]
    expect(awaitedMarkers(hour, () => false)).toEqual(markerKeys(hour))
    expect(awaitedMarkers(hour, (k) => k === first)).toEqual([manifest, ...rest])
    expect(awaitedMarkers(hour, (k) => k === manifest)).toEqual([])
  })

  it('the due hour is the one that started at least 40 minutes ago', () => {
    expect(dueHourAt(T0 + 39 * 60_000)).toEqual({ hour: T0 - H, nextDue: T0 + 40 * 60_000 })
    expect(dueHourAt(T0 + 40 * 60_000)).toEqual({ hour: T0, nextDue: T0 + H + 40 * 60_000 })
  })

  it('polls while markers are missing, until the next due time; else waits for it', () => {
    const now = T0 + 45 * 60_000
    expect(nextCheck(now, { awaiting: true, pollMs: 60_000 })).toEqual({ at: now + 60_000, kind: 'poll', hour: T0 })
    expect(nextCheck(now, { awaiting: false, pollMs: 60_000 })).toEqual({ at: T0 + H + 40 * 60_000, kind: 'full', hour: T0 + H })
    const late = T0 + H + 39 * 60_000
    expect(nextCheck(late, { awaiting: true, pollMs: 120_000 })).toEqual({ at: T0 + H + 40 * 60_000, kind: 'full', hour: T0 + H })
  })

  it('lists the manifest folder and each table folder of the hour, and expects their markers', () => {
    const p = markerPrefixes(T0)
    expect(p[0]).toBe('v2/_manifests/snapshot_date=2026-11-14/snapshot_hour=05/')
    expect(p).toHaveLength(CATALOG.length + 1)
    expect(p.every((x) => x.endsWith('/'))).toBe(true)
    expect(markerKeys(T0)[0]).toBe('v2/_manifests/snapshot_date=2026-11-14/snapshot_hour=05/manifest.json')
    expect(
      markerKeys(T0)
        .slice(1)
        .every((k) => k.endsWith('/_SUCCESS'))
    ).toBe(true)
  })
})

describe('poll prefixes', () => {
  it('a quiet poll lists the manifest folder and a few awaited tables in turn, never more than POLL_LISTINGS', () => {
    const keys = markerKeys(T0)
    const rounds = [0, 1, 2, 3, 4, 5].map((r) => pollPrefixes(keys, r))
    expect(rounds.every((p) => p.length === POLL_LISTINGS && p[0] === markerPrefixes(T0)[0])).toBe(true)
    // Every awaited table folder is listed within a few rounds.
    expect(new Set(rounds.flat())).toEqual(new Set(markerPrefixes(T0)))
    expect(pollPrefixes(keys.slice(1, 3), 0)).toEqual(markerPrefixes(T0).slice(1, 3))
    expect(pollPrefixes(keys.slice(0, 1), 7)).toEqual([markerPrefixes(T0)[0]])
  })
})

describe('payload', () => {
  it('carries the incident, a summary and a Slack text; the environment mirrors it', () => {
    const [c] = incidentChanges(null, inc(finding('missing', T0, 'claudia_csat'), finding('missing', T0, 'claudia_messages'))).changes
    const p = incidentPayload(c!, { location: 's3://b/export', headline: null })
    expect(p).toMatchObject({
      change: 'opened',
      kind: 'missing',
      severity: 'error',
      hour: '2026-11-14T05:00:00.000Z',
      status: 'open',
      location: 's3://b/export'
    })
    expect(p.tables).toEqual(['claudia_csat', 'claudia_messages'])
    expect(p.summary).toBe('missing opened for 2026-11-14 05:00 UTC: claudia_csat, claudia_messages')
    expect(p.text).toContain('[ERROR] s3://b/export: missing opened')
    expect(p.keys.length).toBe(2)
    const env = payloadEnv(p)
    expect(env).toMatchObject({ EE_KIND: 'missing', EE_HOUR: '2026-11-14T05:00:00.000Z', EE_STATUS: 'open', EE_TABLES: 'claudia_csat,claudia_messages' })
  })
})
