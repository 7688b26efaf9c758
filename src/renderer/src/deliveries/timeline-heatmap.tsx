// The delivery timeline: hours (columns) by table (rows, grouped by schema), one colour per cell state,
// drawn on a canvas so a year (8,760 hours × 19 tables) pans and zooms smoothly: only the visible columns
// are drawn, and when an hour is narrower than a pixel each pixel shows the most alarming state of its hours.
// Mouse: drag or Shift+wheel to pan (the wheel alone scrolls the page), Ctrl/⌘+wheel (or +/−) to zoom, click to inspect. Keyboard: arrows move the
// focused cell (Shift: a day), Home/End, Enter inspects; tabbing in focuses the latest cell of the first table. The
// focused cell is drawn, and read out in a status line the canvas is described by. A cell with a monitors' finding
// (volume, schema, manifest rows) carries a mark in its corner that leaves its state's colour seen.
import { useCallback, useEffect, useEffectEvent, useId, useMemo, useRef, useState } from 'react'
import type { TimelineView } from '../../../shared/api/views'
import { cellStateIndex, decodeCell } from '../../../shared/api/cell-encoding'
import { CELL_STATES } from '../../../shared/timeline'
import { type AxisZone, ZONE_LABEL, allZones, wallClock, zoneOffsetMinutes } from '../common/time'
import { cssToken, tokenVar } from '../common/css-tokens'
import { ERA_TOKEN, MANIFEST_CELLS, MANIFEST_STYLE, STATE_STYLE } from './cell-states'
import { KIND_WORDS } from './finding-words'
import { manifestCells } from './manifest-cells'
import { monitorMarks } from './monitor-marks'
import { TableLabel } from './table-label'
import {
  AXIS_H,
  type Focus,
  ROW_H,
  type Row,
  SCHEMA_H,
  type Viewport,
  cellAt as cellAtPoint,
  manifestAt,
  clampOffset,
  initialViewport,
  isTick,
  keepInView,
  labelWidth,
  layoutRows,
  panBy,
  tickStep,
  visibleHours,
  zoomAt as zoomViewport
} from './timeline-viewport'
import css from './timeline-heatmap.module.css'

const HOUR_MS = 3_600_000

export function TimelineHeatmap(props: {
  view: TimelineView
  zone: AxisZone
  focus: Focus | null
  onFocus: (f: Focus) => void
  onSelect: (hourStart: string) => void
  /** Bumped by the menu's zoom commands: +1 in, −1 out. */
  zoomCommand?: { n: number; dir: 1 | -1 }
}): React.JSX.Element {
  const { view, zone, focus, onFocus, onSelect } = props
  const canvasRef = useRef<HTMLCanvasElement | null>(null)
  const wrapRef = useRef<HTMLDivElement | null>(null)
  const [width, setWidth] = useState(900)
  const n = view.hours.length
  const { rows, height } = useMemo(() => layoutRows(view), [view])
  const starts = useMemo(() => view.hours.map((h) => Date.parse(h.start)), [view])
  // Cell states as numbers, hour-major, for the drawing loop.
  const codes = useMemo(() => {
    const t = view.tables.length
    const a = new Uint8Array(n * t)
    view.hours.forEach((h, i) => {
      for (let j = 0; j < t; j++) a[i * t + j] = cellStateIndex(h.cells, j)
    })
    return a
  }, [view, n])
  const manifests = useMemo(() => manifestCells(view), [view])
  const marks = useMemo(() => monitorMarks(view), [view])
  const tableNames = useMemo(() => view.tables.map((t) => t.table), [view])
  const statusId = useId()
  const focusRef = useRef(focus)
  focusRef.current = focus
  const labelW = labelWidth(width)
  const plotW = Math.max(100, width - labelW)
  // The view: pixels per hour and the (fractional) hour index at the left edge. Starts on the latest hours.
  const [vp, setVp] = useState<Viewport>(() => initialViewport(n, plotW))
  const { pxh, offset } = vp
  const [hover, setHover] = useState<{ x: number; y: number; hour: number; table: number } | null>(null)
  const drag = useRef<{ x: number; offset: number; moved: boolean } | null>(null)

  // A new range (2 days → a year) shows its whole span when it fits, else the latest hours. Another width (the
  // inspector opening beside it, a resized window) fits the range again until the user zoomed or panned; after
  // that it keeps the zoom and the latest hour shown. Either way a focused cell stays in view.
  const moved = useRef(false)
  const shown = useRef({ n, plotW })
  useEffect(() => {
    const before = shown.current
    shown.current = { n, plotW }
    const focusHour = focusRef.current?.hour
    setVp((v) => {
      let next: Viewport
      if (before.n !== n || !moved.current) next = initialViewport(n, plotW)
      else next = { pxh: v.pxh, offset: clampOffset(v.offset + (before.plotW - plotW) / v.pxh, v.pxh, n, plotW) }
      if (before.n !== n) moved.current = false
      return focusHour === undefined || before.n !== n ? next : keepInView(next, focusHour, n, plotW)
    })
  }, [n, plotW])

  useEffect(() => {
    const el = wrapRef.current
    if (!el) return
    const ro = new ResizeObserver(() => setWidth(el.clientWidth))
    ro.observe(el)
    setWidth(el.clientWidth)
    return () => ro.disconnect()
  }, [])

  const zoomAt = useCallback(
    (factor: number, anchorX: number) => {
      moved.current = true
      setVp((v) => zoomViewport(v, factor, anchorX, n, plotW))
    },
    [n, plotW]
  )

  const zc = props.zoomCommand
  // Only a command given since this timeline was shown (a mount, in StrictMode twice, is none).
  const zoomSeen = useRef(zc?.n ?? 0)
  const zoomCommanded = useEffectEvent((command: NonNullable<typeof zc>) => zoomAt(command.dir > 0 ? 1.5 : 1 / 1.5, plotW / 2))
  useEffect(() => {
    if (!zc || zc.n === zoomSeen.current) return
    zoomSeen.current = zc.n
    zoomCommanded(zc)
  }, [zc])

  // Keep the focused cell in view — but not when the range itself changed (the view was just reset to it).
  const lastN = useRef(n)
  const keepFocusInView = useEffectEvent((hour: number) => setVp((v) => keepInView(v, hour, n, plotW)))
  useEffect(() => {
    if (lastN.current !== n) {
      lastN.current = n
      return
    }
    if (focus) keepFocusInView(focus.hour)
  }, [focus, n])

  // Draw.
  useEffect(() => {
    const canvas = canvasRef.current
    if (!canvas) return
    const dpr = window.devicePixelRatio || 1
    canvas.width = Math.round(plotW * dpr)
    canvas.height = Math.round(height * dpr)
    const g = canvas.getContext('2d')
    if (!g) return
    g.setTransform(dpr, 0, 0, dpr, 0, 0)
    g.clearRect(0, 0, plotW, height)
    const t = view.tables.length
    const tableRows = rows.filter((r): r is Extract<Row, { kind: 'table' }> => r.kind === 'table')
    const colors = CELL_STATES.map((s) => cssToken(STATE_STYLE[s].token))
    const manifestColors = MANIFEST_CELLS.map((m) => cssToken(MANIFEST_STYLE[m].token))
    const { first, last } = visibleHours(vp, n, plotW)
    const eraColor = { v1: cssToken(ERA_TOKEN.v1), gap: cssToken(ERA_TOKEN.gap), v2: cssToken(ERA_TOKEN.v2) }
    const blank = cssToken('--color-surface')
    // A monitors' finding: a corner triangle where the cell is wide enough, else a strip along its top, so the
    // state's colour stays seen either way.
    const markColor = cssToken('--monitor-mark')
    const drawMark = (x: number, y: number, w: number): void => {
      g.fillStyle = markColor
      if (w >= 6) {
        const s = Math.min(7, w - 1)
        g.beginPath()
        g.moveTo(x + w - s, y + 1)
        g.lineTo(x + w, y + 1)
        g.lineTo(x + w, y + 1 + s)
        g.closePath()
        g.fill()
      } else g.fillRect(x, y + 1, w, 3)
    }
    if (pxh >= 1) {
      const gap = pxh >= 4 ? 1 : 0
      for (let i = first; i <= last; i++) {
        const x = (i - offset) * pxh
        const hv = view.hours[i]
        if (!hv) continue
        g.fillStyle = eraColor[hv.era]
        g.fillRect(x, AXIS_H - 8, pxh, 6)
        g.fillStyle = manifestColors[manifests[i] ?? 0] ?? blank
        g.fillRect(x, AXIS_H + 1, Math.max(1, pxh - gap), ROW_H - 2)
        for (const r of tableRows) {
          g.fillStyle = colors[codes[i * t + r.index] ?? 0] ?? blank
          g.fillRect(x, r.y + 1, Math.max(1, pxh - gap), ROW_H - 2)
          if (marks.flags[i * t + r.index]) drawMark(x, r.y, Math.max(1, pxh - gap))
        }
      }
    } else {
      // Several hours per pixel: each pixel column shows the most alarming state among its hours.
      const worst = new Uint8Array(t)
      for (let x = 0; x < plotW; x++) {
        const h0 = Math.max(0, Math.floor(offset + x / pxh))
        const h1 = Math.min(n, Math.floor(offset + (x + 1) / pxh))
        if (h0 >= n || h1 <= h0) continue
        worst.fill(255)
        let worstManifest = 255
        for (let i = h0; i < h1; i++) {
          for (let j = 0; j < t; j++) worst[j] = Math.min(worst[j] ?? 255, codes[i * t + j] ?? 255)
          worstManifest = Math.min(worstManifest, manifests[i] ?? 255)
        }
        g.fillStyle = manifestColors[worstManifest] ?? blank
        g.fillRect(x, AXIS_H + 1, 1, ROW_H - 2)
        const hv = view.hours[h0]
        if (hv) {
          g.fillStyle = eraColor[hv.era]
          g.fillRect(x, AXIS_H - 8, 1, 6)
        }
        for (const r of tableRows) {
          g.fillStyle = colors[worst[r.index] ?? 0] ?? blank
          g.fillRect(x, r.y + 1, 1, ROW_H - 2)
          for (let i = h0; i < h1; i++)
            if (marks.flags[i * t + r.index]) {
              drawMark(x, r.y, 1)
              break
            }
        }
      }
    }
    // Axis: ticks on the chosen zone's wall clock.
    const step = tickStep(pxh)
    g.fillStyle = cssToken('--timeline-axis-text')
    g.strokeStyle = cssToken('--timeline-tick')
    g.font = `${cssToken('--font-xs', '11px')} ${cssToken('--font-ui', 'sans-serif')}`
    g.textBaseline = 'top'
    const t0 = starts[0] ?? 0
    // Each label starts just right of its tick, but stays inside the canvas: one that would run past an edge is
    // pulled in, and dropped when that would put it over its neighbour. The right end drawn is kept for tests.
    let labelEnd = -Infinity
    for (let i = first; i <= last; i++) {
      const s = t0 + i * HOUR_MS
      const wall = s + zoneOffsetMinutes(zone, s) * 60_000
      const d = new Date(wall)
      if (!isTick(wall, step)) continue
      const x = (i - offset) * pxh
      g.beginPath()
      g.moveTo(x + 0.5, 12)
      g.lineTo(x + 0.5, height)
      g.stroke()
      const label =
        step < 24
          ? d.getUTCHours() === 0
            ? wallClock(s, zone).slice(5, 10)
            : wallClock(s, zone).slice(11, 16)
          : wallClock(s, zone).slice(step > 14 * 24 ? 0 : 5, step > 14 * 24 ? 7 : 10)
      const w = g.measureText(label).width
      const at = Math.max(0, Math.min(x + 3, plotW - w - 2))
      if (at < labelEnd + 6) continue
      g.fillText(label, at, 1)
      labelEnd = at + w
    }
    canvas.dataset['axisEnd'] = String(Math.ceil(Math.max(0, labelEnd)))
    // The focused cell.
    if (focus) {
      const r = tableRows.find((x) => x.index === focus.table)
      if (r) {
        const x = (focus.hour - offset) * pxh
        g.strokeStyle = cssToken('--timeline-focus')
        g.lineWidth = 2
        g.strokeRect(x - 1, r.y, Math.max(3, pxh) + 2, ROW_H)
        g.lineWidth = 1
      }
    }
  }, [view, rows, height, codes, manifests, marks, starts, n, vp, pxh, offset, plotW, zone, focus])

  const cellAt = (clientX: number, clientY: number): { hour: number; table: number } | null => {
    const rect = canvasRef.current?.getBoundingClientRect()
    if (!rect) return null
    return cellAtPoint(clientX - rect.left, clientY - rect.top, vp, rows, n)
  }

  const move = (dh: number, dt: number): void => {
    const f = focus ?? { hour: Math.min(n - 1, Math.floor(offset + plotW / pxh) - 1), table: 0 }
    onFocus({ hour: Math.max(0, Math.min(n - 1, f.hour + dh)), table: Math.max(0, Math.min(view.tables.length - 1, f.table + dt)) })
  }

  // Tabbed to (not clicked: the click chooses its own cell), the keyboard needs a cell to start from, shown at once.
  const onFocusIn = (e: React.FocusEvent<HTMLCanvasElement>): void => {
    if (!focus && n > 0 && e.currentTarget.matches(':focus-visible')) move(0, 0)
  }

  const onKey = (e: React.KeyboardEvent): void => {
    const day = e.shiftKey ? 24 : 1
    const handled = true
    if (e.key === 'ArrowLeft') move(-day, 0)
    else if (e.key === 'ArrowRight') move(day, 0)
    else if (e.key === 'ArrowUp') move(0, -1)
    else if (e.key === 'ArrowDown') move(0, 1)
    else if (e.key === 'Home') onFocus({ hour: 0, table: focus?.table ?? 0 })
    else if (e.key === 'End') onFocus({ hour: n - 1, table: focus?.table ?? 0 })
    else if (e.key === '+' || e.key === '=') zoomAt(1.5, focus ? (focus.hour - offset) * pxh : plotW / 2)
    else if (e.key === '-') zoomAt(1 / 1.5, focus ? (focus.hour - offset) * pxh : plotW / 2)
    else if (e.key === 'Enter' && focus) onSelect(view.hours[focus.hour]?.start ?? '')
    else return
    if (handled) e.preventDefault()
  }

  // Wheel: the page scrolls as anywhere else; Ctrl/⌘+wheel zooms, Shift+wheel (or a sideways swipe) pans. A native
  // listener (React's is passive) so that those two do not also scroll the page.
  useEffect(() => {
    const c = canvasRef.current
    if (!c) return
    const onWheel = (e: WheelEvent): void => {
      const rect = c.getBoundingClientRect()
      const sideways = Math.abs(e.deltaX) > Math.abs(e.deltaY)
      if (e.ctrlKey || e.metaKey) {
        e.preventDefault()
        zoomAt(Math.pow(1.0015, -e.deltaY), e.clientX - rect.left)
      } else if (e.shiftKey || sideways) {
        e.preventDefault()
        moved.current = true
        // Shift turns a vertical wheel into deltaY on some systems and deltaX on others.
        setVp((v) => panBy(v, sideways ? e.deltaX : e.deltaY, n, plotW))
      }
    }
    c.addEventListener('wheel', onWheel, { passive: false })
    return () => c.removeEventListener('wheel', onWheel)
  }, [zoomAt, n, plotW])

  const focusState = focus ? decodeCell(view.hours[focus.hour]?.cells ?? '', focus.table) : null
  const focusHour = focus ? view.hours[focus.hour] : null
  const hoverHour = hover ? view.hours[hover.hour] : null
  const visibleFrom = view.hours[Math.max(0, Math.floor(offset))]?.start
  const visibleTo = view.hours[Math.min(n - 1, Math.max(0, Math.floor(offset + plotW / pxh) - 1))]?.start

  return (
    <div ref={wrapRef} data-testid="heatmap" className={css.heatmap}>
      <div className={css.body}>
        <div className={css.labels} style={{ width: labelW, height }}>
          <div className={css.axisCaption}>table · hour ({ZONE_LABEL[zone]})</div>
          {rows.map((r) =>
            r.kind === 'manifest' ? (
              <div
                key="manifest"
                data-row="manifest"
                title="The hour's manifest: click it to open the hour"
                className={css.groupLabel}
                style={{ top: r.y, height: ROW_H, lineHeight: `${ROW_H}px` }}
              >
                hour's manifest
              </div>
            ) : r.kind === 'schema' ? (
              <div key={`s-${r.name}`} className={css.groupLabel} style={{ top: r.y, height: SCHEMA_H, lineHeight: `${SCHEMA_H}px` }}>
                {r.name}
              </div>
            ) : (
              <div
                key={`t-${r.name}`}
                data-row={r.name}
                data-focused={r.kind === 'table' && focus?.table === r.index}
                title={r.name}
                className={css.tableLabel}
                style={{ top: r.y, height: ROW_H, lineHeight: `${ROW_H}px` }}
              >
                <TableLabel name={r.name} names={tableNames} />
              </div>
            )
          )}
        </div>
        <canvas
          ref={canvasRef}
          data-testid="timeline-canvas"
          data-offset={offset}
          data-pxh={pxh}
          data-hours={n}
          data-first-hour={view.hours[0]?.start}
          tabIndex={0}
          role="grid"
          aria-label="Delivery timeline: arrow keys move, Enter opens the hour, plus and minus zoom"
          aria-describedby={statusId}
          data-dragging={drag.current !== null}
          className={css.canvas}
          style={{ width: plotW, height }}
          onKeyDown={onKey}
          onFocus={onFocusIn}
          onPointerDown={(e) => {
            drag.current = { x: e.clientX, offset, moved: false }
            ;(e.target as HTMLElement).setPointerCapture(e.pointerId)
          }}
          onPointerMove={(e) => {
            const d = drag.current
            if (d) {
              if (Math.abs(e.clientX - d.x) > 3) d.moved = true
              if (d.moved) moved.current = true
              if (d.moved) setVp((v) => ({ pxh: v.pxh, offset: clampOffset(d.offset - (e.clientX - d.x) / v.pxh, v.pxh, n, plotW) }))
            }
            const c = cellAt(e.clientX, e.clientY)
            const rect = canvasRef.current?.getBoundingClientRect()
            setHover(c && rect ? { ...c, x: e.clientX - rect.left, y: e.clientY - rect.top } : null)
          }}
          onPointerLeave={() => setHover(null)}
          onPointerUp={(e) => {
            const d = drag.current
            drag.current = null
            if (d && !d.moved) {
              const c = cellAt(e.clientX, e.clientY)
              const rect = canvasRef.current?.getBoundingClientRect()
              const m = rect ? manifestAt(e.clientX - rect.left, e.clientY - rect.top, vp, n) : null
              if (c) {
                onFocus(c)
                onSelect(view.hours[c.hour]?.start ?? '')
              } else if (m !== null) onSelect(view.hours[m]?.start ?? '')
            }
          }}
        />
      </div>
      {hover && hoverHour ? (
        <div
          data-testid="timeline-tooltip"
          className={css.tooltip}
          style={{ ...(hover.x > plotW / 2 ? { right: width - labelW - hover.x + 12 } : { left: labelW + hover.x + 12 }), top: hover.y + 14 }}
        >
          <b>{view.tables[hover.table]?.table}</b> · {STATE_STYLE[decodeCell(hoverHour.cells, hover.table)].label}
          {marks.kindsAt(hover.hour, hover.table).map((k) => (
            <span key={k} data-monitor-kind={k}>
              <br />▲ {KIND_WORDS[k].one}
            </span>
          ))}
          <br />
          {allZones(Date.parse(hoverHour.start))} · {MANIFEST_STYLE[MANIFEST_CELLS[manifests[hover.hour] ?? 0] ?? 'none'].label}
        </div>
      ) : null}
      <div className={css.statusBar}>
        <span
          id={statusId}
          role="status"
          aria-live="polite"
          data-testid="timeline-status"
          data-table={focus ? view.tables[focus.table]?.table : undefined}
          data-hour={focusHour?.start}
          data-state={focusState ?? undefined}
          data-monitors={focus ? marks.kindsAt(focus.hour, focus.table).join(' ') || undefined : undefined}
        >
          {focus && focusHour && focusState
            ? `${view.tables[focus.table]?.table} · ${allZones(Date.parse(focusHour.start))} · ${STATE_STYLE[focusState].label}${marks
                .kindsAt(focus.hour, focus.table)
                .map((k) => ` · ${KIND_WORDS[k].one}`)
                .join('')}`
            : 'Click a cell or focus the timeline and use the arrow keys.'}
        </span>
        <span>
          {visibleFrom && visibleTo ? `${wallClock(Date.parse(visibleFrom), zone)} → ${wallClock(Date.parse(visibleTo), zone)} ${ZONE_LABEL[zone]}` : ''} · drag
          or Shift+scroll to pan, Ctrl+scroll or +/− to zoom
        </span>
      </div>
    </div>
  )
}

export function Legend(): React.JSX.Element {
  return (
    <ul data-testid="legend" className={css.legend}>
      {CELL_STATES.map((s) => (
        <li key={s} className={css.legendItem}>
          <span className={css.swatch} style={{ background: tokenVar(STATE_STYLE[s].token) }} />
          {STATE_STYLE[s].label}
        </li>
      ))}
      {MANIFEST_CELLS.filter((m) => m !== 'complete' && m !== 'not_due').map((m) => (
        <li key={m} className={css.legendItem}>
          <span className={css.manifestSwatch} style={{ background: tokenVar(MANIFEST_STYLE[m].token) }} />
          {MANIFEST_STYLE[m].label}
        </li>
      ))}
      <li className={css.legendItem} title="A volume anomaly, a column added, dropped or retyped, or a manifest that disagrees with the folder">
        <span className={css.markSwatch} />
        monitors' finding
      </li>
      <li className={css.legendItem}>
        <span className={css.eraV1} />
        v1 daily
        <span className={css.eraGap} />
        switch gap
        <span className={css.eraV2} />
        v2 hourly
      </li>
    </ul>
  )
}
