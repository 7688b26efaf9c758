// What the renderer's engine (DuckDB-WASM) builds its views from, for the open connection: the byte server's URLs of
// the bucket's files, the mirror's segments, the instant, and a version that changes only when the views must.
import type { EngineSource } from '../../shared/api/views'
import { objectsForViews } from '../../shared/bucket-views'
import { CATALOG } from '../../shared/catalog'
import { identityTag } from '../../shared/identity-tag'
import { unknownTables } from '../../shared/inventory'
import { mirrorRead } from '../../shared/mirror-plan'
import type { ByteServer } from '../byte-server/byte-server'
import type { ConnectionSession } from './connection-session'

export async function engineSourceOf(session: ConnectionSession, byteServer: () => Promise<ByteServer>, args: { asOf: string | null }): Promise<EngineSource> {
  const service = session.snapshot
  const mirror = await session.mirror.segments()
  const superseded = await session.mirror.superseded()
  const { inventory, generation, unreadable } = await service.snapshot()
  const server = session.serveFrom(await byteServer())
  // Files that are not Parquet are left out of what the renderer's engine builds its views from (the rules' fallback).
  const opts = { unreadable, ...(args.asOf ? { asOf: Date.parse(args.asOf) } : {}) }
  // What the views read of the mirror: per parts table, its segments (with the raw files of the folders it does not
  // hold yet beside them, which the listing's generation names), else the raw files. Only a change of that (a segment
  // built or replaced, a clear) builds the views again.
  const mirrorVersion = identityTag(
    CATALOG.filter((t) => t.mode === 'parts')
      .map((t) => {
        const sel = mirrorRead(inventory, t, mirror, { now: service.now(), ...opts }, superseded)
        return sel
          ? `${sel.segments.map((x) => x.file).join(',')}${sel.superseded ? `+${sel.superseded.parts.map((x) => x.file).join(',')}` : ''}${sel.raw.length > 0 ? '+raw' : ''}`
          : 'raw'
      })
      .join('|')
  )
  const counts = new Map<string, number>()
  for (const f of inventory.folders.values())
    if (!f.ref.catalog) counts.set(`${f.ref.schema}.${f.ref.table}`, (counts.get(`${f.ref.schema}.${f.ref.table}`) ?? 0) + 1)
  return {
    base: server.url(''),
    objects: objectsForViews(inventory, opts),
    mirror,
    superseded,
    now: service.now(),
    version: `${service.connectionId}|${generation}|${mirrorVersion}|${args.asOf ?? 'latest'}`,
    unknownTables: unknownTables(inventory).map((name) => ({ name, folders: counts.get(name) ?? 0 }))
  }
}
