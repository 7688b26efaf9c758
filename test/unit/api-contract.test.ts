// The contract's argument checks (what a renderer sends is never trusted), the wire form of cell states, the
// hour a finding jumps to, and when the automatic refresh is due.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { resultOf } from '../../src/renderer/src/common/api-transport'
import { API_NAMES, TIMELINE_MAX_HOURS } from '../../src/shared/api/calls'
import { decodeCell, encodeCells } from '../../src/shared/api/cell-encoding'
import { validateArgs } from '../../src/shared/api/validate-args'
import { isStale, switchInProgress } from '../../src/shared/schedule'
import { CELL_STATES, type CellState, findingHour } from '../../src/shared/timeline'

describe("the renderer's transport in a dev build (and these tests)", () => {
  it("throws on an answer that does not fit the call's answer schema, naming the call and the field", () => {
    expect(resultOf('showInFolder', { result: { shown: true } }, false)).toEqual({ shown: true })
    expect(() => resultOf('showInFolder', { result: { shown: 'yes' } } as never, false)).toThrow(/^showInFolder: .*contract: shown: /)
    expect(() => resultOf('exportDefaults', { result: { directory: '/d', dialog: false, token: 'x' } } as never, false)).toThrow(/token/)
  })
})

describe('validateArgs', () => {
  it('accepts the documented shapes', () => {
    expect(validateArgs('overview', {}).ok).toBe(true)
    expect(validateArgs('timeline', { fromHours: 168 }).ok).toBe(true)
    expect(validateArgs('timeline', { fromHours: 168, findingsOf: '0b5e6c1a-8d2f-4c57-9a51-3f1e2d4c5b6a' }).ok).toBe(true)
    expect(validateArgs('hour', { start: '2026-11-05T14:00:00Z' }).ok).toBe(true)
    expect(validateArgs('refresh', { full: false }).ok).toBe(true)
    expect(
      validateArgs('connectionSave', {
        connection: { name: 'x', provider: 's3', bucket: 'b', prefix: '', auth: { kind: 'static', accessKeyId: 'AK' } },
        secretAccessKey: 's'
      }).ok
    ).toBe(true)
    expect(validateArgs('connectionTest', { connection: { name: 'x', provider: 'local', path: '/tmp/x' } }).ok).toBe(true)
  })
  it('refuses extra, missing and ill-typed arguments with the reason', () => {
    const bad: [string, unknown][] = [
      ['overview', { x: 1 }],
      ['overview', null],
      ['overview', []],
      ['timeline', { fromHours: 0 }],
      ['timeline', { fromHours: 1.5 }],
      ['timeline', { fromHours: '24' }],
      ['timeline', { fromHours: 24, findingsOf: 7 }],
      ['timeline', { fromHours: 24, findingsOf: 'x'.repeat(65) }],
      ['hour', { start: '2026-11-05T14:30:00Z' }],
      ['hour', { start: '2026-11-05' }],
      ['connectionOpen', { id: '../x' }],
      ['connectionOpen', { id: 'a'.repeat(101) }],
      ['connectionSave', { connection: { name: 'x', provider: 'ftp' } }],
      ['connectionSave', { connection: { name: 'x', provider: 's3', bucket: 'b', prefix: '', endpoint: 'file:///etc', auth: { kind: 'default' } } }],
      ['connectionSave', { connection: { name: 'x', provider: 'local', path: '/p' }, secretAccessKey: 7 }],
      ['refresh', {}],
      ['noSuchCall', {}]
    ]
    for (const [name, args] of bad) {
      const r = validateArgs(name as 'overview', args)
      expect(r.ok, `${name} ${JSON.stringify(args)}`).toBe(false)
      if (!r.ok) expect(r.reason.length).toBeGreaterThan(5)
    }
  })
  it('takes exactly what the service serves, and gives back the draft as parsed (no invented id or secretRef)', () => {
    expect(validateArgs('timeline', { fromHours: TIMELINE_MAX_HOURS }).ok).toBe(true)
    expect(validateArgs('timeline', { fromHours: TIMELINE_MAX_HOURS + 1 })).toEqual({
      ok: false,
      reason: `timeline: fromHours must be a whole number of hours from 1 to ${TIMELINE_MAX_HOURS}`
    })
    expect(validateArgs('ddl', { engine: 'spark', table: null, database: null })).toEqual({ ok: false, reason: 'ddl: engine must be athena or bigquery' })
    expect(validateArgs('refresh', { full: true, extra: 1 })).toEqual({ ok: false, reason: 'refresh: unexpected argument extra' })
    expect(validateArgs('refresh', {})).toEqual({ ok: false, reason: 'refresh: the argument full is missing' })
    const draft = validateArgs('connectionSave', {
      connection: { name: 'x', provider: 's3', bucket: 'b', prefix: '', auth: { kind: 'static', accessKeyId: 'AK' }, notes: 'dropped' }
    })
    expect(draft).toEqual({
      ok: true,
      args: { connection: { name: 'x', provider: 's3', bucket: 'b', prefix: '', auth: { kind: 'static', accessKeyId: 'AK' } } }
    })
  })
  it('never throws on arbitrary input', () => {
    fc.assert(
      fc.property(fc.constantFrom(...API_NAMES), fc.anything(), (name, args) => {
        const r = validateArgs(name, args)
        expect(typeof r.ok).toBe('boolean')
      }),
      { numRuns: 2000 }
    )
  })
})

describe('cells on the wire', () => {
  it('round-trips every state for every table', () => {
    const tables = ['a', 'b', 'c']
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...CELL_STATES), { minLength: 3, maxLength: 3 }), (states) => {
        const cells = Object.fromEntries(tables.map((t, i) => [t, states[i] as CellState]))
        const wire = encodeCells(tables, cells)
        expect(wire).toHaveLength(3)
        expect(tables.map((_, i) => decodeCell(wire, i))).toEqual(states)
      })
    )
  })
})

describe('findingHour', () => {
  it('is the delivery hour; a v1 date delivers at 07:00; none for __initial__ or unkeyed findings', () => {
    expect(findingHour({ date: '2026-11-05', hour: '14' })).toBe(Date.UTC(2026, 10, 5, 14))
    expect(findingHour({ date: '2026-10-20', hour: null })).toBe(Date.UTC(2026, 9, 20, 7))
    expect(findingHour({ date: '__initial__', hour: null })).toBeNull()
    expect(findingHour({ date: null, hour: null })).toBeNull()
  })
})

describe('switch in progress and stale copies', () => {
  it('is a switch in progress only on v1 once its last delivery is past', () => {
    expect(switchInProgress('v1', Date.UTC(2026, 10, 2, 6, 59))).toBe(false)
    expect(switchInProgress('v1', Date.UTC(2026, 10, 2, 7))).toBe(true)
    expect(switchInProgress('v2', Date.UTC(2026, 10, 2, 12))).toBe(false)
  })
  it('calls a v2 copy stale after two hours, never a v1 one', () => {
    const t = Date.UTC(2026, 10, 5, 10)
    expect(isStale('v2', t, t + 2 * 3_600_000)).toBe(false)
    expect(isStale('v2', t, t + 2 * 3_600_000 + 1)).toBe(true)
    expect(isStale('v1', t, t + 30 * 3_600_000)).toBe(false)
  })
})
