// An engine over a connected bucket: DuckDB-WASM whose file reads go through the disk block cache to the
// bucket provider, with the bucket's views created.
import { join } from 'node:path'
import type { AsOf, Inventory } from '../../shared/inventory'
import type { ListedObject } from '../../shared/listing'
import { bucketError } from '../bucket/bucket-errors'
import type { BucketProvider } from '../bucket/bucket-provider'
import { BlockCache } from '../byte-server/block-cache'
import { type ViewsResult, createBucketViews } from '../../shared/bucket-views'
import { type NodeEngine, startNodeEngine } from './node-engine'

export interface BucketEngine {
  readonly engine: NodeEngine
  readonly views: ViewsResult
  readonly cache: BlockCache
}

export async function openBucketEngine(provider: BucketProvider, inventory: Inventory, objects: ReadonlyMap<string, ListedObject>, cacheDir: string, opts: AsOf & { readonly onProgress?: (p: { done: number; total: number; table: string }) => void } = {}): Promise<BucketEngine> {
  const cache = new BlockCache(join(cacheDir, 'blocks'), provider)
  const engine = await startNodeEngine(async (key, start, length) => {
    const obj = objects.get(key)
    if (!obj) throw bucketError('not_found', key, 'Not in the listing', 'Refresh the listing.')
    const { body } = await cache.read({ key, etag: obj.etag ?? `${obj.size}-${obj.lastModified}`, size: obj.size }, { start, end: start + length - 1 })
    return body
  })
  // Parquet metadata cached by file name across queries: a name never stands for two objects.
  await engine.query('SET enable_object_cache = true')
  const views = await createBucketViews(engine, inventory, objects, opts)
  return { engine, views, cache }
}
