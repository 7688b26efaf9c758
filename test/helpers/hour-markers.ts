// The markers that make an hour of one parts table ready, as the vendor writes them after its data files: the
// folder's _SUCCESS 20 minutes into the hour, then the hour's manifest 25 minutes in, naming the table delivered.
import { mkdir, utimes, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { folderPrefix, manifestKey } from '../../src/shared/bucket-key'
import type { CatalogTable } from '../../src/shared/catalog'

/** Writes `table`'s _SUCCESS and the manifest of the hour starting at `hour` (epoch ms) under `bucket`, with `files` data files. */
export async function markHourReady(bucket: string, table: CatalogTable, hour: number, files: number): Promise<void> {
  const date = new Date(hour).toISOString().slice(0, 10)
  const hh = new Date(hour).toISOString().slice(11, 13)
  const prefix = folderPrefix(table, 'v2', date, hh)
  const at = (minutes: number): Date => new Date(hour + minutes * 60_000)
  await mkdir(join(bucket, prefix), { recursive: true })
  await writeFile(join(bucket, prefix, '_SUCCESS'), '')
  await utimes(join(bucket, prefix, '_SUCCESS'), at(20), at(20))
  const manifest = join(bucket, manifestKey('v2', date, hh))
  await mkdir(dirname(manifest), { recursive: true })
  await writeFile(
    manifest,
    JSON.stringify({
      snapshot_date: date,
      snapshot_hour: hh,
      complete: true,
      tables_delivered: [{ schema: table.schema, table: table.table, mode: 'parts', path: prefix, format: 'parquet', files }],
      tables_missing: [],
      tables_pending: []
    })
  )
  await utimes(manifest, at(25), at(25))
}
