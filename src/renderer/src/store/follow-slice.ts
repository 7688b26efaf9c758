// Following the open connection for the user: what its desktop notifications tell (saved in main per connection),
// whether this window may show them (asked with a button, never on load), and, each time the timeline loads, what
// changed since the previous load of the same connection, told as desktop notifications (follow/desktop-
// notifications.ts) whose click opens that hour in the inspector. The window's title counts the open errors. Its
// targets (webhooks, commands) live in main, which tells them; the slice adds, removes and tests them, and shows what
// main pushes after each refresh (followDelivered). It never holds a webhook's URL after sending it once.
import type { FollowSettingsView, FollowTargetKind, NotifySetting, TimelineView } from '../../../shared/api/views'
import { errorMessage } from '../../../shared/error-message'
import { incidentsOf } from '../../../shared/incidents'
import type { StateCreator } from 'zustand/vanilla'
import { timeText } from '../common/time'
import { type DesktopNotification, type FollowMemory, notificationsFor, openErrorCount } from '../follow/desktop-notifications'
import type { AppState, StoreDeps } from './app-store'

/** Whether this window may show desktop notifications ('unsupported': no Notification API here). */
export type NotifyPermission = 'granted' | 'denied' | 'default' | 'unsupported'

/** The desktop's notifications as the store uses them: the browser's Notification API (Electron's native ones). */
export interface DesktopNotifier {
  permission(): NotifyPermission
  request(): Promise<NotifyPermission>
  show(n: DesktopNotification, onClick: () => void): void
}

/** A notification as the Follow panel lists it: when, and whether the desktop showed it. */
export interface ToldNotification extends DesktopNotification {
  readonly at: string
  readonly shown: boolean
}

const TOLD_KEPT = 20

export interface FollowSlice {
  readonly follow: FollowSettingsView | null
  readonly notifyPermission: NotifyPermission
  /** Open errors of the open connection: the window's title counts them. */
  readonly openErrors: number
  /** What changed and was told in this window, newest first (the last 20). */
  readonly told: readonly ToldNotification[]
  /** The target whose test is on its way, or null. */
  readonly followTesting: string | null
  /** Why the last target could not be added (a bad URL, no keychain), or null. */
  readonly followTargetError: string | null
  loadFollow(): Promise<void>
  setNotify(notify: NotifySetting): Promise<void>
  /** Adds a webhook (its URL) or a command to the open connection; true when added. */
  addFollowTarget(kind: FollowTargetKind, value: string): Promise<boolean>
  removeFollowTarget(id: string): Promise<void>
  testFollowTarget(id: string): Promise<void>
  /** Main told the targets of a connection something: shown if it is the open one's. */
  applyFollowDelivered(view: FollowSettingsView): void
  askNotifyPermission(): Promise<void>
  /** A timeline of connection `connectionId` loaded: count its open errors, tell what changed since the last one. */
  followIncidents(connectionId: string, timeline: TimelineView): void
}

export const createFollowSlice =
  (deps: StoreDeps): StateCreator<AppState, [], [], FollowSlice> =>
  (set, get) => {
    const { api, notifier } = deps
    // The incidents last seen per connection: the next load is compared with them (none yet: the baseline).
    const seen = new Map<string, FollowMemory>()
    return {
      follow: null,
      followTesting: null,
      followTargetError: null,
      notifyPermission: notifier?.permission() ?? 'unsupported',
      openErrors: 0,
      told: [],
      loadFollow: async () => {
        try {
          set({ follow: await api.call('followSettings', {}), notifyPermission: notifier?.permission() ?? 'unsupported' })
        } catch (e) {
          get().fail(e)
        }
      },
      setNotify: async (notify) => {
        try {
          set({ follow: await api.call('followSetNotify', { notify }) })
        } catch (e) {
          get().fail(e)
        }
      },
      addFollowTarget: async (kind, value) => {
        try {
          set({ follow: await api.call('followTargetAdd', { kind, value }), followTargetError: null })
          return true
        } catch (e) {
          set({ followTargetError: errorMessage(e) })
          return false
        }
      },
      removeFollowTarget: async (id) => {
        try {
          set({ follow: await api.call('followTargetRemove', { id }) })
        } catch (e) {
          get().fail(e)
        }
      },
      testFollowTarget: async (id) => {
        set({ followTesting: id })
        try {
          set({ follow: await api.call('followTargetTest', { id }) })
        } catch (e) {
          get().fail(e)
        } finally {
          set({ followTesting: null })
        }
      },
      applyFollowDelivered: (view) => {
        if (get().follow?.connectionId === view.connectionId) set({ follow: view })
      },
      askNotifyPermission: async () => {
        if (!notifier) return
        set({ notifyPermission: await notifier.request() })
      },
      followIncidents: (connectionId, timeline) => {
        const incidents = incidentsOf(timeline)
        set({ openErrors: openErrorCount(incidents) })
        const follow = get().follow
        const setting = follow?.connectionId === connectionId ? follow.notify : 'errors'
        const zone = get().zone
        const { notifications: news, memory } = notificationsFor(seen.get(connectionId) ?? null, incidents, setting, (t) => timeText(t, zone))
        seen.set(connectionId, memory)
        if (news.length === 0) return
        const may = notifier?.permission() === 'granted'
        const at = new Date().toISOString()
        // A click opens the hour in the inspector, on the deliveries view.
        const open = (n: DesktopNotification): void => {
          if (!n.finding) return
          get().show('deliveries')
          void get().jumpTo(n.finding)
        }
        for (const n of news) if (may) notifier?.show(n, () => open(n))
        set((s) => ({ told: [...news.map((n) => ({ ...n, at, shown: may })), ...s.told].slice(0, TOLD_KEPT) }))
      }
    }
  }
