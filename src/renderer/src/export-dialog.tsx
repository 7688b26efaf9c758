// Export a table with its filters, or a query, to CSV or Parquet. The file is written by main (its own engine,
// the same views), into a temporary file renamed when complete: it is whole or absent. Progress and cancel;
// "Show in folder" when done (desktop). In a browser there is no native dialog: the path is typed.
import { useEffect, useRef, useState } from 'react'
import type { ExportJob } from '../../shared/api-contract'
import { call } from './api'

export function ExportDialog({ sql, asOf, defaultName, onClose }: { sql: string; asOf: string | null; defaultName: string; onClose: () => void }): React.JSX.Element {
  const [format, setFormat] = useState<'csv' | 'parquet'>('csv')
  const [path, setPath] = useState('')
  const [dialog, setDialog] = useState(false)
  const [overwrite, setOverwrite] = useState(false)
  const [job, setJob] = useState<ExportJob | null>(null)
  const [error, setError] = useState<string | null>(null)
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null)

  useEffect(() => {
    call('exportDefaults', {}).then((d) => {
      setDialog(d.dialog)
      if (!d.dialog) setPath(`${d.directory.replace(/[\\/]$/, '')}/${defaultName}.csv`)
    }, (e: Error) => setError(e.message))
    return () => {
      if (timer.current) clearTimeout(timer.current)
    }
  }, [defaultName])

  const switchFormat = (f: 'csv' | 'parquet'): void => {
    setFormat(f)
    setPath((p) => p.replace(/\.(csv|parquet)$/, `.${f}`))
  }

  const poll = (id: string): void => {
    call('exportStatus', { id }).then((j) => {
      setJob(j)
      if (j.running) timer.current = setTimeout(() => poll(id), 250)
    }, (e: Error) => setError(e.message))
  }

  const start = (): void => {
    setError(null)
    call('exportStart', { sql, format, path, overwrite, asOf }).then((j) => {
      setJob(j)
      poll(j.id)
    }, (e: Error) => setError(e.message))
  }

  return (
    <div role="dialog" aria-modal="true" aria-label="Export" data-testid="export-dialog" style={{ position: 'fixed', inset: 0, background: 'rgba(0,0,0,0.35)', display: 'flex', alignItems: 'flex-start', justifyContent: 'center', paddingTop: 80, zIndex: 10 }}>
      <div style={{ background: '#fff', borderRadius: 8, padding: 16, width: 640, boxShadow: '0 8px 30px rgba(0,0,0,0.25)', fontSize: 13 }}>
        <div style={{ display: 'flex', justifyContent: 'space-between' }}>
          <h2 style={{ margin: 0, fontSize: 18 }}>Export</h2>
          <button onClick={onClose} disabled={job?.running}>Close</button>
        </div>
        <pre style={{ background: '#f6f8fa', padding: 8, maxHeight: 120, overflow: 'auto', fontSize: 11 }}>{sql}</pre>
        {asOf ? <p>As of {asOf.slice(0, 13).replace('T', ' ')}:00 UTC</p> : null}
        <div style={{ display: 'flex', gap: 16, margin: '8px 0' }}>
          <label>
            <input type="radio" name="format" checked={format === 'csv'} onChange={() => switchFormat('csv')} /> CSV (UTF-8, header row)
          </label>
          <label>
            <input type="radio" name="format" checked={format === 'parquet'} onChange={() => switchFormat('parquet')} /> Parquet
          </label>
        </div>
        <div style={{ display: 'flex', gap: 8, alignItems: 'center' }}>
          {dialog ? (
            <>
              <button
                onClick={() =>
                  call('chooseSavePath', { defaultName: `${defaultName}.${format}`, format }).then((r) => {
                    if (r.path) setPath(r.path)
                  }, (e: Error) => setError(e.message))
                }
              >
                Choose file…
              </button>
              <code data-testid="export-path">{path || 'no file chosen'}</code>
            </>
          ) : (
            <label style={{ flex: 1, display: 'flex', gap: 8, alignItems: 'center' }}>
              Save to
              <input aria-label="export path" value={path} onChange={(e) => setPath(e.target.value)} style={{ flex: 1 }} />
            </label>
          )}
        </div>
        <label style={{ display: 'block', marginTop: 6 }}>
          <input type="checkbox" checked={overwrite} onChange={(e) => setOverwrite(e.target.checked)} /> Replace the file if it exists
        </label>
        <div style={{ display: 'flex', gap: 8, marginTop: 12, alignItems: 'center' }}>
          <button onClick={start} disabled={!path || job?.running}>
            Export
          </button>
          {job?.running ? <button onClick={() => call('exportCancel', { id: job.id }).then(setJob, (e: Error) => setError(e.message))}>Cancel</button> : null}
          <span data-testid="export-status" data-done={job?.done ? 'true' : 'false'} role="status">
            {job?.running ? `Exporting… ${job.percent !== null ? `${Math.round(job.percent)}%, ` : ''}${job.rows.toLocaleString('en')} rows processed` : job?.done ? `Saved ${job.rows.toLocaleString('en')} rows to ${job.path}` : (job?.error ?? '')}
          </span>
          {job?.done && dialog ? <button onClick={() => void call('showInFolder', { path: job.path })}>Show in folder</button> : null}
        </div>
        {error ? (
          <p role="alert" style={{ color: '#b3261e' }}>
            {error}
          </p>
        ) : null}
      </div>
    </div>
  )
}
