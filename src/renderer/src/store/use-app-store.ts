// The renderer's store instance on the real transport, and the hook components select from.
import { useStore } from 'zustand'
import { call, subscribe } from '../common/api-transport'
import { startBrowserEngine } from '../engine/browser-engine'
import { QuerySession } from '../engine/session'
import { browserNotifier } from '../follow/browser-notifier'
import { type AppState, createAppStore } from './app-store'

const api = { call, subscribe }
export const appStore = createAppStore({
  api,
  session: new QuerySession({ source: (asOf) => api.call('engineSource', { asOf }), start: startBrowserEngine }),
  notifier: browserNotifier()
})

export function useApp<T>(selector: (s: AppState) => T): T {
  return useStore(appStore, selector)
}
