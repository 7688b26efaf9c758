// The renderer's only door to main: one named method per call of the typed contract (src/shared/api/calls.ts),
// each invoking its own IPC channel; never ipcRenderer itself. Main validates every argument and checks the
// sender. Menu commands come back through one listener limited to known commands; each event main pushes
// (src/shared/api/events.ts ApiEvents) has its own subscription, onRefreshProgress and so on, never a channel name.
import { contextBridge, ipcRenderer } from 'electron'
import { API_NAMES, type ApiName } from '../shared/api/calls'
import { EVENT_NAMES, type EventName, channelOf, eventChannelOf, subscriptionOf } from '../shared/api/events'
import { APP_NAME } from '../shared/app-info'
import { MENU_CHANNEL, MENU_COMMANDS, type MenuCommand } from '../shared/menu-commands'

const calls = Object.fromEntries(API_NAMES.map((name: ApiName) => [name, (args: unknown) => ipcRenderer.invoke(channelOf(name), args)]))

// The listener gets the payload only (never the IPC event, which would reach ipcRenderer); returns the unsubscribe.
const subscribe =
  (name: EventName) =>
  (listener: (payload: unknown) => void): (() => void) => {
    const channel = eventChannelOf(name)
    const handler = (_event: unknown, payload: unknown): void => listener(payload)
    ipcRenderer.on(channel, handler)
    return () => void ipcRenderer.removeListener(channel, handler)
  }
const subscriptions = Object.fromEntries(EVENT_NAMES.map((name) => [subscriptionOf(name), subscribe(name)]))

contextBridge.exposeInMainWorld('exportExplorer', {
  appName: APP_NAME,
  ...calls,
  ...subscriptions,
  onMenu(listener: (command: MenuCommand) => void): void {
    ipcRenderer.on(MENU_CHANNEL, (_event, command: unknown) => {
      if (typeof command === 'string' && (MENU_COMMANDS as readonly string[]).includes(command)) listener(command as MenuCommand)
    })
  }
})
