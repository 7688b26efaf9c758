// Reads the manifests the timeline needs, in parallel, through a cache keyed by key and ETag (a manifest is
// written once), so a refresh reads only the new ones.
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises'
import { dirname } from 'node:path'
import pLimit from 'p-limit'
import type { Inventory } from '../../shared/inventory'
import type { ListedObject } from '../../shared/listing'
import type { ManifestText } from '../../shared/timeline'
import { BucketError } from './bucket-errors'
import type { BucketProvider } from './bucket-provider'

type Cache = Record<string, { etag: string; text: string }>

async function loadCache(path: string | undefined): Promise<Cache> {
  if (!path) return {}
  try {
    return JSON.parse(await readFile(path, 'utf8')) as Cache
  } catch {
    return {}
  }
}

export interface ManifestReadOptions {
  /** Only manifests whose key passes (e.g. a date range). */
  readonly filter?: (key: string) => boolean
  /** A JSON file holding manifests already read. */
  readonly cacheFile?: string
  readonly concurrency?: number
  readonly signal?: AbortSignal
}

const MAX_MANIFEST_BYTES = 4 * 1024 * 1024

export async function readManifests(provider: BucketProvider, inventory: Inventory, opts: ManifestReadOptions = {}): Promise<Map<string, ManifestText>> {
  const cache = await loadCache(opts.cacheFile)
  const out = new Map<string, ManifestText>()
  const limit = pLimit(opts.concurrency ?? 32)
  let changed = false
  const read = async (key: string, obj: ListedObject): Promise<void> => {
    const stamp = obj.etag ?? `${obj.size}-${obj.lastModified}`
    const hit = cache[key]
    if (hit && hit.etag === stamp) {
      out.set(key, hit.text)
      return
    }
    if (obj.size > MAX_MANIFEST_BYTES) {
      out.set(key, { error: `${obj.size} bytes is too large for a manifest` })
      return
    }
    try {
      const { body } = obj.size === 0 ? { body: new Uint8Array(0) } : await provider.readRange(key, { start: 0, end: obj.size - 1 }, opts.signal)
      const text = new TextDecoder().decode(body)
      out.set(key, text)
      cache[key] = { etag: stamp, text }
      changed = true
    } catch (e) {
      out.set(key, { error: e instanceof BucketError ? e.userMessage : (e as Error).message })
    }
  }
  await Promise.all([...inventory.manifests].filter(([key]) => !opts.filter || opts.filter(key)).map(([key, m]) => limit(() => read(key, m.object))))
  if (changed && opts.cacheFile) {
    await mkdir(dirname(opts.cacheFile), { recursive: true })
    const tmp = `${opts.cacheFile}.${process.pid}.tmp`
    await writeFile(tmp, JSON.stringify(cache))
    await rename(tmp, opts.cacheFile)
  }
  return out
}
