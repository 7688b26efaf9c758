// Keeps a connection's bucket index on disk, so the next launch refreshes it instead of listing again.
// Written atomically as 0600 (src/main/files), so a crash never leaves half an index. On load every row is
// checked: an index that cannot be read or has the wrong shape is dropped, with the reason, and the next
// refresh lists everything (a wrong-shaped index must never make every incremental refresh fail).
import { createHash } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import type { IndexedUnit } from '../../shared/listing-plan'
import { type ListedObject, type RestoreState, sameListedObject } from '../../shared/listing'
import { writePrivateFile } from '../files/private-file'
import type { BucketIndex } from './bucket-index'
import { errorMessage } from '../../shared/error-message'

const FORMAT = 1

type Row = [key: string, size: number, lastModified: number, etag: string | null, storageClass: string | null, restore: [boolean, string | null] | null]

/** The objects of a saved index's text, in short: equal digests, equal objects (the CLI's saved views are keyed by it). The
 * rows are the text's last field, so a refresh time or listing units written anew leave it as it was. */
const digestOf = (text: string): string =>
  createHash('sha256')
    .update(text.slice(text.indexOf('"rows":')))
    .digest('hex')

/** Writes the index; resolves to the digest of the objects written (digestOf). */
export async function saveIndex(path: string, index: BucketIndex): Promise<string> {
  const rows: Row[] = []
  for (const o of index.objects.values())
    rows.push([
      o.key,
      o.size,
      Date.parse(o.lastModified),
      o.etag ?? null,
      o.storageClass ?? null,
      o.restore ? [o.restore.ongoing, o.restore.expiry ?? null] : null
    ])
  const text = JSON.stringify({ format: FORMAT, location: index.location, refreshedAt: index.refreshedAt, units: index.units, rows })
  await writePrivateFile(path, text)
  return digestOf(text)
}

const stringOrNull = (v: unknown): v is string | null => v === null || typeof v === 'string'
const finite = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v)
/** The largest instant a Date holds (ECMAScript's time clip, ±100,000,000 days): beyond it a time is invalid. */
const MAX_TIME_MS = 8.64e15

/** The object a saved row holds, or why the row cannot be one. Read by index, not destructured, and built field by
 * field (spreading each optional field costs 3×): a year's ~20,000 rows are read at every start. */
function objectOfRow(row: unknown): ListedObject | string {
  if (!Array.isArray(row) || row.length !== 6) return 'is not a list of 6 fields'
  const fields = row as unknown[]
  const key = fields[0]
  const size = fields[1]
  const lm = fields[2]
  const etag = fields[3]
  const storageClass = fields[4]
  const restore = fields[5]
  if (typeof key !== 'string' || key === '') return 'has no key'
  if (!finite(size) || size < 0 || !Number.isInteger(size)) return `(${key}) has no size`
  if (!finite(lm) || Math.abs(lm) > MAX_TIME_MS) return `(${key}) has no time`
  if (!stringOrNull(etag) || !stringOrNull(storageClass)) return `(${key}) has an ETag or storage class that is not text`
  if (restore !== null && !(Array.isArray(restore) && restore.length === 2 && typeof restore[0] === 'boolean' && stringOrNull(restore[1])))
    return `(${key}) has a restore state of the wrong shape`
  const o: { -readonly [K in keyof ListedObject]: ListedObject[K] } = { key, size, lastModified: new Date(lm).toISOString() }
  if (etag !== null) o.etag = etag
  if (storageClass !== null) o.storageClass = storageClass
  if (restore) o.restore = { ongoing: restore[0] as boolean, ...(restore[1] ? { expiry: restore[1] as string } : {}) }
  return o
}

const isUnit = (u: unknown): u is IndexedUnit =>
  typeof u === 'object' &&
  u !== null &&
  typeof (u as IndexedUnit).prefix === 'string' &&
  stringOrNull((u as IndexedUnit).lastKey) &&
  [undefined, true, false].includes((u as IndexedUnit).retry)

export interface LoadedIndex {
  /** The saved index, or null when there is none or it cannot be used. */
  readonly index: BucketIndex | null
  /** Why a saved index was dropped (for the user), or null. */
  readonly problem: string | null
  /** The digest of the saved objects (digestOf), when the index was read. */
  readonly digest?: string
}

/** Reads a saved index, checking every row; a missing file is no index and no problem. */
export async function readIndex(path: string): Promise<LoadedIndex> {
  const dropped = (why: string): LoadedIndex => ({
    index: null,
    problem: `The saved listing ${path} ${why}, so it was dropped and the whole bucket was listed again.`
  })
  let text: string
  try {
    text = await readFile(path, 'utf8')
  } catch (e) {
    if ((e as { code?: string }).code === 'ENOENT') return { index: null, problem: null }
    return dropped(`could not be read (${errorMessage(e)})`)
  }
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch (e) {
    return dropped(`is not valid JSON (${errorMessage(e)})`)
  }
  if (typeof parsed !== 'object' || parsed === null) return dropped('is not an index')
  const p = parsed as { format?: unknown; location?: unknown; refreshedAt?: unknown; units?: unknown; rows?: unknown }
  // An index of another format (another version of the app) is simply listed again: not a problem to report.
  if (p.format !== FORMAT) return { index: null, problem: null }
  if (typeof p.location !== 'string') return dropped('names no bucket location')
  if (!finite(p.refreshedAt)) return dropped('has no refresh time')
  if (!Array.isArray(p.units)) return dropped('has no listing units')
  const badUnit = p.units.findIndex((u) => !isUnit(u))
  if (badUnit >= 0) return dropped(`has a listing unit (#${badUnit + 1}) of the wrong shape`)
  if (!Array.isArray(p.rows)) return dropped('has no objects')
  const objects = new Map<string, ListedObject>()
  for (let i = 0; i < p.rows.length; i++) {
    const o = objectOfRow(p.rows[i])
    if (typeof o === 'string') return dropped(`has a damaged object row (#${i + 1} ${o})`)
    objects.set(o.key, o)
  }
  return { index: { location: p.location, refreshedAt: p.refreshedAt, units: p.units as IndexedUnit[], objects }, problem: null, digest: digestOf(text) }
}

/** How far the saved refresh time may lag the last refresh: the next one re-lists at most that much more for retention. */
const REFRESH_TIME_SLACK_MS = 3_600_000

/**
 * Whether a refreshed index differs from the saved one in what the next refresh needs (its objects, its units, or a
 * refresh time more than an hour later): a warm start that found nothing new writes nothing (a year is 2-3 MB).
 */
export function indexChanged(saved: BucketIndex, next: BucketIndex): boolean {
  if (saved.location !== next.location || next.refreshedAt - saved.refreshedAt > REFRESH_TIME_SLACK_MS) return true
  if (saved.objects.size !== next.objects.size || JSON.stringify(saved.units) !== JSON.stringify(next.units)) return true
  // A refresh that changed nothing keeps the saved map itself (bucket-index.ts).
  if (saved.objects === next.objects) return false
  for (const [key, o] of next.objects) {
    const was = saved.objects.get(key)
    if (was === undefined || !sameListedObject(was, o)) return true
  }
  return false
}

/** The saved index, or null when there is none or it cannot be used. */
export async function loadIndex(path: string): Promise<BucketIndex | null> {
  return (await readIndex(path)).index
}

/** Where a connection's index lives in the app's data folder. */
export function indexPath(dataDir: string, connectionId: string): string {
  return `${dataDir}/index/${encodeURIComponent(connectionId)}.json`
}

/**
 * Records finished restores in the saved index: a listing refresh lists only what can have changed (old archived
 * folders are not listed again, and not every server reports restore status in listings), so the restore job,
 * which saw each one done by HEAD, says so here. Keys no longer in the index are skipped. Returns how many changed.
 */
export async function markRestored(path: string, restored: readonly { readonly key: string; readonly restore: RestoreState }[]): Promise<number> {
  const index = await loadIndex(path)
  if (!index) return 0
  const objects = new Map(index.objects)
  let changed = 0
  for (const r of restored) {
    const o = objects.get(r.key)
    if (!o) continue
    objects.set(r.key, { ...o, restore: r.restore })
    changed++
  }
  if (changed > 0) await saveIndex(path, { ...index, objects })
  return changed
}
