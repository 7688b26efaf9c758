// What the app tells the desktop between two evaluations of a connection's incidents: nothing on the first (the
// baseline) or when set to never; an error that opens, changes or resolves, once; warnings only when set to every
// change; incidents of one hour in one notification; and the window's title counting open errors.
import { describe, expect, it } from 'vitest'
import type { TimelineView } from '../../src/shared/api/views'
import { incidentsOf } from '../../src/shared/incidents'
import type { Finding } from '../../src/shared/timeline'
import { type FollowMemory, notificationsFor, openErrorCount, windowTitle } from '../../src/renderer/src/follow/desktop-notifications'

const H5 = Date.parse('2026-11-14T05:00:00Z')
const H6 = Date.parse('2026-11-14T06:00:00Z')
const hourText = (t: number): string => `${new Date(t).toISOString().slice(11, 16)} UTC`

function finding(kind: Finding['kind'], severity: Finding['severity'], hour: number, table: string, resolved: Finding['resolved'] = null): Finding {
  const d = new Date(hour).toISOString()
  return {
    kind,
    severity,
    date: d.slice(0, 10),
    hour: d.slice(11, 13),
    table,
    key: `v2/s/${table}/etl_date=${d.slice(0, 10)}/`,
    message: `${kind} ${table}`,
    resolved
  }
}
const incidents = (...findings: Finding[]) => incidentsOf({ tables: [], hours: [], findings } as TimelineView)
/** What a connection remembers after evaluating these findings' incidents (a baseline: it tells nothing). */
const memoryOf = (...findings: Finding[]): FollowMemory => notificationsFor(null, incidents(...findings), 'all', hourText).memory
const tell = (before: FollowMemory | null, next: Finding[], setting: 'errors' | 'all' | 'never' = 'errors') =>
  notificationsFor(before, incidents(...next), setting, hourText).notifications

describe('desktop notifications', () => {
  it('tells nothing on the first evaluation, nor when set to never', () => {
    const now = [finding('missing', 'error', H6, 'claudia_csat')]
    expect(tell(null, now)).toEqual([])
    expect(tell(memoryOf(), now, 'never')).toEqual([])
  })

  it('tells an error that opens, once, with its hour and tables; a click opens that finding', () => {
    const now = [finding('missing', 'error', H6, 'claudia_csat')]
    const r = notificationsFor(memoryOf(), incidents(...now), 'errors', hourText)
    expect(r.notifications).toEqual([
      { tag: expect.stringMatching(/^missing\|\d+\|open\|error\|claudia_csat$/), title: '06:00 UTC: Table missing', body: 'claudia_csat', finding: now[0] }
    ])
    // The next evaluation finds the same: nothing more.
    expect(tell(r.memory, now)).toEqual([])
  })

  it('tells warnings only when set to every change', () => {
    const now = [finding('late', 'warning', H6, 'claudia_csat')]
    expect(tell(memoryOf(), now)).toEqual([])
    expect(tell(memoryOf(), now, 'all').map((n) => n.title)).toEqual(['06:00 UTC: Arrived late'])
  })

  it('groups the incidents of one hour, newest hour first', () => {
    const told = tell(memoryOf(), [
      finding('missing', 'error', H6, 'claudia_csat'),
      finding('missing', 'error', H6, 'claudia_contents'),
      finding('failed', 'error', H6, 'cloud_chat_tags'),
      finding('missing', 'error', H5, 'cloud_chat_csat')
    ])
    expect(told.map((n) => n.title)).toEqual(['06:00 UTC: 2 incidents', '05:00 UTC: Table missing'])
    expect(told[0]!.body.split('\n').sort()).toEqual(['2 tables missing · claudia_contents, claudia_csat', 'Delivery failed · cloud_chat_tags'].sort())
  })

  it('tells a change of tables, a resolution with how, and an incident no longer found, which still opens its hour', () => {
    const csat = finding('missing', 'error', H6, 'claudia_csat')
    const one = memoryOf(csat, finding('missing', 'error', H5, 'cloud_chat_csat'))
    const two = [csat, finding('missing', 'error', H6, 'claudia_contents'), finding('missing', 'error', H5, 'cloud_chat_csat', { how: 'superseded', at: H6 })]
    const r = notificationsFor(one, incidents(...two), 'errors', hourText)
    expect(r.notifications.map((n) => [n.title, n.body])).toEqual([
      ['06:00 UTC: Changed: 2 tables missing', 'claudia_contents, claudia_csat'],
      ['05:00 UTC: Resolved: Table missing', 'cloud_chat_csat; superseded by the later copy of 2026-11-14 06:00 UTC']
    ])
    const gone = tell(r.memory, [finding('missing', 'error', H5, 'cloud_chat_csat', { how: 'superseded', at: H6 })])
    expect(gone).toEqual([
      {
        tag: expect.stringContaining('resolved'),
        title: '06:00 UTC: Resolved: 2 tables missing',
        body: 'claudia_contents, claudia_csat; no longer found: the hour now reads differently',
        finding: csat
      }
    ])
  })

  it('counts open errors in the window title', () => {
    const now = incidents(
      finding('missing', 'error', H6, 'claudia_csat'),
      finding('failed', 'error', H5, 'cloud_chat_tags', { how: 'superseded', at: H6 }),
      finding('late', 'warning', H5, 'claudia_csat')
    )
    expect(openErrorCount(now)).toBe(1)
    expect(windowTitle('Export Explorer', 'Demo', 1)).toBe('(1) Demo · Export Explorer')
    expect(windowTitle('Export Explorer', null, 0)).toBe('Export Explorer')
  })
})
