// Work ahead of need that must not take the CPU from what the user is doing (the query engine's start, ~1.4 s of
// compiling DuckDB-WASM, slowed the drawing of a year's timeline: docs/benchmarks.md, "year"): run once the user has
// left the window alone for a while.

/** The events that say the user is doing something in the window. */
export const INPUT_EVENTS = ['keydown', 'pointerdown', 'pointermove', 'wheel', 'input'] as const

/**
 * Calls `fn` once, when `target` has heard none of INPUT_EVENTS for `quietMs` (counted from now, and again from each
 * one). Returns the cancel: `fn` is then never called.
 */
export function whenQuiet(target: EventTarget, quietMs: number, fn: () => void): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined
  const stop = (): void => {
    clearTimeout(timer)
    for (const e of INPUT_EVENTS) target.removeEventListener(e, arm, { capture: true })
  }
  function arm(): void {
    clearTimeout(timer)
    timer = setTimeout(() => {
      stop()
      fn()
    }, quietMs)
  }
  for (const e of INPUT_EVENTS) target.addEventListener(e, arm, { capture: true, passive: true })
  arm()
  return stop
}
