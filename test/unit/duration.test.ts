// Durations as the renderer states them (once per result or error): readable at every scale, never "121 s".
import { describe, expect, it } from 'vitest'
import { countOf, formatDuration } from '../../src/renderer/src/common/duration'

describe('formatDuration', () => {
  it('gives hundredths under a second, tenths under ten seconds', () => {
    expect(formatDuration(80)).toBe('0.08 s')
    expect(formatDuration(4)).toBe('0.00 s')
    expect(formatDuration(994)).toBe('0.99 s')
    expect(formatDuration(995)).toBe('1.0 s')
    expect(formatDuration(4_240)).toBe('4.2 s')
    expect(formatDuration(9_949)).toBe('9.9 s')
  })

  it('gives whole seconds, then minutes and seconds, then hours and minutes', () => {
    expect(formatDuration(9_950)).toBe('10 s')
    expect(formatDuration(42_400)).toBe('42 s')
    expect(formatDuration(59_600)).toBe('1 min')
    expect(formatDuration(81_000)).toBe('1 min 21 s')
    expect(formatDuration(121_000)).toBe('2 min 1 s')
    expect(formatDuration(3_599_600)).toBe('1 h')
    expect(formatDuration(2 * 3_600_000 + 5 * 60_000 + 10_000)).toBe('2 h 5 min')
    expect(formatDuration(30 * 3_600_000)).toBe('30 h')
  })

  it('reads nonsense as no time', () => {
    expect(formatDuration(-5)).toBe('0.00 s')
    expect(formatDuration(Number.NaN)).toBe('0.00 s')
  })
})

describe('countOf', () => {
  it('is singular for exactly one', () => {
    expect(countOf(1, 'row')).toBe('1 row')
    expect(countOf(0, 'row')).toBe('0 rows')
    expect(countOf(1234567, 'row')).toBe('1,234,567 rows')
    expect(countOf(2, 'entry', 'entries')).toBe('2 entries')
  })
})
