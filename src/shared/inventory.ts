// Groups a bucket listing into partition folders, manifests and keys that break the layout, and answers
// the questions every view asks of it: the version, the latest ready copy, the ready parts folders.
import { type FolderRef, type KeyRef, type Version, parseKey } from './bucket-key'
import type { CatalogTable } from './catalog'
import { compareDelivery, compareFileNames, deliveryInstant } from './delivery-order'
import { instantOf } from './dates'
import type { ListedObject } from './listing'

export interface Folder {
  readonly ref: FolderRef
  /** Parquet files, sorted by file name. */
  readonly dataFiles: ListedObject[]
  readonly marker: ListedObject | null
  /** Other files in the folder, never read. */
  readonly ignored: ListedObject[]
}

export interface Inventory {
  readonly version: Version
  /** Folders by prefix. */
  readonly folders: ReadonlyMap<string, Folder>
  /** Manifest objects by key, with their parsed reference. */
  readonly manifests: ReadonlyMap<string, { readonly object: ListedObject; readonly ref: Extract<KeyRef, { kind: 'manifest' }> }>
  readonly unrecognized: ReadonlyArray<{ readonly object: ListedObject; readonly reason: string }>
  readonly ignored: ReadonlyArray<{ readonly object: ListedObject; readonly folder: FolderRef; readonly reason: string }>
}

/** The bucket is on v2 once anything exists under v2/_manifests/, whatever the clock says. */
export function detectVersion(keys: Iterable<string>): Version {
  for (const k of keys) if (k.startsWith('v2/_manifests/')) return 'v2'
  return 'v1'
}

export function buildInventory(objects: Iterable<ListedObject>): Inventory {
  const folders = new Map<string, { ref: FolderRef; dataFiles: ListedObject[]; marker: ListedObject | null; ignored: ListedObject[] }>()
  const manifests = new Map<string, { object: ListedObject; ref: Extract<KeyRef, { kind: 'manifest' }> }>()
  const unrecognized: { object: ListedObject; reason: string }[] = []
  const ignored: { object: ListedObject; folder: FolderRef; reason: string }[] = []
  let version: Version = 'v1'

  for (const object of objects) {
    if (object.key.startsWith('v2/_manifests/')) version = 'v2'
    const ref = parseKey(object.key)
    switch (ref.kind) {
      case 'manifest':
        manifests.set(ref.key, { object, ref })
        break
      case 'unrecognized':
        unrecognized.push({ object, reason: ref.reason })
        break
      case 'directory':
        break
      default: {
        let f = folders.get(ref.folder.prefix)
        if (!f) {
          f = { ref: ref.folder, dataFiles: [], marker: null, ignored: [] }
          folders.set(ref.folder.prefix, f)
        }
        if (ref.kind === 'data') f.dataFiles.push(object)
        else if (ref.kind === 'marker') f.marker = object
        else {
          f.ignored.push(object)
          ignored.push({ object, folder: ref.folder, reason: ref.reason })
        }
      }
    }
  }
  for (const f of folders.values()) f.dataFiles.sort((a, b) => compareFileNames(a.key, b.key))
  return { version, folders, manifests, unrecognized, ignored }
}

/** A folder is ready when it holds _SUCCESS; one without it is in flight or failed and is never read. */
export function isReady(f: Folder): boolean {
  return f.marker !== null
}

/** Optional cut-off: only folders delivered at or before this hour (UTC ms) count. */
export interface AsOf {
  readonly asOf?: number
}

function withinAsOf(f: Folder, opts: AsOf): boolean {
  if (opts.asOf === undefined) return true
  const at = deliveryInstant(f.ref)
  return at === null || at <= opts.asOf
}

/** The version the bucket was on at the as-of hour (now, without one): v2 once a v2 manifest existed. */
export function versionAt(inv: Inventory, opts: AsOf = {}): Version {
  if (opts.asOf === undefined) return inv.version
  for (const m of inv.manifests.values()) {
    if (m.ref.version === 'v2' && instantOf(m.ref.date, m.ref.hour ?? 0) <= opts.asOf) return 'v2'
  }
  return 'v1'
}

function foldersOf(inv: Inventory, t: Pick<CatalogTable, 'schema' | 'table'>): Folder[] {
  const out: Folder[] = []
  for (const f of inv.folders.values()) if (f.ref.schema === t.schema && f.ref.table === t.table) out.push(f)
  return out
}

/**
 * Latest ready copy of a table rewritten in full: the most recent partition holding _SUCCESS, by date then
 * hour, in the current version's prefix only. Null when that prefix has no ready copy.
 */
export function latestReady(inv: Inventory, t: Pick<CatalogTable, 'schema' | 'table'>, opts: AsOf = {}): Folder | null {
  const version = versionAt(inv, opts)
  let best: Folder | null = null
  for (const f of foldersOf(inv, t)) {
    if (f.ref.mode !== 'full' || f.ref.version !== version || !isReady(f) || !withinAsOf(f, opts)) continue
    if (!best || compareDelivery(f.ref, best.ref) > 0) best = f
  }
  return best
}

/** Every ready parts folder of a table, from both prefixes, oldest delivery first. */
export function readyPartsFolders(inv: Inventory, t: Pick<CatalogTable, 'schema' | 'table'>, opts: AsOf = {}): Folder[] {
  return foldersOf(inv, t)
    .filter((f) => f.ref.mode === 'parts' && isReady(f) && withinAsOf(f, opts))
    .sort((a, b) => compareDelivery(a.ref, b.ref))
}

/** The ready folders a table's logical view reads: the latest copy (full) or every part (parts). */
export function foldersForLogicalTable(inv: Inventory, t: Pick<CatalogTable, 'schema' | 'table' | 'mode'>, opts: AsOf = {}): Folder[] {
  if (t.mode === 'full') {
    const f = latestReady(inv, t, opts)
    return f ? [f] : []
  }
  return readyPartsFolders(inv, t, opts)
}

/** Tables present in the bucket that the catalog does not know, as "schema.table". */
export function unknownTables(inv: Inventory): string[] {
  const names = new Set<string>()
  for (const f of inv.folders.values()) if (!f.ref.catalog) names.add(`${f.ref.schema}.${f.ref.table}`)
  return [...names].sort()
}
