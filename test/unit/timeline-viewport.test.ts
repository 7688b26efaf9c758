// The timeline's geometry without a canvas: rows by schema, the first view of a range, zoom about an anchor,
// panning bounds, hit testing, keeping a focused hour in view, and axis ticks on a zone's wall clock.
import { describe, expect, it } from 'vitest'
import {
  AXIS_H,
  LABEL_W,
  LABEL_W_MAX,
  MAX_PXH,
  MIN_PXH,
  ROW_H,
  SCHEMA_H,
  cellAt,
  clampOffset,
  initialViewport,
  isTick,
  keepInView,
  labelWidth,
  layoutRows,
  manifestAt,
  panBy,
  tickStep,
  zoomAt
} from '../../src/renderer/src/deliveries/timeline-viewport'

const tables = [
  { schema: 'a', table: 'a1' },
  { schema: 'a', table: 'a2' },
  { schema: 'b', table: 'b1' }
]

describe('timeline viewport', () => {
  it("lays rows out under the axis: the hour's manifest first, then a schema heading before its tables", () => {
    const { rows, height } = layoutRows({ tables })
    const top = AXIS_H + ROW_H + 4
    expect(rows.map((r) => [r.kind, r.name, r.y])).toEqual([
      ['manifest', 'manifest', AXIS_H],
      ['schema', 'a', top],
      ['table', 'a1', top + SCHEMA_H],
      ['table', 'a2', top + SCHEMA_H + ROW_H],
      ['schema', 'b', top + SCHEMA_H + 2 * ROW_H],
      ['table', 'b1', top + 2 * SCHEMA_H + 2 * ROW_H]
    ])
    expect(height).toBe(top + 2 * SCHEMA_H + 3 * ROW_H + 4)
  })

  it('shows a whole short range at up to 12 px an hour, a long one from its latest hours', () => {
    expect(initialViewport(200, 1000)).toEqual({ pxh: 5, offset: 0 })
    expect(initialViewport(24, 1000)).toEqual({ pxh: 12, offset: 0 })
    const year = initialViewport(8760, 1000)
    expect(year.pxh).toBeCloseTo(1000 / 8760)
    expect(initialViewport(200_000, 1000)).toEqual({ pxh: MIN_PXH, offset: 200_000 - 1000 / MIN_PXH })
  })

  it('zooms keeping the hour under the pointer in place, within the zoom limits', () => {
    const v = { pxh: 4, offset: 100 }
    const z = zoomAt(v, 2, 200, 1000, 800)
    expect(z.pxh).toBe(8)
    // The hour under x=200 was 100 + 200/4 = 150; it still is.
    expect(z.offset + 200 / z.pxh).toBeCloseTo(150)
    expect(zoomAt(v, 1e6, 0, 1000, 800).pxh).toBe(MAX_PXH)
    // Zoomed out no further than the whole range filling the plot: a week never shrinks into a sliver at one edge.
    expect(zoomAt(v, 1e-9, 0, 1000, 800)).toEqual({ pxh: 0.8, offset: 0 })
    let week = { pxh: 800 / 168, offset: 0 }
    for (let notch = 0; notch < 10; notch++) week = zoomAt(week, 1 / 1.5, 400, 168, 800)
    expect(week).toEqual({ pxh: 800 / 168, offset: 0 })
    // Only a range longer than the plot can show at the smallest zoom stops there.
    expect(zoomAt(v, 1e-9, 0, 200_000, 800).pxh).toBe(MIN_PXH)
  })

  it('pans no further than the first hour, nor more than 2 hours past the last', () => {
    expect(panBy({ pxh: 10, offset: 5 }, -1000, 100, 500).offset).toBe(0)
    expect(panBy({ pxh: 10, offset: 5 }, 100_000, 100, 500).offset).toBe(100 - 50 + 2)
    expect(clampOffset(10, 10, 100, 500)).toBe(10)
  })

  it('hits the cell under a point, the manifest row apart, and nothing on a schema heading, the axis, or past the hours', () => {
    const { rows } = layoutRows({ tables })
    const top = AXIS_H + ROW_H + 4
    const v = { pxh: 10, offset: 2.5 }
    expect(cellAt(0, top + SCHEMA_H + 1, v, rows, 100)).toEqual({ hour: 2, table: 0 })
    expect(cellAt(25, top + SCHEMA_H + ROW_H + ROW_H - 1, v, rows, 100)).toEqual({ hour: 5, table: 1 })
    expect(cellAt(5, top + 2 * SCHEMA_H + 2 * ROW_H, v, rows, 100)).toEqual({ hour: 3, table: 2 })
    expect(cellAt(5, top + 1, v, rows, 100)).toBeNull()
    expect(cellAt(5, 2, v, rows, 100)).toBeNull()
    expect(cellAt(10_000, top + SCHEMA_H + 1, v, rows, 100)).toBeNull()
    // The manifest row is no table's cell; manifestAt names its hour.
    expect(cellAt(5, AXIS_H + 1, v, rows, 100)).toBeNull()
    expect(manifestAt(5, AXIS_H + 1, v, 100)).toBe(3)
    expect(manifestAt(5, top + SCHEMA_H + 1, v, 100)).toBeNull()
  })

  it('leaves a focused hour in view alone, and centres one out of view', () => {
    const v = { pxh: 10, offset: 100 }
    expect(keepInView(v, 120, 1000, 500)).toBe(v)
    expect(keepInView(v, 400, 1000, 500)).toEqual({ pxh: 10, offset: 400 - 25 })
  })

  it('puts ticks ~70 px apart on wall-clock hours, midnights, Mondays or month starts', () => {
    expect(tickStep(80)).toBe(1)
    expect(tickStep(10)).toBe(12)
    expect(tickStep(1)).toBe(7 * 24)
    const at = (iso: string): number => Date.parse(iso)
    expect(isTick(at('2026-11-20T06:00:00Z'), 6)).toBe(true)
    expect(isTick(at('2026-11-20T07:00:00Z'), 6)).toBe(false)
    expect(isTick(at('2026-11-20T00:00:00Z'), 24)).toBe(true)
    expect(isTick(at('2026-11-23T00:00:00Z'), 7 * 24)).toBe(true) // a Monday
    expect(isTick(at('2026-11-24T00:00:00Z'), 7 * 24)).toBe(false)
    expect(isTick(at('2026-12-01T00:00:00Z'), 30 * 24)).toBe(true)
  })

  it('widens the label column to whole names when the plot keeps its room, and never below the narrowest', () => {
    expect(labelWidth(700)).toBe(LABEL_W)
    expect(labelWidth(2000)).toBe(LABEL_W_MAX)
    expect(labelWidth(880)).toBe(280)
    expect(labelWidth(100)).toBe(LABEL_W)
  })
})
