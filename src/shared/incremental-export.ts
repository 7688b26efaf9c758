// Incremental exports (`export --since-last`, `watch --export-dir`): which folders of a table are new since a cursor,
// the bucket seen through only some of them (so the logical-table rules run unchanged on the new folders alone), the
// cursor after a run, and the words for what a file holds. Pure.
import { type FolderRef, parseKey } from './bucket-key'
import { type CatalogTable, qualifiedName } from './catalog'
import { countText } from './counts'
import { compareDelivery, deliveryInstant } from './delivery-order'
import { type AsOf, type Folder, type Inventory, buildInventory, latestReady, readyPartsFolders } from './inventory'

/** What a cursor remembers: the table and filter it follows, and the ready folders already exported. */
export interface ExportCursor {
  /** "schema.table". */
  readonly table: string
  readonly where: string | null
  /** Parts tables: every ready folder exported so far; full tables: the copy exported last. Folder prefixes. */
  readonly folders: readonly string[]
  /** When the cursor last moved (ISO). */
  readonly movedAt: string
}

/** The identity a cursor has without --cursor NAME: the table and the filter (never the output path, so an hourly
 * job may write a file per hour). The bucket is added by the caller. */
export function defaultCursorName(t: Pick<CatalogTable, 'schema' | 'table'>, where: string | null): string {
  return `${t.schema}.${t.table}|${where ?? ''}`
}

/** The cursor as read from its file, or the problems that make it unusable (it then counts as damaged). */
export function decodeCursor(parsed: unknown): { readonly cursor: ExportCursor | null; readonly problems: string[] } {
  if (parsed === null) return { cursor: null, problems: [] }
  const p = parsed as Partial<ExportCursor>
  const ok =
    typeof p === 'object' &&
    typeof p.table === 'string' &&
    (p.where === null || typeof p.where === 'string') &&
    Array.isArray(p.folders) &&
    p.folders.every((f) => typeof f === 'string' && f.endsWith('/')) &&
    typeof p.movedAt === 'string'
  if (!ok) return { cursor: null, problems: ['it is not an export cursor (table, where, folders, movedAt)'] }
  return { cursor: { table: p.table as string, where: p.where ?? null, folders: p.folders as string[], movedAt: p.movedAt as string }, problems: [] }
}

/** Why a cursor cannot serve this export (another table or filter under the same --cursor NAME), or null. */
export function cursorMismatch(cursor: ExportCursor | null, t: Pick<CatalogTable, 'schema' | 'table'>, where: string | null, name: string): string | null {
  if (!cursor) return null
  const table = qualifiedName(t)
  if (cursor.table === table && cursor.where === where) return null
  const was = `${cursor.table}${cursor.where ? ` where ${cursor.where}` : ''}`
  return `the cursor "${name}" follows ${was}, not ${table}${where ? ` where ${where}` : ''}; name another cursor with --cursor NAME`
}

/** What an incremental export reads. */
export type IncrementalPlan =
  | {
      readonly mode: 'parts'
      /** No cursor yet: everything delivered so far. */
      readonly first: boolean
      /** Ready folders not exported yet, in delivery order. */
      readonly fresh: readonly Folder[]
      /** Ready folders exported before, in delivery order. */
      readonly exported: readonly Folder[]
    }
  | {
      readonly mode: 'full'
      readonly first: boolean
      /** The latest ready copy when it is newer than the one exported last; null when none is new. */
      readonly copy: Folder | null
      /** The copy exported last (a prefix), if any. */
      readonly previous: string | null
    }

/** The folders new since `cursor` (null: no cursor yet), by the same rules as the logical table (ready, the version,
 * unreadable files left out, a full table's latest ready copy). */
export function incrementalPlan(inv: Inventory, t: CatalogTable, cursor: ExportCursor | null, opts: AsOf = {}): IncrementalPlan {
  const done = new Set(cursor?.folders ?? [])
  if (t.mode === 'full') {
    const latest = latestReady(inv, t, opts)
    const previous = cursor?.folders.at(-1) ?? null
    const prevRef = previous === null ? null : refOf(previous)
    const newer = latest !== null && (prevRef === null ? !done.has(latest.ref.prefix) : compareDelivery(latest.ref, prevRef) > 0)
    return { mode: 'full', first: cursor === null, copy: newer ? latest : null, previous }
  }
  const ready = readyPartsFolders(inv, t, opts)
  return { mode: 'parts', first: cursor === null, fresh: ready.filter((f) => !done.has(f.ref.prefix)), exported: ready.filter((f) => done.has(f.ref.prefix)) }
}

function refOf(prefix: string): FolderRef | null {
  const r = parseKey(`${prefix}_SUCCESS`)
  return r.kind === 'marker' ? r.folder : null
}

/** The cursor once the file is complete: every folder read is exported (parts), or the copy read (full). */
export function cursorAfter(
  cursor: ExportCursor | null,
  plan: IncrementalPlan,
  t: Pick<CatalogTable, 'schema' | 'table'>,
  where: string | null,
  at: number
): ExportCursor {
  const folders =
    plan.mode === 'full'
      ? plan.copy
        ? [plan.copy.ref.prefix]
        : (cursor?.folders.slice(-1) ?? [])
      : [...new Set([...(cursor?.folders ?? []), ...plan.fresh.map((f) => f.ref.prefix)])]
  return { table: qualifiedName(t), where, folders, movedAt: new Date(at).toISOString() }
}

/**
 * The bucket as if the table held only `keep` of its folders (every other object as it is: the version, the other
 * tables): the rules then pick the newest version of each key among those folders alone, unchanged.
 */
export function inventoryWith(inv: Inventory, t: Pick<CatalogTable, 'schema' | 'table'>, keep: readonly Folder[]): Inventory {
  const kept = new Set(keep.map((f) => f.ref.prefix))
  const drop = new Set<string>()
  for (const f of inv.folders.values()) {
    if (f.ref.schema !== t.schema || f.ref.table !== t.table || kept.has(f.ref.prefix)) continue
    for (const o of [...f.dataFiles, ...f.ignored, ...(f.marker ? [f.marker] : [])]) drop.add(o.key)
  }
  return buildInventory(
    inv.objects.filter((o) => !drop.has(o.key)),
    {}
  )
}

/** The new folders grouped by delivery hour (UTC ms; null for etl_date=__initial__), oldest first: one watch file each. */
export function foldersByHour(folders: readonly Folder[]): { readonly hour: number | null; readonly folders: readonly Folder[] }[] {
  const groups = new Map<number | null, Folder[]>()
  for (const f of folders) {
    const h = deliveryInstant(f.ref)
    groups.set(h, [...(groups.get(h) ?? []), f])
  }
  return [...groups.entries()].sort(([a], [b]) => (a ?? -Infinity) - (b ?? -Infinity)).map(([hour, fs]) => ({ hour, folders: fs }))
}

/** A folder's partition as its path says it: "etl_date=2026-11-03/etl_hour=04", "snapshot_date=2026-11-02". */
export function partitionText(f: Pick<FolderRef, 'prefix' | 'version'>): string {
  const segs = f.prefix.split('/').filter((s) => s.includes('='))
  return `${f.version}/${segs.join('/')}`
}

/** The watch's file name for a delivery hour: "2026-11-13T02" (an hour of no instant, etl_date=__initial__: "initial"). */
export function hourFileStem(hour: number | null): string {
  return hour === null ? 'initial' : new Date(hour).toISOString().slice(0, 13)
}

/** What an incremental file holds, for its closing line: "incremental (cursor C): 3 new folders, v2/etl_date=…/etl_hour=00
 * … v2/etl_date=…/etl_hour=02". */
export function incrementalWords(plan: IncrementalPlan, cursorName: string): string {
  const cursor = `cursor "${cursorName}"`
  if (plan.mode === 'full') {
    if (plan.copy)
      return plan.first
        ? `incremental, first run of ${cursor}: the latest ready copy ${plan.copy.ref.prefix}`
        : `incremental (${cursor}): the new ready copy ${plan.copy.ref.prefix}`
    return plan.first
      ? `incremental, first run of ${cursor}: no ready copy yet`
      : `incremental (${cursor}): no new ready copy since ${plan.previous ?? 'the last run'}, so no rows`
  }
  const n = plan.fresh.length
  if (n === 0) return `incremental (${cursor}): no new folder since the last run, so no rows (header only)`
  const first = plan.fresh[0] as Folder
  const last = plan.fresh[n - 1] as Folder
  const span = n === 1 ? partitionText(first.ref) : `${partitionText(first.ref)} … ${partitionText(last.ref)}`
  return plan.first
    ? `incremental, first run of ${cursor}: everything delivered so far, ${countText(n, 'folder')} (${span})`
    : `incremental (${cursor}): ${countText(n, 'new folder')} (${span})`
}
