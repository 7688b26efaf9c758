// Which data files the logical tables need are not readable Parquet, learned without the engine: each file's ends by
// ranged reads and its footer through the bounded reader (parquet-footer.ts), in parallel (bounded), remembered by
// key + ETag on disk so a year of files is checked once, with files found unreadable later (damaged pages, by the
// mirror's build). The rule that uses the answer (fallback copy, files left out, the finding) is the core's.
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import pLimit from 'p-limit'
import { objectsForViews } from '../../shared/bucket-views'
import type { AsOf, Inventory } from '../../shared/inventory'
import { isArchived, type ListedObject } from '../../shared/listing'
import { objectIdentity } from '../../shared/identity-tag'
import { withFileLock } from '../files/file-lock'
import { writePrivateFile } from '../files/private-file'
import { type FooterParser, readParquetFooter } from './parquet-footer'
import { errorMessage } from '../../shared/error-message'
import type { FooterFacts } from '../../shared/delivery-facts'

/** Reads the inclusive byte range of an object (a provider's readRange, or a block cache in front of it). */
export type RangeReader = (o: ListedObject, start: number, end: number, signal?: AbortSignal) => Promise<Uint8Array>

/** The file of a connection's answers, under a data folder (the app's, or the CLI's cache folder). */
export function frameCacheFile(dataDir: string, connectionId: string): string {
  return join(dataDir, 'frames', `${connectionId}.json`)
}

// Format 2 holds footer checks and reasons; format 1 (a bare map of booleans, frame only) is read as empty, so every
// file is checked again with its footer.
const CACHE_FORMAT = 2
/** Per key + ETag: its footer's facts when readable (true: readable, checked before the facts were kept), else why not. */
type Cache = Record<string, true | FooterFacts | string>

/** A cache entry of the facts' shape, every column a name and a type: anything else is checked again, never trusted. */
function isFacts(v: unknown): v is FooterFacts {
  if (typeof v !== 'object' || v === null) return false
  const f = v as FooterFacts
  return (
    Number.isSafeInteger(f.rows) &&
    f.rows >= 0 &&
    Array.isArray(f.columns) &&
    f.columns.every(
      (c: unknown) =>
        typeof c === 'object' && c !== null && typeof (c as { name: unknown }).name === 'string' && typeof (c as { type: unknown }).type === 'string'
    )
  )
}

async function loadCache(path: string | undefined): Promise<Cache> {
  if (!path) return {}
  try {
    const parsed = JSON.parse(await readFile(path, 'utf8')) as { format?: unknown; files?: unknown }
    if (parsed?.format !== CACHE_FORMAT || typeof parsed.files !== 'object' || parsed.files === null) return {}
    // Entries of another shape are ignored: those files are checked again.
    return Object.fromEntries(Object.entries(parsed.files).filter(([, v]) => v === true || typeof v === 'string' || isFacts(v))) as Cache
  } catch {
    return {}
  }
}

async function mergeCache(path: string, added: Cache): Promise<void> {
  await withFileLock(path, async () => writePrivateFile(path, JSON.stringify({ format: CACHE_FORMAT, files: { ...(await loadCache(path)), ...added } })))
}

/** Remembers that these versions of objects are not readable (the mirror's build found their pages damaged): the
 * next check reports them without reading them again. */
export async function recordUnreadable(cacheFile: string, found: readonly { readonly object: ListedObject; readonly why: string }[]): Promise<void> {
  if (found.length > 0) await mergeCache(cacheFile, Object.fromEntries(found.map((f) => [objectIdentity(f.object), f.why])))
}

/** Which of these objects are known to be unreadable (by an earlier check or build), with why. */
export async function knownUnreadable(cacheFile: string, objects: readonly ListedObject[]): Promise<Map<string, string>> {
  const cache = await loadCache(cacheFile)
  const out = new Map<string, string>()
  for (const o of objects) {
    const v = cache[objectIdentity(o)]
    if (typeof v === 'string') out.set(o.key, v)
  }
  return out
}

export interface FrameCheckOptions extends AsOf {
  /** Remembers each answer by key + ETag (private, atomic, merged under a lock with concurrent checks). */
  readonly cacheFile?: string
  readonly signal?: AbortSignal
  readonly concurrency?: number
  readonly onProgress?: (p: { readonly checked: number; readonly total: number }) => void
  /** The footer workers (default: the process's pool). */
  readonly parser?: FooterParser
}

export interface FrameCheckResult {
  /** Keys of the files that are not readable Parquet. */
  readonly unreadable: Set<string>
  /** Why each of them is not readable ("zero bytes", "its footer claims 16777225 bytes, more than the 8 MiB allowed"). */
  readonly reasons: ReadonlyMap<string, string>
  /** Files whose ends were read from the bucket this time (the rest were known from the cache, or too small to be Parquet). */
  readonly read: number
  /** Rows and columns of each listed data file whose footer was read (now or at an earlier refresh), by key: the
   * monitors' facts, without a request of their own. */
  readonly facts: ReadonlyMap<string, FooterFacts>
  /** Files that could not be read (network, denied): not judged, the engine tells when it downloads them. */
  readonly errors: readonly { readonly key: string; readonly message: string }[]
}

/**
 * The unreadable files among those the logical tables need (latest ready copies, every ready parts folder). When a
 * full table's newest copy holds one, the copy the rule falls back to is needed in turn, and checked too.
 */
export async function findUnreadableFiles(inventory: Inventory, read: RangeReader, opts: FrameCheckOptions = {}): Promise<FrameCheckResult> {
  const now = opts.now ?? Date.now()
  const cache = await loadCache(opts.cacheFile)
  const added: Cache = {}
  const unreadable = new Set<string>()
  const reasons = new Map<string, string>()
  const facts = new Map<string, FooterFacts>()
  const checked = new Set<string>()
  const errors: { key: string; message: string }[] = []
  const limit = pLimit(opts.concurrency ?? 32)
  let fetched = 0
  let total = 0
  for (;;) {
    const todo = objectsForViews(inventory, { ...opts, unreadable }).filter((o) => o.key.endsWith('.parquet') && !isArchived(o, now) && !checked.has(o.key))
    if (todo.length === 0) break
    total += todo.length
    await Promise.all(
      todo.map((o) =>
        limit(async () => {
          opts.signal?.throwIfAborted()
          checked.add(o.key)
          let verdict = cache[objectIdentity(o)]
          // `true`: readable, checked by a version that kept no facts: read once more for them.
          if (verdict === undefined || verdict === true) {
            try {
              if (o.size >= 12) fetched++
              const r = await readParquetFooter(o.size, (start, end, sig) => read(o, start, end, sig), {
                ...(opts.signal ? { signal: opts.signal } : {}),
                ...(opts.parser ? { parser: opts.parser } : {})
              })
              verdict = r.ok ? { rows: r.footer.rows, columns: r.footer.columns } : r.why
              // A parse out of time is unreadable now, and checked again next time (the machine may have been busy).
              if (r.ok || !r.transient) added[objectIdentity(o)] = verdict
            } catch (e) {
              if (opts.signal?.aborted) throw e
              errors.push({ key: o.key, message: errorMessage(e) })
              return
            }
          }
          if (isFacts(verdict)) facts.set(o.key, verdict)
          else {
            unreadable.add(o.key)
            reasons.set(o.key, verdict)
          }
          opts.onProgress?.({ checked: checked.size, total })
        })
      )
    )
  }
  const cacheFile = opts.cacheFile
  if (cacheFile && Object.keys(added).length > 0) await mergeCache(cacheFile, added)
  // Files read at earlier refreshes (a full table's earlier copies, read while they were the newest) give history too.
  for (const o of inventory.objects) {
    const known = added[objectIdentity(o)] ?? cache[objectIdentity(o)]
    if (!facts.has(o.key) && o.key.endsWith('.parquet') && isFacts(known)) facts.set(o.key, known)
  }
  return { unreadable, reasons, facts, read: fetched, errors }
}
