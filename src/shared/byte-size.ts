// Sizes on disk and downloads as people read them (decimal units, as disks and file managers show): 1.5 MB, 820 kB.
// One formatter for main's messages and the renderer's panels.
const UNITS = ['bytes', 'kB', 'MB', 'GB', 'TB', 'PB']

export function formatBytes(n: number): string {
  if (!Number.isFinite(n) || n < 1000) return `${Math.max(0, Math.round(Number.isFinite(n) ? n : 0))} bytes`
  let v = n
  let u = 0
  while (v >= 1000 && u < UNITS.length - 1) {
    v /= 1000
    u++
  }
  return `${v.toFixed(v < 10 ? 1 : 0)} ${UNITS[u]}`
}

/** A duration left, in words: "about 3 min", "about 40 s", "about 2 h 5 min". */
export function formatTimeLeft(seconds: number): string {
  if (seconds < 60) return `about ${Math.max(1, Math.round(seconds))} s`
  const m = Math.round(seconds / 60)
  if (m < 60) return `about ${m} min`
  return `about ${Math.floor(m / 60)} h ${m % 60} min`
}
