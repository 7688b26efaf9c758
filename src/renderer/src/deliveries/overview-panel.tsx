// The overview of the open bucket: where it is, its version (or the switch in progress), the evaluation
// instant, the last complete hour, findings by severity, listing problems, and each table's latest copy.
import type { Overview } from '../../../shared/api-contract'
import { isStale } from '../../../shared/schedule'
import { age, timeText } from '../common/time'
import { useApp } from '../store/use-app-store'
import { SEVERITY_COLOR } from './severity'

export function OverviewPanel({ overview, now, location }: { overview: Overview; now: number; location: string }): React.JSX.Element {
  const zone = useApp((s) => s.zone)
  return (
    <section data-testid="overview" style={{ marginTop: 12, display: 'grid', gridTemplateColumns: 'minmax(260px, 320px) 1fr', gap: 16 }}>
      <div style={{ fontSize: 13, lineHeight: 1.7 }}>
        <div style={{ color: '#555', wordBreak: 'break-all' }}>{location}</div>
        <div>
          Bucket on{' '}
          <b data-testid="version" style={{ padding: '1px 6px', borderRadius: 4, background: overview.switching ? '#f3e3c3' : overview.version === 'v2' ? '#d6efdf' : '#dbe4f0' }}>
            {overview.switching ? 'v1 → v2 switch in progress' : overview.version}
          </b>
        </div>
        <div>As of {timeText(overview.now, zone)}</div>
        <div>
          Last complete hour: <b>{overview.lastCompleteHour ? timeText(overview.lastCompleteHour, zone) : 'none'}</b>
          {overview.lastCompleteHour ? ` (${age(Date.parse(overview.lastCompleteHour), now)} ago)` : ''}
        </div>
        <div>
          Findings:{' '}
          {(['error', 'warning', 'info'] as const).map((s) => (
            <span key={s} data-severity={s} style={{ color: SEVERITY_COLOR[s], marginRight: 8, fontWeight: 600 }}>
              {overview.findings[s]} {s}
              {overview.findings[s] === 1 ? '' : 's'}
            </span>
          ))}
        </div>
        {overview.problems.map((p) => (
          <div key={p} role="alert" style={{ color: '#b3261e' }}>
            {p}
          </div>
        ))}
      </div>
      <table data-testid="latest-copies" style={{ fontSize: 12, borderCollapse: 'collapse', alignSelf: 'start' }}>
        <thead>
          <tr style={{ textAlign: 'left', color: '#555' }}>
            <th style={{ padding: '2px 8px' }}>table</th>
            <th style={{ padding: '2px 8px' }}>mode</th>
            <th style={{ padding: '2px 8px' }}>latest ready copy / newest folder</th>
            <th style={{ padding: '2px 8px' }}>age</th>
          </tr>
        </thead>
        <tbody>
          {overview.tables.map((t) => {
            const stale = t.newest !== null && isStale(overview.version, Date.parse(t.newest), now)
            return (
              <tr key={`${t.schema}.${t.table}`} data-latest={t.table} style={{ borderTop: '1px solid #eef0f3' }}>
                <td style={{ padding: '1px 8px' }}>
                  <span style={{ color: '#777' }}>{t.schema}.</span>
                  {t.table}
                </td>
                <td style={{ padding: '1px 8px', color: '#555' }}>{t.mode === 'full' ? 'full copy' : 'parts'}</td>
                <td style={{ padding: '1px 8px' }} title={t.newestPrefix ?? ''}>
                  {t.newest ? timeText(t.newest, zone) : 'none ready'}
                </td>
                <td style={{ padding: '1px 8px', color: stale ? '#9a6700' : '#555' }}>{t.newest ? age(Date.parse(t.newest), now) : '—'}</td>
              </tr>
            )
          })}
        </tbody>
      </table>
    </section>
  )
}
