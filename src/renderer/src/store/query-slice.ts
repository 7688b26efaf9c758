// What the SQL pane and the tables view share of the query session (a store dependency, query-port.ts): what it
// says while it opens the views or restarts, the "as of" hour (it also changes the tables view), a query handed
// over from the tables view, and the history main keeps across restarts (its calls are actions here).
import type { HistoryEntry } from '../../../shared/api/views'
import type { StateCreator } from 'zustand/vanilla'
import type { SessionEvent, ViewsProgress } from '../engine/session'
import type { AppState, SliceDeps } from './app-store'

/** The engine's word to the user after a restart (or while one is under way). */
export interface EngineNote {
  readonly kind: 'restarting' | 'restarted' | 'restart_failed'
  readonly text: string
}

export interface QuerySlice {
  readonly viewsProgress: ViewsProgress | null
  readonly engineNote: EngineNote | null
  /** Counts restarts of the engine: results materialized before one are gone, views read them again. */
  readonly engineGeneration: number
  /** The open connection's "as of" (null: latest). One state per connection: it never carries to another. */
  readonly asOf: string | null
  readonly asOfByConnection: Readonly<Record<string, string>>
  /** A query to put in the editor; n changes each time, so the same text can be handed over twice. */
  readonly handedOver: { readonly sql: string; readonly n: number } | null
  readonly history: readonly HistoryEntry[]
  setAsOf(asOf: string | null): void
  /** After another connection opened: its own "as of" again (latest when it never had one). */
  restoreAsOf(connectionId: string | null): void
  openInSql(sql: string): void
  clearEngineNote(): void
  /** Starts and warms up the query engine ahead of the first query (the app calls it once the first overview is shown:
   * at once on Tables and SQL, on Deliveries once the user pauses): the first answer does not wait for DuckDB-WASM. */
  warmQueryEngine(): void
  loadHistory(): Promise<void>
  /** Adds a run to main's history, with the "as of" it read (main adds the connection). */
  addHistory(entry: { sql: string; rows: number | null; ms: number | null; error: string | null }): Promise<void>
}

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
  (deps: SliceDeps): StateCreator<AppState, [], [], QuerySlice> =>
  (set, get) => {
    deps.session.subscribe((e) => {
      if (e.kind === 'progress') set({ viewsProgress: e.progress })
      else set((s) => ({ engineNote: engineNoteOf(e), engineGeneration: s.engineGeneration + (e.kind === 'restarting' ? 0 : 1) }))
    })
    return {
      viewsProgress: null,
      engineNote: null,
      engineGeneration: 0,
      asOf: null,
      asOfByConnection: {},
      handedOver: null,
      history: [],
      setAsOf: (asOf) => {
        const id = get().connections?.active ?? ''
        const { [id]: _old, ...others } = get().asOfByConnection
        set({ asOf, asOfByConnection: asOf === null ? others : { ...others, [id]: asOf } })
      },
      restoreAsOf: (connectionId) => set((s) => ({ asOf: connectionId === null ? null : (s.asOfByConnection[connectionId] ?? null) })),
      openInSql: (sql) => {
        set((s) => ({ handedOver: { sql, n: (s.handedOver?.n ?? 0) + 1 } }))
        get().show('sql')
      },
      clearEngineNote: () => {
        if (get().engineNote?.kind !== 'restarting') set({ engineNote: null })
      },
      warmQueryEngine: () => void deps.session.warmUp(),
      // History is a convenience: when main cannot keep it, the pane still runs queries (no error shown).
      loadHistory: async () => {
        await deps.api.call('history', {}).then(
          (h) => set({ history: h.entries }),
          () => {}
        )
      },
      addHistory: async (entry) => {
        await deps.api.call('historyAdd', { ...entry, asOf: get().asOf }).then(
          (h) => set({ history: h.entries }),
          () => {}
        )
      }
    }
  }
