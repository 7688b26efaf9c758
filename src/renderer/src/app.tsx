// The app's first screen: the overview of the connected bucket and its delivery timeline, with findings.
import { useEffect, useState } from 'react'
import type { HourDetail, Overview, TimelineView } from '../../shared/api-contract'
import { APP_NAME } from '../../shared/app-info'
import { call } from './api'
import { HourInspector } from './hour-inspector'
import { Legend, TimelineHeatmap } from './timeline-heatmap'

const SEVERITY_COLOR = { error: '#b3261e', warning: '#9a6700', info: '#555' } as const

export function App(): React.JSX.Element {
  const [overview, setOverview] = useState<Overview | null>(null)
  const [timeline, setTimeline] = useState<TimelineView | null>(null)
  const [hours, setHours] = useState(7 * 24)
  const [error, setError] = useState<string | null>(null)
  const [hour, setHour] = useState<HourDetail | null>(null)
  const inspect = (start: string): void => {
    call('hour', { start }).then(setHour, (e: Error) => setError(e.message))
  }

  useEffect(() => {
    call('overview', {}).then(setOverview, (e: Error) => setError(e.message))
  }, [])
  useEffect(() => {
    call('timeline', { fromHours: hours }).then(setTimeline, (e: Error) => setError(e.message))
  }, [hours])

  return (
    <main style={{ fontFamily: 'system-ui, sans-serif', padding: 16, color: '#1f2328' }}>
      <header style={{ display: 'flex', alignItems: 'baseline', gap: 16, flexWrap: 'wrap' }}>
        <h1 style={{ fontSize: 20, margin: 0 }}>{APP_NAME}</h1>
        {overview ? (
          <span data-testid="overview" style={{ fontSize: 13, color: '#555' }}>
            {overview.location} · on <b>{overview.version}</b> · as of {overview.now.slice(0, 16).replace('T', ' ')} UTC · last complete hour{' '}
            {overview.lastCompleteHour ? overview.lastCompleteHour.slice(0, 13).replace('T', ' ') + ':00 UTC' : 'none'} ·{' '}
            {(['error', 'warning', 'info'] as const).map((s) => (
              <span key={s} style={{ color: SEVERITY_COLOR[s], marginRight: 8 }}>
                {overview.findings[s]} {s}
                {overview.findings[s] === 1 ? '' : 's'}
              </span>
            ))}
          </span>
        ) : null}
      </header>
      {error ? <p role="alert" style={{ color: '#b3261e' }}>{error}</p> : null}
      <section style={{ marginTop: 12 }}>
        <label style={{ fontSize: 13 }}>
          Show the last{' '}
          <select value={hours} onChange={(e) => setHours(Number(e.target.value))} aria-label="hours shown">
            <option value={48}>2 days</option>
            <option value={7 * 24}>7 days</option>
            <option value={30 * 24}>30 days</option>
          </select>
        </label>
        <Legend />
        {timeline ? <TimelineHeatmap view={timeline} onSelect={inspect} /> : <p>Reading the bucket…</p>}
      </section>
      {hour ? <HourInspector detail={hour} onClose={() => setHour(null)} /> : null}
      {timeline ? (
        <section style={{ marginTop: 16 }}>
          <h2 style={{ fontSize: 16 }}>Findings ({timeline.findings.length})</h2>
          <ul data-testid="findings" style={{ fontSize: 13, paddingLeft: 16 }}>
            {timeline.findings.map((f, i) => (
              <li key={i} data-kind={f.kind} style={{ marginBottom: 4 }}>
                <b style={{ color: SEVERITY_COLOR[f.severity] }}>{f.kind}</b> {f.date ?? ''} {f.hour ? `${f.hour}:00 UTC` : ''} {f.table ?? ''} — {f.message}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </main>
  )
}
