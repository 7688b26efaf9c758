// Reads a local bucket folder into what the core analyses: its inventory and the text of every manifest.
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { type Inventory, buildInventory } from '../../shared/inventory'
import type { ManifestText } from '../../shared/timeline'
import { listLocalFolder } from './local-folder-listing'

export interface BucketSnapshot {
  readonly inventory: Inventory
  readonly manifestTexts: ReadonlyMap<string, ManifestText>
}

export async function readLocalBucket(root: string): Promise<BucketSnapshot> {
  const inventory = buildInventory(await listLocalFolder(root))
  const manifestTexts = new Map<string, ManifestText>()
  await Promise.all(
    [...inventory.manifests.keys()].map(async (key) => {
      try {
        manifestTexts.set(key, await readFile(join(root, key), 'utf8'))
      } catch (e) {
        manifestTexts.set(key, { error: (e as Error).message })
      }
    })
  )
  return { inventory, manifestTexts }
}
