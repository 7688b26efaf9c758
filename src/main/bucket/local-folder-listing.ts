// Lists a whole local folder as a bucket listing (keys, sizes, modification times, storage classes).
import type { ListedObject } from '../../shared/listing'
import { listAll } from './bucket-provider'
import { LocalFolderProvider } from './local-provider'

export async function listLocalFolder(root: string): Promise<ListedObject[]> {
  const out: ListedObject[] = []
  for await (const o of listAll(new LocalFolderProvider(root), '')) out.push(o)
  return out
}
