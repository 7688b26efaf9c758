// What a running export says: percent, bar and time left from DuckDB's own progress when it tells; the rows the
// grid counted; bytes written (and the time so far) when nothing tells how far along it is.
import { describe, expect, it } from 'vitest'
import type { ExportJob } from '../../src/shared/api/views'
import { exportProgress } from '../../src/renderer/src/common/export-progress'

const START = Date.parse('2026-11-20T10:00:00.000Z')
const job = (patch: Partial<ExportJob>): ExportJob => ({
  id: 'x',
  path: '/tmp/x.csv',
  format: 'csv',
  state: 'running',
  startedAt: new Date(START).toISOString(),
  endedAt: null,
  rows: 0,
  percent: null,
  bytes: 0,
  error: null,
  connection: 'Demo',
  asOf: null,
  ...patch
})

describe('export progress', () => {
  it('with DuckDB’s percent: a bar, the percent and the time left it extrapolates', () => {
    const p = exportProgress(job({ percent: 25, bytes: 375_000_000 }), START + 60_000, 1_234_567)
    expect(p.percent).toBe(25)
    expect(p.text).toBe('Exporting… 25% · about 3 min left · 1,234,567 rows to write · 375.0 MB written')
  })

  it('too early to say the time left: the percent only', () => {
    expect(exportProgress(job({ percent: 40 }), START + 500, null).text).toBe('Exporting… 40% · 0 B written')
  })

  it('without a percent: an indeterminate bar, the bytes written and the time so far', () => {
    const p = exportProgress(job({ bytes: 357_800_000, rows: 5000 }), START + 90_000, null)
    expect(p.percent).toBeNull()
    expect(p.text).toBe('Exporting… 5,000 rows read · 357.8 MB written · 1 min 30 s so far')
  })
})
