// Which data files the logical tables need are not readable Parquet, learned cheaply and without the engine: each
// file's first 4 and last 8 bytes by ranged reads ("PAR1" at both ends, a footer length that fits), in parallel
// (bounded), remembered by key + ETag on disk so a year of files is checked once. The rule that uses the answer
// (which copy to fall back to, which files to leave out, the finding) is the core's (src/shared/inventory.ts).
import { readFile } from 'node:fs/promises'
import pLimit from 'p-limit'
import { objectsForViews } from '../../shared/bucket-views'
import type { AsOf, Inventory } from '../../shared/inventory'
import { isArchived, type ListedObject } from '../../shared/listing'
import { objectIdentity } from '../../shared/identity-tag'
import { withFileLock } from '../files/file-lock'
import { writePrivateFile } from '../files/private-file'

/** Reads the inclusive byte range of an object (a provider's readRange, or a block cache in front of it). */
export type RangeReader = (o: ListedObject, start: number, end: number, signal?: AbortSignal) => Promise<Uint8Array>

/** Parquet's frame: "PAR1" at both ends and a footer that fits between them. Catches empty, truncated and garbled files. */
export function isParquetFrame(head: Uint8Array, tail: Uint8Array, size: number): boolean {
  if (size < 12 || head.length < 4 || tail.length < 8) return false
  const magic = (b: Uint8Array, at: number): boolean => b[at] === 0x50 && b[at + 1] === 0x41 && b[at + 2] === 0x52 && b[at + 3] === 0x31
  const footer = ((tail[0] ?? 0) | ((tail[1] ?? 0) << 8) | ((tail[2] ?? 0) << 16) | ((tail[3] ?? 0) << 24)) >>> 0
  return magic(head, 0) && magic(tail, 4) && footer > 0 && footer <= size - 12
}

type Cache = Record<string, boolean>

async function loadCache(path: string | undefined): Promise<Cache> {
  if (!path) return {}
  try {
    const parsed: unknown = JSON.parse(await readFile(path, 'utf8'))
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return {}
    // Entries of another shape are ignored: those files are checked again.
    return Object.fromEntries(Object.entries(parsed).filter(([, v]) => typeof v === 'boolean')) as Cache
  } catch {
    return {}
  }
}

export interface FrameCheckOptions extends AsOf {
  /** Remembers each answer by key + ETag (private, atomic, merged under a lock with concurrent checks). */
  readonly cacheFile?: string
  readonly signal?: AbortSignal
  readonly concurrency?: number
  readonly onProgress?: (p: { readonly checked: number; readonly total: number }) => void
}

export interface FrameCheckResult {
  /** Keys of the files that are not readable Parquet. */
  readonly unreadable: Set<string>
  /** Files whose ends were read from the bucket this time (the rest were known from the cache, or too small to be Parquet). */
  readonly read: number
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
          let ok = cache[objectIdentity(o)]
          if (ok === undefined) {
            try {
              if (o.size >= 12) fetched++
              // Both ends at once (a block cache in front shares one fetch when they fall in the same block).
              const ends = o.size < 12 ? null : await Promise.all([read(o, 0, 3, opts.signal), read(o, o.size - 8, o.size - 1, opts.signal)])
              ok = ends !== null && isParquetFrame(ends[0], ends[1], o.size)
              added[objectIdentity(o)] = ok
            } catch (e) {
              if (opts.signal?.aborted) throw e
              errors.push({ key: o.key, message: (e as Error).message })
              return
            }
          }
          if (!ok) unreadable.add(o.key)
          opts.onProgress?.({ checked: checked.size, total })
        })
      )
    )
  }
  const cacheFile = opts.cacheFile
  if (cacheFile && Object.keys(added).length > 0) {
    await withFileLock(cacheFile, async () => writePrivateFile(cacheFile, JSON.stringify({ ...(await loadCache(cacheFile)), ...added })))
  }
  return { unreadable, read: fetched, errors }
}
