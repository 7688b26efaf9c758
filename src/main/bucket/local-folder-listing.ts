// Lists a local folder the way a bucket listing reads: keys relative to the root with "/" separators,
// sizes, modification times as object times, and storage classes from the sidecar.
import { readFile, readdir, stat } from 'node:fs/promises'
import { join, relative, sep } from 'node:path'
import type { ListedObject } from '../../shared/listing'
import { LOCAL_METADATA_DIR, STORAGE_CLASS_SIDECAR } from './local-sidecar'

async function readSidecar(root: string): Promise<Record<string, string>> {
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

export async function listLocalFolder(root: string): Promise<ListedObject[]> {
  const classes = await readSidecar(root)
  const out: ListedObject[] = []
  const entries = await readdir(root, { recursive: true, withFileTypes: true })
  for (const e of entries) {
    if (!e.isFile()) continue
    const abs = join(e.parentPath, e.name)
    const key = relative(root, abs).split(sep).join('/')
    if (key.startsWith(`${LOCAL_METADATA_DIR}/`)) continue
    const st = await stat(abs)
    const obj: ListedObject = { key, size: st.size, lastModified: st.mtime.toISOString(), etag: `${st.size}-${Math.trunc(st.mtimeMs)}`, storageClass: classes[key] ?? 'STANDARD' }
    out.push(obj)
  }
  out.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
  return out
}
