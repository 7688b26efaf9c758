// Counts and sizes as words: "1 row", "1,115 rows", "2 files" (never "1 rows" or "file(s)"), "13.8 KB".

/** A number as the views write it: thousands separated, the same on every machine ("1,115"). */
export function numberText(n: number): string {
  return n.toLocaleString('en')
}

/** A count with its noun in the right number (thousands separated). */
export function countText(n: number, one: string, many = `${one}s`): string {
  return `${numberText(n)} ${n === 1 ? one : many}`
}

/** Sizes as the user reads them (1 decimal, decimal units, as the views' notes say them). */
export function formatBytes(n: number): string {
  if (n < 1000) return `${n} B`
  if (n < 1e6) return `${(n / 1e3).toFixed(1)} KB`
  if (n < 1e9) return `${(n / 1e6).toFixed(1)} MB`
  return `${(n / 1e9).toFixed(1)} GB`
}
