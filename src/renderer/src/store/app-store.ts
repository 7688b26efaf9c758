// The renderer's one store (zustand): slices for the connection and its refresh, the deliveries view, the
// tables view, the SQL pane, exports, navigation, the bulk restore of archived history and the local mirror. Actions own every call to main; components select
// state and call actions. Built on zustand/vanilla so the slices run and are tested in Node.
import { type StoreApi, createStore } from 'zustand/vanilla'
import type { BrowserEngine } from '../engine/browser-engine'
import type { ApiPort } from './api-port'
import { type ConnectionSlice, createConnectionSlice } from './connection-slice'
import { type DeliveriesSlice, createDeliveriesSlice } from './deliveries-slice'
import { type ExportSlice, createExportSlice } from './export-slice'
import { type MirrorSlice, createMirrorSlice } from './mirror-slice'
import { type NavigationSlice, createNavigationSlice } from './navigation-slice'
import { type QuerySlice, createQuerySlice } from './query-slice'
import { type RestoreSlice, createRestoreSlice } from './restore-slice'
import { type TablesSlice, createTablesSlice } from './tables-slice'
import { followEvents } from './follow-events'

export type AppState = ConnectionSlice &
  DeliveriesSlice &
  TablesSlice &
  QuerySlice &
  ExportSlice &
  NavigationSlice &
  RestoreSlice &
  MirrorSlice & {
    /** Follows every event main pushes (src/store/follow-events.ts); returns the one unsubscribe. The app calls it once. */
    followEvents(): () => void
  }

export interface StoreDeps {
  readonly api: ApiPort
  /** Starts the query pane's engine (DuckDB-WASM in a worker); absent in Node, where no worker runs it. */
  readonly startEngine?: (urlOf: (key: string) => string) => Promise<BrowserEngine>
}

export type AppStore = StoreApi<AppState>

export function createAppStore(deps: StoreDeps): AppStore {
  return createStore<AppState>()((...a) => ({
    ...createConnectionSlice(deps)(...a),
    ...createDeliveriesSlice(deps)(...a),
    ...createTablesSlice(...a),
    ...createQuerySlice(deps)(...a),
    ...createExportSlice(deps)(...a),
    ...createNavigationSlice(...a),
    ...createRestoreSlice(deps)(...a),
    ...createMirrorSlice(deps)(...a),
    followEvents: () => followEvents(deps.api, a[1])
  }))
}
