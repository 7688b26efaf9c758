// The timeline's geometry, apart from painting and input: the manifest row, then rows by schema, the viewport (pixels per hour and
// the fractional hour at the left edge), zooming about an anchor, panning within bounds, hit testing a point
// to a cell, and which hours carry an axis tick on a zone's wall clock. Pure, so it is unit-tested.
import type { TimelineView } from '../../../shared/api/views'

export const ROW_H = 16
export const SCHEMA_H = 18
export const AXIS_H = 34
/** The label column's narrowest: a schema's indent and a table name's distinguishing words (table-label.tsx elides
 * the shared ones). */
export const LABEL_W = 220
/** Wide enough for the catalog's longest table name whole. */
export const LABEL_W_MAX = 360
/** What the plot keeps before the label column grows past its narrowest. */
export const PLOT_W_MIN = 600
export const MIN_PXH = 0.02
export const MAX_PXH = 40
const HOUR_MS = 3_600_000

export type Row =
  { kind: 'manifest'; name: string; y: number } | { kind: 'schema'; name: string; y: number } | { kind: 'table'; index: number; name: string; y: number }

export interface Focus {
  readonly hour: number
  readonly table: number
}

/** Pixels per hour and the (fractional) hour index at the left edge of the plot. */
export interface Viewport {
  readonly pxh: number
  readonly offset: number
}

export function layoutRows(view: Pick<TimelineView, 'tables'>): { rows: Row[]; height: number } {
  // The hour's manifest first: its own row, apart from the tables' cells.
  const rows: Row[] = [{ kind: 'manifest', name: 'manifest', y: AXIS_H }]
  let y = AXIS_H + ROW_H + 4
  let last = ''
  view.tables.forEach((t, index) => {
    if (t.schema !== last) {
      rows.push({ kind: 'schema', name: t.schema, y })
      y += SCHEMA_H
      last = t.schema
    }
    rows.push({ kind: 'table', index, name: t.table, y })
    y += ROW_H
  })
  return { rows, height: y + 4 }
}

/** The range's whole span when it fits at up to 12 px an hour, else its latest hours at the smallest zoom. */
export function initialViewport(hours: number, plotW: number): Viewport {
  const pxh = Math.max(MIN_PXH, Math.min(12, plotW / Math.max(1, hours)))
  return { pxh, offset: Math.max(0, hours - plotW / pxh) }
}

/** The label column for a timeline `width` px wide: names whole when the plot keeps PLOT_W_MIN px, else narrower
 * (down to LABEL_W). */
export function labelWidth(width: number): number {
  return Math.max(LABEL_W, Math.min(LABEL_W_MAX, width - PLOT_W_MIN))
}

/** Keeps the left edge so the plot never scrolls past the first hour or more than 2 hours past the last. */
export function clampOffset(offset: number, pxh: number, hours: number, plotW: number): number {
  return Math.max(Math.min(0, hours - plotW / pxh), Math.min(offset, hours - plotW / pxh + 2))
}

/** The smallest zoom: the whole range fills the plot (never a sliver of it at one edge). */
export function minPxh(hours: number, plotW: number): number {
  return Math.min(MAX_PXH, Math.max(MIN_PXH, plotW / Math.max(1, hours)))
}

/** Zooms by a factor keeping the hour under anchorX (pixels from the plot's left) where it is, no further out than
 * the whole range. */
export function zoomAt(v: Viewport, factor: number, anchorX: number, hours: number, plotW: number): Viewport {
  const least = minPxh(hours, plotW)
  const pxh = Math.max(least, Math.min(MAX_PXH, v.pxh * factor))
  // All the way out, the whole range is what is shown (the range's label says so).
  if (pxh === least && hours * pxh <= plotW + 1e-9) return { pxh, offset: 0 }
  const hourAtAnchor = v.offset + anchorX / v.pxh
  return { pxh, offset: clampOffset(hourAtAnchor - anchorX / pxh, pxh, hours, plotW) }
}

/** Pans by a number of pixels (positive: later hours). */
export function panBy(v: Viewport, dx: number, hours: number, plotW: number): Viewport {
  return { pxh: v.pxh, offset: clampOffset(v.offset + dx / v.pxh, v.pxh, hours, plotW) }
}

/** The cell under a point of the plot (x from its left, y from its top), or null between rows or off the hours. */
export function cellAt(x: number, y: number, v: Viewport, rows: readonly Row[], hours: number): Focus | null {
  const hour = Math.floor(v.offset + x / v.pxh)
  const row = rows.find((r) => r.kind === 'table' && y >= r.y && y < r.y + ROW_H)
  if (!row || row.kind !== 'table' || hour < 0 || hour >= hours) return null
  return { hour, table: row.index }
}

/** The hour index under a point of the manifest row, or null when the point is elsewhere. */
export function manifestAt(x: number, y: number, v: Viewport, hours: number): number | null {
  const hour = Math.floor(v.offset + x / v.pxh)
  return y >= AXIS_H && y < AXIS_H + ROW_H && hour >= 0 && hour < hours ? hour : null
}

/** The first and last hour indexes drawn (partly visible included). */
export function visibleHours(v: Viewport, hours: number, plotW: number): { first: number; last: number } {
  return { first: Math.max(0, Math.floor(v.offset)), last: Math.min(hours - 1, Math.ceil(v.offset + plotW / v.pxh)) }
}

/** The viewport moved just enough to show a focused hour (centred on it when it was out of view). */
export function keepInView(v: Viewport, hour: number, hours: number, plotW: number): Viewport {
  const right = v.offset + plotW / v.pxh
  if (hour >= v.offset && hour + 1 <= right) return v
  return { pxh: v.pxh, offset: clampOffset(hour - plotW / v.pxh / 2, v.pxh, hours, plotW) }
}

/** Tick step in hours so labels stand ~70 px apart. */
export function tickStep(pxh: number): number {
  for (const h of [1, 3, 6, 12, 24, 48, 7 * 24, 14 * 24, 30 * 24, 91 * 24]) if (h * pxh >= 70) return h
  return 182 * 24
}

/** Whether an hour starting at wall-clock instant `wall` (UTC ms shifted to the zone) carries a tick. */
export function isTick(wall: number, step: number): boolean {
  const wallHour = Math.floor(wall / HOUR_MS)
  const d = new Date(wall)
  if (step < 24) return wallHour % step === 0
  if (step === 24 || step === 48) return d.getUTCHours() === 0 && (step === 24 || Math.floor(wallHour / 24) % 2 === 0)
  if (step <= 14 * 24) return d.getUTCHours() === 0 && d.getUTCDay() === 1
  return d.getUTCHours() === 0 && d.getUTCDate() === 1
}
