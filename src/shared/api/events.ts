// The messages main pushes to the renderer beside the calls, and the channel names of calls and events over IPC
// (the preload turns each into a method; nothing else sees a channel name).
import * as v from 'valibot'
import type { ApiName } from './calls'
import { ExportJobSchema, FollowSettingsViewSchema, MirrorStatusViewSchema, RefreshStatusSchema, RestoreStatusViewSchema } from './views'

/** The IPC channel of a call. */
export const channelOf = (name: ApiName): string => `export-explorer:${name}`

/** Messages main pushes to the renderer, beside the calls: each name and its payload's schema. */
export const EVENTS = {
  /** A refresh started or listed more folders. */
  refreshProgress: RefreshStatusSchema,
  /** A refresh ended (done, failed or cancelled): the status says which, and its generation. */
  refreshDone: RefreshStatusSchema,
  /** An export's job changed (rows so far, done, failed, cancelled). */
  exportProgress: ExportJobSchema,
  /** The connection's bulk restore changed (keys requested, checked, done; the listing brought up to date). */
  restoreProgress: RestoreStatusViewSchema,
  /** The local mirror's build moved on, ended, stopped, or the mirror was cleared. */
  mirrorProgress: MirrorStatusViewSchema,
  /** The open connection's follow targets were told something (after a refresh): their deliveries and problems. */
  followDelivered: FollowSettingsViewSchema
} as const satisfies { readonly [name: string]: v.GenericSchema }

export type EventName = keyof typeof EVENTS
export type EventOf<E extends EventName> = v.InferOutput<(typeof EVENTS)[E]>
/** Each event's payload, by name. */
export type ApiEvents = { readonly [E in EventName]: EventOf<E> }
export const EVENT_NAMES = Object.keys(EVENTS) as readonly EventName[]

/** The preload's subscription method of an event: refreshProgress → onRefreshProgress. */
export const subscriptionOf = (name: EventName): `on${Capitalize<EventName>}` =>
  `on${name.charAt(0).toUpperCase()}${name.slice(1)}` as `on${Capitalize<EventName>}`

/** The IPC channel of a pushed event (main → renderer). */
export const eventChannelOf = (name: EventName): string => `export-explorer:event:${name}`
