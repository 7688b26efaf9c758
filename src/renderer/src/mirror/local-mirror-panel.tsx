// The "Local mirror" panel above the tables: the mirror's state, a build's progress (bar, bytes, time left) with
// Cancel, Resume after a cancel or the limit, and on demand its disk use per table, its limit and "Clear the mirror"
// (confirmed inline, warning that restored archive files are readable in S3 only for the days chosen). For the
// table picked, it says whether it reads the mirror or, not mirrored yet, the bucket's files.
import { useEffect, useState } from 'react'
import { formatBytes, numberText } from '../../../shared/counts'
import { appStore, useApp } from '../store/use-app-store'
import { clearMirrorRestoreWarning, mirrorProgressWords, mirrorStateWords, mirrorUsageWords, tableMirrorNote, tablePercent } from './mirror-words'
import styles from './local-mirror-panel.module.css'

const GB = 1e9

export function LocalMirrorPanel(): React.JSX.Element | null {
  const status = useApp((s) => s.mirror)
  const error = useApp((s) => s.mirrorError)
  const connectionId = useApp((s) => s.overview?.connectionId ?? null)
  const selected = useApp((s) => s.selectedTable)
  const restoreJob = useApp((s) => s.restoreStatus?.job ?? null)
  const { loadMirror, cancelMirror, resumeMirror, clearMirror, setMirrorLimit } = appStore.getState()
  const [open, setOpen] = useState(false)
  const [confirming, setConfirming] = useState(false)
  const [limitText, setLimitText] = useState('')

  // Another connection: its own mirror.
  useEffect(() => {
    if (connectionId) void loadMirror()
  }, [connectionId, loadMirror])
  const savedLimit = status?.limit?.bytes
  useEffect(() => {
    if (savedLimit !== undefined) setLimitText(String(Math.round((savedLimit / GB) * 10) / 10))
  }, [savedLimit])

  if (!status) return null
  const progress = mirrorProgressWords(status)
  const note = tableMirrorNote(status, `${selected.schema}.${selected.table}`)
  const limitBytes = Math.round(Number(limitText) * GB)
  const limitValid = limitText.trim() !== '' && Number.isFinite(limitBytes) && limitBytes >= 0
  const restoreWarning = confirming ? clearMirrorRestoreWarning(restoreJob, Date.now()) : null

  return (
    <section aria-label="Local mirror" data-testid="mirror-panel" data-state={status.state} className={styles.panel}>
      <div className={styles.line}>
        <span className={styles.title}>Local mirror</span>
        <span data-testid="mirror-state">{mirrorStateWords(status)}</span>
        {status.progress ? (
          <>
            <progress className={styles.bar} max={Math.max(1, status.progress.bytesTotal)} value={status.progress.bytes} aria-label="mirror build progress" />
            <span data-testid="mirror-progress">{progress}</span>
            <button type="button" onClick={() => void cancelMirror()}>
              Cancel
            </button>
          </>
        ) : null}
        {status.state !== 'running' && status.state !== 'done' ? (
          <button type="button" onClick={() => void resumeMirror()}>
            {status.state === 'idle' ? 'Build now' : 'Resume'}
          </button>
        ) : null}
        {!status.progress ? <span>{formatBytes(status.usage.total)} on disk</span> : null}
        <button type="button" aria-expanded={open} onClick={() => setOpen(!open)}>
          {open ? 'Hide details' : 'Details'}
        </button>
      </div>
      {note ? (
        <div data-testid="mirror-table-note" className={styles.note}>
          {selected.table}: {note}
        </div>
      ) : null}
      {status.message ? (
        <div role="status" data-testid="mirror-message" className={styles.message}>
          {status.message}
        </div>
      ) : null}
      {error ? (
        <div role="alert" className={styles.error}>
          {error}
        </div>
      ) : null}
      {open ? (
        <div data-testid="mirror-details">
          <table className={styles.tables} aria-label="mirror per table">
            <thead>
              <tr>
                <th>table</th>
                <th className={styles.num}>folders held</th>
                <th className={styles.num}>segments</th>
                <th className={styles.num}>on disk</th>
              </tr>
            </thead>
            <tbody>
              {status.tables.map((t) => (
                <tr key={t.table} data-table={t.table}>
                  <td>{t.table}</td>
                  <td className={styles.num}>
                    {numberText(t.folders)} of {numberText(t.foldersTotal)} ({tablePercent(t)}%)
                  </td>
                  <td className={styles.num}>{numberText(t.segments)}</td>
                  <td className={styles.num}>{formatBytes(t.bytes)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <div data-testid="mirror-usage">{mirrorUsageWords(status)}.</div>
          <div className={styles.line}>
            <label>
              Limit (GB){' '}
              <input
                className={styles.limit}
                type="number"
                min={0}
                step={0.1}
                value={limitText}
                onChange={(e) => setLimitText(e.target.value)}
                aria-label="mirror limit in GB"
              />
            </label>
            <button type="button" disabled={!limitValid} onClick={() => void setMirrorLimit(limitBytes)}>
              Set limit
            </button>
            <button type="button" disabled={!status.limit?.chosen} onClick={() => void setMirrorLimit(null)}>
              Default limit
            </button>
            {confirming ? (
              <span className={styles.confirm} role="group" aria-label="confirm clearing the mirror">
                Remove the mirror and the files downloaded for it ({formatBytes(status.usage.total)})? The next refresh builds it again.
                {restoreWarning ? (
                  <span data-testid="mirror-restore-warning" className={styles.warning}>
                    {' '}
                    {restoreWarning}
                  </span>
                ) : null}
                <button
                  type="button"
                  onClick={() => {
                    setConfirming(false)
                    void clearMirror()
                  }}
                >
                  Clear
                </button>
                <button type="button" onClick={() => setConfirming(false)}>
                  Keep it
                </button>
              </span>
            ) : (
              <button type="button" onClick={() => setConfirming(true)}>
                Clear the mirror
              </button>
            )}
          </div>
        </div>
      ) : null}
    </section>
  )
}
