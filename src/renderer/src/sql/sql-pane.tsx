// The SQL pane: CodeMirror 6 with SQL highlighting and completion of the bucket's views and their columns (a bare
// name too, from the statement's tables); run with Ctrl/⌘+Enter, cancel (which stops within a second: see engine/session.ts), elapsed time and rows,
// each duration stated once; an error shows where it is (the cursor jumps there); the query history is kept by
// main across restarts; "as of" an hour rebuilds the views from the folders delivered up to then.
import { sql as sqlLang, StandardSQL } from '@codemirror/lang-sql'
import { Compartment, Prec } from '@codemirror/state'
import { EditorView, keymap } from '@codemirror/view'
import { basicSetup } from 'codemirror'
import { useEffect, useRef, useState } from 'react'
import { countText } from '../../../shared/counts'
import { durationText } from '../../../shared/durations'
import { timeText } from '../common/time'
import { ResultGrid } from '../common/result-grid'
import { ViewsProgressLine } from '../common/views-progress'
import { appStore, useApp } from '../store/use-app-store'
import { AsOfPicker } from './as-of-picker'
import { statementColumnsSource } from './statement-columns'
import css from './sql-pane.module.css'

const THEME = EditorView.theme({
  '&': { fontSize: 'var(--font-md)', border: '1px solid var(--color-border)', borderRadius: 'var(--radius-md)' },
  '.cm-scroller': { minHeight: '140px', maxHeight: '300px' }
})

export function SqlPane(): React.JSX.Element {
  const asOf = useApp((s) => s.asOf)
  const handedOver = useApp((s) => s.handedOver)
  const history = useApp((s) => s.history)
  const engineNote = useApp((s) => s.engineNote)
  const result = useApp((s) => s.sqlResult)
  const running = useApp((s) => s.sqlRunning)
  const ended = useApp((s) => s.sqlEnded)
  const error = useApp((s) => s.sqlError)
  const schema = useApp((s) => s.sqlSchema)
  const viewProblems = useApp((s) => s.sqlViewProblems)
  const runNotes = useApp((s) => s.sqlRunNotes)
  const { setAsOf: onAsOf, loadHistory, openExport, loadSqlSchema, runSql, cancelSql, sortSql } = appStore.getState()
  const host = useRef<HTMLDivElement | null>(null)
  const view = useRef<EditorView | null>(null)
  const runRef = useRef<() => void>(() => {})
  const language = useRef(new Compartment())
  const [elapsed, setElapsed] = useState(0)

  // The editor, once.
  useEffect(() => {
    if (!host.current) return
    const v = new EditorView({
      parent: host.current,
      doc: appStore.getState().handedOver?.sql ?? 'SELECT tenant_id, count(*) AS messages\nFROM cloud_chat_messages\nGROUP BY 1\nORDER BY 2 DESC',
      extensions: [
        Prec.highest(keymap.of([{ key: 'Mod-Enter', run: () => (runRef.current(), true) }])),
        basicSetup,
        language.current.of(sqlLang({ dialect: StandardSQL, upperCaseKeywords: true })),
        THEME,
        // A long line wraps inside the editor instead of widening the page.
        EditorView.lineWrapping
      ]
    })
    view.current = v
    return () => v.destroy()
  }, [])

  // A query handed over from the table browser replaces the text.
  useEffect(() => {
    const v = view.current
    if (v && handedOver) v.dispatch({ changes: { from: 0, to: v.state.doc.length, insert: handedOver.sql } })
  }, [handedOver])

  // Completion of views and columns, from the engine, after the views are (re)built: for another "as of", and when a
  // mirror build ends (tables it compacted open from it; a run that waited for one goes again).
  const mirrorGeneration = useApp((s) => s.mirrorGeneration)
  useEffect(() => {
    void loadSqlSchema()
  }, [asOf, mirrorGeneration, loadSqlSchema])

  // Completion knows the views and their columns once they are built.
  useEffect(() => {
    const v = view.current
    if (v && Object.keys(schema).length)
      v.dispatch({
        effects: language.current.reconfigure([
          sqlLang({ dialect: StandardSQL, schema: schema as Record<string, string[]>, upperCaseKeywords: true }),
          // A bare name completes to the columns of the statement's tables (the schema's own completion needs `t.`).
          StandardSQL.language.data.of({ autocomplete: statementColumnsSource(schema) })
        ])
      })
  }, [schema])

  useEffect(() => {
    void loadHistory()
  }, [loadHistory])

  // An error that says where: the cursor jumps there.
  useEffect(() => {
    const v = view.current
    if (!v || error?.at == null) return
    const at = Math.min(v.state.doc.length, error.at)
    v.dispatch({ selection: { anchor: at, head: Math.min(v.state.doc.length, at + 1) }, scrollIntoView: true })
    v.focus()
  }, [error])

  useEffect(() => {
    if (!running) return
    const t = setInterval(() => setElapsed(performance.now() - running.since), 100)
    return () => clearInterval(t)
  }, [running])

  const run = (): void => {
    const v = view.current
    if (!v || appStore.getState().sqlRunning) return
    const sel = v.state.selection.main
    const text = sel.empty ? v.state.doc.toString() : v.state.sliceDoc(sel.from, sel.to)
    setElapsed(0)
    void runSql({ text, doc: v.state.doc.toString(), base: sel.empty ? 0 : sel.from })
  }
  runRef.current = run

  /** Puts a query in the editor in place of its text. */
  const replaceText = (text: string): void => {
    const v = view.current
    if (v) v.dispatch({ changes: { from: 0, to: v.state.doc.length, insert: text } })
  }

  /** What Export writes: the editor's text (its selection when there is one), not the last query run. */
  const editorSql = (): string => {
    const v = view.current
    if (!v) return ''
    const sel = v.state.selection.main
    return (sel.empty ? v.state.doc.toString() : v.state.sliceDoc(sel.from, sel.to)).trim()
  }

  return (
    <section data-testid="sql-pane" className={css.pane}>
      <div className={css.work}>
        <div ref={host} data-testid="sql-editor" />
        <div className={css.controls}>
          <button onClick={run} disabled={running !== null} title="Ctrl/⌘+Enter">
            Run
          </button>
          <button onClick={() => void cancelSql()} disabled={running === null || running.cancelAt !== undefined}>
            Cancel
          </button>
          <AsOfPicker asOf={asOf} onAsOf={onAsOf} />
          <button
            disabled={running !== null}
            title="Exports the query in the editor (its selection, if any), run again by main's engine"
            onClick={() => {
              const text = editorSql()
              if (text) void openExport({ sql: text, asOf, defaultName: 'query-result' })
            }}
          >
            Export…
          </button>
          <span data-testid="sql-status" className={css.status}>
            {running ? (running.cancelAt !== undefined ? 'Cancelling…' : `Running… ${durationText(elapsed)}`) : (ended ?? '')}
          </span>
        </div>
        {engineNote ? (
          <div data-testid="engine-note" data-kind={engineNote.kind} role="status" className={css.engineNote}>
            {engineNote.text}
          </div>
        ) : null}
        <ViewsProgressLine />
        {error ? (
          <pre data-testid="sql-error" role="alert" className={css.error}>
            {error.where ? `At ${error.where}: ` : ''}
            {error.message}
          </pre>
        ) : null}
        {viewProblems.length ? (
          <details className={css.viewProblems}>
            <summary>{viewProblems.length} table(s) cannot be queried now</summary>
            <ul>
              {viewProblems.map((p) => (
                <li key={p.table}>{p.message}</li>
              ))}
            </ul>
          </details>
        ) : null}
        {runNotes.map((n) => (
          <p key={n.table} data-testid="sql-read-note" role="note" className={css.readNote}>
            {n.message}
          </p>
        ))}
        {result && result.columns.length ? <ResultGrid result={result} onSort={(c, d) => void sortSql(c, d)} /> : null}
        {!result && !error && !running ? <SqlStart schema={schema} onPick={replaceText} /> : null}
      </div>
      <aside className={css.history}>
        <h3 className={css.historyTitle}>History</h3>
        {history.length === 0 ? (
          <p data-testid="history-empty" className={css.historyEmpty}>
            No queries yet. Each query you run is kept here, also after a restart; click one to put it back in the editor.
          </p>
        ) : null}
        <ul data-testid="history" className={css.historyList}>
          {history.map((h, i) => (
            <li key={i} className={css.historyItem}>
              <button
                data-failed={Boolean(h.error) && !h.error?.startsWith('Cancelled')}
                className={css.historySql}
                title={h.error ?? countText(h.rows ?? 0, 'row')}
                onClick={() => replaceText(h.sql)}
              >
                {h.sql.length > 160 ? `${h.sql.slice(0, 160)}…` : h.sql}
              </button>
              <span className={css.historyWhen}>
                {timeText(h.at, 'utc')}
                {h.asOf ? ` · as of ${timeText(h.asOf, 'utc')}` : ''} ·{' '}
                {h.error ? (h.error.startsWith('Cancelled') ? 'cancelled' : 'error') : countText(h.rows ?? 0, 'row')}
              </span>
            </li>
          ))}
        </ul>
      </aside>
    </section>
  )
}

/** Before the first run: how to run, a few queries to try, and the tables there are (each a query to start from). */
function SqlStart({ schema, onPick }: { schema: Readonly<Record<string, readonly string[]>>; onPick: (sql: string) => void }): React.JSX.Element {
  const tables = Object.keys(schema)
    .filter((t) => t.includes('.'))
    .sort()
  const first = tables.find((t) => t.endsWith('.claudia_messages')) ?? tables[0] ?? 'datamart_claudia.claudia_messages'
  const tries = [`SELECT * FROM ${first} LIMIT 100`, `SELECT tenant_id, count(*) AS n FROM ${first} GROUP BY 1 ORDER BY 2 DESC`, `DESCRIBE ${first}`]
  return (
    <div data-testid="sql-start" className={css.start}>
      <p className={css.startLead}>
        Run the query above with Run or Ctrl/⌘+Enter (a selection runs alone). The tables are the bucket&apos;s, newest copy of each row; times are UTC.
        Completion (Ctrl+Space) knows the tables and their columns.
      </p>
      <div className={css.startTitle}>Try</div>
      <ul className={css.startList}>
        {tries.map((q) => (
          <li key={q}>
            <button className={css.startQuery} onClick={() => onPick(q)}>
              {q}
            </button>
          </li>
        ))}
      </ul>
      <div className={css.startTitle}>{tables.length ? `${countText(tables.length, 'table')} to query` : 'The tables are opening…'}</div>
      <ul data-testid="sql-start-tables" className={css.startTables}>
        {tables.map((t) => (
          <li key={t}>
            <button className={css.startQuery} title={schema[t]?.join(', ')} onClick={() => onPick(`SELECT * FROM ${t} LIMIT 100`)}>
              {t}
            </button>
          </li>
        ))}
      </ul>
    </div>
  )
}
