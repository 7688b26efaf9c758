// The incidents of the shown range (findings grouped per hour and kind): open ones first, newest first, each
// resolved one saying how; filtered by severity; a click shows its hour on the timeline and in the inspector.
// A year of a broken export is thousands of incidents and tens of thousands of findings: the list shows a page of them
// at a time, and an incident's findings are drawn when it is opened (all of them in the page made the year's timeline
// take seconds to appear).
import { useMemo, useState } from 'react'
import { type Incident, incidentsOf } from '../../../shared/incidents'
import { timeText } from '../common/time'
import { appStore, useApp } from '../store/use-app-store'
import { KIND_WORDS } from './finding-words'
import css from './incidents-list.module.css'
import severity from './severity.module.css'

/** How many incidents the list shows at first, and adds at each "Show more". */
export const INCIDENTS_PAGE = 200

export function IncidentsList(): React.JSX.Element | null {
  const timeline = useApp((s) => s.timeline)
  const severities = useApp((s) => s.severities)
  const inspected = useApp((s) => s.inspected)
  const zone = useApp((s) => s.zone)
  const { setSeverity, jumpTo } = appStore.getState()
  const all = useMemo(() => (timeline ? incidentsOf(timeline, (t) => timeText(t, zone)) : []), [timeline, zone])
  // How many are shown, for one connection and range: another starts again at a page (a refresh keeps it).
  const connection = useApp((s) => s.connections?.active ?? null)
  const rangeHours = useApp((s) => s.rangeHours)
  const view = `${connection}|${rangeHours}`
  const [page, setPage] = useState({ view, limit: INCIDENTS_PAGE })
  // Reset while rendering (React's way to reset state when an input changes: this render's output is dropped and the
  // list renders again with the reset page), so coming back to a range starts at a page too.
  if (page.view !== view) setPage({ view, limit: INCIDENTS_PAGE })
  if (!timeline) return null
  const shown = all.filter((i) => severities[i.severity])
  const open = shown.filter((i) => i.resolved === null).length
  const inspectedAt = inspected ? Date.parse(inspected.start) : null
  // The inspected hour's incidents are shown wherever they are in the list (a jump to a finding, the inspector).
  const inspectedIndex = inspectedAt === null ? -1 : shown.findLastIndex((i) => i.hour === inspectedAt)
  const limit = Math.max(page.limit, inspectedIndex + 1)
  return (
    <section className={css.section} aria-label="incidents">
      <div className={css.header}>
        <h2 className={css.title} data-testid="incidents-heading">
          Incidents: {open} open, {shown.length - open} resolved{shown.length < all.length ? ` (${all.length - shown.length} hidden by the filter)` : ''}
        </h2>
        {(['error', 'warning', 'info'] as const).map((s) => (
          <label key={s} className={`${css.filter} ${severity[s]}`}>
            <input type="checkbox" checked={severities[s]} onChange={(e) => setSeverity(s, e.target.checked)} />{' '}
            {s === 'error' ? 'errors' : s === 'warning' ? 'warnings' : 'notes'}
          </label>
        ))}
      </div>
      <ul data-testid="findings" className={css.list}>
        {shown.slice(0, limit).map((inc) => {
          const first = inc.findings[0]
          const words = KIND_WORDS[inc.kind]
          const title = inc.tables.length > 1 ? words.many(inc.tables.length) : words.one
          const current = inspectedAt !== null && inc.hour === inspectedAt
          return (
            <li
              key={inc.id}
              data-kind={inc.kind}
              data-resolved={inc.resolved !== null}
              data-severity={inc.severity}
              aria-current={current ? 'true' : undefined}
              className={css.incident}
            >
              <button
                onClick={() => first && void jumpTo(first)}
                disabled={inc.hour === null}
                className={css.jump}
                title={`${inc.kind} · ${inc.hour === null ? (first?.key ?? '') : 'Show this hour'}`}
              >
                <b className={inc.resolved ? undefined : severity[inc.severity]}>{title}</b> · {inc.hour === null ? '' : timeText(inc.hour, zone)}
                {inc.tables.length
                  ? ` · ${inc.tables.length > 4 ? `${inc.tables.slice(0, 4).join(', ')} and ${inc.tables.length - 4} more` : inc.tables.join(', ')}`
                  : ''}
                {inc.resolved ? <span data-testid="resolution"> · resolved: {inc.resolved}</span> : null}
              </button>
              <IncidentDetails incident={inc} />
            </li>
          )
        })}
      </ul>
      {shown.length > limit ? (
        <button className={css.more} onClick={() => setPage((p) => ({ view, limit: Math.max(p.limit, limit) + INCIDENTS_PAGE }))} data-testid="incidents-more">
          Show {Math.min(INCIDENTS_PAGE, shown.length - limit)} more ({shown.length - limit} not shown)
        </button>
      ) : null}
    </section>
  )
}

/** What happened to each table of an incident and what to do, drawn once it is opened. */
function IncidentDetails({ incident }: { incident: Incident }): React.JSX.Element {
  const [open, setOpen] = useState(false)
  return (
    <details onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary className={css.summary}>
        {incident.findings.length === 1 ? 'What happened and what to do' : `What happened to each of the ${incident.findings.length}`}
      </summary>
      {open ? (
        <ul className={css.details}>
          {incident.findings.map((f, i) => (
            <li key={i} title={f.key}>
              {f.table ? <b>{f.table}: </b> : null}
              {f.message}
            </li>
          ))}
        </ul>
      ) : null}
    </details>
  )
}
