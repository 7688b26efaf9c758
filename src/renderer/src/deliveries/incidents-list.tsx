// The incidents of the shown range (findings grouped per hour and kind): open ones first, newest first, each
// resolved one saying how; filtered by severity; a click shows its hour on the timeline and in the inspector.
import { useMemo } from 'react'
import { incidentsOf } from '../../../shared/incidents'
import { timeText } from '../common/time'
import { appStore, useApp } from '../store/use-app-store'
import { KIND_WORDS } from './finding-words'
import { SEVERITY_COLOR } from './severity'

export function IncidentsList(): React.JSX.Element | null {
  const timeline = useApp((s) => s.timeline)
  const severities = useApp((s) => s.severities)
  const inspected = useApp((s) => s.inspected)
  const zone = useApp((s) => s.zone)
  const { setSeverity, jumpTo } = appStore.getState()
  const all = useMemo(() => (timeline ? incidentsOf(timeline, (t) => timeText(t, zone)) : []), [timeline, zone])
  if (!timeline) return null
  const shown = all.filter((i) => severities[i.severity])
  const open = shown.filter((i) => i.resolved === null).length
  const inspectedAt = inspected ? Date.parse(inspected.start) : null
  return (
    <section style={{ marginTop: 16 }} aria-label="incidents">
      <div style={{ display: 'flex', gap: 12, alignItems: 'center', flexWrap: 'wrap' }}>
        <h2 style={{ fontSize: 16, margin: 0 }} data-testid="incidents-heading">
          Incidents: {open} open, {shown.length - open} resolved{shown.length < all.length ? ` (${all.length - shown.length} hidden by the filter)` : ''}
        </h2>
        {(['error', 'warning', 'info'] as const).map((s) => (
          <label key={s} style={{ fontSize: 13, color: SEVERITY_COLOR[s] }}>
            <input type="checkbox" checked={severities[s]} onChange={(e) => setSeverity(s, e.target.checked)} /> {s === 'error' ? 'errors' : s === 'warning' ? 'warnings' : 'notes'}
          </label>
        ))}
      </div>
      <ul data-testid="findings" style={{ fontSize: 13, paddingLeft: 0, listStyle: 'none' }}>
        {shown.map((inc) => {
          const first = inc.findings[0]
          const words = KIND_WORDS[inc.kind]
          const title = inc.tables.length > 1 ? words.many(inc.tables.length) : words.one
          const current = inspectedAt !== null && inc.hour === inspectedAt
          return (
            <li
              key={inc.id}
              data-kind={inc.kind}
              data-resolved={inc.resolved !== null}
              aria-current={current ? 'true' : undefined}
              style={{ marginBottom: 6, padding: '4px 8px', borderLeft: `4px solid ${inc.resolved ? '#b8c4d6' : SEVERITY_COLOR[inc.severity]}`, background: current ? '#eef6ff' : undefined, color: inc.resolved ? '#555' : undefined }}
            >
              <button
                onClick={() => first && void jumpTo(first)}
                disabled={inc.hour === null}
                style={{ all: 'unset', cursor: inc.hour === null ? 'default' : 'pointer', display: 'block' }}
                title={`${inc.kind} · ${inc.hour === null ? (first?.key ?? '') : 'Show this hour'}`}
              >
                <b style={{ color: inc.resolved ? '#555' : SEVERITY_COLOR[inc.severity] }}>{title}</b> · {inc.hour === null ? '' : timeText(inc.hour, zone)}
                {inc.tables.length ? ` · ${inc.tables.length > 4 ? `${inc.tables.slice(0, 4).join(', ')} and ${inc.tables.length - 4} more` : inc.tables.join(', ')}` : ''}
                {inc.resolved ? <span data-testid="resolution"> · resolved: {inc.resolved}</span> : null}
              </button>
              <details>
                <summary style={{ fontSize: 12, color: '#555', cursor: 'pointer' }}>{inc.findings.length === 1 ? 'What happened and what to do' : `What happened to each of the ${inc.findings.length}`}</summary>
                <ul style={{ margin: '2px 0 0', paddingLeft: 18 }}>
                  {inc.findings.map((f, i) => (
                    <li key={i} title={f.key}>
                      {f.table ? <b>{f.table}: </b> : null}
                      {f.message}
                    </li>
                  ))}
                </ul>
              </details>
            </li>
          )
        })}
      </ul>
    </section>
  )
}
