// Binary search over an ascending list of numbers: where a value would go. One copy for the timeline's
// history lookups and the demo generator's counts.

/** The index of the first element not less than `t` (the list's length when there is none). */
export function lowerBound(list: readonly number[], t: number): number {
  let lo = 0
  let hi = list.length
  while (lo < hi) {
    const mid = (lo + hi) >> 1
    if ((list[mid] as number) < t) lo = mid + 1
    else hi = mid
  }
  return lo
}

/** The index of the first element greater than `t` (the list's length when there is none). */
export function upperBound(list: readonly number[], t: number): number {
  let lo = 0
  let hi = list.length
  while (lo < hi) {
    const mid = (lo + hi) >> 1
    if ((list[mid] as number) <= t) lo = mid + 1
    else hi = mid
  }
  return lo
}
