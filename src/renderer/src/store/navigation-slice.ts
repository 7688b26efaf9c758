// Which view is shown (deliveries, tables, SQL) and which have been opened once (they stay mounted after).
import type { StateCreator } from 'zustand/vanilla'
import type { AppState } from './app-store'

export type ViewTab = 'deliveries' | 'tables' | 'sql'

export interface NavigationSlice {
  readonly tab: ViewTab
  readonly visited: Readonly<Record<ViewTab, boolean>>
  show(tab: ViewTab): void
}

export const createNavigationSlice: StateCreator<AppState, [], [], NavigationSlice> = (set) => ({
  tab: 'deliveries',
  visited: { deliveries: true, tables: false, sql: false },
  show: (tab) => set((s) => ({ tab, visited: { ...s.visited, [tab]: true } }))
})
