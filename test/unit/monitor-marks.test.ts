// The timeline's marks for the monitors' findings: on the cell of their table and hour, only for the monitors' kinds,
// and only for hours in the view.
import { describe, expect, it } from 'vitest'
import type { TimelineView } from '../../src/shared/api/views'
import type { Finding } from '../../src/shared/timeline'
import { monitorMarks } from '../../src/renderer/src/deliveries/monitor-marks'

const start = Date.UTC(2026, 10, 5, 0)
const hours = Array.from({ length: 48 }, (_, i) => ({ start: new Date(start + i * 3_600_000).toISOString(), era: 'v2' as const, manifest: null, cells: '00' }))
const finding = (kind: Finding['kind'], table: string | null, date: string, hour: string): Finding => ({
  kind,
  severity: 'warning',
  date,
  hour,
  table,
  key: 'k',
  message: 'm',
  resolved: null
})

describe('monitor marks', () => {
  it("marks the monitors' findings at their cell, nothing else", () => {
    const view: TimelineView = {
      tables: [
        { schema: 's', table: 'a' },
        { schema: 's', table: 'b' }
      ],
      hours,
      findings: [
        finding('volume_anomaly', 'b', '2026-11-05', '14'),
        finding('schema_change', 'b', '2026-11-05', '14'),
        finding('manifest_mismatch', 'a', '2026-11-06', '02'),
        // Not the monitors' kinds, or not in the view, or no table: no mark.
        finding('missing', 'a', '2026-11-05', '03'),
        finding('volume_anomaly', 'a', '2026-11-09', '03'),
        finding('volume_anomaly', null, '2026-11-05', '04'),
        finding('volume_anomaly', 'zzz', '2026-11-05', '05')
      ]
    }
    const m = monitorMarks(view)
    const marked = [...m.flags.keys()].filter((i) => m.flags[i])
    expect(marked).toEqual([14 * 2 + 1, 26 * 2 + 0])
    expect(m.kindsAt(14, 1)).toEqual(['volume_anomaly', 'schema_change'])
    expect(m.kindsAt(26, 0)).toEqual(['manifest_mismatch'])
    expect(m.kindsAt(3, 0)).toEqual([])
  })
})
