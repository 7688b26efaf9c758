// A local folder has no storage classes; a sidecar inside a tool-owned folder records them (the demo
// bucket uses it to plant an archived object). The folder is never listed as part of the bucket.
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'

/** Tool-owned folder at the root of a local bucket; never listed. */
export const LOCAL_METADATA_DIR = '.export-explorer'
/** JSON object: key → storage class (e.g. "GLACIER"). */
export const STORAGE_CLASS_SIDECAR = 'storage-classes.json'

export async function readStorageClasses(root: string): Promise<Record<string, string>> {
  try {
    const parsed: unknown = JSON.parse(await readFile(join(root, LOCAL_METADATA_DIR, STORAGE_CLASS_SIDECAR), 'utf8'))
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return {}
    const out: Record<string, string> = {}
    for (const [k, v] of Object.entries(parsed)) if (typeof v === 'string') out[k] = v
    return out
  } catch {
    return {}
  }
}
