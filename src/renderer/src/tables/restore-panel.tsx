// The Tables view's word on archived history: which of the picked table's files are left out because they are
// archived (count, bytes, delivery dates), a "Restore…" dialog (this table or all, tier, days; the count, bytes and
// the tier's usual delay and its estimated cost shown before starting), and the connection's restore job (n of m restored, tier, started
// when; still there after the app is opened again). A GCS connection says its archive classes need no restore.
import { useEffect } from 'react'
import { countText, formatBytes } from '../../../shared/counts'
import { RESTORE_MAX_DAYS, RESTORE_TIERS, type RestoreTier } from '../../../shared/restore-plan'
import { GCS_NO_RESTORE_COST, restoreCostWords } from '../../../shared/restore-costs'
import type { RestoreJobView } from '../../../shared/api/views'
import { wallClock } from '../common/time'
import { appStore, useApp } from '../store/use-app-store'
import css from './restore-panel.module.css'

const utc = (iso: string | null): string => (iso ? `${wallClock(Date.parse(iso), 'utc')} UTC` : 'not yet')

function JobLine({ job }: { job: RestoreJobView }): React.JSX.Element {
  const what = job.table ?? 'every table'
  const { done, failed } = job.counts
  const head = `Restore of ${countText(job.total, 'archived file')} (${formatBytes(job.bytes)}) of ${what}, ${job.tier}, kept ${countText(job.days, 'day')}, started ${utc(job.startedAt)}`
  if (job.state === 'done') {
    return (
      <div className={css.done} data-testid="restore-progress" data-finished="true" data-done={done} data-total={job.total}>
        {head}: finished {utc(job.endedAt)}, {done} of {job.total} restored{failed ? `, ${failed} failed` : ''}. The restored files are in the table now, and in
        the local mirror, so they never need restoring again.
        {job.failed.length ? <FailedList job={job} /> : null}
      </div>
    )
  }
  const asked = job.counts.requested + job.counts.in_progress
  return (
    <div className={css.progress} data-testid="restore-progress" data-finished="false" data-done={done} data-total={job.total}>
      {head}:{' '}
      <b>
        {done} of {job.total} restored
      </b>
      {asked ? ` · ${asked} in progress` : ''}
      {job.counts.waiting ? ` · ${job.counts.waiting} not asked yet` : ''}
      {failed ? ` · ${failed} failed` : ''}
      {job.checkedAt ? ` · checked ${utc(job.checkedAt)}` : ''}
      {job.nextCheck ? `, next check ${utc(job.nextCheck).slice(11)}` : ''}. Restores take minutes to hours; this is watched even if you close the app and open
      it again, and the table completes itself when they are done.
      {job.lastError ? <div className={css.problem}>{job.lastError}</div> : null}
      {job.failed.length ? <FailedList job={job} /> : null}
    </div>
  )
}

function FailedList({ job }: { job: RestoreJobView }): React.JSX.Element {
  return (
    <ul className={css.problem}>
      {job.failed.map((f) => (
        <li key={f.key}>
          {f.key}: {f.message}
        </li>
      ))}
    </ul>
  )
}

export function RestorePanel({ table }: { table: string }): React.JSX.Element | null {
  // After each refresh (a finished restore ends with one) the plan and the job are asked again.
  const generation = useApp((s) => s.shownGeneration)
  const plan = useApp((s) => s.tableRestorePlan)
  const status = useApp((s) => s.restoreStatus)
  const dialog = useApp((s) => s.restoreDialog)
  const error = useApp((s) => s.restoreError)
  const { loadRestoreStatus, loadTableRestorePlan, openRestoreDialog, changeRestoreChoice, closeRestoreDialog, startRestore } = appStore.getState()

  useEffect(() => {
    void loadRestoreStatus()
  }, [generation, loadRestoreStatus])
  useEffect(() => {
    void loadTableRestorePlan(table)
  }, [table, generation, loadTableRestorePlan])

  const mine = plan?.table === table ? plan : null
  // A running restore shows on every table; a finished one on the tables it restored.
  const job = status?.job && (status.job.state === 'running' || status.job.table === null || status.job.table === table) ? status.job : null
  const provider = mine?.provider ?? status?.provider
  const gcsCold = provider === 'gcs' && (mine?.readDirectly.count ?? 0) > 0
  if (!mine?.count && !job && !gcsCold && !error) return null
  const d = dialog
  return (
    <section data-testid="restore-panel" aria-label="archived files">
      {mine && mine.count > 0 ? (
        <div className={css.leftOut} data-testid="archived-left-out">
          <div className={css.row}>
            <span>
              <b>
                {countText(mine.count, 'archived file')} ({formatBytes(mine.bytes)})
              </b>{' '}
              of {table} {mine.count === 1 ? 'is' : 'are'} left out: delivered {mine.dates.slice(0, 6).join(', ')}
              {mine.dates.length > 6 ? `, … (${mine.dates.length} dates)` : ''}. {mine.count === 1 ? 'It is' : 'They are'} in{' '}
              {mine.classes.map((c) => c.name).join(' and ')} and cannot be read until restored; a key whose newest version is in{' '}
              {mine.count === 1 ? 'it' : 'them'} shows an older version or none.
            </span>
            {provider === 's3' && !d && !(job && job.state === 'running') ? <button onClick={() => void openRestoreDialog(table)}>Restore…</button> : null}
          </div>
          {mine.note ? <div className={css.note}>{mine.note}</div> : null}
        </div>
      ) : null}
      {gcsCold ? (
        <p className={css.note} data-testid="gcs-no-restore">
          {countText(mine?.readDirectly.count ?? 0, 'file')} of {table} {mine?.readDirectly.count === 1 ? 'is' : 'are'} in a colder GCS class and{' '}
          {mine?.readDirectly.count === 1 ? 'is' : 'are'} read as usual. {mine?.note} {GCS_NO_RESTORE_COST}
        </p>
      ) : null}
      {d ? (
        <form className={css.dialog} aria-label="restore" data-testid="restore-dialog" onSubmit={(e) => (e.preventDefault(), void startRestore())}>
          <div className={css.row}>
            <label>
              <input type="radio" name="restore-scope" checked={d.choice.table !== null} onChange={() => void changeRestoreChoice({ table })} /> this
              table&apos;s archived files
            </label>
            <label>
              <input type="radio" name="restore-scope" checked={d.choice.table === null} onChange={() => void changeRestoreChoice({ table: null })} /> every
              table&apos;s archived files
            </label>
            <label>
              tier{' '}
              <select aria-label="tier" value={d.choice.tier} onChange={(e) => void changeRestoreChoice({ tier: e.target.value as RestoreTier })}>
                {RESTORE_TIERS.map((t) => (
                  <option key={t} value={t}>
                    {t}
                  </option>
                ))}
              </select>
            </label>
            <label>
              keep restored for{' '}
              <input
                aria-label="days"
                type="number"
                min={1}
                max={RESTORE_MAX_DAYS}
                value={d.choice.days}
                onChange={(e) => void changeRestoreChoice({ days: Math.max(1, Math.min(RESTORE_MAX_DAYS, Math.round(Number(e.target.value) || 1))) })}
                className={css.days}
              />{' '}
              days
            </label>
          </div>
          {d.plan ? (
            <>
              <div className={css.summary} data-testid="restore-summary">
                {d.plan.summary}
              </div>
              {d.plan.count > 0 ? (
                <div className={css.cost} data-testid="restore-cost">
                  {restoreCostWords(d.plan.classes, d.plan.tier) ?? `AWS publishes no ${d.plan.tier} price for these files' class: no estimate.`}
                </div>
              ) : null}
              {d.plan.problem ? <div className={css.problem}>{d.plan.problem}</div> : null}
            </>
          ) : (
            <div>Counting the archived files…</div>
          )}
          <div className={css.row}>
            <button type="submit" disabled={!d.plan || d.plan.problem !== null || d.starting}>
              {d.starting ? 'Starting…' : `Start restore${d.plan ? ` of ${countText(d.plan.count, 'file')}` : ''}`}
            </button>
            <button type="button" onClick={closeRestoreDialog}>
              Cancel
            </button>
          </div>
        </form>
      ) : null}
      {error ? (
        <p role="alert" className={css.problem}>
          {error}
        </p>
      ) : null}
      {job ? <JobLine job={job} /> : null}
    </section>
  )
}
