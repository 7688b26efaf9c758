// CSV as RFC 4180 asks: comma-separated, CRLF line ends, a field quoted when it holds a quote, a comma or a
// line break, quotes doubled. NULL is an empty field.

export function csvField(v: unknown): string {
  if (v === null || v === undefined) return ''
  const s = typeof v === 'string' ? v : typeof v === 'object' ? JSON.stringify(v) : String(v)
  return /[",\r\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s
}

export function csvLine(values: readonly unknown[]): string {
  return `${values.map(csvField).join(',')}\r\n`
}
