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
