// The compacted mirror's plan: which segments (one Parquet file per parts table and period) hold which ready
// folders, from the inventory and the clock. `__initial__` alone; v1 by month; v2 by month once the month is over,
// by day once the day is over, and the current day by hour. A segment is named by its folders' identities, so a
// segment whose folders did not change is never rebuilt, and one whose folders changed (a folder that became
// ready, a new hour of the day) is.
import type { FolderRef } from './bucket-key'
import { CATALOG, type CatalogTable } from './catalog'
import { deliveryOrderKey } from './delivery-order'
import { type AsOf, type Folder, type Inventory, readyPartsFolders, writtenAt } from './inventory'
import { IdentityHasher } from './identity-tag'
import { isArchived, type ListedObject } from './listing'
import { type SupersededList, supersededFor } from './mirror-superseded'

export interface SegmentFile {
  readonly object: ListedObject
  /** Position of the file in its folder by name (the rule's tie-break within a folder). */
  readonly fileRank: number
}

export interface SegmentFolder {
  readonly folder: Folder
  readonly order: number
  /** When its _SUCCESS was written (UTC ms): "as of" reads a folder once that is at or before the instant. */
  readonly readyAt: number
  /** Its readable files, and those left out (archived: they cannot be read until restored). */
  readonly files: readonly SegmentFile[]
  readonly leftOut: readonly ListedObject[]
}

export interface SegmentPlan {
  /** "schema.table". */
  readonly table: string
  /** The period: "initial", "v1-2026-10", "v2-2026-11", "v2-2026-11-12" or "v2-2026-11-13T03". */
  readonly period: string
  readonly folders: readonly SegmentFolder[]
  /** Names what the segment holds (folders, markers and files with their versions): a change means a rebuild. */
  readonly identity: string
}

/** `today`: the evaluation instant's UTC date (YYYY-MM-DD). */
function periodOf(f: FolderRef, today: string): string {
  const p = f.partition
  if (p.kind === 'etl' && p.initial) return 'initial'
  if (f.version === 'v1') return `v1-${p.date.slice(0, 7)}`
  if (p.date.slice(0, 7) < today.slice(0, 7)) return `v2-${p.date.slice(0, 7)}`
  if (p.date < today) return `v2-${p.date}`
  return `v2-${p.date}T${p.hour ?? '00'}`
}

/**
 * The segments of one parts table: every folder it reads now (`now`: the evaluation instant), grouped by period.
 * `held`: archived keys whose whole copy is held locally (downloaded while restored): read, not left out.
 */
export function planTableSegments(
  inventory: Inventory,
  t: Pick<CatalogTable, 'schema' | 'table'>,
  now: number,
  held: ReadonlySet<string> = new Set()
): SegmentPlan[] {
  const byPeriod = new Map<string, SegmentFolder[]>()
  const today = new Date(now).toISOString().slice(0, 10)
  for (const folder of readyPartsFolders(inventory, t, { now })) {
    // The inventory keeps a folder's files sorted by name already.
    const files: SegmentFile[] = []
    const leftOut: ListedObject[] = []
    folder.dataFiles.forEach((o, fileRank) => (isArchived(o, now) && !held.has(o.key) ? leftOut.push(o) : files.push({ object: o, fileRank })))
    const entry: SegmentFolder = { folder, order: deliveryOrderKey(folder.ref), readyAt: writtenAt(folder.marker as ListedObject), files, leftOut }
    const period = periodOf(folder.ref, today)
    const list = byPeriod.get(period)
    if (list) list.push(entry)
    else byPeriod.set(period, [entry])
  }
  return [...byPeriod].map(([period, folders]) => ({
    table: `${t.schema}.${t.table}`,
    period,
    folders,
    identity: folders.reduce((h, f, i) => addFolderLine(i === 0 ? h : h.add('\n'), f), new IdentityHasher()).tag()
  }))
}

/**
 * What a folder's rows in the mirror are made of: its marker, its files and those left out, with their versions, as
 * the line `prefix|marker|file|file…|leftOut|leftOut…` (objects by objectIdentity) added to a hash.
 */
function addFolderLine(h: IdentityHasher, f: SegmentFolder): IdentityHasher {
  h.add(f.folder.ref.prefix)
    .add('|')
    .addObject(f.folder.marker as ListedObject)
    .add('|')
  f.files.forEach((x, i) => (i === 0 ? h : h.add('|')).addObject(x.object))
  h.add('|')
  f.leftOut.forEach((o, i) => (i === 0 ? h : h.add('|')).addObject(o))
  return h
}

/** A folder's identity: changes whenever what its rows are made of does (addFolderLine). */
export const folderIdentity = (f: SegmentFolder): string => addFolderLine(new IdentityHasher(), f).tag()

/** Every parts table's segments. */
export function planMirror(inventory: Inventory, now: number, held: ReadonlySet<string> = new Set()): SegmentPlan[] {
  return CATALOG.filter((t) => t.mode === 'parts').flatMap((t) => planTableSegments(inventory, t, now, held))
}

/** Keys of data files the mirror's segments hold (their folders' files, but those left out when built): a file
 * restored once and mirrored never needs restoring again, even after its restored copy expires. */
export function mirroredKeys(inventory: Inventory, segments: readonly MirroredSegment[]): Set<string> {
  const out = new Set<string>()
  for (const s of segments) {
    for (const f of s.folders) {
      const folder = inventory.folders.get(f.prefix)
      if (!folder) continue
      const left = new Set(f.leftOut.map((o) => o.key))
      for (const o of folder.dataFiles) if (!left.has(o.key)) out.add(o.key)
    }
  }
  return out
}

/** A built segment as the mirror's index records it. */
export interface MirroredSegment {
  readonly table: string
  readonly period: string
  readonly identity: string
  /** The segment's file, relative to the mirror folder. */
  readonly file: string
  readonly rows: number
  readonly bytes: number
  /** Columns of the vendor's data in the segment (without the mirror's own). */
  readonly columns: readonly string[]
  /** Their DuckDB types: the same in every segment of a table (unified as native DuckDB combines its files). */
  readonly types: Readonly<Record<string, string>>
  /** The column sets its folders' files have (a column added part-way: "as of" before it, the view lacks it). */
  readonly columnSets: readonly (readonly string[])[]
  /** The folders it holds: delivery-order key, _SUCCESS time, its column set, and the files left out (archived when built). */
  readonly folders: readonly {
    readonly prefix: string
    readonly order: number
    readonly readyAt: number
    readonly columnSet: number
    readonly leftOut: readonly LeftOut[]
    /** folderIdentity when it was built (absent in segments built before folders had one). */
    readonly identity?: string
  }[]
}

export interface LeftOut {
  readonly key: string
  readonly size: number
  readonly storageClass: string | null
  /** Why: in an archive class (until restored), or not a readable Parquet file. */
  readonly reason?: 'archived' | 'unreadable'
}

/**
 * What a logical table reads from the mirror for the folders the rules include (as of an instant, or now), or
 * why it cannot: a folder the rules include that no segment holds yet (the mirror is behind the listing).
 */
export type MirrorSelection =
  | {
      readonly ok: true
      readonly segments: readonly MirroredSegment[]
      readonly excludedOrders: readonly number[]
      readonly maxOrder: number
      readonly leftOut: readonly LeftOut[]
      /** The vendor's columns of the included folders, in delivery order of first appearance. */
      readonly columns: readonly string[]
      /** The table's list of superseded row versions, where it was made from exactly the rows read (mirror-superseded.ts). */
      readonly superseded: SupersededList | null
      /**
       * The included folders no segment holds yet (a new hour the mirror has not built, a segment that failed), in
       * delivery order: read from their raw files beside the segments, under the same rule (mirror-sql.ts).
       */
      readonly raw: readonly Folder[]
    }
  | { readonly ok: false; readonly missing: number }

/** True when every segment gives each column the same type (a build that stopped before unifying them may not). */
export function typesAgree(segments: readonly MirroredSegment[]): boolean {
  const seen = new Map<string, string>()
  for (const s of segments) {
    for (const [c, t] of Object.entries(s.types)) {
      if ((seen.get(c) ?? t) !== t) return false
      seen.set(c, t)
    }
  }
  return true
}

function selectSegments(
  inventory: Inventory,
  t: Pick<CatalogTable, 'schema' | 'table'>,
  mirrored: readonly MirroredSegment[],
  opts: AsOf = {},
  lists: readonly SupersededList[] = []
): MirrorSelection {
  const name = `${t.schema}.${t.table}`
  const mine = mirrored.filter((s) => s.table === name)
  // (A year holds ~9,000 folders and views ask at every opening: each walk below is made once, by folder order.)
  const heldOrders = new Set<number>()
  for (const s of mine) for (const f of s.folders) heldOrders.add(f.order)
  const included = readyPartsFolders(inventory, t, opts)
  const includedOrders = new Set<number>()
  const raw: Folder[] = []
  let maxOrder = -1
  for (const f of included) {
    const order = deliveryOrderKey(f.ref)
    includedOrders.add(order)
    if (order > maxOrder) maxOrder = order
    if (!heldOrders.has(order)) raw.push(f)
  }
  // A folder left to its raw files must be readable as it is: one with an archived file is not (the raw path says why).
  const now = opts.now ?? Date.now()
  if (raw.some((f) => f.dataFiles.some((o) => isArchived(o, now)))) return { ok: false, missing: raw.length }
  const segments: MirroredSegment[] = []
  const excludedOrders: number[] = []
  const leftOut: LeftOut[] = []
  const columns = new Set<string>()
  // A list stands for whole segments: only a read of every folder they hold (no "as of" before their last) uses it, and
  // with raw folders beside them only when those are all newer (each then replaces the segments' versions of its keys).
  let whole = true
  let newest = -1
  for (const s of mine) {
    // A segment's folders share a few column sets: each set used is added once, in the order folders first use it.
    const used = new Set<number>()
    const excluded: number[] = []
    for (const f of s.folders) {
      if (includedOrders.has(f.order)) {
        used.add(f.columnSet)
        for (const o of f.leftOut) leftOut.push(o)
      } else excluded.push(f.order)
    }
    if (used.size === 0) continue
    segments.push(s)
    for (const f of s.folders) if (f.order > newest) newest = f.order
    if (excluded.length > 0) whole = false
    for (const o of excluded) if (o < maxOrder) excludedOrders.push(o)
    for (const i of used) for (const c of s.columnSets[i] ?? []) columns.add(c)
  }
  // Segments that disagree on a type (a build stopped between compacting and unifying): DuckDB-WASM 0.9.1 cannot read them together.
  if (!typesAgree(segments.filter((s) => s.rows > 0))) return { ok: false, missing: 0 }
  const rawAfter = raw.every((f) => deliveryOrderKey(f.ref) > newest)
  const superseded = whole && rawAfter ? supersededFor(name, segments, lists) : null
  return { ok: true, segments: segments.filter((s) => s.rows > 0), excludedOrders, maxOrder, leftOut, columns: [...columns], superseded, raw }
}

/** The selection a parts table's views read from the mirror. */
export type MirrorRead = Extract<MirrorSelection, { ok: true }>

/**
 * Which segments a parts table's views read, and which included folders beside them from their raw files (those no
 * segment holds yet); or null when they read only the table's raw files (its segments disagree on a type, a folder
 * left to its raw files has an archived file, or the mirror holds no row of the table). Decided once here for both
 * engines' views and the query pane's version, so they cannot differ.
 */
export function mirrorRead(
  inventory: Inventory,
  t: Pick<CatalogTable, 'schema' | 'table'>,
  mirrored: readonly MirroredSegment[],
  opts: AsOf = {},
  /** The mirror's superseded lists: a keyed table whose list fits the rows read reads through it. */
  lists: readonly SupersededList[] = []
): MirrorRead | null {
  const selection = selectSegments(inventory, t, mirrored, opts, lists)
  return selection.ok && selection.segments.length > 0 ? selection : null
}
