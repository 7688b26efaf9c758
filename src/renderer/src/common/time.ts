// Times as the app shows them: UTC (the bucket's clock), Brasília (the vendor's, America/Sao_Paulo from the
// runtime's zone data) and the user's local time. The zones and their words are the core's (shared/time-zones).
import { durationText } from '../../../shared/durations'
import { type ZoneChoice, ZONE_WORDS, offsetMinutesAt, zoneId } from '../../../shared/time-zones'

export type AxisZone = ZoneChoice

export const ZONE_LABEL: Record<AxisZone, string> = ZONE_WORDS

/** Minutes to add to UTC to read the wall clock of a zone at instant t. */
export function zoneOffsetMinutes(zone: AxisZone, t: number): number {
  return offsetMinutesAt(zoneId(zone), t)
}

/** An instant (ISO text or ms) as "YYYY-MM-DD HH:MM Brasília" (seconds too when asked): how every time reads in the window. */
export function timeText(t: string | number, zone: AxisZone, seconds = false): string {
  const ms = typeof t === 'number' ? t : Date.parse(t)
  if (Number.isNaN(ms)) return String(t)
  const d = new Date(ms + zoneOffsetMinutes(zone, ms) * 60_000).toISOString()
  return `${d.slice(0, seconds ? 19 : 16).replace('T', ' ')} ${ZONE_LABEL[zone]}`
}

/** "YYYY-MM-DD HH:MM" on the wall clock of a zone. */
export function wallClock(t: number, zone: AxisZone): string {
  return new Date(t + zoneOffsetMinutes(zone, t) * 60_000).toISOString().slice(0, 16).replace('T', ' ')
}

/** The three readings of an instant, for a tooltip. */
export function allZones(t: number): string {
  return `${wallClock(t, 'utc')} UTC · ${wallClock(t, 'brasilia').slice(11)} Brasília · ${wallClock(t, 'local').slice(11)} local`
}

/** "3 h 20 min", "6 days 16 h": how old something is (the one duration formatter, shared/durations). */
export function age(from: number, now: number): string {
  return durationText(now - from)
}

// DuckDB's text of a timestamp: date, time to the second, any fraction (to the nanosecond), an offset for TIMESTAMPTZ.
const TIMESTAMP_TEXT = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})(\.\d+)?([+-]\d{2}(?::?\d{2})?)?$/

/** "+00", "-03", "+05:30": an offset as DuckDB writes it. */
function offsetText(minutes: number): string {
  const a = Math.abs(minutes)
  const m = a % 60
  return `${minutes < 0 ? '-' : '+'}${String(Math.floor(a / 60)).padStart(2, '0')}${m ? `:${String(m).padStart(2, '0')}` : ''}`
}

/**
 * DuckDB's text of a timestamp (a UTC instant; TIMESTAMPTZ with its offset) on a zone's wall clock, exact: the
 * fraction of a second is kept as written (zone offsets are whole minutes). TIMESTAMPTZ keeps an offset, the
 * zone's. Text that is no such timestamp (infinity, years past 9999) is returned as it is.
 */
export function timestampTextIn(text: string, zone: AxisZone): string {
  if (zone === 'utc') return text
  const m = TIMESTAMP_TEXT.exec(text)
  if (!m) return text
  const [y, mo, d, h, mi, s] = [1, 2, 3, 4, 5, 6].map((i) => Number(m[i])) as [number, number, number, number, number, number]
  const off = m[8] ? /^([+-])(\d{2}):?(\d{2})?$/.exec(m[8]) : null
  const given = off ? (off[1] === '-' ? -1 : 1) * (Number(off[2]) * 60 + Number(off[3] ?? 0)) : 0
  // setUTCFullYear: Date.UTC reads years 0–99 as 1900–1999.
  const fields = new Date(Date.UTC(2000, mo - 1, d, h, mi, s))
  fields.setUTCFullYear(y)
  const utc = fields.getTime() - given * 60_000
  if (y < 1 || Number.isNaN(utc)) return text
  const shift = zoneOffsetMinutes(zone, utc)
  const wall = new Date(utc + shift * 60_000).toISOString()
  if (!/^\d{4}-/.test(wall)) return text
  return `${wall.slice(0, 19).replace('T', ' ')}${m[7] ?? ''}${m[8] ? offsetText(shift) : ''}`
}
