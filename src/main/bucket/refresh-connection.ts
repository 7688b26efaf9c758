// Opens a connection's index from disk, refreshes it (incrementally when one was saved), and saves it back.
import { type RefreshOptions, type RefreshResult, refreshBucketIndex } from './bucket-index'
import type { BucketProvider } from './bucket-provider'
import { indexPath, loadIndex, saveIndex } from './index-store'

export async function refreshConnectionIndex(dataDir: string, connectionId: string, provider: BucketProvider, opts: RefreshOptions = {}): Promise<RefreshResult> {
  const path = indexPath(dataDir, connectionId)
  const previous = opts.full ? null : await loadIndex(path)
  const result = await refreshBucketIndex(provider, previous, opts)
  await saveIndex(path, result.index)
  return result
}
