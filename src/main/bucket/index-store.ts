// Keeps a connection's bucket index on disk, so the next launch refreshes it instead of listing again.
// Written to a temporary file and renamed, so a crash never leaves half an index; an unreadable index is
// treated as absent (the next refresh lists everything).
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises'
import { dirname } from 'node:path'
import type { ListedObject } from '../../shared/listing'
import type { BucketIndex } from './bucket-index'

const FORMAT = 1

type Row = [key: string, size: number, lastModified: number, etag: string | null, storageClass: string | null, restore: [boolean, string | null] | null]

export async function saveIndex(path: string, index: BucketIndex): Promise<void> {
  const rows: Row[] = []
  for (const o of index.objects.values()) rows.push([o.key, o.size, Date.parse(o.lastModified), o.etag ?? null, o.storageClass ?? null, o.restore ? [o.restore.ongoing, o.restore.expiry ?? null] : null])
  const body = JSON.stringify({ format: FORMAT, location: index.location, refreshedAt: index.refreshedAt, units: index.units, rows })
  await mkdir(dirname(path), { recursive: true })
  const tmp = `${path}.${process.pid}.${Date.now()}.tmp`
  await writeFile(tmp, body)
  await rename(tmp, path)
}

export async function loadIndex(path: string): Promise<BucketIndex | null> {
  let parsed: { format?: number; location?: string; refreshedAt?: number; units?: BucketIndex['units']; rows?: Row[] }
  try {
    parsed = JSON.parse(await readFile(path, 'utf8'))
  } catch {
    return null
  }
  if (parsed.format !== FORMAT || typeof parsed.location !== 'string' || !Array.isArray(parsed.rows) || !Array.isArray(parsed.units) || typeof parsed.refreshedAt !== 'number') return null
  const objects = new Map<string, ListedObject>()
  for (const [key, size, lm, etag, storageClass, restore] of parsed.rows) {
    objects.set(key, { key, size, lastModified: new Date(lm).toISOString(), ...(etag !== null ? { etag } : {}), ...(storageClass !== null ? { storageClass } : {}), ...(restore ? { restore: { ongoing: restore[0], ...(restore[1] ? { expiry: restore[1] } : {}) } } : {}) })
  }
  return { location: parsed.location, refreshedAt: parsed.refreshedAt, units: parsed.units, objects }
}

/** Where a connection's index lives in the app's data folder. */
export function indexPath(dataDir: string, connectionId: string): string {
  return `${dataDir}/index/${encodeURIComponent(connectionId)}.json`
}
