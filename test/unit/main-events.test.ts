// Progress thinned to one message per interval, the last of a burst sent when its interval ends, and a final
// message never followed by an older one held back (a stale "running" after "done").
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { MainEvents, type PushedEvent } from '../../src/main/main-events'
import type { ExportJob } from '../../src/shared/api/views'

const job = (id: string, bytes: number, state: ExportJob['state'] = 'running'): ExportJob => ({ id, bytes, state }) as unknown as ExportJob

describe('MainEvents', () => {
  beforeEach(() => vi.useFakeTimers())
  afterEach(() => vi.useRealTimers())

  const listen = (events: MainEvents): string[] => {
    const seen: string[] = []
    events.on((e: PushedEvent) => seen.push(`${(e.payload as ExportJob).id}:${(e.payload as ExportJob).bytes}:${(e.payload as ExportJob).state}`))
    return seen
  }

  it('sends the first of a burst at once and its newest when the interval ends, nothing between', () => {
    const events = new MainEvents()
    const seen = listen(events)
    for (let b = 1; b <= 5; b++) events.emitThrottled('exportProgress', job('a', b), 'a', 250)
    expect(seen).toEqual(['a:1:running'])
    vi.advanceTimersByTime(249)
    expect(seen).toEqual(['a:1:running'])
    vi.advanceTimersByTime(1)
    expect(seen).toEqual(['a:1:running', 'a:5:running'])
    // Nothing more held back: no repeat.
    vi.advanceTimersByTime(1000)
    expect(seen).toHaveLength(2)
  })

  it('drops a held-back message when a final one of the same key goes first; other keys keep theirs', () => {
    const events = new MainEvents()
    const seen = listen(events)
    events.emitThrottled('exportProgress', job('a', 1), 'a', 250)
    events.emitThrottled('exportProgress', job('b', 1), 'b', 250)
    events.emitThrottled('exportProgress', job('a', 2), 'a', 250)
    events.emitThrottled('exportProgress', job('b', 2), 'b', 250)
    events.emit('exportProgress', job('a', 3, 'done'), 'a')
    vi.advanceTimersByTime(1000)
    expect(seen).toEqual(['a:1:running', 'b:1:running', 'a:3:done', 'b:2:running'])
  })

  it("drops a refresh's progress held back when the refresh's end is sent: nothing says running after done", () => {
    const events = new MainEvents()
    const seen: string[] = []
    events.on((e) => seen.push(`${e.name}:${(e.payload as { running: boolean }).running}`))
    const status = (running: boolean) => ({ running }) as never
    events.emitThrottled('refreshProgress', status(true))
    events.emitThrottled('refreshProgress', status(true))
    events.emit('refreshDone', status(false))
    vi.advanceTimersByTime(1000)
    expect(seen).toEqual(['refreshProgress:true', 'refreshDone:false'])
  })
})
