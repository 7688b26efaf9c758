// Reads the manifests the timeline needs, in parallel, through a cache keyed by key and ETag (a manifest is
// written once), so a refresh reads only the new ones. The cache file is private (0600) and written atomically;
// entries of the wrong shape are ignored (read again), and concurrent refreshes merge what they read.
import { readFile } from 'node:fs/promises'
import pLimit from 'p-limit'
import type { Inventory } from '../../shared/inventory'
import type { ListedObject } from '../../shared/listing'
import type { ManifestText } from '../../shared/timeline'
import { BucketError, bucketError } from './bucket-errors'
import type { BucketProvider } from './bucket-provider'
import { withFileLock } from '../files/file-lock'
import { writePrivateFile } from '../files/private-file'
import { errorMessage } from '../../shared/error-message'
import { shareSignal } from './bounded-wait'

type Cache = Record<string, { etag: string; text: string }>

/** The cached manifests; a missing or damaged cache is empty (it holds only what the bucket still has). */
async function loadCache(path: string | undefined): Promise<Cache> {
  if (!path) return {}
  let parsed: unknown
  try {
    parsed = JSON.parse(await readFile(path, 'utf8'))
  } catch {
    return {}
  }
  const cache: Cache = {}
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return cache
  for (const [key, e] of Object.entries(parsed)) {
    if (typeof e === 'object' && e !== null && typeof (e as Cache[string]).etag === 'string' && typeof (e as Cache[string]).text === 'string')
      cache[key] = e as Cache[string]
  }
  return cache
}

/** Adds what this read fetched to the cache file, under its lock: what another refresh added meanwhile stays. */
async function saveCache(path: string, added: Cache): Promise<void> {
  await withFileLock(path, async () => {
    const merged = { ...(await loadCache(path)), ...added }
    await writePrivateFile(path, JSON.stringify(merged))
  })
}

export interface ManifestReadOptions {
  /** Only manifests whose key passes (e.g. a date range). */
  readonly filter?: (key: string) => boolean
  /** A JSON file holding manifests already read. */
  readonly cacheFile?: string
  readonly concurrency?: number
  /** Ends the reads: what is queued never starts, what is in flight is abandoned, and readManifests rejects. */
  readonly signal?: AbortSignal
}

const MAX_MANIFEST_BYTES = 4 * 1024 * 1024

export async function readManifests(provider: BucketProvider, inventory: Inventory, opts: ManifestReadOptions = {}): Promise<Map<string, ManifestText>> {
  const cache = await loadCache(opts.cacheFile)
  const out = new Map<string, ManifestText>()
  const limit = pLimit(opts.concurrency ?? 32)
  shareSignal(opts.signal)
  const added: Cache = {}
  const read = async (key: string, obj: ListedObject): Promise<void> => {
    const stamp = obj.etag ?? `${obj.size}-${obj.lastModified}`
    const hit = cache[key]
    if (hit && hit.etag === stamp) {
      out.set(key, hit.text)
      return
    }
    // A cancelled refresh rejects as a whole; an unreadable manifest (a timeout included) is the hour's warning.
    if (opts.signal?.aborted) return
    if (obj.size > MAX_MANIFEST_BYTES) {
      out.set(key, { error: `${obj.size} bytes is too large for a manifest` })
      return
    }
    try {
      const { body } = obj.size === 0 ? { body: new Uint8Array(0) } : await provider.readRange(key, { start: 0, end: obj.size - 1 }, opts.signal)
      const text = new TextDecoder().decode(body)
      out.set(key, text)
      cache[key] = added[key] = { etag: stamp, text }
    } catch (e) {
      if (opts.signal?.aborted) return
      out.set(key, { error: e instanceof BucketError ? e.userMessage : errorMessage(e) })
    }
  }
  await Promise.all([...inventory.manifests].filter(([key]) => !opts.filter || opts.filter(key)).map(([key, m]) => limit(() => read(key, m.object))))
  if (opts.signal?.aborted) throw bucketError('cancelled', '', 'Reading the manifests was cancelled')
  if (Object.keys(added).length > 0 && opts.cacheFile) await saveCache(opts.cacheFile, added)
  return out
}
