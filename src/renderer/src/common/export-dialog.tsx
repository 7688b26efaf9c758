// Export a table with its filters, or a query, to CSV or Parquet. The file is written by main (its own engine,
// the same views), into a temporary file renamed when complete: it is whole or absent. Progress and cancel;
// "Show in folder" when done (desktop). In a browser there is no native dialog: the path is typed. Progress reads as
// common/export-progress.ts says.
import { useEffect, useState } from 'react'
import { countText, formatBytes } from '../../../shared/counts'
import { type ExportFormat, nameForFormat, nameFormatMismatch } from '../../../shared/export-format'
import { appStore, useApp } from '../store/use-app-store'
import dialogCss from './dialog.module.css'
import { useEscapeToClose } from './escape-key'
import css from './export-dialog.module.css'
import { exportProgress } from './export-progress'

/** Which connection and which "as of" an export's file holds, in words. */
export function exportSourceText(connection: string | null, asOf: string | null): string {
  const when = asOf ? `as of ${asOf.slice(0, 13).replace('T', ' ')}:00 UTC` : 'latest (everything delivered so far)'
  return connection ? `From ${connection}, ${when}` : `${when.charAt(0).toUpperCase()}${when.slice(1)}`
}

export function ExportDialog(): React.JSX.Element | null {
  const request = useApp((s) => s.exportRequest)
  const defaults = useApp((s) => s.exportDefaults)
  const job = useApp((s) => s.exportJob)
  const error = useApp((s) => s.exportError)
  const connections = useApp((s) => s.connections)
  const { closeExport: onClose, chooseExportPath, startExport, cancelExport, showExportInFolder } = appStore.getState()
  const [format, setFormat] = useState<ExportFormat>('csv')
  const [path, setPath] = useState('')
  const [overwrite, setOverwrite] = useState(false)
  const dialog = defaults?.dialog ?? false
  const defaultName = request?.defaultName ?? 'export'

  // In a browser the path is typed, starting in the one folder main may write in.
  // Each export starts as CSV, its name proposed with the format's extension.
  useEffect(() => {
    setFormat('csv')
    setPath(defaults && !defaults.dialog ? `${defaults.directory.replace(/[\\/]$/, '')}/${nameForFormat(defaultName, 'csv')}` : '')
  }, [defaults, defaultName])

  // Changing the format changes the name's extension; a name typed that disagrees is said, and not exported.
  const switchFormat = (f: ExportFormat): void => {
    setFormat(f)
    setPath((p) => (p ? nameForFormat(p, f) : p))
  }
  const misnamed = path ? nameFormatMismatch(path, format) : null
  const start = (): void => void startExport({ format, path, overwrite })
  const running = job?.state === 'running'
  const done = job?.state === 'done'
  // The time so far and left move between main's progress events.
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    if (!running) return
    const t = setInterval(() => setNow(Date.now()), 1000)
    return () => clearInterval(t)
  }, [running])
  const progress = running && job ? exportProgress(job, now, request?.rows ?? null) : null
  // A running export is not closed by a key: Cancel stops it.
  useEscapeToClose(onClose, request !== null && !running)
  if (!request) return null
  const { sql } = request
  // What the file holds: the job's own record once it started, before that what it will read.
  const held = job ?? { connection: connections?.active ?? null, asOf: request.asOf }
  const connectionName = connections?.connections.find((c) => c.id === held.connection)?.name ?? held.connection

  return (
    <div role="dialog" aria-modal="true" aria-label="Export" data-testid="export-dialog" className={css.backdrop}>
      <div className={css.box}>
        <div className={dialogCss.header}>
          <h2 className={dialogCss.title}>Export</h2>
          <button onClick={onClose} disabled={running}>
            Close
          </button>
        </div>
        <pre className={css.sql}>{sql}</pre>
        <p data-testid="export-source">{exportSourceText(connectionName, held.asOf)}</p>
        <div className={css.formats}>
          <label>
            <input type="radio" name="format" checked={format === 'csv'} onChange={() => switchFormat('csv')} /> CSV (UTF-8, header row)
          </label>
          <label>
            <input type="radio" name="format" checked={format === 'parquet'} onChange={() => switchFormat('parquet')} /> Parquet
          </label>
        </div>
        <div className={css.row}>
          {dialog ? (
            <>
              <button
                onClick={() =>
                  void chooseExportPath(nameForFormat(defaultName, format), format).then((p) => {
                    if (p) setPath(p)
                  })
                }
              >
                Choose file…
              </button>
              <code data-testid="export-path">{path || 'no file chosen'}</code>
            </>
          ) : (
            <label className={css.pathLabel}>
              Save to
              <input aria-label="export path" value={path} onChange={(e) => setPath(e.target.value)} className={css.path} />
            </label>
          )}
        </div>
        <label className={css.overwrite}>
          <input type="checkbox" checked={overwrite} onChange={(e) => setOverwrite(e.target.checked)} /> Replace the file if it exists
        </label>
        <div className={css.actions}>
          <button onClick={start} disabled={!path || misnamed !== null || running}>
            Export
          </button>
          {running ? <button onClick={() => void cancelExport()}>Cancel</button> : null}
          {progress ? (
            <progress data-testid="export-bar" className={css.bar} max={100} {...(progress.percent !== null ? { value: progress.percent } : {})} />
          ) : null}
          <span data-testid="export-status" data-done={done ? 'true' : 'false'} role="status">
            {progress ? progress.text : done ? `Saved ${countText(job.rows, 'row')} to ${job.path} (${formatBytes(job.bytes)})` : (job?.error ?? '')}
          </span>
          {done && dialog ? <button onClick={() => void showExportInFolder()}>Show in folder</button> : null}
        </div>
        {(misnamed ?? error) ? (
          <p role="alert" className={css.error}>
            {misnamed ?? error}
          </p>
        ) : null}
      </div>
    </div>
  )
}
