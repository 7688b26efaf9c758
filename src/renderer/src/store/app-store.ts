// The renderer's one store (zustand): slices for the connection and its refresh, the deliveries view, the
// tables view and its queries, the SQL pane and its runs, exports, navigation, the bulk restore of archived
// history, the local mirror, and following the connection (its notifications). Actions own every call to main and
// all engine work (the query session and the notifier are dependencies, like main's API); components select state
// and call actions. Built on zustand/vanilla so the slices run and are tested in Node.
import { type StoreApi, createStore } from 'zustand/vanilla'
import { QuerySession } from '../engine/session'
import type { ApiPort } from './api-port'
import type { QueryPort } from './query-port'
import { type ConnectionSlice, createConnectionSlice } from './connection-slice'
import { type DeliveriesSlice, createDeliveriesSlice } from './deliveries-slice'
import { type ExportSlice, createExportSlice } from './export-slice'
import { type DesktopNotifier, type FollowSlice, createFollowSlice } from './follow-slice'
import { type MirrorSlice, createMirrorSlice } from './mirror-slice'
import { type NavigationSlice, createNavigationSlice } from './navigation-slice'
import { type QuerySlice, createQuerySlice } from './query-slice'
import { type RestoreSlice, createRestoreSlice } from './restore-slice'
import { type SqlSlice, createSqlSlice } from './sql-slice'
import { type TableQuerySlice, createTableQuerySlice } from './table-query-slice'
import { type TablesSlice, createTablesSlice } from './tables-slice'
import { followEvents } from './follow-events'

export type AppState = ConnectionSlice &
  DeliveriesSlice &
  TablesSlice &
  TableQuerySlice &
  QuerySlice &
  SqlSlice &
  ExportSlice &
  NavigationSlice &
  RestoreSlice &
  MirrorSlice &
  FollowSlice & {
    /** Follows every event main pushes (src/store/follow-events.ts); returns the one unsubscribe. The app calls it once. */
    followEvents(): () => void
  }

export interface StoreDeps {
  readonly api: ApiPort
  /** The window's query session (DuckDB-WASM in a worker); without one, a session whose engine cannot start. */
  readonly session?: QueryPort
  /** The desktop's notifications (the browser's Notification API); without one, none are shown. */
  readonly notifier?: DesktopNotifier
}

/** What the slices that query get: the store's dependencies with the session resolved. */
export interface SliceDeps extends StoreDeps {
  readonly session: QueryPort
}

const noEngine = (): Promise<never> => Promise.reject(new Error('No query engine can start here (DuckDB-WASM needs a browser worker).'))

export type AppStore = StoreApi<AppState>

export function createAppStore(given: StoreDeps): AppStore {
  const deps: SliceDeps = {
    ...given,
    session: given.session ?? new QuerySession({ source: (asOf) => given.api.call('engineSource', { asOf }), start: noEngine })
  }
  return createStore<AppState>()((...a) => ({
    ...createConnectionSlice(deps)(...a),
    ...createDeliveriesSlice(deps)(...a),
    ...createTablesSlice(...a),
    ...createTableQuerySlice(deps)(...a),
    ...createQuerySlice(deps)(...a),
    ...createSqlSlice(deps)(...a),
    ...createExportSlice(deps)(...a),
    ...createNavigationSlice(...a),
    ...createRestoreSlice(deps)(...a),
    ...createMirrorSlice(deps)(...a),
    ...createFollowSlice(deps)(...a),
    followEvents: () => followEvents(deps.api, a[1])
  }))
}
