// The one duration formatter (src/shared/durations.ts) at the scales the query pane shows: hundredths for a quick
// query, seconds under ten minutes, then minutes, hours and days.
import { describe, expect, it } from 'vitest'
import { countText } from '../../src/shared/counts'
import { durationText } from '../../src/shared/durations'

describe('durationText for query times', () => {
  it('keeps hundredths under a second and tenths under ten seconds', () => {
    expect(durationText(80)).toBe('0.08 s')
    expect(durationText(4)).toBe('0 s')
    expect(durationText(994)).toBe('0.99 s')
    expect(durationText(995)).toBe('1 s')
    expect(durationText(4_240)).toBe('4.2 s')
    expect(durationText(9_949)).toBe('9.9 s')
  })
  it('gives minutes and seconds under ten minutes, then minutes, hours and days', () => {
    expect(durationText(9_950)).toBe('10 s')
    expect(durationText(42_400)).toBe('42 s')
    expect(durationText(59_600)).toBe('1 min')
    expect(durationText(81_000)).toBe('1 min 21 s')
    expect(durationText(121_000)).toBe('2 min 1 s')
    expect(durationText(12 * 60_000 + 20_000)).toBe('12 min')
    expect(durationText(3_599_600)).toBe('1 h')
    expect(durationText(2 * 3_600_000 + 5 * 60_000 + 10_000)).toBe('2 h 5 min')
    expect(durationText(30 * 3_600_000)).toBe('1 day 6 h')
  })
  it('reads nonsense as no time', () => {
    expect(durationText(-5)).toBe('0 s')
    expect(durationText(Number.NaN)).toBe('0 s')
  })
})

describe('countText', () => {
  it('is singular for exactly one, with thousands separated', () => {
    expect(countText(1, 'row')).toBe('1 row')
    expect(countText(0, 'row')).toBe('0 rows')
    expect(countText(1234567, 'row')).toBe('1,234,567 rows')
    expect(countText(2, 'entry', 'entries')).toBe('2 entries')
  })
})
