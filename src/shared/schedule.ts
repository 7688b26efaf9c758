// The vendor's delivery schedule and timing constants (spec: "When it arrives", "The switch", retention).
// All instants are UTC milliseconds since the epoch.

export const HOUR_MS = 3_600_000
export const MINUTE_MS = 60_000
export const DAY_MS = 24 * HOUR_MS

/** v1 delivered once a day at 07:00 UTC. */
export const V1_DELIVERY_HOUR = 7
/** Last daily delivery, in v1/: Nov 2, 2026, 07:00 UTC. */
export const LAST_V1_DELIVERY = Date.UTC(2026, 10, 2, 7)
/** First hourly delivery, in v2/: Nov 3, 2026, 03:00 UTC. Nothing is delivered between the two. */
export const FIRST_V2_DELIVERY = Date.UTC(2026, 10, 3, 3)

/** An hour is due this long after it starts. */
export const DUE_AFTER_MS = 40 * MINUTE_MS
/** A folder without _SUCCESS this long after its hour began has failed rather than being in flight. */
export const FAILED_AFTER_MS = 3 * HOUR_MS
/** A pending parts table not caught up within this long after its hour began is reported. */
export const PENDING_CATCH_UP_MS = 6 * HOUR_MS
/** delivered_through further behind its hour than this is reported. */
export const DELIVERED_THROUGH_LAG_MS = 2 * HOUR_MS
/** Full tables keep every hourly copy for at least this long; older days keep only their last hour. */
export const HOURLY_RETENTION_MS = 7 * DAY_MS

export type Era = 'v1' | 'gap' | 'v2'

/** Which side of the switch an hour (its start instant) falls on. */
export function eraOf(hourStart: number): Era {
  if (hourStart <= LAST_V1_DELIVERY) return 'v1'
  if (hourStart < FIRST_V2_DELIVERY) return 'gap'
  return 'v2'
}

/** Whether a delivery is scheduled to start at this hour. */
export function isDeliveryHour(hourStart: number): boolean {
  const era = eraOf(hourStart)
  if (era === 'v2') return true
  if (era === 'gap') return false
  return new Date(hourStart).getUTCHours() === V1_DELIVERY_HOUR
}

/** The v1 → v2 switch is in progress when the bucket still reads v1 (no v2 manifest yet) although v1's last
 * delivery is past: the first hourly delivery in v2/ is awaited. */
export function switchInProgress(version: 'v1' | 'v2', now: number): boolean {
  return version === 'v1' && now >= LAST_V1_DELIVERY
}

/** A v2 table whose newest ready delivery is older than this has missed more than one hourly delivery. */
export const STALE_AFTER_MS = 2 * HOUR_MS

export function isStale(version: 'v1' | 'v2', newest: number, now: number): boolean {
  return version === 'v2' && now - newest > STALE_AFTER_MS
}
