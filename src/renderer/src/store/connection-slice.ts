// The open connection and its refresh: the saved connections, opening one, the connection manager's calls
// (test, save, delete, AWS profiles), and the refresh status (progress, cancel, a finished refresh reloads
// the deliveries). Every call to main about connections and refresh is an action here.
import type { ConnectionInput } from '../../../shared/api/calls'
import type { ConnectionVerdictView, ConnectionsView, RefreshStatus } from '../../../shared/api/views'
import type { ConnectionConfig } from '../../../shared/connection-config'
import type { StateCreator } from 'zustand/vanilla'
import type { AppState, StoreDeps } from './app-store'
import { errorMessage } from '../../../shared/error-message'

export interface ConnectionSlice {
  readonly connections: ConnectionsView | null
  readonly managerOpen: boolean
  readonly refreshStatus: RefreshStatus | null
  /** The last error of a call the user started (shown above the views). */
  readonly error: string | null
  /** The refresh generation whose data is shown; a finished refresh with another one reloads. */
  readonly shownGeneration: number
  loadConnections(): Promise<void>
  openConnection(id: string): Promise<void>
  setManagerOpen(open: boolean): void
  refresh(full: boolean): Promise<void>
  cancelRefresh(): Promise<void>
  /** A refresh status from main (an answer or a pushed event): a finished refresh reloads what is shown. */
  applyRefreshStatus(status: RefreshStatus): void
  testConnection(input: ConnectionInput): Promise<ConnectionVerdictView>
  saveAndOpen(input: ConnectionInput): Promise<void>
  deleteConnection(id: string): Promise<void>
  getConnection(id: string): Promise<ConnectionConfig>
  awsProfiles(): Promise<{ profiles: readonly string[]; error: string | null }>
  /** Follows main's refresh (its pushed progress and end) until the returned function is called. */
  fail(e: unknown): void
}

export const createConnectionSlice =
  (deps: StoreDeps): StateCreator<AppState, [], [], ConnectionSlice> =>
  (set, get) => {
    const { api } = deps
    /** After another connection opened: nothing of the old one stays on screen; its first refresh is running. */
    const opened = (v: ConnectionsView): void => {
      set((s) => ({
        connections: v,
        managerOpen: false,
        shownGeneration: -1,
        refreshStatus: s.refreshStatus ? { ...s.refreshStatus, running: true } : s.refreshStatus
      }))
      get().clearDeliveries()
      get().restoreAsOf(v.active)
      get().filtersFollowConnection()
      void api.call('refreshStatus', {}).then((st) => get().applyRefreshStatus(st), get().fail)
    }
    return {
      connections: null,
      managerOpen: false,
      refreshStatus: null,
      error: null,
      shownGeneration: -1,
      fail: (e) => set({ error: errorMessage(e) }),
      loadConnections: async () => {
        try {
          set({ connections: await api.call('connections', {}) })
          // The connection main has open (the demo's, or the last one) is the one the filters shown belong to.
          get().filtersFollowConnection()
        } catch (e) {
          get().fail(e)
        }
      },
      // Throws: the header shows the error above the views, the connection manager in itself.
      openConnection: async (id) => opened(await api.call('connectionOpen', { id })),
      setManagerOpen: (open) => set({ managerOpen: open }),
      refresh: async (full) => {
        try {
          get().applyRefreshStatus(await api.call('refresh', { full }))
        } catch (e) {
          get().fail(e)
        }
      },
      cancelRefresh: async () => {
        try {
          get().applyRefreshStatus(await api.call('refreshCancel', {}))
        } catch (e) {
          get().fail(e)
        }
      },
      applyRefreshStatus: (status) => {
        set({ refreshStatus: status })
        if (!status.running && status.generation !== get().shownGeneration) {
          set({ shownGeneration: status.generation })
          void get().reloadDeliveries()
        }
      },
      testConnection: (input) => api.call('connectionTest', input),
      saveAndOpen: async (input) => {
        const { id } = await api.call('connectionSave', input)
        opened(await api.call('connectionOpen', { id }))
      },
      deleteConnection: async (id) => {
        set({ connections: await api.call('connectionDelete', { id }) })
        get().filtersFollowConnection()
      },
      getConnection: (id) => api.call('connectionGet', { id }),
      awsProfiles: () => api.call('awsProfiles', {})
    }
  }
