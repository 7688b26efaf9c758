// whenQuiet (renderer/common/when-quiet.ts): work ahead of need waits until the user has left the window alone. On
// Node's EventTarget with vitest's fake timers (the clock moved by hand, never waited on).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { INPUT_EVENTS, whenQuiet } from '../../src/renderer/src/common/when-quiet'

beforeEach(() => {
  vi.useFakeTimers()
})
afterEach(() => {
  vi.useRealTimers()
})

describe('whenQuiet', () => {
  it('runs once the window has heard no input for the quiet time, counted again from each input', () => {
    const target = new EventTarget()
    const fn = vi.fn()
    whenQuiet(target, 2_000, fn)
    vi.advanceTimersByTime(1_999)
    expect(fn).not.toHaveBeenCalled()
    for (const e of INPUT_EVENTS) {
      target.dispatchEvent(new Event(e))
      vi.advanceTimersByTime(1_500)
    }
    expect(fn).not.toHaveBeenCalled()
    vi.advanceTimersByTime(500)
    expect(fn).toHaveBeenCalledTimes(1)
    // Once only: later input and time call it no more.
    target.dispatchEvent(new Event('keydown'))
    vi.advanceTimersByTime(10_000)
    expect(fn).toHaveBeenCalledTimes(1)
  })

  it('never runs once cancelled, and other events do not count as input', () => {
    const target = new EventTarget()
    const cancelled = vi.fn()
    whenQuiet(target, 2_000, cancelled)()
    // Input after the cancel arms nothing either (its listeners are gone).
    target.dispatchEvent(new Event('pointerdown'))
    vi.advanceTimersByTime(10_000)
    expect(cancelled).not.toHaveBeenCalled()
    const fn = vi.fn()
    whenQuiet(target, 2_000, fn)
    vi.advanceTimersByTime(1_000)
    target.dispatchEvent(new Event('message'))
    vi.advanceTimersByTime(1_000)
    expect(fn).toHaveBeenCalledTimes(1)
  })
})
