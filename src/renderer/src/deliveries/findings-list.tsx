// The findings of the shown range, filtered by severity; each jumps to its hour (widening the range if needed).
import { findingHour } from '../../../shared/timeline'
import { appStore, useApp } from '../store/use-app-store'
import { SEVERITY_COLOR } from './severity'

export function FindingsList(): React.JSX.Element | null {
  const timeline = useApp((s) => s.timeline)
  const severities = useApp((s) => s.severities)
  const { setSeverity, jumpTo } = appStore.getState()
  if (!timeline) return null
  const shown = timeline.findings.filter((f) => severities[f.severity])
  return (
    <section style={{ marginTop: 16 }}>
      <div style={{ display: 'flex', gap: 12, alignItems: 'center' }}>
        <h2 style={{ fontSize: 16, margin: 0 }}>
          Findings ({shown.length} of {timeline.findings.length})
        </h2>
        {(['error', 'warning', 'info'] as const).map((s) => (
          <label key={s} style={{ fontSize: 13, color: SEVERITY_COLOR[s] }}>
            <input type="checkbox" checked={severities[s]} onChange={(e) => setSeverity(s, e.target.checked)} /> {s}
          </label>
        ))}
      </div>
      <ul data-testid="findings" style={{ fontSize: 13, paddingLeft: 0, listStyle: 'none' }}>
        {shown.map((f, i) => (
          <li key={i} data-kind={f.kind} style={{ marginBottom: 4 }}>
            <button
              onClick={() => void jumpTo(f)}
              disabled={findingHour(f) === null}
              style={{ all: 'unset', cursor: findingHour(f) === null ? 'default' : 'pointer', display: 'block' }}
              title={findingHour(f) === null ? f.key : 'Show this hour'}
            >
              <b style={{ color: SEVERITY_COLOR[f.severity] }}>{f.kind.replace(/_/g, ' ')}</b> {f.date ?? ''} {f.hour ? `${f.hour}:00 UTC` : ''} {f.table ?? ''} — {f.message}
            </button>
          </li>
        ))}
      </ul>
    </section>
  )
}
