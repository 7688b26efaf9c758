// One way to say how long something took or how old it is, for every message a person reads (core, CLI, UI):
// "0.08 s", "1.5 s", "41 min", "2 h 5 min", "6 days 16 h" — never "9650 minutes".

const MINUTE = 60_000

/** A duration in the largest units that read well: seconds below a minute, then minutes, hours, days. */
export function durationText(ms: number): string {
  const d = Math.max(0, ms)
  if (d < 1000) return `${Number((d / 1000).toFixed(2))} s`
  if (d < 10_000) return `${Number((d / 1000).toFixed(1))} s`
  if (d < MINUTE) return `${Math.floor(d / 1000)} s`
  const minutes = Math.round(d / MINUTE)
  if (minutes < 60) return `${minutes} min`
  const hours = Math.floor(minutes / 60)
  if (hours < 24) return minutes % 60 ? `${hours} h ${minutes % 60} min` : `${hours} h`
  const days = Math.floor(hours / 24)
  return `${days} ${days === 1 ? 'day' : 'days'}${hours % 24 ? ` ${hours % 24} h` : ''}`
}
