// The events main pushes, each into the slice that owns it: one handler per event (the map's type makes a new
// event without a handler a compile error), subscribed once by the app and unsubscribed as one. At the start it
// asks whether main was already refreshing before the page listened (the mirror panel loads its own status).
import type { EventName, EventOf } from '../../../shared/api/events'
import type { AppState } from './app-store'
import type { ApiPort } from './api-port'

type Handlers = { readonly [E in EventName]: (state: AppState, payload: EventOf<E>) => void }

const HANDLERS: Handlers = {
  refreshProgress: (s, status) => s.applyRefreshStatus(status),
  refreshDone: (s, status) => s.applyRefreshStatus(status),
  exportProgress: (s, job) => s.applyExportJob(job),
  restoreProgress: (s, status) => s.applyRestoreStatus(status),
  mirrorProgress: (s, status) => s.applyMirrorStatus(status),
  followDelivered: (s, view) => s.applyFollowDelivered(view)
}

/** Subscribes every event; returns the one unsubscribe. */
export function followEvents(api: ApiPort, get: () => AppState): () => void {
  const subscribe = <E extends EventName>(name: E): (() => void) => api.subscribe(name, (payload) => HANDLERS[name](get(), payload))
  const offs = (Object.keys(HANDLERS) as EventName[]).map((name) => subscribe(name))
  void api.call('refreshStatus', {}).then((st) => get().applyRefreshStatus(st), get().fail)
  return () => offs.forEach((off) => off())
}
