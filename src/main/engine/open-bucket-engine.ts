// An engine over a connected bucket: the objects the views need are brought into the local file store (once;
// in parallel), then native DuckDB gets the bucket's views from the core (src/shared/bucket-views.ts).
import { type UnlistedPrefix, type ViewsResult, createBucketViews, objectsForViews } from '../../shared/bucket-views'
import type { AsOf, Inventory } from '../../shared/inventory'
import { isArchived, type ListedObject } from '../../shared/listing'
import type { FileStore, StoreProgress } from '../store/file-store'
import { CATALOG, type CatalogTable, qualifiedName } from '../../shared/catalog'
import { type MirrorRead, mirrorRead } from '../../shared/mirror-plan'
import { mirrorKey, supersededKey } from '../../shared/mirror-sql'
import type { Mirror } from '../mirror/mirror'
import { NativeEngine } from './native-engine'

export interface BucketEngine {
  readonly engine: NativeEngine
  readonly views: ViewsResult
  /** Every file the views need was fetched and is readable Parquet (else the next opening fetches or judges again). */
  readonly allFetched: boolean
}

/** A file made readable to the engine under the name the views use. */
export interface LinkedFile {
  readonly name: string
  readonly key: string
  readonly path: string
}

/** One step of the views' opening, as the engine was asked it: files linked, or a statement run (src/main/engine/saved-views.ts). */
export type ViewsStep = { readonly link: readonly LinkedFile[] } | { readonly exec: string }

export interface OpenEngineOptions extends AsOf {
  /** The connection's compacted mirror: parts tables it holds whole are read from it. */
  readonly mirror?: Mirror
  /** The instant the bucket is evaluated at (archived objects are judged then). */
  readonly now?: number
  readonly signal?: AbortSignal
  /** Prefixes the last listing could not list: a table they leave without files says so. */
  readonly unlisted?: readonly UnlistedPrefix[]
  readonly onDownload?: (p: StoreProgress) => void
  readonly onProgress?: (p: { done: number; total: number; table: string }) => void
  /** The tables to open (those the statement names: src/shared/tables-named.ts); every table when absent. */
  readonly tables?: readonly CatalogTable[]
  /** DuckDB already starting (startBucketEngine, over `workDir` and engineReadableRoots of the same store and mirror):
   * its start overlapped what the caller did before (the CLI starts it before the bucket's refresh). */
  readonly started?: Promise<NativeEngine>
  /** Told each step the views took in the engine, once it succeeded, in order (what saved views replay). */
  readonly record?: (step: ViewsStep) => void
}

/** The folders an engine over the bucket may read: the file store's and, for parts tables, the mirror's. */
export function engineReadableRoots(store: FileStore, mirror?: Pick<Mirror, 'dir'>): string[] {
  return [store.readableRoot, ...(mirror ? [mirror.dir] : [])]
}

/** Starts native DuckDB for openBucketEngine in `workDir` (made anew), allowed to read `roots` only. Its failure is
 * left to whoever awaits it. */
export function startBucketEngine(workDir: string, roots: readonly string[]): Promise<NativeEngine> {
  const starting = NativeEngine.open({ workDir, readableRoots: [...roots] })
  starting.catch(() => undefined)
  return starting
}

/**
 * Opens native DuckDB with the bucket's views. `workDir` is the engine's own folder (made anew); `store` holds
 * the whole objects. A table whose files cannot be fetched has no view and says why; the others open.
 */
export async function openBucketEngine(
  store: FileStore,
  inventory: Inventory,
  objects: ReadonlyMap<string, ListedObject>,
  workDir: string,
  opts: OpenEngineOptions = {}
): Promise<BucketEngine> {
  const now = opts.now ?? Date.now()
  const mirror = opts.mirror
  // DuckDB starts on its own threads while the views are planned and their files fetched (a warm query's start waited
  // ~0.1 s for it after them, issue 23).
  const starting = opts.started ?? startBucketEngine(workDir, engineReadableRoots(store, mirror))
  // Its failure is told when it is awaited, after the files are fetched: not an unhandled rejection meanwhile.
  starting.catch(() => undefined)
  try {
    return await viewsOver(starting, store, inventory, objects, { ...opts, now })
  } catch (e) {
    await starting.then(
      (engine) => engine.close(),
      () => undefined
    )
    throw e
  }
}

async function viewsOver(
  starting: Promise<NativeEngine>,
  store: FileStore,
  inventory: Inventory,
  objects: ReadonlyMap<string, ListedObject>,
  opts: OpenEngineOptions & { readonly now: number }
): Promise<BucketEngine> {
  const now = opts.now
  // A file that is not Parquet makes the rules read another copy (full tables), whose files are then needed in turn.
  const unreadable = new Set(opts.unreadable ?? [])
  // Parts tables the mirror holds are read from its segments: only the raw files of the folders it does not hold yet
  // (read beside them) are needed.
  const segments = opts.mirror ? await opts.mirror.segments() : []
  const superseded = opts.mirror ? await opts.mirror.superseded() : []
  const beside: ListedObject[] = []
  // Decided here as the views decide it (the same lists, instants and unreadable files), and handed to them.
  const reads = new Map<string, MirrorRead | null>()
  const mirrored = (opts.tables ?? CATALOG).filter((t) => {
    const read = t.mode === 'parts' && segments.length > 0 ? mirrorRead(inventory, t, segments, { ...opts, unreadable }, superseded) : null
    reads.set(qualifiedName(t), read)
    for (const f of read?.raw ?? []) beside.push(...f.dataFiles)
    return read !== null
  })
  // The other tables' files are those their rules read (a year's folders of a mirrored table are not walked again).
  const others = (opts.tables ?? CATALOG).filter((t) => !mirrored.includes(t))
  // (The set only grows: the same size is the same files.)
  const unreadableBefore = unreadable.size
  const paths = new Map<string, string>()
  const failed = new Map<string, string>()
  // Progress adds up over the rounds (a fallback copy is a second, small round).
  const done = { files: 0, filesTotal: 0, bytes: 0, bytesTotal: 0 }
  const onDownload = opts.onDownload
  let last = done
  for (;;) {
    // The raw files the views read (a table the mirror holds: those of the folders beside its segments).
    const needed = [...objectsForViews(inventory, { ...opts, unreadable, tables: others }), ...beside].filter(
      (o) => o.key.endsWith('.parquet') && !isArchived(o, now) && !unreadable.has(o.key) && !paths.has(o.key) && !failed.has(o.key)
    )
    if (needed.length === 0) break
    const onProgress = (p: StoreProgress): void => {
      last = {
        files: done.files + p.files,
        filesTotal: done.filesTotal + p.filesTotal,
        bytes: done.bytes + p.bytes,
        bytesTotal: done.bytesTotal + p.bytesTotal
      }
      onDownload?.(last)
    }
    const got = await store.ensure(needed, { ...(opts.signal ? { signal: opts.signal } : {}), onProgress })
    Object.assign(done, last)
    for (const [k, p] of got.paths) paths.set(k, p)
    for (const f of got.failures) {
      if (f.unreadable) unreadable.add(f.key)
      else failed.set(f.key, f.error.userMessage)
    }
  }
  const mirror = opts.mirror
  const engine = await starting
  for (const s of segments) if (s.rows > 0 && mirror) paths.set(mirrorKey(s), mirror.pathOf(s.file))
  for (const part of superseded.flatMap((l) => l.parts)) if (mirror) paths.set(supersededKey(part), mirror.pathOf(part.file))
  const views = await createBucketViews(
    {
      register: async (files) => {
        // A file that could not be fetched is said first (a mirrored table's other raw files were never needed).
        const broken = files.find((f) => failed.has(f.key)) ?? files.find((f) => !paths.has(f.key))
        if (broken) throw new Error(failed.get(broken.key) ?? `${broken.key} is not in the local store; refresh and try again.`)
        const linked = files.map((f) => ({ name: f.name, key: f.key, path: paths.get(f.key) as string }))
        await engine.link(linked)
        opts.record?.({ link: linked })
      },
      // Told once done: a statement whose failure the views expect (a probe for a column) changed nothing.
      query: async (sql) => {
        await engine.exec(sql)
        opts.record?.({ exec: sql })
      },
      firstColumn: async (sql) => (await engine.execRows(sql)).map((r) => r[0])
    },
    inventory,
    objects,
    {
      ...opts,
      now,
      unreadable,
      fileBase: engine.fileBase,
      dialect: { filenameColumn: '__ee_filename' },
      // A file found unreadable while fetching changes what the rules read: the views decide again then.
      mirror: mirror ? { segments, superseded, ...(unreadable.size === unreadableBefore ? { reads } : {}) } : undefined
    }
  )
  return { engine, views, allFetched: failed.size === 0 && unreadable.size === unreadableBefore }
}
