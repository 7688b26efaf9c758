// The SQL pane's shared state: the "as of" hour (it also changes the tables view), a query handed over from
// the tables view, and the history main keeps across restarts (its calls are actions here).
import type { HistoryEntry } from '../../../shared/api-contract'
import type { StateCreator } from 'zustand/vanilla'
import type { AppState, StoreDeps } from './app-store'

export interface QuerySlice {
  readonly asOf: string | null
  /** A query to put in the editor; n changes each time, so the same text can be handed over twice. */
  readonly handedOver: { readonly sql: string; readonly n: number } | null
  readonly history: readonly HistoryEntry[]
  setAsOf(asOf: string | null): void
  openInSql(sql: string): void
  loadHistory(): Promise<void>
  addHistory(entry: { sql: string; rows: number | null; ms: number | null; error: string | null }): Promise<void>
}

export const createQuerySlice =
  (deps: StoreDeps): StateCreator<AppState, [], [], QuerySlice> =>
  (set, get) => ({
    asOf: null,
    handedOver: null,
    history: [],
    setAsOf: (asOf) => set({ asOf }),
    openInSql: (sql) => {
      set((s) => ({ handedOver: { sql, n: (s.handedOver?.n ?? 0) + 1 } }))
      get().show('sql')
    },
    // History is a convenience: when main cannot keep it, the pane still runs queries (no error shown).
    loadHistory: async () => {
      await deps.api.call('history', {}).then((h) => set({ history: h.entries }), () => {})
    },
    addHistory: async (entry) => {
      await deps.api.call('historyAdd', entry).then((h) => set({ history: h.entries }), () => {})
    }
  })
