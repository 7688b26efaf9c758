// What main pushes to the renderer (the contract's ApiEvents): listeners per transport (Electron's
// webContents.send, the web host's Server-Sent Events), and progress thinned to one message per interval so a
// listing of 90,000 objects does not send 90,000 messages.
import type { EventName, EventOf } from '../shared/api/events'

export type PushedEvent = { [E in EventName]: { readonly name: E; readonly payload: EventOf<E> } }[EventName]

export class MainEvents {
  private readonly listeners = new Set<(e: PushedEvent) => void>()
  private readonly lastSent = new Map<string, number>()

  /** Listens to every event; returns the unsubscribe. */
  on(listener: (e: PushedEvent) => void): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  emit<E extends EventName>(name: E, payload: EventOf<E>): void {
    const e = { name, payload } as PushedEvent
    for (const l of this.listeners) {
      // A transport that fails (a closed window, a dropped stream) must not stop the refresh or the export.
      try {
        l(e)
      } catch {
        this.listeners.delete(l)
      }
    }
  }

  /** Emits unless the same kind (and key) was sent less than `ms` ago; a final state is sent with emit. */
  emitThrottled<E extends EventName>(name: E, payload: EventOf<E>, key = '', ms = 150, now = Date.now()): void {
    const k = `${name}|${key}`
    if (now - (this.lastSent.get(k) ?? -Infinity) < ms) return
    this.lastSent.set(k, now)
    this.emit(name, payload)
  }
}
