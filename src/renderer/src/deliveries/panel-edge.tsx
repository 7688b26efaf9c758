// The draggable left edge of a side panel: dragging it (or arrowing it, for the keyboard) asks for a new width;
// the view that lays the panel out decides what to keep (panelWidth clamps it).
import { useRef } from 'react'
import css from './panel-edge.module.css'

const KEY_STEP = 40

export function PanelEdge(props: { panel: React.RefObject<HTMLElement | null>; onResize: (width: number) => void; label: string }): React.JSX.Element {
  const drag = useRef<{ x: number; width: number } | null>(null)
  const width = (): number => props.panel.current?.getBoundingClientRect().width ?? 0
  return (
    <div
      role="separator"
      aria-orientation="vertical"
      aria-label={props.label}
      aria-valuenow={Math.round(width()) || undefined}
      tabIndex={0}
      title="Drag to widen or narrow the panel (or focus it and use the arrow keys)"
      className={css.edge}
      onPointerDown={(e) => {
        drag.current = { x: e.clientX, width: width() }
        e.currentTarget.setPointerCapture(e.pointerId)
        e.preventDefault()
      }}
      onPointerMove={(e) => {
        const d = drag.current
        // The edge is on the panel's left: moving left widens it.
        if (d) props.onResize(d.width + d.x - e.clientX)
      }}
      onPointerUp={() => (drag.current = null)}
      onPointerCancel={() => (drag.current = null)}
      onKeyDown={(e) => {
        if (e.key === 'ArrowLeft') props.onResize(width() + KEY_STEP)
        else if (e.key === 'ArrowRight') props.onResize(width() - KEY_STEP)
        else return
        e.preventDefault()
      }}
    />
  )
}

/** A panel width the layout keeps: at least `min`, and leaving `rest` px of the row to what stands beside it. */
export function panelWidth(asked: number, row: number, min = 340, rest = 420): number {
  return Math.round(Math.max(min, Math.min(asked, row - rest)))
}
