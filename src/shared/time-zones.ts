// The time zones a user reads and types times in: UTC (the bucket's clock), Brasília (the vendor's,
// America/Sao_Paulo from the runtime's time-zone data, never a fixed offset) and the user's local zone.
// Wall-clock text ↔ UTC instants, across daylight-saving changes. Pure (Intl only).

export type ZoneChoice = 'utc' | 'brasilia' | 'local'

export const ZONE_CHOICES: readonly ZoneChoice[] = ['utc', 'brasilia', 'local']

export const ZONE_WORDS: Record<ZoneChoice, string> = { utc: 'UTC', brasilia: 'Brasília', local: 'local time' }

export const BRASILIA_ZONE_ID = 'America/Sao_Paulo'

let localId: string | null = null

/** The IANA name of a choice ('local' is the runtime's own zone, read once). */
export function zoneId(zone: ZoneChoice): string {
  if (zone === 'utc') return 'UTC'
  if (zone === 'brasilia') return BRASILIA_ZONE_ID
  localId ??= Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC'
  return localId
}

/** How SQL comments and legends name a choice: "UTC", "Brasília", "local time (Europe/Lisbon)". */
export function zoneWordsWithId(zone: ZoneChoice): string {
  return zone === 'local' ? `${ZONE_WORDS.local} (${zoneId('local')})` : ZONE_WORDS[zone]
}

const formats = new Map<string, Intl.DateTimeFormat>()
function format(id: string): Intl.DateTimeFormat {
  let f = formats.get(id)
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: id,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit'
    })
    formats.set(id, f)
  }
  return f
}

/** The wall clock of zone `id` at instant t, as the UTC instant with the same fields (whole seconds). */
function wallFields(t: number, id: string): number {
  const p: Record<string, number> = {}
  for (const part of format(id).formatToParts(new Date(t))) if (part.type !== 'literal') p[part.type] = Number(part.value)
  // setUTCFullYear: Date.UTC reads the years 0–99 as 1900–1999.
  const d = new Date(Date.UTC(2000, (p['month'] ?? 1) - 1, p['day'] ?? 1, (p['hour'] ?? 0) % 24, p['minute'] ?? 0, p['second'] ?? 0))
  d.setUTCFullYear(p['year'] ?? 1970)
  return d.getTime()
}

/** Minutes to add to UTC to read the wall clock of zone `id` at instant t (Brasília: −180; New York: −300 or −240). */
export function offsetMinutesAt(id: string, t: number): number {
  if (id === 'UTC') return 0
  const whole = Math.floor(t / 1000) * 1000
  return Math.round((wallFields(whole, id) - whole) / 60_000)
}

/** "YYYY-MM-DD HH:MM:SS" on the wall clock of zone `id` at instant t. */
export function wallClockText(t: number, id: string): string {
  return new Date(t + offsetMinutesAt(id, t) * 60_000).toISOString().slice(0, 19).replace('T', ' ')
}

/** "YYYY-MM-DD", "YYYY-MM-DD HH:MM" or "YYYY-MM-DD HH:MM:SS" (T or space, optional fraction) as the fields of a UTC instant; null if it is none. */
function parseWallClock(text: string): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?)?$/.exec(text.trim())
  if (!m) return null
  const [y, mo, d, h, mi, s] = [1, 2, 3, 4, 5, 6].map((i) => Number(m[i] ?? 0)) as [number, number, number, number, number, number]
  const t = Date.UTC(y, mo - 1, d, h, mi, s) + (m[7] ? Math.round(Number(m[7]) * 1000) : 0)
  const back = new Date(t)
  return back.getUTCFullYear() === y && back.getUTCMonth() === mo - 1 && back.getUTCDate() === d && h < 24 && mi < 60 && s < 60 ? t : null
}

/**
 * The instant at which zone `id`'s wall clock reads `text` (null when the text is not a date-time).
 * A time that happens twice (clocks set back) is its first occurrence; a time that never happens (clocks set
 * forward) is moved forward by the gap, as Temporal's "compatible" disambiguation does.
 */
export function wallClockToInstant(text: string, id: string): number | null {
  const w = parseWallClock(text)
  if (w === null) return null
  if (id === 'UTC') return w
  // Transitions are months apart: the offsets a day and a half either side are the only candidates.
  const before = offsetMinutesAt(id, w - 36 * 3_600_000)
  const after = offsetMinutesAt(id, w + 36 * 3_600_000)
  const fits = [...new Set([before, after])].map((o) => w - o * 60_000).filter((t) => offsetMinutesAt(id, t) === (w - t) / 60_000)
  if (fits.length > 0) return Math.min(...fits)
  return w - before * 60_000
}
