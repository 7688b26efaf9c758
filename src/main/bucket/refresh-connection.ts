// Opens a connection's index from disk, refreshes it (incrementally when a usable one was saved), and saves it
// back. A saved index that is damaged or breaks the incremental refresh is dropped and the bucket listed in full.
import { type RefreshOptions, type RefreshResult, refreshBucketIndex } from './bucket-index'
import type { BucketProvider } from './bucket-provider'
import { indexChanged, indexPath, readIndex, saveIndex } from './index-store'
import { errorMessage } from '../../shared/error-message'

export interface ConnectionRefreshResult extends RefreshResult {
  /** Why the saved index was not used (for the user), or null. */
  readonly indexProblem: string | null
  /** The digest of the saved index that holds these objects (index-store.ts): equal digests, equal objects. */
  readonly digest: string
  /** The listing differs from the saved one (new, changed or removed objects, or none was saved): it was saved anew. */
  readonly changed: boolean
}

export async function refreshConnectionIndex(
  dataDir: string,
  connectionId: string,
  provider: BucketProvider,
  opts: RefreshOptions = {}
): Promise<ConnectionRefreshResult> {
  const path = indexPath(dataDir, connectionId)
  const saved = opts.full ? { index: null, problem: null } : await readIndex(path)
  let indexProblem = saved.problem
  let result: RefreshResult
  try {
    result = await refreshBucketIndex(provider, saved.index, opts)
  } catch (e) {
    // A bucket error (denied, network, cancelled) would fail a full listing too; anything else came from the
    // saved index, which passed the checks but still cannot be refreshed: list everything instead.
    if (saved.index === null || opts.signal?.aborted || (e as { name?: string }).name === 'BucketError') throw e
    indexProblem = `The saved listing ${path} could not be refreshed (${errorMessage(e)}), so the whole bucket was listed again.`
    result = await refreshBucketIndex(provider, null, opts)
  }
  const changed = saved.index === null || saved.digest === undefined || indexChanged(saved.index, result.index)
  const digest = changed ? await saveIndex(path, result.index) : (saved.digest as string)
  return { ...result, indexProblem, digest, changed }
}
