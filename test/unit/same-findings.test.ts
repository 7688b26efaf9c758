// When a new analysis keeps its findings' name (the renderer then gets none again): only when every finding is the
// same, a change of how it resolved included (the usual change a refresh brings: a late hour arrived).
import { describe, expect, it } from 'vitest'
import { sameFindings } from '../../src/main/session/connection-snapshot'
import type { Finding } from '../../src/shared/timeline'

const missing: Finding = {
  kind: 'missing',
  severity: 'error',
  date: '2026-11-20',
  hour: '08',
  table: 'claudia_messages',
  key: 'v2/datamart_claudia/claudia_messages/etl_date=2026-11-20/etl_hour=08/',
  message: 'No folder for this hour.',
  resolved: null
}

describe('sameFindings', () => {
  it('is true for equal lists, copies included, and false for any change', () => {
    expect(sameFindings([missing], [{ ...missing }])).toBe(true)
    expect(sameFindings([], [])).toBe(true)
    const changes: Finding[][] = [
      [],
      [missing, missing],
      [{ ...missing, resolved: { how: 'arrived_late' } }],
      [{ ...missing, message: 'No folder for this hour yet.' }],
      [{ ...missing, hour: '09' }]
    ]
    for (const other of changes) expect(sameFindings([missing], other), JSON.stringify(other)).toBe(false)
    const caught: Finding = { ...missing, resolved: { how: 'caught_up', at: Date.UTC(2026, 10, 20, 9) } }
    expect(sameFindings([caught], [{ ...caught, resolved: { how: 'caught_up', at: Date.UTC(2026, 10, 20, 10) } }])).toBe(false)
    // A field a later version adds counts too.
    expect(sameFindings([missing], [{ ...missing, extra: 1 } as Finding])).toBe(false)
  })
})
