// What "Clear the mirror" warns of after a restore: the restored archive files stay readable in S3 only for the days
// chosen; nothing is said when nothing was restored.
import { describe, expect, it } from 'vitest'
import { clearMirrorRestoreWarning } from '../../src/renderer/src/mirror/mirror-words'
import type { RestoreJobView } from '../../src/shared/api/views'

const DAY = 86_400_000
const ENDED = Date.parse('2026-11-20T10:00:00.000Z')
const job = (done: number, days = 7): RestoreJobView => ({
  state: 'done',
  startedAt: new Date(ENDED - 3_600_000).toISOString(),
  endedAt: new Date(ENDED).toISOString(),
  table: 'datamart_claudia.claudia_messages',
  tier: 'Standard',
  days,
  checkedAt: null,
  nextCheck: null,
  total: done,
  bytes: 1000,
  counts: { waiting: 0, requested: 0, in_progress: 0, done, failed: 0 },
  failed: [],
  lastError: null
})

describe('clearing the mirror after a restore', () => {
  it('says the restored copies last only the days chosen, until when, and what reading them again takes', () => {
    expect(clearMirrorRestoreWarning(job(2, 7), ENDED + DAY)).toBe(
      'The mirror holds 2 archived files restored from the archive: S3 keeps their restored copies readable for only the 7 days chosen (until about 2026-11-27); once cleared and expired, reading them again needs another restore (hours, and its retrieval fee).'
    )
    expect(clearMirrorRestoreWarning(job(1, 3), ENDED + 10 * DAY)).toMatch(
      /^The mirror holds 1 archived file .*kept for the 3 days chosen, expired about 2026-11-23/
    )
  })

  it('says nothing when no file was restored', () => {
    expect(clearMirrorRestoreWarning(null, ENDED)).toBeNull()
    expect(clearMirrorRestoreWarning(job(0), ENDED)).toBeNull()
  })
})
