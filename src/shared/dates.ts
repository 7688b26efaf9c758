// Partition dates and hours are strings ("2026-11-03", "03"); these convert them to UTC instants and back.

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/
const HOUR_RE = /^(\d{2})$/

/** Dates already judged (a year of hourly folders names each date 24 times per table). */
const judgedDates = new Map<string, boolean>()

/** True for a real calendar date written YYYY-MM-DD. */
export function isValidDate(s: string): boolean {
  // Only text of a date's length is remembered: a key's text is the bucket's, and could be anything.
  if (s.length !== 10) return false
  let valid = judgedDates.get(s)
  if (valid === undefined) {
    valid = judgeDate(s)
    if (judgedDates.size < 100_000) judgedDates.set(s, valid)
  }
  return valid
}

function judgeDate(s: string): boolean {
  const m = DATE_RE.exec(s)
  if (!m) return false
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])]
  const t = new Date(Date.UTC(y, mo - 1, d))
  return t.getUTCFullYear() === y && t.getUTCMonth() === mo - 1 && t.getUTCDate() === d
}

/** True for "00" to "23" (two digits, as the vendor writes them). */
export function isValidHour(s: string): boolean {
  return HOUR_RE.test(s) && Number(s) < 24
}

/** UTC instant of a date's midnight plus hours. Caller has validated the strings. */
export function instantOf(date: string, hour: string | number = 0): number {
  const [y, mo, d] = date.split('-').map(Number) as [number, number, number]
  return Date.UTC(y, mo - 1, d, typeof hour === 'number' ? hour : Number(hour))
}

export function dateOf(instant: number): string {
  return new Date(instant).toISOString().slice(0, 10)
}

export function hourOf(instant: number): string {
  return String(new Date(instant).getUTCHours()).padStart(2, '0')
}

/** Parses an ISO-8601 instant; NaN when it is not one. */
export function parseInstant(s: string): number {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/.test(s)) return Number.NaN
  return Date.parse(s)
}
