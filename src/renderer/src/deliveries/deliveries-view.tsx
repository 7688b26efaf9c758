// The deliveries view: the overview, the delivery timeline (range, axis zone, legend), the hour inspector and
// the findings list, and how the connection is followed (notifications). State and calls are the slices'.
import { useMemo, useRef, useState } from 'react'
import { ReadingTheBucket } from '../common/refresh-progress'
import { FollowPanel } from '../follow/follow-panel'
import { ZONE_LABEL, type AxisZone } from '../common/time'
import { TIMELINE_RANGES } from '../store/deliveries-slice'
import { appStore, useApp } from '../store/use-app-store'
import { DeliveryHeadlineView } from './delivery-headline-view'
import { HourInspector } from './hour-inspector'
import { IncidentsList } from './incidents-list'
import { OverviewPanel } from './overview-panel'
import { panelWidth } from './panel-edge'
import { Legend, TimelineHeatmap } from './timeline-heatmap'
import css from './deliveries-view.module.css'
import type { Focus } from './timeline-viewport'

export function DeliveriesView(): React.JSX.Element {
  const overview = useApp((s) => s.overview)
  const timeline = useApp((s) => s.timeline)
  const error = useApp((s) => s.error)
  const connections = useApp((s) => s.connections)
  const rangeHours = useApp((s) => s.rangeHours)
  const zone = useApp((s) => s.zone)
  const focused = useApp((s) => s.focused)
  const inspected = useApp((s) => s.inspected)
  const zoomCommand = useApp((s) => s.zoomCommand)
  const refreshStatus = useApp((s) => s.refreshStatus)
  const { setRange, setZone, setFocused, inspect, closeInspector } = appStore.getState()
  // The inspector's width once its edge was dragged (null: the layout's default); kept while the view is open.
  const [inspectorWidth, setInspectorWidth] = useState<number | null>(null)
  const layout = useRef<HTMLDivElement | null>(null)

  const focus = useMemo<Focus | null>(() => {
    if (!focused || !timeline) return null
    const hour = timeline.hours.findIndex((h) => h.start === focused.start)
    return hour < 0 ? null : { hour, table: focused.table }
  }, [focused, timeline])
  const now = overview ? Date.parse(overview.now) : Date.now()
  const active = connections?.connections.find((c) => c.id === connections.active)

  return (
    <>
      {overview && timeline ? <DeliveryHeadlineView overview={overview} timeline={timeline} /> : null}
      {overview ? (
        <OverviewPanel overview={overview} now={now} location={active?.location ?? overview.location} />
      ) : error ? null : (
        <ReadingTheBucket status={refreshStatus} />
      )}
      <div
        ref={layout}
        className={css.layout}
        data-inspecting={inspected !== null}
        style={inspectorWidth === null ? undefined : ({ '--inspector-width': `${inspectorWidth}px` } as React.CSSProperties)}
      >
        <section className={css.timeline}>
          <div className={css.controls}>
            <h2 className={css.title}>Delivery timeline</h2>
            <label>
              Show the last{' '}
              <select value={rangeHours} onChange={(e) => void setRange(Number(e.target.value))} aria-label="hours shown">
                {TIMELINE_RANGES.map(([h, label]) => (
                  <option key={h} value={h}>
                    {label}
                  </option>
                ))}
              </select>
            </label>
            <label>
              Axis in{' '}
              <select value={zone} onChange={(e) => setZone(e.target.value as AxisZone)} aria-label="axis time zone">
                {(Object.keys(ZONE_LABEL) as AxisZone[]).map((z) => (
                  <option key={z} value={z}>
                    {ZONE_LABEL[z]}
                  </option>
                ))}
              </select>
            </label>
          </div>
          <Legend />
          {timeline ? (
            <TimelineHeatmap
              view={timeline}
              zone={zone}
              focus={focus}
              onFocus={(f) => setFocused({ start: timeline.hours[f.hour]?.start ?? '', table: f.table })}
              onSelect={(start) => void inspect(start)}
              zoomCommand={zoomCommand}
            />
          ) : overview && !error ? (
            <p>Loading the timeline…</p>
          ) : null}
        </section>
        {inspected ? (
          <HourInspector
            detail={inspected}
            onClose={closeInspector}
            onResize={(w) => setInspectorWidth(panelWidth(w, layout.current?.clientWidth ?? window.innerWidth))}
          />
        ) : null}
      </div>
      <IncidentsList />
      <FollowPanel />
    </>
  )
}
