// A connection's copies of its bucket's objects on disk, and the one way the checks read them: the file store (whole
// objects, what native DuckDB and the mirror's build read) and the block cache (ranges, what the query pane reads).
// A small object is read whole into the store, once; a large one's ranges go through the blocks.
import { join } from 'node:path'
import type { BucketProvider } from '../bucket/bucket-provider'
import { BlockCache, blockCacheDir, blockIdentity } from '../byte-server/block-cache'
import { FileStore, IN_MEMORY_BYTES } from './file-store'
import type { RangeReader } from './parquet-frame-check'

/**
 * The file store of a connection, under a data folder (the app's, or the CLI's cache folder). A small object the
 * connection's block cache holds whole (the query pane read all of it) is taken from there, not downloaded again.
 */
export function fileStoreFor(provider: BucketProvider, dataDir: string, connectionId: string): FileStore {
  const blocks = new BlockCache(blockCacheDir(dataDir, connectionId), provider)
  return new FileStore(join(dataDir, 'store', connectionId), provider, { held: (o) => blocks.held(blockIdentity(o)) })
}

/**
 * The reader of a connection's object bytes for its checks (the refresh's frame check, the hour inspector): a read of
 * a whole small object (an hourly file's footer check reads all of it) goes to the file store, which keeps it, so the
 * mirror's build and the engine find it there: one GET per file, written once. Other ranges go through the blocks.
 * `lookOnDisk: false` for the refresh's check, whose files are new (FileStore.readWhole).
 */
export function connectionObjectReader(blocks: BlockCache, store: FileStore, opts: { readonly lookOnDisk?: boolean } = {}): RangeReader {
  return (o, start, end, signal) =>
    start === 0 && end >= o.size - 1 && o.size <= IN_MEMORY_BYTES
      ? store.readWhole(o, signal, opts)
      : blocks.read(blockIdentity(o), { start, end }, signal).then((r) => r.body)
}
