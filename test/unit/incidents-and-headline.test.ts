// Findings grouped as support staff act on them (one incident per hour and kind, open before resolved, newest
// first, resolved ones saying how) and the headline "is the last hour there?", on hand-made timeline views.
import { describe, expect, it } from 'vitest'
import type { TimelineView } from '../../src/shared/api/views'
import { encodeCells } from '../../src/shared/api/cell-encoding'
import { deliveryHeadline } from '../../src/shared/delivery-headline'
import { incidentsOf } from '../../src/shared/incidents'
import { bySeverity } from '../../src/shared/severity-order'
import { type CellState, type Finding, FINDING_SEVERITY, type FindingKind, type Resolution } from '../../src/shared/timeline'

const TABLES = [
  { schema: 'datamart_claudia', table: 'claudia_csat' },
  { schema: 'datamart_claudia', table: 'claudia_messages' }
]
const names = TABLES.map((t) => t.table)
const T0 = Date.UTC(2026, 10, 20, 0)
const iso = (h: number): string => new Date(T0 + h * 3_600_000).toISOString()

function view(hours: CellState[][], findings: Finding[] = []): TimelineView {
  return {
    tables: TABLES,
    hours: hours.map((cells, h) => ({
      start: iso(h),
      era: 'v2',
      manifest: 'complete',
      cells: encodeCells(names, Object.fromEntries(cells.map((s, i) => [names[i], s])))
    })),
    findings
  }
}
const finding = (kind: FindingKind, h: number, table: string | null, resolved: Resolution | null = null): Finding => ({
  kind,
  severity: FINDING_SEVERITY[kind],
  date: iso(h).slice(0, 10),
  hour: iso(h).slice(11, 13),
  table,
  key: `v2/x/${table ?? '_manifests'}/${h}/`,
  message: `${kind} at ${h}`,
  resolved
})

describe('incidents', () => {
  it('groups one hour and kind into one incident listing its tables, and keeps other hours and kinds apart', () => {
    const v = view(
      [
        ['ready', 'ready'],
        ['missing', 'missing'],
        ['missing', 'ready']
      ],
      [
        finding('missing', 1, 'claudia_messages'),
        finding('missing', 1, 'claudia_csat'),
        finding('missing', 2, 'claudia_csat'),
        finding('manifest_absent', 1, null)
      ]
    )
    const inc = incidentsOf(v)
    expect(inc.map((i) => [i.kind, i.hour, i.tables])).toEqual([
      ['missing', T0 + 2 * 3_600_000, ['claudia_csat']],
      ['missing', T0 + 3_600_000, ['claudia_csat', 'claudia_messages']],
      ['manifest_absent', T0 + 3_600_000, []]
    ])
    expect(inc[1]?.findings).toHaveLength(2)
  })

  it("puts open incidents before resolved ones, newest first, and says how each resolved, in the window's zone", () => {
    const at = (h: number): number => T0 + h * 3_600_000
    const v = view(
      [
        ['ready', 'ready'],
        ['failed', 'ready'],
        ['ready', 'late'],
        ['missing', 'pending'],
        ['ready', 'ready']
      ],
      [
        finding('failed', 1, 'claudia_csat', { how: 'superseded', at: at(2) }),
        finding('late', 2, 'claudia_messages', { how: 'arrived_late' }),
        finding('pending_not_caught_up', 3, 'claudia_messages', { how: 'caught_up', at: at(10) }),
        finding('missing', 3, 'claudia_csat'),
        finding('missing', 3, 'claudia_messages', { how: 'caught_up', at: at(4) }),
        finding('feed_stopped', 0, null, { how: 'resumed', at: at(1) })
      ]
    )
    const inc = incidentsOf(v)
    // An incident is open while one of its findings is: the full table's missing hour has no later copy here.
    expect(inc.map((i) => [i.kind, new Date(i.hour ?? 0).toISOString().slice(11, 13), i.resolved])).toEqual([
      ['missing', '03', null],
      ['pending_not_caught_up', '03', 'caught up by the delivery of 2026-11-20 10:00 UTC'],
      ['late', '02', 'arrived late; the data is complete'],
      ['failed', '01', 'superseded by the later copy of 2026-11-20 02:00 UTC'],
      ['feed_stopped', '00', 'deliveries resumed at 2026-11-20 01:00 UTC']
    ])
    const brasilia = (t: number): string => `${new Date(t - 3 * 3_600_000).toISOString().slice(0, 13).replace('T', ' ')}:00 Brasília`
    expect(
      incidentsOf(v, brasilia)
        .map((i) => i.resolved)
        .filter((r) => r?.includes('Brasília'))
    ).toEqual([
      'caught up by the delivery of 2026-11-20 07:00 Brasília',
      'superseded by the later copy of 2026-11-19 23:00 Brasília',
      'deliveries resumed at 2026-11-19 22:00 Brasília'
    ])
  })
})

describe('incidents resolved in different ways', () => {
  it('say how many tables resolved each way', () => {
    const at = (h: number): number => T0 + h * 3_600_000
    const v = view(
      [['missing', 'missing']],
      [finding('missing', 0, 'claudia_csat', { how: 'superseded', at: at(1) }), finding('missing', 0, 'claudia_messages', { how: 'caught_up', at: at(1) })]
    )
    expect(incidentsOf(v)[0]?.resolved).toBe('1 superseded by the later copy of 2026-11-20 01:00 UTC; 1 caught up by the delivery of 2026-11-20 01:00 UTC')
  })
})

describe('delivery headline', () => {
  const overview = (now: number, newest: (number | null)[]) => ({
    now: new Date(now).toISOString(),
    tables: newest.map((n, i) => ({
      schema: 'datamart_claudia',
      table: names[i] as string,
      mode: 'full' as const,
      newest: n === null ? null : iso(n),
      newestPrefix: null,
      folders: 1,
      note: null,
      restorable: false
    }))
  })

  it('answers with the newest due hour, complete when every table arrived, and the feed running', () => {
    const v = view([
      ['ready', 'ready'],
      ['ready', 'late'],
      ['not_due', 'not_due']
    ])
    const h = deliveryHeadline(overview(T0 + 2 * 3_600_000 + 10 * 60_000, [1, 1]), v)
    expect(h).toMatchObject({ hour: iso(1), complete: true, counts: { ready: 1, late: 1 }, stopped: false, lastArrival: iso(1) })
  })

  it('says what is missing in the newest due hour', () => {
    const h = deliveryHeadline(
      overview(T0 + 3_600_000 + 50 * 60_000, [1, 0]),
      view([
        ['ready', 'ready'],
        ['ready', 'missing']
      ])
    )
    expect(h).toMatchObject({ hour: iso(1), complete: false, counts: { ready: 1, missing: 1 }, stopped: false })
  })

  it('says the feed stopped, and since when, when nothing arrived for hours', () => {
    const v = view([['ready', 'ready'], ...Array.from({ length: 30 }, (): CellState[] => ['missing', 'missing'])])
    const h = deliveryHeadline(overview(T0 + 31 * 3_600_000, [0, 0]), v)
    expect(h).toMatchObject({ hour: iso(30), complete: false, stopped: true, lastArrival: iso(0), counts: { missing: 2 } })
  })
})

describe('the severity order of an hour', () => {
  it('lists errors before warnings before notes, even a resolved missing table before an open stray .crc file', () => {
    const superseded: Resolution = { how: 'superseded', at: T0 + 3_600_000 }
    const hour = [finding('ignored_key', 0, null), finding('late', 0, 'claudia_csat'), finding('missing', 0, 'claudia_messages', superseded)]
    expect(bySeverity(hour).map((f) => f.kind)).toEqual(['missing', 'late', 'ignored_key'])
  })

  it('within a severity, open before resolved, and otherwise as they came', () => {
    const superseded: Resolution = { how: 'superseded', at: T0 + 3_600_000 }
    const hour = [finding('missing', 0, 'claudia_csat', superseded), finding('failed', 0, 'claudia_messages'), finding('missing', 0, 'claudia_messages')]
    expect(bySeverity(hour).map((f) => `${f.kind} ${f.table}`)).toEqual(['failed claudia_messages', 'missing claudia_messages', 'missing claudia_csat'])
  })
})
