// A local bucket folder as the tests read it: its whole listing, or what the app's refresh pipeline makes of it.
import { mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { ListedObject } from '../../src/shared/listing'
import { listAll } from '../../src/main/bucket/bucket-provider'
import { LocalFolderProvider } from '../../src/main/bucket/local-provider'
import { type RefreshedBucket, refreshBucket } from '../../src/main/bucket/refresh-pipeline'

/** Every object under the folder (keys, sizes, modification times, storage classes), as a provider lists them. */
export async function listLocalFolder(root: string): Promise<ListedObject[]> {
  const out: ListedObject[] = []
  for await (const o of listAll(new LocalFolderProvider(root), '')) out.push(o)
  return out
}

/** The folder through the refresh pipeline (a cold listing, every manifest, the frame check), with caches of its own. */
export async function readLocalBucket(root: string, now = Date.now()): Promise<RefreshedBucket> {
  const dataDir = await mkdtemp(join(tmpdir(), 'ee-local-bucket-'))
  try {
    return await refreshBucket(new LocalFolderProvider(root), dataDir, 'local', { now })
  } finally {
    await rm(dataDir, { recursive: true, force: true })
  }
}

/** The folder (relative to the table's) of a table's newest ready copy in a local bucket: the one a test takes aside
 * to make that hour's copy missing. */
export async function newestReadyFolder(bucketDir: string, table: string): Promise<{ tableDir: string; folder: string }> {
  const tableDir = join(bucketDir, table)
  const markers = (await readdir(tableDir, { recursive: true })).filter((f) => f.endsWith('_SUCCESS')).sort()
  const newest = markers.at(-1)
  if (!newest) throw new Error(`${tableDir} has no ready folder`)
  return { tableDir, folder: newest.replace(/\/_SUCCESS$/, '') }
}
