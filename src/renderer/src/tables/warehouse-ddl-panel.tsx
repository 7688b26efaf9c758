// "Use in Athena / BigQuery": the definitions main generates from the core's rules (issue 15) for one table or the
// whole export, ready to copy, with the notes on what SQL cannot know. Self-contained: it is handed the call.
import { useEffect, useState } from 'react'
import type { ArgsOf, ResultOf } from '../../../shared/api/calls'
import { providerOfLocation } from '../../../shared/bucket-url'
import css from './warehouse-ddl-panel.module.css'

export type FetchDdl = (args: ArgsOf<'ddl'>) => Promise<ResultOf<'ddl'>>

export function WarehouseDdlPanel({
  table,
  location,
  fetchDdl,
  onClose
}: {
  table: string
  location: string
  fetchDdl: FetchDdl
  onClose: () => void
}): React.JSX.Element {
  // Athena reads S3, BigQuery Cloud Storage; a local folder may become either (the text says what to replace).
  const [engine, setEngine] = useState<'athena' | 'bigquery'>(providerOfLocation(location) === 'gcs' ? 'bigquery' : 'athena')
  const [whole, setWhole] = useState(false)
  const [database, setDatabase] = useState('')
  const [result, setResult] = useState<ResultOf<'ddl'> | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const [copied, setCopied] = useState(false)
  const databaseOk = database === '' || /^[A-Za-z_][A-Za-z0-9_]{0,127}$/.test(database)

  useEffect(() => {
    if (!databaseOk) return
    let live = true
    setBusy(true)
    setError(null)
    setCopied(false)
    fetchDdl({ engine, table: whole ? null : table, database: database === '' ? null : database })
      .then(
        (r) => live && setResult(r),
        (e: Error) => live && (setResult(null), setError(e.message))
      )
      .finally(() => live && setBusy(false))
    return () => {
      live = false
    }
  }, [engine, whole, database, databaseOk, table, fetchDdl])

  const copy = (): void => {
    if (!result) return
    void navigator.clipboard.writeText(result.text).then(
      () => setCopied(true),
      (e: Error) => setError(`Could not copy to the clipboard (${e.message}): select the text and copy it instead.`)
    )
  }

  return (
    <section data-testid="warehouse-ddl" aria-label="Use in Athena / BigQuery" className={css.panel}>
      <div className={css.controls}>
        <strong>Use in Athena / BigQuery</strong>
        <label>
          engine{' '}
          <select aria-label="warehouse engine" value={engine} onChange={(e) => setEngine(e.target.value as 'athena' | 'bigquery')}>
            <option value="athena">Athena / Glue (S3)</option>
            <option value="bigquery">BigQuery (Cloud Storage)</option>
          </select>
        </label>
        <label>
          <input type="radio" name="ddl-scope" checked={!whole} onChange={() => setWhole(false)} /> {table}
        </label>
        <label>
          <input type="radio" name="ddl-scope" checked={whole} onChange={() => setWhole(true)} /> the whole export (19 tables)
        </label>
        <label title="One database (Athena) or dataset (BigQuery) for every table; empty: one per vendor schema">
          database{' '}
          <input aria-label="warehouse database" value={database} placeholder="one per schema" onChange={(e) => setDatabase(e.target.value.trim())} size={18} />
        </label>
        <button onClick={copy} disabled={!result || busy}>
          {copied ? 'Copied' : 'Copy'}
        </button>
        <button onClick={onClose}>Close</button>
        {busy ? <span>Generating…</span> : null}
      </div>
      {!databaseOk ? <p role="alert">A database name is letters, digits and _ (not starting with a digit), at most 128.</p> : null}
      {error ? (
        <p role="alert" data-testid="warehouse-ddl-error">
          {error}
        </p>
      ) : null}
      {result ? (
        <>
          <ul data-testid="warehouse-ddl-notes" className={css.notes}>
            {result.notes.map((n) => (
              <li key={n}>{n}</li>
            ))}
          </ul>
          <textarea aria-label="warehouse definitions" data-testid="warehouse-ddl-text" readOnly value={result.text} spellCheck={false} className={css.text} />
        </>
      ) : null}
    </section>
  )
}
