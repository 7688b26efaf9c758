// An engine over a connected bucket: the objects the views need are brought into the local file store (once;
// in parallel), then native DuckDB gets the bucket's views from the core (src/shared/bucket-views.ts).
import { join } from 'node:path'
import { type ViewsResult, createBucketViews, objectsForViews } from '../../shared/bucket-views'
import type { AsOf, Inventory } from '../../shared/inventory'
import { isArchived, type ListedObject } from '../../shared/listing'
import type { BucketProvider } from '../bucket/bucket-provider'
import { FileStore, type StoreProgress } from '../store/file-store'
import { NativeEngine } from './native-engine'

export interface BucketEngine {
  readonly engine: NativeEngine
  readonly views: ViewsResult
}

export interface OpenEngineOptions extends AsOf {
  /** The instant the bucket is evaluated at (archived objects are judged then). */
  readonly now?: number
  readonly signal?: AbortSignal
  readonly onDownload?: (p: StoreProgress) => void
  readonly onProgress?: (p: { done: number; total: number; table: string }) => void
}

/** The file store of a connection, under a data folder (the app's, or the CLI's cache folder). */
export function fileStoreFor(provider: BucketProvider, dataDir: string, connectionId: string): FileStore {
  return new FileStore(join(dataDir, 'store', connectionId), provider)
}

/**
 * Opens native DuckDB with the bucket's views. `workDir` is the engine's own folder (made anew); `store` holds
 * the whole objects. A table whose files cannot be fetched has no view and says why; the others open.
 */
export async function openBucketEngine(store: FileStore, inventory: Inventory, objects: ReadonlyMap<string, ListedObject>, workDir: string, opts: OpenEngineOptions = {}): Promise<BucketEngine> {
  const now = opts.now ?? Date.now()
  const needed = objectsForViews(inventory, opts).filter((o) => o.key.endsWith('.parquet') && !isArchived(o, now))
  const { paths, failures } = await store.ensure(needed, { ...(opts.signal ? { signal: opts.signal } : {}), ...(opts.onDownload ? { onProgress: opts.onDownload } : {}) })
  const failed = new Map(failures.map((f) => [f.key, f.error.userMessage]))
  const engine = await NativeEngine.open({ workDir, readableRoots: [store.readableRoot] })
  try {
    const views = await createBucketViews(
      {
        register: async (files) => {
          const broken = files.find((f) => !paths.has(f.key))
          if (broken) throw new Error(failed.get(broken.key) ?? `${broken.key} is not in the local store; refresh and try again.`)
          await engine.link(files.map((f) => ({ name: f.name, key: f.key, path: paths.get(f.key) as string })))
        },
        query: (sql) => engine.exec(sql)
      },
      inventory,
      objects,
      { ...opts, now, fileBase: engine.fileBase, dialect: { filenameColumn: '__ee_filename' } }
    )
    return { engine, views }
  } catch (e) {
    await engine.close()
    throw e
  }
}
