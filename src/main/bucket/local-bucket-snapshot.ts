// Reads a local bucket folder into what the core analyses: its inventory and the text of every manifest,
// through the same provider, manifest reader and Parquet frame check the app and the CLI use.
import { type Inventory, buildInventory } from '../../shared/inventory'
import type { ManifestText } from '../../shared/timeline'
import { listAll } from './bucket-provider'
import { LocalFolderProvider } from './local-provider'
import { readManifests } from './manifest-reader'
import { findUnreadableFiles } from '../store/parquet-frame-check'

export interface BucketSnapshot {
  readonly inventory: Inventory
  readonly manifestTexts: ReadonlyMap<string, ManifestText>
  /** Data files the logical tables need that are not readable Parquet. */
  readonly unreadable: ReadonlySet<string>
}

export async function readLocalBucket(root: string): Promise<BucketSnapshot> {
  const provider = new LocalFolderProvider(root)
  const objects = []
  for await (const o of listAll(provider, '')) objects.push(o)
  const inventory = buildInventory(objects)
  const { unreadable } = await findUnreadableFiles(inventory, (o, start, end) => provider.readRange(o.key, { start, end }).then((r) => r.body))
  return { inventory, manifestTexts: await readManifests(provider, inventory), unreadable }
}
