// Times as the app shows them: UTC (the bucket's clock), Brasília (the vendor's, UTC−3 with no daylight
// saving since 2019) and the user's local time.
import { BRASILIA_OFFSET_MINUTES } from '../../../shared/schedule'

export type AxisZone = 'utc' | 'brasilia' | 'local'

export const ZONE_LABEL: Record<AxisZone, string> = { utc: 'UTC', brasilia: 'Brasília', local: 'local time' }

/** Minutes to add to UTC to read the wall clock of a zone at instant t. */
export function zoneOffsetMinutes(zone: AxisZone, t: number): number {
  if (zone === 'utc') return 0
  if (zone === 'brasilia') return BRASILIA_OFFSET_MINUTES
  return -new Date(t).getTimezoneOffset()
}

/** "YYYY-MM-DD HH:MM" on the wall clock of a zone. */
export function wallClock(t: number, zone: AxisZone): string {
  return new Date(t + zoneOffsetMinutes(zone, t) * 60_000).toISOString().slice(0, 16).replace('T', ' ')
}

/** The three readings of an instant, for a tooltip. */
export function allZones(t: number): string {
  return `${wallClock(t, 'utc')} UTC · ${wallClock(t, 'brasilia').slice(11)} Brasília · ${wallClock(t, 'local').slice(11)} local`
}

/** "3 h 20 min ago", for ages. */
export function age(from: number, now: number): string {
  const m = Math.max(0, Math.round((now - from) / 60_000))
  if (m < 60) return `${m} min`
  const h = Math.floor(m / 60)
  if (h < 48) return `${h} h ${m % 60} min`
  return `${Math.floor(h / 24)} d ${h % 24} h`
}
