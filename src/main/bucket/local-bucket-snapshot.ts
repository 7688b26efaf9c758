// Reads a local bucket folder into what the core analyses: its inventory and the text of every manifest,
// through the same provider and manifest reader the app and the CLI use.
import { type Inventory, buildInventory } from '../../shared/inventory'
import type { ManifestText } from '../../shared/timeline'
import { listAll } from './bucket-provider'
import { LocalFolderProvider } from './local-provider'
import { readManifests } from './manifest-reader'

export interface BucketSnapshot {
  readonly inventory: Inventory
  readonly manifestTexts: ReadonlyMap<string, ManifestText>
}

export async function readLocalBucket(root: string): Promise<BucketSnapshot> {
  const provider = new LocalFolderProvider(root)
  const objects = []
  for await (const o of listAll(provider, '')) objects.push(o)
  const inventory = buildInventory(objects)
  return { inventory, manifestTexts: await readManifests(provider, inventory) }
}
