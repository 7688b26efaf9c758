// One way to say how long something took, everywhere in the renderer: "0.08 s", "4.2 s", "42 s", "1 min 21 s",
// "2 h 5 min". Precision shrinks as durations grow: hundredths matter for a quick query, not for a long one.

/** A readable duration of `ms` milliseconds (negative or non-finite reads as 0 s). */
export function formatDuration(ms: number): string {
  const t = Number.isFinite(ms) && ms > 0 ? ms : 0
  if (t < 9_950) return `${(t / 1000).toFixed(t < 995 ? 2 : 1)} s`
  const s = Math.round(t / 1000)
  if (s < 60) return `${s} s`
  if (s < 3600) return s % 60 ? `${Math.floor(s / 60)} min ${s % 60} s` : `${s / 60} min`
  const m = Math.round(s / 60)
  return m % 60 ? `${Math.floor(m / 60)} h ${m % 60} min` : `${m / 60} h`
}

/** "1 row", "2 rows", "1,234 rows": a count with its noun, singular for exactly one. */
export function countOf(n: number, noun: string, plural = `${noun}s`): string {
  return `${n.toLocaleString('en')} ${n === 1 ? noun : plural}`
}
