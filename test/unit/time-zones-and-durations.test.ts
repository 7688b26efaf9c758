// Wall-clock times typed in a zone become the right UTC instants, across daylight-saving changes (New York has
// them; Brasília had them until 2019), and durations read as people say them.
import { describe, expect, it } from 'vitest'
import { age, timeText } from '../../src/renderer/src/common/time'
import { countText } from '../../src/shared/counts'
import { durationText } from '../../src/shared/durations'
import { BRASILIA_ZONE_ID, offsetMinutesAt, wallClockText, wallClockToInstant, zoneId } from '../../src/shared/time-zones'

const utc = (text: string, id: string): string | null => {
  const t = wallClockToInstant(text, id)
  return t === null ? null : new Date(t).toISOString()
}

describe('wallClockToInstant', () => {
  it('Brasília is UTC−3 today, from the zone data, not a fixed offset', () => {
    expect(zoneId('brasilia')).toBe(BRASILIA_ZONE_ID)
    expect(utc('2026-11-03 00:00', BRASILIA_ZONE_ID)).toBe('2026-11-03T03:00:00.000Z')
    expect(utc('2026-11-03T14:30:15', BRASILIA_ZONE_ID)).toBe('2026-11-03T17:30:15.000Z')
    // Before 2019 Brasília kept daylight saving (UTC−2 in the southern summer): a fixed −3 would be an hour off.
    expect(utc('2018-12-01 12:00', BRASILIA_ZONE_ID)).toBe('2018-12-01T14:00:00.000Z')
    expect(offsetMinutesAt(BRASILIA_ZONE_ID, Date.parse('2018-12-01T14:00:00Z'))).toBe(-120)
    // Its last change: on 2019-02-17 at 00:00 clocks went back to 23:00, so 23:30 happened twice: the first one.
    expect(utc('2019-02-16 23:30', BRASILIA_ZONE_ID)).toBe('2019-02-17T01:30:00.000Z')
    // On 2018-11-04 clocks jumped from 00:00 to 01:00: 00:30 never happened and moves forward by the gap.
    expect(utc('2018-11-04 00:30', BRASILIA_ZONE_ID)).toBe('2018-11-04T03:30:00.000Z')
  })
  it('New York across both changes of 2026: winter −5, summer −4, the gap and the repeated hour', () => {
    const NY = 'America/New_York'
    expect(utc('2026-01-15 09:00', NY)).toBe('2026-01-15T14:00:00.000Z')
    expect(utc('2026-07-15 09:00', NY)).toBe('2026-07-15T13:00:00.000Z')
    // March 8: 02:00 → 03:00. Just before, in the gap (moved forward), just after.
    expect(utc('2026-03-08 01:59', NY)).toBe('2026-03-08T06:59:00.000Z')
    expect(utc('2026-03-08 02:30', NY)).toBe('2026-03-08T07:30:00.000Z')
    expect(utc('2026-03-08 03:00', NY)).toBe('2026-03-08T07:00:00.000Z')
    // November 1: 02:00 → 01:00. 01:30 happens twice (the first, still −4); 02:00 happens once (−5).
    expect(utc('2026-11-01 00:59', NY)).toBe('2026-11-01T04:59:00.000Z')
    expect(utc('2026-11-01 01:30', NY)).toBe('2026-11-01T05:30:00.000Z')
    expect(utc('2026-11-01 02:00', NY)).toBe('2026-11-01T07:00:00.000Z')
    // A day-long range across the change is 25 hours of instants.
    expect((wallClockToInstant('2026-11-02', NY) as number) - (wallClockToInstant('2026-11-01', NY) as number)).toBe(25 * 3_600_000)
  })
  it('UTC is the text itself; what is not a date-time is null', () => {
    expect(utc('2026-11-03', 'UTC')).toBe('2026-11-03T00:00:00.000Z')
    expect(wallClockToInstant('03/11/2026', BRASILIA_ZONE_ID)).toBeNull()
    expect(wallClockToInstant('2026-02-30 10:00', BRASILIA_ZONE_ID)).toBeNull()
    expect(wallClockToInstant('2026-11-03 24:00', 'UTC')).toBeNull()
  })
  it('wallClockText reads an instant back on a zone clock', () => {
    expect(wallClockText(Date.parse('2026-11-03T03:00:00Z'), BRASILIA_ZONE_ID)).toBe('2026-11-03 00:00:00')
    expect(wallClockText(Date.parse('2026-11-01T05:30:00Z'), 'America/New_York')).toBe('2026-11-01 01:30:00')
    expect(wallClockText(Date.parse('2026-11-01T06:30:00Z'), 'America/New_York')).toBe('2026-11-01 01:30:00')
  })
})

describe('durationText and countText', () => {
  it('says durations in the largest units that read well', () => {
    expect(durationText(9650 * 60_000)).toBe('6 days 16 h')
    expect(durationText(41 * 60_000)).toBe('41 min')
    expect(durationText(125 * 60_000)).toBe('2 h 5 min')
    expect(durationText(3 * 3_600_000)).toBe('3 h')
    expect(durationText(24 * 3_600_000)).toBe('1 day')
    expect(durationText(49 * 3_600_000)).toBe('2 days 1 h')
    expect(durationText(80)).toBe('0.08 s')
    expect(durationText(5_500)).toBe('5.5 s')
    expect(durationText(42_000)).toBe('42 s')
    expect(durationText(1_000)).toBe('1 s')
    expect(durationText(1_500)).toBe('1.5 s')
    expect(durationText(500)).toBe('0.5 s')
    expect(durationText(-5)).toBe('0 s')
  })
  it('puts a count’s noun in the right number', () => {
    expect(countText(1, 'row')).toBe('1 row')
    expect(countText(1115, 'row')).toBe('1,115 rows')
    expect(countText(0, 'file')).toBe('0 files')
    expect(countText(2, 'copy', 'copies')).toBe('2 copies')
  })
})

describe('the window’s time helper', () => {
  it('formats an instant in the zone picked, naming it, never as ISO text', () => {
    expect(timeText('2026-11-03T03:00:00.000Z', 'utc')).toBe('2026-11-03 03:00 UTC')
    expect(timeText('2026-11-03T03:00:00.000Z', 'brasilia')).toBe('2026-11-03 00:00 Brasília')
    expect(timeText(Date.parse('2026-11-03T03:00:59Z'), 'brasilia', true)).toBe('2026-11-03 00:00:59 Brasília')
    expect(timeText('2026-11-03T03:00:00Z', 'local')).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d local time$/)
    expect(timeText('not a time', 'utc')).toBe('not a time')
    expect(age(0, 9650 * 60_000)).toBe('6 days 16 h')
  })
})
