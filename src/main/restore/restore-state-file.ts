// A connection's bulk restore as saved in the data folder (restore/<connection>.json), so it survives a restart:
// which keys, the tier and days, when it started, and each key's state (with the message of a failure). Read
// tolerantly, written atomically under the file's lock (SavedStateFile); a damaged file is kept aside.
import type { RestoreKeyState } from '../../shared/api/views'
import { RESTORE_KEY_STATES } from '../../shared/api/views'
import { RESTORE_MAX_DAYS, RESTORE_TIERS, type RestoreTier } from '../../shared/restore-plan'
import { type Decoded, SavedStateFile } from '../files/saved-state-file'

export interface SavedRestoreKey {
  readonly key: string
  readonly size: number
  readonly state: RestoreKeyState
  /** Why it failed. */
  readonly message?: string
  /** When the restored copy expires (ISO), once done. */
  readonly expiry?: string
}

export interface SavedRestore {
  /** The bucket location it was started on: a connection edited to point elsewhere does not resume it. */
  readonly location: string
  readonly table: string | null
  readonly tier: RestoreTier
  readonly days: number
  readonly startedAt: string
  readonly checkedAt: string | null
  readonly finishedAt: string | null
  readonly keys: readonly SavedRestoreKey[]
}

const isIso = (v: unknown): v is string => typeof v === 'string' && !Number.isNaN(Date.parse(v))
const isoOrNull = (v: unknown): boolean => v === null || isIso(v)

function isKey(k: unknown): k is SavedRestoreKey {
  if (typeof k !== 'object' || k === null) return false
  const o = k as Record<string, unknown>
  return (
    typeof o['key'] === 'string' &&
    typeof o['size'] === 'number' &&
    (RESTORE_KEY_STATES as readonly unknown[]).includes(o['state']) &&
    (o['message'] === undefined || typeof o['message'] === 'string') &&
    (o['expiry'] === undefined || isIso(o['expiry']))
  )
}

function decode(parsed: unknown): Decoded<SavedRestore | null> {
  if (parsed === null) return { value: null, problems: [] }
  const bad = (why: string): Decoded<SavedRestore | null> => ({
    value: null,
    problems: [`The saved restore ${why}; it is not resumed. Start the restore again from the Tables view.`]
  })
  if (typeof parsed !== 'object') return bad('is not a restore')
  const o = parsed as Record<string, unknown>
  if (typeof o['location'] !== 'string') return bad('names no bucket location')
  if (!(o['table'] === null || typeof o['table'] === 'string')) return bad('names no table')
  if (!(RESTORE_TIERS as readonly unknown[]).includes(o['tier'])) return bad('has no retrieval tier')
  if (!(typeof o['days'] === 'number' && Number.isInteger(o['days']) && o['days'] >= 1 && o['days'] <= RESTORE_MAX_DAYS)) return bad('has no number of days')
  if (!isIso(o['startedAt']) || !isoOrNull(o['checkedAt']) || !isoOrNull(o['finishedAt'])) return bad('has damaged times')
  const keys = o['keys']
  if (!Array.isArray(keys)) return bad('has no keys')
  const good = keys.filter(isKey)
  const value = {
    location: o['location'],
    table: o['table'] as string | null,
    tier: o['tier'] as RestoreTier,
    days: o['days'],
    startedAt: o['startedAt'],
    checkedAt: o['checkedAt'] as string | null,
    finishedAt: o['finishedAt'] as string | null,
    keys: good
  }
  return {
    value,
    problems:
      good.length === keys.length ? [] : [`${keys.length - good.length} of the ${keys.length} keys of the saved restore could not be read and are not watched.`]
  }
}

export function restoreStateFile(path: string): SavedStateFile<SavedRestore | null> {
  return new SavedStateFile<SavedRestore | null>(path, { empty: () => null, decode, encode: (v) => JSON.stringify(v) })
}
