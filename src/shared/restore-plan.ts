// What a bulk restore of archived history would do, before it starts: for one table (or every table), the archived
// files its logical view needs (count, bytes, which delivery dates), and how long the chosen retrieval tier usually
// takes for the files' archive classes, in words a user reads before starting. Pure: from the inventory and `now`.
import { countText, formatBytes } from './counts'
import { CATALOG, type CatalogTable } from './catalog'
import { compareDelivery } from './delivery-order'
import { type Folder, type Inventory, foldersForLogicalTable, readyPartsFolders } from './inventory'
import { isArchived, type ListedObject } from './listing'

export const RESTORE_TIERS = ['Expedited', 'Standard', 'Bulk'] as const
export type RestoreTier = (typeof RESTORE_TIERS)[number]

/** Days a restored copy may stay readable: S3 takes 1 or more; the app offers up to a year. */
export const RESTORE_MAX_DAYS = 365

/** GCS classes that are cheaper to keep and read directly (retrieval fees may apply): never restored. */
const READ_DIRECTLY_CLASSES = new Set(['NEARLINE', 'COLDLINE', 'ARCHIVE'])

/** The usual delay of a tier, per S3 archive class (AWS's published figures); null: the class has no such tier. */
const USUAL_DELAY: Readonly<Record<string, Readonly<Record<RestoreTier, string | null>>>> = {
  GLACIER: { Expedited: '1–5 minutes', Standard: '3–5 hours', Bulk: '5–12 hours' },
  DEEP_ARCHIVE: { Expedited: null, Standard: 'within 12 hours', Bulk: 'within 48 hours' }
}

const CLASS_NAME: Readonly<Record<string, string>> = { GLACIER: 'Glacier Flexible Retrieval', DEEP_ARCHIVE: 'Glacier Deep Archive' }

export interface RestoreFile {
  readonly key: string
  readonly size: number
  readonly storageClass: string
  /** "schema.table" whose view needs it. */
  readonly table: string
}

export interface RestorePlan {
  /** "schema.table", or null for every table. */
  readonly table: string | null
  readonly tier: RestoreTier
  readonly days: number
  /** The archived files to restore, in delivery order (each once, even when two tables would need it). */
  readonly files: readonly RestoreFile[]
  readonly count: number
  readonly bytes: number
  /** Delivery dates of their folders ("__initial__", "2026-05-03"), oldest first. */
  readonly dates: readonly string[]
  /** Per archive class: files, bytes and the tier's usual delay there (null when the class has no such tier). */
  readonly classes: readonly {
    readonly storageClass: string
    readonly name: string
    readonly count: number
    readonly bytes: number
    readonly delay: string | null
  }[]
  /** Files in classes read directly (GCS Nearline, Coldline, Archive): no restore needed, retrieval fees may apply. */
  readonly readDirectly: { readonly count: number; readonly bytes: number }
  /** Why this plan cannot start (nothing to restore, a tier the files' class does not offer), or null. */
  readonly problem: string | null
  /** What the restore does, in words, for the user to read before starting. */
  readonly summary: string
}

const dateOf = (f: Folder): string => (f.ref.partition.kind === 'etl' && f.ref.partition.initial ? '__initial__' : f.ref.partition.date)

function dateList(dates: readonly string[]): string {
  if (dates.length <= 6) return dates.join(', ')
  return `${dates.slice(0, 3).join(', ')}, … ${dates.slice(-2).join(', ')} (${dates.length} dates)`
}

/** The folders a table's logical view reads now (every ready part; a full table's latest ready copy). */
function foldersNeeded(inventory: Inventory, t: CatalogTable, now: number): Folder[] {
  return t.mode === 'parts' ? readyPartsFolders(inventory, t, { now }) : foldersForLogicalTable(inventory, t, { now })
}

/** What becomes of the files once restored: parts tables' files go into the local mirror for good. */
function fullOnly(folders: readonly Folder[]): string {
  const full = folders.filter((f) => f.ref.mode === 'full').length
  const mirrored = "the app copies the parts tables' files into its local mirror as soon as they are restored, so they never need restoring again."
  return full === 0 ? mirrored : `${mirrored} A full table's copy is read from the bucket, and only while its restored copy lasts.`
}

/** `held`: archived keys the local mirror holds already (restored once, mirrored): never restored again. */
export function planRestore(
  inventory: Inventory,
  now: number,
  args: { readonly table: string | null; readonly tier: RestoreTier; readonly days: number },
  held: ReadonlySet<string> = new Set()
): RestorePlan {
  const tables = args.table === null ? CATALOG : CATALOG.filter((t) => `${t.schema}.${t.table}` === args.table)
  const seen = new Set<string>()
  const found: { file: RestoreFile; folder: Folder }[] = []
  const direct: ListedObject[] = []
  for (const t of tables) {
    for (const folder of foldersNeeded(inventory, t, now)) {
      for (const o of folder.dataFiles) {
        if (seen.has(o.key)) continue
        seen.add(o.key)
        if (isArchived(o, now) && !held.has(o.key))
          found.push({ file: { key: o.key, size: o.size, storageClass: o.storageClass ?? 'GLACIER', table: `${t.schema}.${t.table}` }, folder })
        else if (o.storageClass && READ_DIRECTLY_CLASSES.has(o.storageClass)) direct.push(o)
      }
    }
  }
  found.sort((a, b) => compareDelivery(a.folder.ref, b.folder.ref) || (a.file.key < b.file.key ? -1 : 1))
  const files = found.map((x) => x.file)
  const bytes = files.reduce((n, f) => n + f.size, 0)
  const dates = [...new Set(found.map((x) => dateOf(x.folder)))]
  const byClass = new Map<string, { count: number; bytes: number }>()
  for (const f of files) {
    const c = byClass.get(f.storageClass) ?? { count: 0, bytes: 0 }
    byClass.set(f.storageClass, { count: c.count + 1, bytes: c.bytes + f.size })
  }
  const classes = [...byClass].map(([storageClass, c]) => ({
    storageClass,
    name: CLASS_NAME[storageClass] ?? storageClass,
    ...c,
    delay: USUAL_DELAY[storageClass]?.[args.tier] ?? null
  }))
  const readDirectly = { count: direct.length, bytes: direct.reduce((n, o) => n + o.size, 0) }
  const what = args.table ?? 'any table'
  const noTier = classes.filter((c) => c.delay === null)
  const problem =
    args.table !== null && tables.length === 0
      ? `${args.table} is not a table of the catalog: choose one of the tables listed.`
      : files.length === 0
        ? `Nothing to restore: no file ${what} reads is archived.`
        : noTier.length > 0
          ? `${countText(
              noTier.reduce((n, c) => n + c.count, 0),
              'file'
            )} ${noTier.length === 1 && noTier[0]?.count === 1 ? 'is' : 'are'} in ${noTier.map((c) => c.name).join(' and ')}, which has no ${args.tier} retrieval: choose Standard (within 12 hours) or Bulk (within 48 hours).`
          : !Number.isInteger(args.days) || args.days < 1 || args.days > RESTORE_MAX_DAYS
            ? `Keep the restored copies from 1 to ${RESTORE_MAX_DAYS} days.`
            : null
  const delays = classes.map((c) => `${c.delay ?? `no ${args.tier} tier`} for ${countText(c.count, 'file')} in ${c.name}`).join('; ')
  const summary =
    files.length === 0
      ? `No file ${what} reads is archived: nothing to restore.`
      : `Restores ${countText(files.length, 'archived file')} (${formatBytes(bytes)}) that ${what} needs, delivered ${dateList(dates)}. ${args.tier} retrieval usually takes ${delays}. ` +
        `S3 keeps each restored copy readable for ${countText(args.days, 'day')}; ${fullOnly(found.map((x) => x.folder))}`
  return { table: args.table, tier: args.tier, days: args.days, files, count: files.length, bytes, dates, classes, readDirectly, problem, summary }
}

/** What a GCS connection says where the app shows left-out files or offers restore. */
export const GCS_NO_RESTORE = 'On GCS, objects in Nearline, Coldline and Archive are read directly: they need no restore (retrieval fees may apply).'
