// The overview of the open bucket: where it is, its version (or the switch in progress), the evaluation
// instant, the last complete hour, findings by severity, listing problems, and each table's latest copy.
import type { Overview } from '../../../shared/api/views'
import { isStale } from '../../../shared/schedule'
import { age, timeText } from '../common/time'
import { useApp } from '../store/use-app-store'
import css from './overview-panel.module.css'
import severity from './severity.module.css'

export function OverviewPanel({ overview, now, location }: { overview: Overview; now: number; location: string }): React.JSX.Element {
  const zone = useApp((s) => s.zone)
  return (
    <section data-testid="overview" className={css.overview}>
      <div className={css.facts}>
        <div className={css.location}>{location}</div>
        <div>
          Bucket on{' '}
          <b data-testid="version" data-era={overview.switching ? 'gap' : overview.version} className={css.version}>
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
            <span key={s} data-severity={s} className={`${css.severity} ${severity[s]}`}>
              {overview.findings[s]} {s}
              {overview.findings[s] === 1 ? '' : 's'}
            </span>
          ))}
        </div>
        {overview.problems.map((p) => (
          <div key={p} role="alert" className={css.problem}>
            {p}
          </div>
        ))}
      </div>
      <table data-testid="latest-copies" className={css.latest}>
        <thead>
          <tr>
            <th>table</th>
            <th>mode</th>
            <th>latest ready copy / newest folder</th>
            <th>age</th>
          </tr>
        </thead>
        <tbody>
          {overview.tables.map((t) => {
            const stale = t.newest !== null && isStale(overview.version, Date.parse(t.newest), now)
            return (
              <tr key={`${t.schema}.${t.table}`} data-latest={t.table}>
                <td>
                  <span className={css.schema}>{t.schema}.</span>
                  {t.table}
                </td>
                <td className={css.quiet}>{t.mode === 'full' ? 'full copy' : 'parts'}</td>
                <td title={t.newestPrefix ?? ''}>{t.newest ? timeText(t.newest, zone) : 'none ready'}</td>
                <td className={stale ? css.stale : css.quiet}>{t.newest ? age(Date.parse(t.newest), now) : '—'}</td>
              </tr>
            )
          })}
        </tbody>
      </table>
    </section>
  )
}
