// Groups a bucket listing into partition folders, manifests and keys that break the layout, and answers
// the questions every view asks of it: the version, the latest ready copy, the ready parts folders.
import { type FolderRef, type KeyRef, type Version, parseKey } from './bucket-key'
import type { CatalogTable } from './catalog'
import { compareDelivery, compareFileNames } from './delivery-order'
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
  /** When the first key under v2/_manifests/ was written (UTC ms); null while there is none. Decides the version at any instant. */
  readonly v2Since: number | null
  /** The object that was written first under v2/_manifests/ (what another engine needs to decide the version alike). */
  readonly v2Evidence: ListedObject | null
  /** Folders by prefix. */
  readonly folders: ReadonlyMap<string, Folder>
  /** Manifest objects by key, with their parsed reference. */
  readonly manifests: ReadonlyMap<string, { readonly object: ListedObject; readonly ref: Extract<KeyRef, { kind: 'manifest' }> }>
  readonly unrecognized: ReadonlyArray<{ readonly object: ListedObject; readonly reason: string }>
  readonly ignored: ReadonlyArray<{ readonly object: ListedObject; readonly folder: FolderRef; readonly reason: string }>
  /** Every object it was built from, and when the newest of them was written: to see the bucket as it was at an instant. */
  readonly objects: readonly ListedObject[]
  readonly newestWrite: number
}

/** The one version rule: a key under v2/_manifests/ (any, parsed or not) puts the bucket on v2, as the vendor's job checks it. */
export function isV2Evidence(key: string): boolean {
  return key.startsWith('v2/_manifests/')
}

/** The bucket is on v2 once anything exists under v2/_manifests/, whatever the clock says. */
export function detectVersion(keys: Iterable<string>): Version {
  for (const k of keys) if (isV2Evidence(k)) return 'v2'
  return 'v1'
}

/** When an object was written; an unreadable time counts as "always there" rather than hiding the object. */
export function writtenAt(o: ListedObject): number {
  const t = Date.parse(o.lastModified)
  return Number.isNaN(t) ? -Infinity : t
}

export interface InventoryOptions {
  /** Objects written after this instant (UTC ms) do not exist yet (`--now`). */
  readonly now?: number
}

export function buildInventory(objects: Iterable<ListedObject>, opts: InventoryOptions = {}): Inventory {
  const folders = new Map<string, { ref: FolderRef; dataFiles: ListedObject[]; marker: ListedObject | null; ignored: ListedObject[] }>()
  const manifests = new Map<string, { object: ListedObject; ref: Extract<KeyRef, { kind: 'manifest' }> }>()
  const unrecognized: { object: ListedObject; reason: string }[] = []
  const ignored: { object: ListedObject; folder: FolderRef; reason: string }[] = []
  const kept: ListedObject[] = []
  let v2Since: number | null = null
  let v2Evidence: ListedObject | null = null
  let newestWrite = -Infinity

  for (const object of objects) {
    const at = writtenAt(object)
    if (opts.now !== undefined && at > opts.now) continue
    kept.push(object)
    newestWrite = Math.max(newestWrite, at)
    if (isV2Evidence(object.key) && (v2Since === null || at < v2Since)) {
      v2Since = at
      v2Evidence = object
    }
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
  return { version: v2Since !== null ? 'v2' : 'v1', v2Since, v2Evidence, folders, manifests, unrecognized, ignored, objects: kept, newestWrite }
}

// The last inventory cut at an instant, per inventory: views ask it once per table.
const cuts = new WeakMap<Inventory, { now: number; inv: Inventory }>()

/** The bucket as it was at `now`: objects written after it do not exist yet. The same inventory when nothing is newer. */
export function inventoryAt(inv: Inventory, now: number): Inventory {
  if (inv.newestWrite <= now) return inv
  const cached = cuts.get(inv)
  if (cached?.now === now) return cached.inv
  const cut = buildInventory(inv.objects, { now })
  cuts.set(inv, { now, inv: cut })
  return cut
}

/** A folder is ready when it holds _SUCCESS; one without it is in flight or failed and is never read. */
export function isReady(f: Folder): f is Folder & { readonly marker: ListedObject } {
  return f.marker !== null
}

/**
 * Optional instants. `asOf`: the tables as a reader saw them then, i.e. only folders whose _SUCCESS was written at
 * or before it. `now`: objects written after it do not exist yet (the app's evaluation instant, `--now`).
 */
export interface AsOf {
  readonly asOf?: number
  readonly now?: number
  /** Data files found not to be readable Parquet (empty, cut short, damaged footer), by key: a full table's copy holding
   * one is passed over for the previous readable copy; a parts folder is read without it. */
  readonly unreadable?: ReadonlySet<string>
}

/** True when the copy holds a data file known to be unreadable. */
function holdsUnreadable(f: Folder, opts: AsOf): boolean {
  const bad = opts.unreadable
  return bad !== undefined && bad.size > 0 && f.dataFiles.some((o) => bad.has(o.key))
}

/** The folder without its unreadable files (the same object when it has none). */
function withoutUnreadable(f: Folder, opts: AsOf): Folder {
  return holdsUnreadable(f, opts) ? { ...f, dataFiles: f.dataFiles.filter((o) => !opts.unreadable?.has(o.key)) } : f
}

function seen(inv: Inventory, opts: AsOf): Inventory {
  return opts.now !== undefined ? inventoryAt(inv, opts.now) : inv
}

function readyAsOf(f: Folder, opts: AsOf): boolean {
  if (!isReady(f)) return false
  return opts.asOf === undefined || writtenAt(f.marker) <= opts.asOf
}

/** The version the bucket was on at the as-of instant (now, without one): v2 once a key under v2/_manifests/ was written. */
export function versionAt(inv: Inventory, opts: AsOf = {}): Version {
  const at = Math.min(opts.asOf ?? Infinity, opts.now ?? Infinity)
  return inv.v2Since !== null && inv.v2Since <= at ? 'v2' : 'v1'
}

// Each inventory's folders grouped by table, built on the first question (a year holds ~10,000 folders per table, and
// a run asks of each table many times: the views, the frame check, the mirror's plan). An inventory never changes.
// By schema, then table: no name is built per folder.
const byTable = new WeakMap<Inventory, ReadonlyMap<string, ReadonlyMap<string, readonly Folder[]>>>()

function foldersOf(inv: Inventory, t: Pick<CatalogTable, 'schema' | 'table'>): readonly Folder[] {
  let schemas = byTable.get(inv)
  if (!schemas) {
    const grouped = new Map<string, Map<string, Folder[]>>()
    for (const f of inv.folders.values()) {
      let tables = grouped.get(f.ref.schema)
      if (!tables) grouped.set(f.ref.schema, (tables = new Map()))
      const list = tables.get(f.ref.table)
      if (list) list.push(f)
      else tables.set(f.ref.table, [f])
    }
    byTable.set(inv, (schemas = grouped))
  }
  return schemas.get(t.schema)?.get(t.table) ?? []
}

/**
 * Latest ready copy of a table rewritten in full: the most recent partition holding _SUCCESS, by date then hour, in
 * the current version's prefix. Until the table has a ready v2 copy, its newest ready v1 copy, even once the bucket
 * is on v2 (the vendor: "for those, read the previous hour"). A copy holding an unreadable file is passed over for
 * the previous readable one (`unreadableCopiesPassedOver` says which). Null when no ready copy exists.
 */
export function latestReady(inv: Inventory, t: Pick<CatalogTable, 'schema' | 'table'>, opts: AsOf = {}): Folder | null {
  const version = versionAt(inv, opts)
  const newest = (v: Version): Folder | null => {
    let best: Folder | null = null
    for (const f of foldersOf(seen(inv, opts), t)) {
      if (f.ref.mode !== 'full' || f.ref.version !== v || !readyAsOf(f, opts) || holdsUnreadable(f, opts)) continue
      if (!best || compareDelivery(f.ref, best.ref) > 0) best = f
    }
    return best
  }
  return newest(version) ?? (version === 'v2' ? newest('v1') : null)
}

/** A full table's ready copies in the order latestReady tries them, whatever their files: the bucket's version newest
 * first, then (on v2) the v1 copies newest first. */
function fullCopiesInReadOrder(inv: Inventory, t: Pick<CatalogTable, 'schema' | 'table'>, opts: AsOf): Folder[] {
  const of = (v: Version): Folder[] =>
    foldersOf(seen(inv, opts), t)
      .filter((f) => f.ref.mode === 'full' && f.ref.version === v && readyAsOf(f, opts))
      .sort((a, b) => compareDelivery(b.ref, a.ref))
  const version = versionAt(inv, opts)
  return version === 'v2' ? [...of('v2'), ...of('v1')] : of(version)
}

/** The ready copies of a full table older than `than` that hold Parquet files: where an empty copy may take its columns from. */
function olderCopiesWithFiles(inv: Inventory, t: Pick<CatalogTable, 'schema' | 'table'>, than: Folder, opts: AsOf): Folder[] {
  return foldersOf(seen(inv, opts), t).filter(
    (f) => f.ref.mode === 'full' && f.dataFiles.length > 0 && readyAsOf(f, opts) && compareDelivery(f.ref, than.ref) < 0
  )
}

/** The newest ready copy of a full table older than `than` that holds Parquet files: where an empty copy takes its columns from. */
export function previousCopyWithFiles(inv: Inventory, t: Pick<CatalogTable, 'schema' | 'table'>, than: Folder, opts: AsOf = {}): Folder | null {
  let best: Folder | null = null
  for (const f of olderCopiesWithFiles(inv, t, than, opts)) {
    if (holdsUnreadable(f, opts)) continue
    if (!best || compareDelivery(f.ref, best.ref) > 0) best = f
  }
  return best
}

/** The copies previousCopyWithFiles passes over, each for an unreadable file: those older than `than` and newer than
 * the one it answers (every older one when it answers none). */
export function copiesPassedOverForColumns(inv: Inventory, t: Pick<CatalogTable, 'schema' | 'table'>, than: Folder, opts: AsOf = {}): Folder[] {
  const from = previousCopyWithFiles(inv, t, than, opts)
  return olderCopiesWithFiles(inv, t, than, opts).filter((f) => from === null || compareDelivery(f.ref, from.ref) > 0)
}

/** Every ready parts folder of a table, oldest delivery first: v1 always, v2 once the bucket is on v2 (as the vendor's
 * job reads them). Unreadable files are left out of their folder (`unreadableLeftOut` says which). */
export function readyPartsFolders(inv: Inventory, t: Pick<CatalogTable, 'schema' | 'table'>, opts: AsOf = {}): Folder[] {
  return readyPartsFoldersWhole(inv, t, opts).map((f) => withoutUnreadable(f, opts))
}

// Each inventory's ready parts folders per table and instant, in delivery order (sorting a year's folders is the
// costly part of asking).
const readyParts = new WeakMap<Inventory, Map<string, readonly Folder[]>>()

function readyPartsFoldersWhole(inv: Inventory, t: Pick<CatalogTable, 'schema' | 'table'>, opts: AsOf): readonly Folder[] {
  const onV2 = versionAt(inv, opts) === 'v2'
  const at = seen(inv, opts)
  let known = readyParts.get(at)
  if (!known) readyParts.set(at, (known = new Map()))
  const key = `${t.schema}.${t.table}|${onV2}|${opts.asOf ?? ''}`
  let folders = known.get(key)
  if (!folders) {
    folders = foldersOf(at, t)
      .filter((f) => f.ref.mode === 'parts' && (f.ref.version === 'v1' || onV2) && readyAsOf(f, opts))
      .sort((a, b) => compareDelivery(a.ref, b.ref))
    known.set(key, folders)
  }
  return folders
}

/** What a table's logical view leaves out because files are unreadable: the newer ready copies of a full table passed
 * over (each with its unreadable files), or the unreadable files of a parts table's ready folders. */
export interface UnreadableLeftOut {
  /** Full tables: ready copies newer than the one read, newest first, each holding at least one unreadable file. */
  readonly copies: readonly { readonly folder: Folder; readonly files: readonly ListedObject[] }[]
  /** Parts tables: files left out of the ready folders, in delivery order. */
  readonly files: readonly ListedObject[]
}

export function unreadableLeftOut(inv: Inventory, t: Pick<CatalogTable, 'schema' | 'table' | 'mode'>, opts: AsOf = {}): UnreadableLeftOut {
  const bad = opts.unreadable
  if (!bad || bad.size === 0) return { copies: [], files: [] }
  if (t.mode === 'parts') return { copies: [], files: readyPartsFoldersWhole(inv, t, opts).flatMap((f) => f.dataFiles.filter((o) => bad.has(o.key))) }
  const read = latestReady(inv, t, opts)
  // The copies the rule would have read in turn, from the newest down to the one it reads (all of them when none is
  // readable): latestReady's order, walked once (asking it again per copy passed over was quadratic on a year).
  const copies: { folder: Folder; files: ListedObject[] }[] = []
  for (const f of fullCopiesInReadOrder(inv, t, opts)) {
    if (f === read) break
    copies.push({ folder: f, files: f.dataFiles.filter((o) => bad.has(o.key)) })
  }
  return { copies, files: [] }
}

/**
 * The ready folders a table's logical view reads: every part (parts tables); for a full table its latest copy, or,
 * when that copy holds no Parquet file, [that copy, the previous copy with files] (no rows, the columns of the second).
 */
export function foldersForLogicalTable(inv: Inventory, t: Pick<CatalogTable, 'schema' | 'table' | 'mode'>, opts: AsOf = {}): Folder[] {
  if (t.mode === 'full') {
    const f = latestReady(inv, t, opts)
    if (!f) return []
    const columnsFrom = f.dataFiles.length === 0 ? previousCopyWithFiles(inv, t, f, opts) : null
    return columnsFrom ? [f, columnsFrom] : [f]
  }
  return readyPartsFolders(inv, t, opts)
}

/** Tables present in the bucket that the catalog does not know, as "schema.table". */
export function unknownTables(inv: Inventory): string[] {
  const names = new Set<string>()
  for (const f of inv.folders.values()) if (!f.ref.catalog) names.add(`${f.ref.schema}.${f.ref.table}`)
  return [...names].sort()
}
