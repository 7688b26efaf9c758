// Counts as words: "1 row", "1,115 rows", "2 files", never "1 rows" or "file(s)".

/** A count with its noun in the right number (thousands separated). */
export function countText(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString('en')} ${n === 1 ? one : many}`
}
