// One open connection: its snapshot (listing, timeline), the byte server's source for it, its mirror, its bulk
// restore and main's engine on it, made when it opens and closed as one. A closed session's callbacks do nothing.
import { randomUUID } from 'node:crypto'
import { join } from 'node:path'
import type { ArgsOf } from '../../shared/api/calls'
import type { RestorePlanView, RestoreStatusView } from '../../shared/api/views'
import type { ConnectionConfig } from '../../shared/connection-config'
import type { MonitorConfig } from '../../shared/delivery-monitors'
import type { Inventory } from '../../shared/inventory'
import type { ListedObject } from '../../shared/listing'
import { mirroredKeys } from '../../shared/mirror-plan'
import { MIRROR_KEY_PREFIX } from '../../shared/mirror-sql'
import { GCS_NO_RESTORE, planRestore } from '../../shared/restore-plan'
import type { BucketProvider } from '../bucket/bucket-provider'
import { indexPath, markRestored } from '../bucket/index-store'
import type { ByteServer } from '../byte-server/byte-server'
import { blockCacheDir } from '../byte-server/block-cache'
import { type BucketEngine, openBucketEngine } from '../engine/open-bucket-engine'
import { fileStoreFor } from '../store/connection-files'
import type { MainEvents } from '../main-events'
import { ConnectionMirror } from '../mirror/connection-mirror'
import type { MirrorLimit } from '../mirror/mirror-limits'
import { RestoreJob } from '../restore/restore-job'
import { ConnectionSnapshot } from './connection-snapshot'
import { refusal } from '../../shared/refusal'
import { CATALOG } from '../../shared/catalog'

export interface ConnectionSessionOptions {
  readonly config: ConnectionConfig
  readonly provider: BucketProvider
  readonly dataDir: string
  /** The instant the bucket is evaluated at (the demo bucket's own "now", else the clock). */
  readonly now: () => number
  readonly clock: () => number
  /** Where the mirror's and the restore's progress are pushed. */
  readonly events: MainEvents
  readonly mirrorLimit: () => Promise<MirrorLimit>
  /** The bulk restore's check interval (default a few minutes). */
  readonly restoreIntervalMs?: number
  /** The connection's monitor thresholds, read at each analysis. */
  readonly monitors?: () => Promise<MonitorConfig>
  /** The workspace's refresh of this connection: wait for the running one; run one and fail with its error. */
  readonly refresh: { readonly settled: () => Promise<void>; readonly again: () => Promise<void> }
}

/** What a kind of connection says of restores: GCS reads its archive classes directly; a local folder cannot restore. */
function restoreNote(kind: ConnectionConfig['provider']): string | null {
  if (kind === 'gcs') return GCS_NO_RESTORE
  if (kind === 'local') return 'A local folder cannot restore archived objects: restore them in the source bucket (S3 RestoreObject) and sync the folder again.'
  return null
}

export class ConnectionSession {
  readonly snapshot: ConnectionSnapshot
  /** The compacted mirror (parts tables' history in few files), kept current after each refresh. */
  readonly mirror: ConnectionMirror
  /** The bulk restore (its state kept under restore/ in the data folder), resumed when the connection opens. */
  readonly restore: RestoreJob
  /** The restore's saved state, read when the session opens. */
  readonly restoreLoaded: Promise<readonly string[]>
  /** Main's engine (exports, definitions), per listing generation, mirror version and "as of". */
  private mainEngine: { key: string; engine: Promise<BucketEngine> } | null = null
  private served: ByteServer | null = null
  private isClosed = false
  private closing: Promise<void> | null = null

  constructor(private readonly opts: ConnectionSessionOptions) {
    const { provider, dataDir, events } = opts
    const id = opts.config.id
    this.snapshot = new ConnectionSnapshot({ provider, connectionId: id, dataDir, now: opts.now, ...(opts.monitors ? { monitors: opts.monitors } : {}) })
    this.mirror = new ConnectionMirror(dataDir, id, provider, {
      limit: opts.mirrorLimit,
      onChange: (status, final) => {
        if (this.isClosed) return
        if (final) events.emit('mirrorProgress', status)
        else events.emitThrottled('mirrorProgress', status, '', 250)
      }
    })
    this.restore = new RestoreJob({
      file: join(dataDir, 'restore', `${encodeURIComponent(id)}.json`),
      provider,
      ...(opts.restoreIntervalMs !== undefined ? { intervalMs: opts.restoreIntervalMs } : {}),
      clock: opts.clock,
      readNow: () => this.snapshot.now(),
      onChange: () => {
        if (!this.isClosed) events.emit('restoreProgress', this.restoreView())
      },
      onRestored: async (restored) => {
        // The listing learns of the restores (an incremental refresh does not list old folders again), then the
        // refresh rebuilds the views and the mirror, which copies the files in for good.
        await opts.refresh.settled()
        if (this.isClosed) return
        await markRestored(indexPath(dataDir, id), restored)
        await opts.refresh.again()
      }
    })
    this.restoreLoaded = this.restore.load(provider.location)
  }

  get connectionId(): string {
    return this.opts.config.id
  }

  get kind(): ConnectionConfig['provider'] {
    return this.opts.config.provider
  }

  get provider(): BucketProvider {
    return this.opts.provider
  }

  /** True once close() was called: what still runs for this connection leaves its results unused. */
  get closed(): boolean {
    return this.isClosed
  }

  /** Points the workspace's byte server at this connection (once). */
  serveFrom(server: ByteServer): ByteServer {
    if (this.served !== server) {
      // Same origin, new token: URLs handed out for the previous connection stop working.
      // Objects the file store holds whole (downloaded for main's engine, or a local folder) are served from there.
      const snapshot = this.snapshot
      const store = fileStoreFor(this.provider, this.opts.dataDir, this.connectionId)
      const mirror = this.mirror
      const lookup = (k: string): ListedObject | undefined => (k.startsWith(MIRROR_KEY_PREFIX) ? mirror.object(k) : snapshot.object(k))
      server.setSource({
        provider: this.provider,
        lookup,
        // The folder of connectionBlockCache: the blocks the refresh's frame check fetched are served from disk.
        cacheDir: blockCacheDir(this.opts.dataDir, this.connectionId),
        now: () => snapshot.now(),
        store: mirror.heldFiles(store)
      })
      this.served = server
    }
    return server
  }

  /** What a mirror build reads: the snapshot's last listing, at its evaluation instant. */
  mirrorSnapshot(): () => Promise<{ inventory: Inventory; now: number }> {
    return async () => ({ inventory: (await this.snapshot.snapshot()).inventory, now: this.snapshot.now() })
  }

  /** Keys the mirror holds as built (without waiting for a build that runs): restored once, never again. */
  async mirroredKeys(inventory: Inventory): Promise<Set<string>> {
    return mirroredKeys(inventory, await this.mirror.segments())
  }

  /** The restore's state once its saved job is read. */
  async restoreStatus(): Promise<RestoreStatusView> {
    await this.restoreLoaded
    return this.restoreView()
  }

  restoreView(): RestoreStatusView {
    return { provider: this.kind, job: this.restore.view(), note: restoreNote(this.kind) }
  }

  /** What restoring a table's (or every table's) archived files would do: count, bytes, dates, the tier's usual delay. */
  async restorePlan(args: ArgsOf<'restorePlan'>): Promise<RestorePlanView> {
    const service = this.snapshot
    const { inventory } = await service.snapshot()
    const { files, ...plan } = planRestore(inventory, service.now(), args, await this.mirroredKeys(inventory))
    return { ...plan, provider: this.kind, sample: files.slice(0, 5).map((f) => f.key), note: restoreNote(this.kind) }
  }

  /** Starts the bulk restore of that plan (S3 only: GCS reads every class directly, a local folder cannot restore). */
  async restoreStart(args: ArgsOf<'restoreStart'>): Promise<RestoreStatusView> {
    const service = this.snapshot
    await this.restoreLoaded
    if (this.kind !== 's3') throw refusal('not_supported', restoreNote(this.kind) ?? 'This connection cannot restore.')
    const { inventory } = await service.snapshot()
    const plan = planRestore(inventory, service.now(), args, await this.mirroredKeys(inventory))
    // Nothing archived is nothing to do; a table not of the catalog, a tier or a number of days that cannot be, a bad argument.
    const known = args.table === null || CATALOG.some((t) => `${t.schema}.${t.table}` === args.table)
    if (plan.problem) throw refusal(plan.count === 0 && known ? 'nothing_to_do' : 'bad_argument', plan.problem)
    await this.restore.start({ location: service.provider.location, table: args.table, tier: args.tier, days: args.days, keys: plan.files })
    return this.restoreView()
  }

  /** Main's engine for an "as of" (null: latest), opened again when the listing, the mirror or the instant changes. */
  async engineFor(asOf: string | null): Promise<BucketEngine> {
    const service = this.snapshot
    // Main's engine (exports, definitions) waits for a running build, as before: it reads the history the mirror
    // holds (archived files once restored among it). A cancelled or stopped build does not hold it up.
    await this.mirror.settled()
    const { inventory, objects, generation, unreadable, unlisted } = await service.snapshot()
    // An engine opened for a closed connection would never be closed.
    if (this.isClosed) throw new Error('The connection was closed: open it again.')
    const key = `${service.connectionId}|${generation}|${this.mirror.version}|${asOf ?? 'latest'}`
    if (this.mainEngine?.key !== key) {
      const old = this.mainEngine
      const store = fileStoreFor(service.provider, this.opts.dataDir, service.connectionId)
      const workDir = join(this.opts.dataDir, 'engine', `${service.connectionId}-${randomUUID().slice(0, 8)}`)
      const mirror = this.mirror
      const engine = mirror.segments().then(() =>
        openBucketEngine(store, inventory, objects, workDir, {
          now: service.now(),
          unreadable,
          unlisted,
          mirror: mirror.mirror,
          ...(asOf ? { asOf: Date.parse(asOf) } : {})
        })
      )
      this.mainEngine = { key, engine }
      engine.catch(() => {
        if (this.mainEngine?.engine === engine) this.mainEngine = null
      })
      if (old)
        void old.engine.then(
          (e) => e.engine.close(),
          // Nothing lost: an engine that did not open has nothing to close, and its failure was the answer of the call that opened it.
          () => {}
        )
    }
    return this.mainEngine.engine
  }

  /** Closes main's engine (it may read the mirror's files); the next use opens it again. */
  async closeEngine(): Promise<void> {
    const engine = this.mainEngine
    this.mainEngine = null
    await engine?.engine.then(
      (e) => e.engine.close(),
      // Nothing lost: an engine that did not open has nothing to close, and its failure was the answer of the call that opened it.
      () => {}
    )
  }

  /** Ends everything of this connection: what the snapshot waits for (a first refresh joined by overview, footer
   * reads), the restore's watch (its saved state resumes when the connection opens again), the mirror's build and
   * main's engine. Resolves once nothing more of it is written under the data folder. */
  close(): Promise<void> {
    if (!this.closing) {
      this.isClosed = true
      this.snapshot.close()
      this.closing = Promise.allSettled([this.restore.close(), this.mirror.close(), this.closeEngine()]).then(() => {})
    }
    return this.closing
  }
}
