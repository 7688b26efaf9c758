// The renderer's store instance on the real transport, and the hook components select from.
import { useStore } from 'zustand'
import { call, subscribe } from '../common/api-transport'
import { startBrowserEngine } from '../engine/browser-engine'
import { type AppState, createAppStore } from './app-store'

export const appStore = createAppStore({ api: { call, subscribe }, startEngine: startBrowserEngine })

export function useApp<T>(selector: (s: AppState) => T): T {
  return useStore(appStore, selector)
}
