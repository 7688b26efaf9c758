// What main pushes to the renderer (the contract's ApiEvents): listeners per transport (Electron's
// webContents.send, the web host's Server-Sent Events), and progress thinned to one message per interval so a
// listing of 90,000 objects does not send 90,000 messages. The last message of a burst is sent at the end of its
// interval: progress that stalls (a download held by a slow link) still shows where it stopped.
import type { EventName, EventOf } from '../shared/api/events'

export type PushedEvent = { [E in EventName]: { readonly name: E; readonly payload: EventOf<E> } }[EventName]

/** A final event that ends another kind's progress: sending it drops that kind's message held back, which would
 * otherwise arrive after it (a refresh "running" after its "done", and the page waiting for an end it was told). */
const ENDS: Partial<Record<EventName, EventName>> = { refreshDone: 'refreshProgress' }

export class MainEvents {
  private readonly listeners = new Set<(e: PushedEvent) => void>()
  private readonly lastSent = new Map<string, number>()
  // A throttled message held back, sent when its interval ends unless a newer or final one goes first.
  private readonly trailing = new Map<string, { timer: ReturnType<typeof setTimeout>; send: () => void }>()

  /** Listens to every event; returns the unsubscribe. */
  on(listener: (e: PushedEvent) => void): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  /** Sends at once; a throttled message of the same kind and key still held back is dropped (this one is newer). */
  emit<E extends EventName>(name: E, payload: EventOf<E>, key = ''): void {
    this.dropTrailing(`${name}|${key}`)
    const ended = ENDS[name]
    if (ended) this.dropTrailing(`${ended}|${key}`)
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

  /**
   * Emits unless the same kind (and key) was sent less than `ms` ago; then the newest such payload is sent when the
   * interval ends. A final state is sent with emit (and the same key), which drops the one held back.
   */
  emitThrottled<E extends EventName>(name: E, payload: EventOf<E>, key = '', ms = 150, now = Date.now()): void {
    const k = `${name}|${key}`
    const wait = (this.lastSent.get(k) ?? -Infinity) + ms - now
    const send = (): void => {
      this.lastSent.set(k, Date.now())
      this.emit(name, payload, key)
    }
    if (wait <= 0) {
      this.lastSent.set(k, now)
      this.emit(name, payload, key)
      return
    }
    const held = this.trailing.get(k)
    if (held) {
      held.send = send
      return
    }
    const timer = setTimeout(() => this.trailing.get(k)?.send(), wait)
    // A message held back never keeps the process alive.
    timer.unref?.()
    this.trailing.set(k, { timer, send })
  }

  private dropTrailing(k: string): void {
    const held = this.trailing.get(k)
    if (!held) return
    clearTimeout(held.timer)
    this.trailing.delete(k)
  }
}
