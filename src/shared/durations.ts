// One way to say how long something took or how old it is, for every message a person reads (core, CLI, UI):
// "0.08 s", "1.5 s", "1 min 21 s", "41 min", "2 h 5 min", "6 days 16 h" — never "9650 minutes".

const MINUTE = 60_000

/** A duration in the largest units that read well: seconds below a minute, then minutes, hours, days. */
export function durationText(ms: number): string {
  const d = Number.isFinite(ms) && ms > 0 ? ms : 0
  if (d < 995) return `${Number((d / 1000).toFixed(2))} s`
  if (d < 9_950) return `${Number((d / 1000).toFixed(1))} s`
  const seconds = Math.round(d / 1000)
  if (seconds < 60) return `${seconds} s`
  // Under ten minutes the seconds still say something (a query's time); beyond, minutes are enough.
  if (seconds < 600) return seconds % 60 ? `${Math.floor(seconds / 60)} min ${seconds % 60} s` : `${seconds / 60} min`
  const minutes = Math.round(d / MINUTE)
  if (minutes < 60) return `${minutes} min`
  const hours = Math.floor(minutes / 60)
  if (hours < 24) return minutes % 60 ? `${hours} h ${minutes % 60} min` : `${hours} h`
  const days = Math.floor(hours / 24)
  return `${days} ${days === 1 ? 'day' : 'days'}${hours % 24 ? ` ${hours % 24} h` : ''}`
}
