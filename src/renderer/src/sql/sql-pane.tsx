// The SQL pane: CodeMirror 6 with SQL highlighting and completion of the bucket's views and their columns;
// run with Ctrl/⌘+Enter, cancel (which stops within a second: see engine/session.ts), elapsed time and rows,
// each duration stated once; an error shows where it is (the cursor jumps there); the query history is kept by
// main across restarts; "as of" an hour rebuilds the views from the folders delivered up to then.
import { sql as sqlLang, StandardSQL } from '@codemirror/lang-sql'
import { Compartment, Prec } from '@codemirror/state'
import { EditorView, keymap } from '@codemirror/view'
import { basicSetup } from 'codemirror'
import { useEffect, useRef, useState } from 'react'
import { withViewProblem } from '../engine/missing-view'
import { QueryError, type ResultSet } from '../engine/result-set'
import { CancelledError } from '../engine/session'
import { countText } from '../../../shared/counts'
import { durationText } from '../../../shared/durations'
import { timeText } from '../common/time'
import { ResultGrid } from '../common/result-grid'
import { ViewsProgressLine } from '../common/views-progress'
import { SQL_PANE } from '../store/query-slice'
import { appStore, useApp } from '../store/use-app-store'
import { AsOfPicker } from './as-of-picker'
import css from './sql-pane.module.css'
import { errorMessage } from '../../../shared/error-message'

const THEME = EditorView.theme({
  '&': { fontSize: 'var(--font-md)', border: '1px solid var(--color-border)', borderRadius: 'var(--radius-md)' },
  '.cm-scroller': { minHeight: '140px', maxHeight: '300px' }
})

export function SqlPane(): React.JSX.Element {
  const asOf = useApp((s) => s.asOf)
  const handedOver = useApp((s) => s.handedOver)
  const history = useApp((s) => s.history)
  const engineNote = useApp((s) => s.engineNote)
  const engineGeneration = useApp((s) => s.engineGeneration)
  const { setAsOf: onAsOf, loadHistory, addHistory, openExport, session, cancelQuery, clearEngineNote } = appStore.getState()
  const host = useRef<HTMLDivElement | null>(null)
  const view = useRef<EditorView | null>(null)
  const runRef = useRef<() => void>(() => {})
  const language = useRef(new Compartment())
  const [result, setResult] = useState<ResultSet | null>(null)
  const [running, setRunning] = useState<{ since: number; cancelAt?: number } | null>(null)
  /** How the last run ended when it gave no result: cancelled or failed, after how long. */
  const [ended, setEnded] = useState<string | null>(null)
  const cancelAsked = useRef(false)
  const [elapsed, setElapsed] = useState(0)
  const [error, setError] = useState<{ message: string; where: string | null } | null>(null)
  const [schema, setSchema] = useState<Record<string, string[]>>({})
  const [viewProblems, setViewProblems] = useState<readonly { table: string; message: string }[]>([])

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

  // Completion of views and columns, from the engine, after the views are (re)built.
  useEffect(() => {
    let stop = false
    void (async () => {
      try {
        const vs = await session.ensureViews(asOf)
        if (stop) return
        setViewProblems(vs.problems)
        const cols = await session.query(
          `SELECT table_schema, table_name, column_name FROM information_schema.columns WHERE table_catalog = current_database() ORDER BY table_schema, table_name, ordinal_position`
        )
        const s: Record<string, string[]> = {}
        for (const r of cols) {
          const name = r['table_schema'] === 'main' ? String(r['table_name']) : `${String(r['table_schema'])}.${String(r['table_name'])}`
          if (name.startsWith('__ee')) continue
          ;(s[name] ??= []).push(String(r['column_name']))
        }
        if (stop) return
        setSchema(s)
      } catch (e) {
        if (!stop) setError({ message: errorMessage(e), where: null })
      }
    })()
    return () => {
      stop = true
    }
  }, [asOf, session])

  // Completion knows the views and their columns once they are built.
  useEffect(() => {
    const v = view.current
    if (v && Object.keys(schema).length)
      v.dispatch({ effects: language.current.reconfigure(sqlLang({ dialect: StandardSQL, schema, upperCaseKeywords: true })) })
  }, [schema])

  useEffect(() => {
    void loadHistory()
  }, [loadHistory])

  // A restarted engine holds none of the old results: the grid of one would fail on its next page.
  const resultEngine = useRef(0)
  useEffect(() => {
    if (resultEngine.current !== session.generation) setResult(null)
  }, [engineGeneration, session])

  useEffect(() => {
    if (!running) return
    const t = setInterval(() => setElapsed(performance.now() - running.since), 100)
    return () => clearInterval(t)
  }, [running])

  const run = async (): Promise<void> => {
    const v = view.current
    if (!v || running) return
    const sel = v.state.selection.main
    const text = sel.empty ? v.state.doc.toString() : v.state.sliceDoc(sel.from, sel.to)
    if (!text.trim()) return
    setError(null)
    setEnded(null)
    clearEngineNote()
    cancelAsked.current = false
    const since = performance.now()
    setElapsed(0)
    setRunning({ since })
    try {
      await session.ensureViews(asOf)
      // Cancelled while the tables were opening (work the tables view shares): the statement never starts.
      if (cancelAsked.current) throw new CancelledError('Cancelled before it started.')
      const r = await session.runQuery(text, SQL_PANE)
      const old = result
      resultEngine.current = session.generation
      setResult(r)
      if (old) void old.drop()
      // A statement without rows (SET, CREATE…) has no grid to state its duration: the status line does.
      if (!r.columns.length) setEnded(`Done in ${durationText(r.ms)}.`)
      void addHistory({ sql: text, rows: r.rowCount, ms: Math.round(performance.now() - since), error: null })
    } catch (e) {
      const pos = e instanceof QueryError ? e.position : null
      let message = errorMessage(e)
      // An error leaves no result behind: the old one would read as this query's.
      setResult((old) => {
        if (old) void old.drop()
        return null
      })
      const took = durationText(performance.now() - since)
      // Asked by the user: DuckDB-WASM's words for it ("Interrupted!", or an error of the cut-short stream) are no error.
      const cancelled = cancelAsked.current || /interrupt/i.test(message)
      setEnded(cancelled ? `Cancelled after ${took}.` : `Failed after ${took}.`)
      let where: string | null = null
      if (pos) {
        const base = sel.empty ? 0 : sel.from
        const at = Math.min(v.state.doc.length, base + pos.offset)
        // Lines of the editor (a selection starts further down), and DuckDB's excerpt says the same line.
        const line = v.state.doc.lineAt(at)
        where = `line ${line.number}, column ${at - line.from + 1}`
        message = message.replace(/^LINE \d+:/m, `LINE ${line.number}:`)
        v.dispatch({ selection: { anchor: at, head: Math.min(v.state.doc.length, at + 1) }, scrollIntoView: true })
        v.focus()
      }
      if (!cancelled) setError({ message: withViewProblem(message, viewProblems), where })
      void addHistory({
        sql: text,
        rows: null,
        ms: Math.round(performance.now() - since),
        error: cancelled ? `Cancelled after ${took}.` : message.slice(0, 500)
      })
    } finally {
      setRunning(null)
      setElapsed(performance.now() - since)
    }
  }
  runRef.current = () => void run()

  // Cancel interrupts the query; where DuckDB-WASM 0.9.1 cannot (a large cross join runs in one call of its
  // worker), the session restarts the engine after a second, and the engine note says so.
  const cancelRun = (): void => {
    cancelAsked.current = true
    setRunning((r) => (r ? { ...r, cancelAt: performance.now() } : r))
    void cancelQuery().catch(() => {})
  }

  /** What Export writes: the editor's text (its selection when there is one), not the last query run. */
  const editorSql = (): string => {
    const v = view.current
    if (!v) return ''
    const sel = v.state.selection.main
    return (sel.empty ? v.state.doc.toString() : v.state.sliceDoc(sel.from, sel.to)).trim()
  }

  const sortBy = async (column: string, desc: boolean): Promise<void> => {
    if (!result) return
    cancelAsked.current = false
    const since = performance.now()
    setEnded(null)
    setRunning({ since })
    try {
      const r = await result.sorted(column, desc)
      resultEngine.current = session.generation
      setResult(r)
    } catch (e) {
      if (cancelAsked.current) setEnded(`Sorting cancelled after ${durationText(performance.now() - since)}.`)
      else setError({ message: errorMessage(e), where: null })
    } finally {
      setRunning(null)
    }
  }

  return (
    <section data-testid="sql-pane" className={css.pane}>
      <div>
        <div ref={host} data-testid="sql-editor" />
        <div className={css.controls}>
          <button onClick={() => void run()} disabled={running !== null} title="Ctrl/⌘+Enter">
            Run
          </button>
          <button onClick={cancelRun} disabled={running === null || running.cancelAt !== undefined}>
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
        {result && result.columns.length ? <ResultGrid result={result} onSort={(c, d) => void sortBy(c, d)} /> : null}
      </div>
      <aside className={css.history}>
        <h3 className={css.historyTitle}>History</h3>
        <ul data-testid="history" className={css.historyList}>
          {history.map((h, i) => (
            <li key={i} className={css.historyItem}>
              <button
                data-failed={Boolean(h.error) && !h.error?.startsWith('Cancelled')}
                className={css.historySql}
                title={h.error ?? countText(h.rows ?? 0, 'row')}
                onClick={() => {
                  const v = view.current
                  if (v) v.dispatch({ changes: { from: 0, to: v.state.doc.length, insert: h.sql } })
                }}
              >
                {h.sql.length > 160 ? `${h.sql.slice(0, 160)}…` : h.sql}
              </button>
              <span className={css.historyWhen}>
                {timeText(h.at, 'utc')} · {h.error ? (h.error.startsWith('Cancelled') ? 'cancelled' : 'error') : countText(h.rows ?? 0, 'row')}
              </span>
            </li>
          ))}
        </ul>
      </aside>
    </section>
  )
}
