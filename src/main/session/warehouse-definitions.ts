// Athena / BigQuery definitions of the open connection (issue 15): columns from main's engine, the rules from the core.
import type { ArgsOf } from '../../shared/api/calls'
import type { ConnectionConfig } from '../../shared/connection-config'
import { engineMismatch, warehouseDdl, warehouseLocation } from '../../shared/warehouse-ddl/warehouse-ddl'
import { fileStoreFor } from '../store/connection-files'
import { logicalTableColumns } from '../engine/logical-table-columns'
import type { ConnectionSession } from './connection-session'
import { refusal } from '../../shared/refusal'

export async function warehouseDefinitions(
  session: ConnectionSession,
  config: ConnectionConfig,
  dataDir: string,
  args: ArgsOf<'ddl'>
): Promise<{ text: string; notes: readonly string[] }> {
  const service = session.snapshot
  const location = warehouseLocation(config)
  const mismatch = engineMismatch(args.engine, location)
  if (mismatch) throw refusal('not_supported', mismatch)
  const { inventory, unreadable } = await service.snapshot()
  const store = fileStoreFor(service.provider, dataDir, service.connectionId)
  const columns = await logicalTableColumns(await session.engineFor(null), store, inventory, { now: service.now(), unreadable })
  const r = warehouseDdl({ ...args, location, inventory, columns, now: service.now(), unreadable })
  // A table not of the catalog, or no ready copy to take columns from: the user's request, not a bug.
  if (!r.ok) throw refusal('not_found', r.message)
  return { text: r.text, notes: r.notes }
}
