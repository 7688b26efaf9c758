// The messages main pushes to the renderer beside the calls, and the channel names of calls and events over IPC
// (the preload turns each into a method; nothing else sees a channel name).
import type { ApiName } from './calls'
import type { ExportJob, MirrorStatusView, RefreshStatus, RestoreStatusView } from './views'

/** The IPC channel of a call. */
export const channelOf = (name: ApiName): string => `export-explorer:${name}`

/** Messages main pushes to the renderer, beside the calls: each name and its payload. */
export interface ApiEvents {
  /** A refresh started or listed more folders. */
  refreshProgress: RefreshStatus
  /** A refresh ended (done, failed or cancelled): the status says which, and its generation. */
  refreshDone: RefreshStatus
  /** An export's job changed (rows so far, done, failed, cancelled). */
  exportProgress: ExportJob
  /** The connection's bulk restore changed (keys requested, checked, done; the listing brought up to date). */
  restoreProgress: RestoreStatusView
  /** The local mirror's build moved on, ended, stopped, or the mirror was cleared. */
  mirrorProgress: MirrorStatusView
}

export type EventName = keyof ApiEvents
export type EventOf<E extends EventName> = ApiEvents[E]
export const EVENT_NAMES: readonly EventName[] = ['refreshProgress', 'refreshDone', 'exportProgress', 'restoreProgress', 'mirrorProgress']

/** The preload's subscription method of an event: refreshProgress → onRefreshProgress. */
export const subscriptionOf = (name: EventName): `on${Capitalize<EventName>}` =>
  `on${name.charAt(0).toUpperCase()}${name.slice(1)}` as `on${Capitalize<EventName>}`

/** The IPC channel of a pushed event (main → renderer). */
export const eventChannelOf = (name: EventName): string => `export-explorer:event:${name}`
