// The SQL pane's shared state: the query session (the one engine and its views, engine/session.ts), what it
// says while it opens the views or restarts, the "as of" hour (it also changes the tables view), a query handed
// over from the tables view, and the history main keeps across restarts (its calls are actions here).
import type { HistoryEntry } from '../../../shared/api-contract'
import type { StateCreator } from 'zustand/vanilla'
import { type CancelOutcome, QuerySession, type SessionEvent, type ViewsProgress } from '../engine/session'
import type { AppState, StoreDeps } from './app-store'

/** The engine's word to the user after a restart (or while one is under way). */
export interface EngineNote {
  readonly kind: 'restarting' | 'restarted' | 'restart_failed'
  readonly text: string
}

export interface QuerySlice {
  /** The one query session of this window: every query of the SQL pane and the tables view runs on it. */
  readonly session: QuerySession
  readonly viewsProgress: ViewsProgress | null
  readonly engineNote: EngineNote | null
  /** Counts restarts of the engine: results materialized before one are gone, views read them again. */
  readonly engineGeneration: number
  readonly asOf: string | null
  /** A query to put in the editor; n changes each time, so the same text can be handed over twice. */
  readonly handedOver: { readonly sql: string; readonly n: number } | null
  readonly history: readonly HistoryEntry[]
  setAsOf(asOf: string | null): void
  openInSql(sql: string): void
  /** Stops the SQL pane's statement (restarting the engine when its interrupt does not land); says how. */
  cancelQuery(): Promise<CancelOutcome>
  clearEngineNote(): void
  loadHistory(): Promise<void>
  addHistory(entry: { sql: string; rows: number | null; ms: number | null; error: string | null }): Promise<void>
}

/** The owner of the SQL pane's work in the session: Cancel stops it, never the tables view's. */
export const SQL_PANE = 'sql-pane'

const noEngine = (): Promise<never> => Promise.reject(new Error('No query engine can start here (DuckDB-WASM needs a browser worker).'))

/** What the pane says for each step of a restart. */
export function engineNoteOf(e: SessionEvent): EngineNote | null {
  const why = (r: 'cancel' | 'invalidated'): string => (r === 'cancel' ? 'to stop the query' : 'after an internal error')
  switch (e.kind) {
    case 'restarting':
      return {
        kind: 'restarting',
        text: `Restarting the query engine ${why(e.reason)}; the tables are opening again. A query you run now starts once they are ready.`
      }
    case 'restarted':
      return { kind: 'restarted', text: `The query engine was restarted ${why(e.reason)}; the tables are ready again.` }
    case 'restart_failed':
      return {
        kind: 'restart_failed',
        text: `The query engine was restarted ${why(e.reason)}, but the tables could not be opened again: ${e.message}. Run a query to try again, or reload the page.`
      }
    default:
      return null
  }
}

export const createQuerySlice =
  (deps: StoreDeps): StateCreator<AppState, [], [], QuerySlice> =>
  (set, get) => ({
    session: new QuerySession({
      source: (asOf) => deps.api.call('engineSource', { asOf }),
      start: deps.startEngine ?? noEngine,
      onEvent: (e) => {
        if (e.kind === 'progress') set({ viewsProgress: e.progress })
        else set((s) => ({ engineNote: engineNoteOf(e), engineGeneration: s.engineGeneration + (e.kind === 'restarting' ? 0 : 1) }))
      }
    }),
    viewsProgress: null,
    engineNote: null,
    engineGeneration: 0,
    asOf: null,
    handedOver: null,
    history: [],
    setAsOf: (asOf) => set({ asOf }),
    openInSql: (sql) => {
      set((s) => ({ handedOver: { sql, n: (s.handedOver?.n ?? 0) + 1 } }))
      get().show('sql')
    },
    cancelQuery: () => get().session.cancel(SQL_PANE),
    clearEngineNote: () => {
      if (get().engineNote?.kind !== 'restarting') set({ engineNote: null })
    },
    // History is a convenience: when main cannot keep it, the pane still runs queries (no error shown).
    loadHistory: async () => {
      await deps.api.call('history', {}).then(
        (h) => set({ history: h.entries }),
        () => {}
      )
    },
    addHistory: async (entry) => {
      await deps.api.call('historyAdd', entry).then(
        (h) => set({ history: h.entries }),
        () => {}
      )
    }
  })
