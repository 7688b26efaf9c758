// The SQL pane's work: running the editor's statement on the session (its result, how long it took, how it
// ended, an error with where it is in the editor's text), cancel, sorting the result, and the views and columns
// the editor completes. The component holds the editor; these actions hold the engine work.
import { waitsForMirror, withViewProblem } from '../engine/missing-view'
import { readNotesFor } from '../engine/read-notes'
import { QueryError, type ResultSet } from '../engine/result-set'
import { CancelledError, type ViewsState } from '../engine/session'
import { durationText } from '../../../shared/durations'
import { errorMessage } from '../../../shared/error-message'
import type { StateCreator } from 'zustand/vanilla'
import type { AppState, SliceDeps } from './app-store'
import { fileWritingStatement } from '../../../shared/file-writing-statement'
import { tablesNamed } from '../../../shared/tables-named'

/** The owner of the SQL pane's work in the session: Cancel stops it, never the tables view's. */
export const SQL_PANE = 'sql-pane'

export interface SqlError {
  readonly message: string
  /** "line n, column m" of the editor's text, when DuckDB said where. */
  readonly where: string | null
  /** The offset in the editor's text the cursor goes to. */
  readonly at: number | null
}

/** What runSql runs: the statement, the editor's whole text and where the statement starts in it (a selection). */
export interface SqlRun {
  readonly text: string
  readonly doc: string
  readonly base: number
}

export interface SqlSlice {
  readonly sqlResult: ResultSet | null
  /** Since when a run (or a sort) has been running (performance.now()), and since when Cancel was asked. */
  readonly sqlRunning: { readonly since: number; readonly cancelAt?: number } | null
  /** How the last run ended when its grid does not say it: done, cancelled or failed, after how long. */
  readonly sqlEnded: string | null
  readonly sqlError: SqlError | null
  /** Views and their columns, for completion. */
  readonly sqlSchema: Readonly<Record<string, readonly string[]>>
  readonly sqlViewProblems: readonly { readonly table: string; readonly message: string }[]
  /** Tables this pane reads otherwise than the others, and why (the views' read notes). */
  readonly sqlReadNotes: readonly { readonly table: string; readonly message: string }[]
  /** The read notes of the tables the last successful run named: said beside its result. */
  readonly sqlRunNotes: readonly { readonly table: string; readonly message: string }[]
  /** A run that failed on a table the mirror is compacting for this pane: run again once its view opens. */
  readonly sqlWaiting: { readonly table: string; readonly run: SqlRun } | null
  /** Opens the views of the "as of" hour and reads their columns. */
  loadSqlSchema(): Promise<void>
  runSql(run: SqlRun): Promise<void>
  /** Stops the pane's statement (restarting the engine when its interrupt does not land). */
  cancelSql(): Promise<void>
  sortSql(column: string, desc: boolean): Promise<void>
}

const COLUMNS_SQL =
  'SELECT table_schema, table_name, column_name FROM information_schema.columns WHERE table_catalog = current_database() ORDER BY table_schema, table_name, ordinal_position'

/** Where an error's position falls in the editor's text: its offset, and its line and column there. */
export function editorPlace(doc: string, base: number, offset: number): { at: number; line: number; column: number } {
  const at = Math.min(doc.length, base + offset)
  const from = doc.lastIndexOf('\n', at - 1) + 1
  return { at, line: doc.slice(0, at).split('\n').length, column: at - from + 1 }
}

export const createSqlSlice =
  (deps: SliceDeps): StateCreator<AppState, [], [], SqlSlice> =>
  (set, get) => {
    const { session } = deps
    let cancelAsked = false
    // The engine the result lives on: a restarted engine holds none of it (its next page would fail).
    let resultEngine = 0
    let schemaAsked = 0
    session.subscribe((e) => {
      // The engine being ended holds the result: its grid would fail on its next page.
      if (e.kind === 'restarting') set({ sqlResult: null })
      else if ((e.kind === 'restarted' || e.kind === 'restart_failed') && resultEngine !== session.generation) set({ sqlResult: null })
    })
    const keep = (r: ResultSet): void => {
      resultEngine = session.generation
      set({ sqlResult: r })
    }
    return {
      sqlResult: null,
      sqlRunning: null,
      sqlEnded: null,
      sqlError: null,
      sqlSchema: {},
      sqlViewProblems: [],
      sqlReadNotes: [],
      sqlRunNotes: [],
      sqlWaiting: null,
      loadSqlSchema: async () => {
        const n = ++schemaAsked
        try {
          const vs = await session.ensureViews(get().asOf)
          if (n !== schemaAsked) return
          set({ sqlViewProblems: vs.problems, sqlReadNotes: vs.reads })
          // The table a failed run waited for has its view now (the mirror finished it): the run goes again.
          const waiting = get().sqlWaiting
          if (waiting && !vs.problems.some((p) => p.table === waiting.table)) {
            set({ sqlWaiting: null })
            void get().runSql(waiting.run)
          }
          const cols = await session.query(COLUMNS_SQL)
          const s: Record<string, string[]> = {}
          for (const r of cols) {
            const name = r['table_schema'] === 'main' ? String(r['table_name']) : `${String(r['table_schema'])}.${String(r['table_name'])}`
            if (name.startsWith('__ee')) continue
            ;(s[name] ??= []).push(String(r['column_name']))
          }
          // Only the answer for the "as of" asked last.
          if (n === schemaAsked) set({ sqlSchema: s })
        } catch (e) {
          if (n === schemaAsked) set({ sqlError: { message: errorMessage(e), where: null, at: null } })
        }
      },
      runSql: async ({ text, doc, base }) => {
        if (get().sqlRunning || !text.trim()) return
        const writes = fileWritingStatement(text)
        if (writes) {
          set({ sqlError: { message: writes, where: null, at: null }, sqlEnded: null })
          return
        }
        set({ sqlError: null, sqlEnded: null, sqlWaiting: null, sqlRunNotes: [] })
        get().clearEngineNote()
        cancelAsked = false
        const since = performance.now()
        set({ sqlRunning: { since } })
        // The tables the statement names open first (the rest, for completion, after): it waits for those only.
        let views: ViewsState | null = null
        try {
          views = await session.ensureViews(get().asOf, tablesNamed(text))
          // Cancelled while the tables were opening (work the tables view shares): the statement never starts.
          if (cancelAsked) throw new CancelledError('Cancelled before it started.')
          const r = await session.runQuery(text, SQL_PANE)
          const old = get().sqlResult
          keep(r)
          set({ sqlRunNotes: readNotesFor(text, views.reads) })
          if (old) void old.drop()
          // A statement without rows (SET, CREATE…) has no grid to state its duration: the status line does.
          if (!r.columns.length) set({ sqlEnded: `Done in ${durationText(r.ms)}.` })
          void get().addHistory({ sql: text, rows: r.rowCount, ms: Math.round(performance.now() - since), error: null })
        } catch (e) {
          const pos = e instanceof QueryError ? e.position : null
          let message = errorMessage(e)
          const took = durationText(performance.now() - since)
          // Asked by the user: DuckDB-WASM's words for it ("Interrupted!", or an error of the cut-short stream) are no error.
          const cancelled = cancelAsked || /interrupt/i.test(message)
          // An error leaves no result behind: the old one would read as this query's. A cancelled run leaves the
          // last result as it was (its grid states its own query and duration).
          const old = get().sqlResult
          if (!cancelled && old) {
            set({ sqlResult: null })
            void old.drop()
          }
          set({ sqlEnded: cancelled ? `Cancelled after ${took}.` : `Failed after ${took}.` })
          let where: string | null = null
          let at: number | null = null
          if (pos) {
            // Lines of the editor (a selection starts further down), and DuckDB's excerpt says the same line.
            const place = editorPlace(doc, base, pos.offset)
            at = place.at
            where = `line ${place.line}, column ${place.column}`
            message = message.replace(/^LINE \d+:/m, `LINE ${place.line}:`)
          }
          if (!cancelled) {
            const { sqlViewProblems, mirror } = get()
            // Those of the tables it names, known before the rest have opened.
            const problems = [...(views?.problems ?? []), ...sqlViewProblems.filter((p) => !views?.problems.some((q) => q.table === p.table))]
            const table = waitsForMirror(message, problems, mirror)
            set({
              sqlError: { message: withViewProblem(message, problems, mirror), where, at },
              sqlWaiting: table ? { table, run: { text, doc, base } } : null
            })
          }
          void get().addHistory({
            sql: text,
            rows: null,
            ms: Math.round(performance.now() - since),
            error: cancelled ? `Cancelled after ${took}.` : message.slice(0, 500)
          })
        } finally {
          set({ sqlRunning: null })
        }
      },
      // Cancel interrupts the query; where DuckDB-WASM cannot (a large cross join runs in one call of its
      // worker), the session restarts the engine after a second, and the engine note says so.
      cancelSql: async () => {
        const running = get().sqlRunning
        if (!running || running.cancelAt !== undefined) return
        cancelAsked = true
        set({ sqlRunning: { ...running, cancelAt: performance.now() } })
        await session.cancel(SQL_PANE).catch(() => {})
      },
      sortSql: async (column, desc) => {
        const result = get().sqlResult
        if (!result) return
        cancelAsked = false
        const since = performance.now()
        set({ sqlEnded: null, sqlRunning: { since } })
        try {
          keep(await result.sorted(column, desc))
        } catch (e) {
          if (cancelAsked) set({ sqlEnded: `Sorting cancelled after ${durationText(performance.now() - since)}.` })
          else set({ sqlError: { message: errorMessage(e), where: null, at: null } })
        } finally {
          set({ sqlRunning: null })
        }
      }
    }
  }
