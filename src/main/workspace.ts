// The app's state in main, behind every call of the API contract: saved connections (the built-in demo
// bucket first), the open one with its AppService, refresh with progress and cancel, and the automatic
// refresh after each hour's 40-minute mark. Plain Node: the Electron shell and the web host both use it.
import { randomUUID } from 'node:crypto'
import { mkdir, stat } from 'node:fs/promises'
import { homedir } from 'node:os'
import { dirname, join } from 'node:path'
import type {
  ArgsOf,
  ConnectionSummary,
  ConnectionVerdictView,
  ConnectionsView,
  EngineSource,
  ExportJob,
  HistoryEntry,
  MirrorStatusView,
  RefreshStatus,
  RestorePlanView,
  RestoreStatusView
} from '../shared/api-contract'
import { missingViewReason, objectsForViews } from '../shared/bucket-views'
import { CATALOG } from '../shared/catalog'
import { identityTag } from '../shared/identity-tag'
import { mirrorRead } from '../shared/mirror-plan'
import { type Inventory, unknownTables } from '../shared/inventory'
import { mirroredKeys } from '../shared/mirror-plan'
import type { ListedObject } from '../shared/listing'
import { type ConnectionConfig, validateConnection } from '../shared/connection-config'
import { nextAutoRefresh } from '../shared/schedule'
import { AppService } from './app-service'
import { BucketError } from './bucket/bucket-errors'
import type { IndexProgress } from './bucket/bucket-index'
import type { BucketProvider } from './bucket/bucket-provider'
import { ConnectionStore } from './connections/connection-store'
import { configAbove, testConnection } from './connections/connection-verdict'
import { type OpenOptions, listAwsProfiles, openConnection } from './connections/open-connection'
import type { SecretStore } from './connections/secret-store'
import { QueryHistory } from './history/query-history'
import { type ByteServer, startByteServer } from './byte-server/byte-server'
import { checkExportPath } from './export/export-folder'
import { type BucketEngine, fileStoreFor, openBucketEngine } from './engine/open-bucket-engine'
import { exportQuery } from './export/export-to-file'
import type { MoveStage } from './export/guarded-move'
import { logicalTableColumns } from './engine/logical-table-columns'
import { engineMismatch, warehouseDdl, warehouseLocation } from '../shared/warehouse-ddl/warehouse-ddl'
import { MainEvents } from './main-events'
import { ConnectionMirror } from './mirror/connection-mirror'
import { MIRROR_KEY_PREFIX } from '../shared/mirror-sql'
import { GCS_NO_RESTORE, planRestore } from '../shared/restore-plan'
import { indexPath, markRestored } from './bucket/index-store'
import { RestoreJob } from './restore/restore-job'
import { MirrorLimits } from './mirror/mirror-limits'
import { errorMessage } from '../shared/error-message'
import { swallowed } from './log/main-log'

export const DEMO_CONNECTION_ID = 'demo'

export interface WorkspaceOptions {
  readonly dataDir: string
  readonly secrets: SecretStore & { unavailableReason?(): string | null; problems?(): Promise<readonly string[]> }
  /** The built-in demo bucket and the instant it is evaluated at (its own "now"). */
  readonly demo?: { readonly bucketDir: string; readonly now?: number; readonly name?: string }
  readonly openOptions?: OpenOptions
  /** The clock for buckets other than the demo (tests move it). */
  readonly clock?: () => number
  /** Refresh by itself each hour after the 40-minute mark (default true). */
  readonly autoRefresh?: boolean
  /** What only a desktop shell can do: a native save dialog and "show in folder". Without it (the web host)
   * an export goes to a path typed by the user. */
  readonly platform?: {
    chooseSavePath(defaultName: string, format: 'csv' | 'parquet'): Promise<string | null>
    showInFolder(path: string): void
    readonly downloadsDir: string
  }
  /** Without a platform (the web host): the only folder an export may write in (default ~/Downloads). */
  readonly exportDir?: string
  /** Tests only: runs at each stage of an export's guarded move, to swap a folder for a link at exactly that moment. */
  readonly exportStage?: (stage: MoveStage) => Promise<void>
  /** The bulk restore's check interval (default a few minutes; tests pass a few milliseconds). */
  readonly restore?: { readonly intervalMs?: number }
}

const locationOf = (c: ConnectionConfig): string => (c.provider === 'local' ? c.path : `${c.provider}://${c.bucket}/${c.prefix}`)

/** A message the user can act on, whatever was thrown. */
export const userMessage = (e: unknown): string => (e instanceof BucketError ? e.userMessage : errorMessage(e))

/** What a kind of connection says of restores: GCS reads its archive classes directly; a local folder cannot restore. */
function restoreNote(kind: ConnectionConfig['provider']): string | null {
  if (kind === 'gcs') return GCS_NO_RESTORE
  if (kind === 'local') return 'A local folder cannot restore archived objects: restore them in the source bucket (S3 RestoreObject) and sync the folder again.'
  return null
}

export class Workspace {
  private readonly store: ConnectionStore
  private readonly queryHistory: QueryHistory
  private readonly mirrorLimits: MirrorLimits
  private service: AppService | null = null
  private activeId: string | null = null
  private refreshAbort: AbortController | null = null
  /** Refresh progress and end, export progress: pushed to the renderer (IPC or Server-Sent Events). */
  readonly events = new MainEvents()
  private progress: IndexProgress | null = null
  private generation = 0
  private lastRefreshed: number | null = null
  private lastRefreshStart: number | null = null
  private lastError: string | null = null
  private readonly timer: NodeJS.Timeout | null
  /** One byte server for the workspace's life (its origin is in the page's CSP), serving the open connection. */
  private byteServer: { service: AppService | null; server: Promise<ByteServer> } | null = null
  private rendererOrigin: string | undefined
  /** The main process's engine (exports), per connection, listing generation and "as of". */
  private mainEngine: { key: string; engine: Promise<BucketEngine> } | null = null
  /** The open connection's compacted mirror (parts tables' history in few files), kept current after each refresh. */
  private mirrorOf: { service: AppService; mirror: ConnectionMirror } | null = null
  /** The open connection's bulk restore (its state kept under restore/ in the data folder), resumed when it opens. */
  private restoreOf: { service: AppService; kind: ConnectionConfig['provider']; job: RestoreJob; loaded: Promise<readonly string[]> } | null = null
  private readonly exports = new Map<string, { job: ExportJob; abort: AbortController }>()
  /** Paths the user chose in the save dialog: the only ones an export may write when a dialog exists. */
  private readonly grantedPaths = new Set<string>()

  constructor(private readonly opts: WorkspaceOptions) {
    this.store = new ConnectionStore(join(opts.dataDir, 'connections.json'))
    this.queryHistory = new QueryHistory(join(opts.dataDir, 'query-history.json'))
    this.mirrorLimits = new MirrorLimits(join(opts.dataDir, 'mirror-limits.json'), opts.dataDir)
    this.timer = opts.autoRefresh === false ? null : setInterval(() => void this.autoRefreshTick(), 30_000)
    this.timer?.unref()
  }

  private clock(): number {
    return this.opts.clock ? this.opts.clock() : Date.now()
  }

  private demoConfig(): ConnectionConfig | null {
    return this.opts.demo
      ? { id: DEMO_CONNECTION_ID, name: this.opts.demo.name ?? 'Demo bucket (built in)', provider: 'local', path: this.opts.demo.bucketDir }
      : null
  }

  private async all(): Promise<{ list: ConnectionConfig[]; problems: string[] }> {
    const { connections, problems } = await this.store.load()
    const demo = this.demoConfig()
    return { list: [...(demo ? [demo] : []), ...connections.filter((c) => c.id !== DEMO_CONNECTION_ID)], problems }
  }

  async connections(): Promise<ConnectionsView> {
    const { list, problems: own } = await this.all()
    // Every saved file's problems (damaged, kept aside) are shown where the connection manager lists them.
    const problems = [...own, ...((await this.opts.secrets.problems?.()) ?? []), ...(await this.queryHistory.problems())]
    const summary = (c: ConnectionConfig): ConnectionSummary => ({
      id: c.id,
      name: c.name,
      provider: c.provider,
      location: locationOf(c),
      builtin: c.id === DEMO_CONNECTION_ID
    })
    return { active: this.activeId, connections: list.map(summary), problems, secretStorage: this.opts.secrets.unavailableReason?.() ?? null }
  }

  async connectionGet(args: { id: string }): Promise<ConnectionConfig> {
    const c = (await this.all()).list.find((x) => x.id === args.id)
    if (!c) throw new Error(`No saved connection ${args.id}.`)
    return c
  }

  /** The config as saved: an id for a new one; a static key's secret stored apart under its secretRef. */
  private async complete(input: ArgsOf<'connectionSave'>, persistSecret: boolean): Promise<ConnectionConfig> {
    const c = input.connection
    const id = c.id && c.id !== DEMO_CONNECTION_ID ? c.id : randomUUID()
    if (c.provider === 's3' && c.auth.kind === 'static') {
      const secretRef = `s3-secret-${id}`
      if (input.secretAccessKey) {
        if (persistSecret) await this.opts.secrets.set(secretRef, input.secretAccessKey)
      } else if ((await this.opts.secrets.get(secretRef)) === null) throw new Error('Enter the secret access key: none is saved for this connection.')
      return { ...c, id, auth: { kind: 'static', accessKeyId: c.auth.accessKeyId, secretRef } }
    }
    // The draft with its id is a saved connection (the schema says so; a static key took the branch above).
    const saved = validateConnection({ ...c, id })
    if (!saved.ok) throw new Error(`The connection cannot be saved: ${saved.reason}.`)
    return saved.value
  }

  async connectionSave(input: ArgsOf<'connectionSave'>): Promise<{ id: string }> {
    if (input.connection.id === DEMO_CONNECTION_ID) throw new Error('The demo bucket cannot be changed; save a new connection instead.')
    const c = await this.complete(input, true)
    await this.store.upsert(c)
    return { id: c.id }
  }

  async connectionTest(input: ArgsOf<'connectionTest'>): Promise<ConnectionVerdictView> {
    let provider: BucketProvider
    let openAbove: () => Promise<BucketProvider | null>
    let config: ConnectionConfig
    try {
      const c = await this.complete(input, false)
      config = c
      // A secret typed into the form is tested without being saved.
      const secrets: SecretStore =
        input.secretAccessKey && c.provider === 's3' && c.auth.kind === 'static'
          ? { get: async () => input.secretAccessKey ?? null, set: async () => {}, delete: async () => {} }
          : this.opts.secrets
      provider = await openConnection(c, secrets, this.opts.openOptions)
      const above = configAbove(c)
      openAbove = async () => (above ? openConnection(above, secrets, this.opts.openOptions) : null)
    } catch (e) {
      return { level: 'red', ok: false, message: userMessage(e), version: null, useInstead: [], detail: null }
    }
    const opened: BucketProvider[] = [provider]
    const v = await testConnection(provider, {
      signal: AbortSignal.timeout(30_000),
      config,
      openAbove: async () => {
        const p = await openAbove()
        if (p) opened.push(p)
        return p
      }
    })
    // S3 clients hold sockets open (keep-alive): a test's are closed with it.
    for (const p of opened) (p as { close?: () => void }).close?.()
    return { level: v.level, ok: v.ok, message: v.message, version: v.version, useInstead: v.useInstead, detail: v.detail }
  }

  async connectionDelete(args: { id: string }): Promise<ConnectionsView> {
    if (args.id === DEMO_CONNECTION_ID) throw new Error('The demo bucket is built in and cannot be deleted.')
    const c = (await this.all()).list.find((x) => x.id === args.id)
    if (c?.provider === 's3' && c.auth.kind === 'static') await this.opts.secrets.delete(c.auth.secretRef)
    await this.store.remove(args.id)
    if (this.activeId === args.id) {
      this.close()
      this.service = null
      this.activeId = null
    }
    return this.connections()
  }

  /** Opens a connection and starts its first refresh; the previous one stays open if this one cannot be. */
  async connectionOpen(args: { id: string }): Promise<ConnectionsView> {
    const c = await this.connectionGet(args)
    const provider = await openConnection(c, this.opts.secrets, this.opts.openOptions)
    const demoNow = c.id === DEMO_CONNECTION_ID ? this.opts.demo?.now : undefined
    this.close()
    this.service = new AppService({ provider, connectionId: c.id, dataDir: this.opts.dataDir, now: demoNow !== undefined ? () => demoNow : () => this.clock() })
    this.activeId = c.id
    this.generation++
    this.lastRefreshed = null
    this.lastError = null
    this.restoreFor(this.service, c.provider)
    void this.refresh({ full: false }).catch(swallowed('the first refresh of the opened connection (its status says why)'))
    return this.connections()
  }

  async awsProfiles(): Promise<{ profiles: readonly string[]; error: string | null }> {
    try {
      return { profiles: await listAwsProfiles(this.opts.openOptions), error: null }
    } catch (e) {
      return { profiles: [], error: `Your AWS config could not be read: ${userMessage(e)}` }
    }
  }

  /** The open connection's service; opens the first connection (the demo) when none is. */
  async current(): Promise<AppService> {
    if (!this.service) {
      const first = (await this.all()).list[0]
      if (!first) throw new Error('No connection is open: add one in Connections.')
      await this.connectionOpen({ id: first.id })
    }
    return this.service as AppService
  }

  refreshStatus(): RefreshStatus {
    const next = this.lastRefreshStart === null || this.opts.autoRefresh === false ? null : new Date(nextAutoRefresh(this.lastRefreshStart)).toISOString()
    return {
      running: this.refreshAbort !== null,
      progress: this.progress,
      generation: this.generation,
      lastRefreshed: this.lastRefreshed === null ? null : new Date(this.lastRefreshed).toISOString(),
      lastError: this.lastError,
      nextAuto: next
    }
  }

  /** Starts a refresh (or joins the running one) and resolves when it ends; the status reports its progress. */
  async refresh(args: { full: boolean }): Promise<RefreshStatus> {
    const service = await this.current()
    if (!this.refreshAbort) {
      const abort = new AbortController()
      this.refreshAbort = abort
      this.progress = null
      this.lastRefreshStart = this.clock()
      const done = service
        .refresh({
          full: args.full,
          signal: abort.signal,
          onProgress: (p) => {
            this.progress = p
            this.events.emitThrottled('refreshProgress', this.refreshStatus())
          }
        })
        .then(
          () => {
            if (this.service !== service) return
            this.generation++
            this.lastRefreshed = this.clock()
            this.lastError = null
            void this.mirrorFor(service).update(this.mirrorSnapshot(service))
          },
          (e: unknown) => {
            if (this.service !== service) return
            this.lastError = abort.signal.aborted
              ? 'Refresh cancelled; the last refresh is still shown.'
              : `Refresh failed: ${userMessage(e)} The last refresh is still shown.`
          }
        )
        .finally(() => {
          if (this.refreshAbort === abort) this.refreshAbort = null
          this.events.emit('refreshDone', this.refreshStatus())
        })
      this.running = done
      this.events.emit('refreshProgress', this.refreshStatus())
    }
    return this.refreshStatus()
  }

  private closingRestore: Promise<void> = Promise.resolve()

  /** The running refresh, if any (tests and the CLI wait on it). */
  running: Promise<void> = Promise.resolve()

  refreshCancel(): RefreshStatus {
    this.refreshAbort?.abort()
    return this.refreshStatus()
  }

  /** Starts the automatic refresh when due (called every 30 s). */
  async autoRefreshTick(): Promise<boolean> {
    if (!this.service || this.refreshAbort || this.lastRefreshStart === null) return false
    if (this.clock() < nextAutoRefresh(this.lastRefreshStart)) return false
    await this.refresh({ full: false }).catch(swallowed('the automatic refresh (its status says why)'))
    return true
  }

  /** The origin the renderer is served from, allowed to read the byte server (CORS). */
  setRendererOrigin(origin: string): void {
    this.rendererOrigin = origin
  }

  /** The byte server's origin (http://127.0.0.1:PORT), started on first use; CORS follows setRendererOrigin. */
  async byteServerOrigin(): Promise<string> {
    this.byteServer ??= { service: null, server: startByteServer({ allowOrigin: () => this.rendererOrigin }) }
    return (await this.byteServer.server).origin
  }

  private async byteServerFor(service: AppService): Promise<ByteServer> {
    await this.byteServerOrigin()
    const current = this.byteServer as { service: AppService | null; server: Promise<ByteServer> }
    const server = await current.server
    if (current.service !== service) {
      // Same origin, new token: URLs handed out for the previous connection stop working.
      // Objects the file store holds whole (downloaded for main's engine, or a local folder) are served from there.
      const store = fileStoreFor(service.provider, this.opts.dataDir, service.connectionId)
      const mirror = this.mirrorFor(service)
      const lookup = (k: string): ListedObject | undefined => (k.startsWith(MIRROR_KEY_PREFIX) ? mirror.object(k) : service.object(k))
      server.setSource({
        provider: service.provider,
        lookup,
        cacheDir: join(this.opts.dataDir, 'blocks', service.connectionId),
        now: () => service.now(),
        store: mirror.heldFiles(store)
      })
      current.service = service
    }
    return server
  }

  /** The mirror of a connection's service (made on first use); its progress and end are pushed as mirrorProgress. */
  private mirrorFor(service: AppService): ConnectionMirror {
    if (this.mirrorOf?.service !== service) {
      void this.mirrorOf?.mirror.close()
      const mirror = new ConnectionMirror(this.opts.dataDir, service.connectionId, service.provider, {
        limit: () => this.mirrorLimits.get(service.connectionId),
        onChange: (status, final) => {
          if (this.mirrorOf?.mirror !== mirror) return
          if (final) this.events.emit('mirrorProgress', status)
          else this.events.emitThrottled('mirrorProgress', status, '', 250)
        }
      })
      this.mirrorOf = { service, mirror }
    }
    return this.mirrorOf.mirror
  }

  /** The bulk restore of a connection's service, made (and its saved job resumed) when the connection opens. */
  private restoreFor(service: AppService, kind: ConnectionConfig['provider']): RestoreJob {
    if (this.restoreOf?.service !== service) {
      void this.restoreOf?.job.close()
      const job: RestoreJob = new RestoreJob({
        file: join(this.opts.dataDir, 'restore', `${encodeURIComponent(service.connectionId)}.json`),
        provider: service.provider,
        ...(this.opts.restore?.intervalMs !== undefined ? { intervalMs: this.opts.restore.intervalMs } : {}),
        clock: () => this.clock(),
        readNow: () => service.now(),
        onChange: () => {
          if (this.restoreOf?.job === job) this.events.emit('restoreProgress', this.restoreView())
        },
        onRestored: async (restored) => {
          // The listing learns of the restores (an incremental refresh does not list old folders again), then the
          // refresh rebuilds the views and the mirror, which copies the files in for good.
          await this.running.catch(() => {})
          if (this.service !== service) return
          await markRestored(indexPath(this.opts.dataDir, service.connectionId), restored)
          await this.refresh({ full: false })
          await this.running
          if (this.lastError) throw new Error(this.lastError)
        }
      })
      this.restoreOf = { service, kind, job, loaded: job.load(service.provider.location) }
    }
    return this.restoreOf.job
  }

  /** Keys the mirror holds as built (without waiting for a build that runs): restored once, never again. */
  private async mirroredKeys(service: AppService, inventory: Inventory): Promise<Set<string>> {
    return mirroredKeys(inventory, await this.mirrorFor(service).mirror.segments())
  }

  private restoreView(): RestoreStatusView {
    const r = this.restoreOf
    const provider = r?.kind ?? 'local'
    return { provider, job: r?.job.view() ?? null, note: restoreNote(provider) }
  }

  /** What restoring a table's (or every table's) archived files would do: count, bytes, dates, the tier's usual delay. */
  async restorePlan(args: ArgsOf<'restorePlan'>): Promise<RestorePlanView> {
    const service = await this.current()
    const { inventory } = await service.snapshot()
    const { files, ...plan } = planRestore(inventory, service.now(), args, await this.mirroredKeys(service, inventory))
    const provider = this.restoreOf?.kind ?? 'local'
    return { ...plan, provider, sample: files.slice(0, 5).map((f) => f.key), note: restoreNote(provider) }
  }

  /** Starts the bulk restore of that plan (S3 only: GCS reads every class directly, a local folder cannot restore). */
  async restoreStart(args: ArgsOf<'restoreStart'>): Promise<RestoreStatusView> {
    const service = await this.current()
    const r = this.restoreOf
    if (!r || r.service !== service) throw new Error('No connection is open: open one in Connections.')
    await r.loaded
    if (r.kind !== 's3') throw new Error(restoreNote(r.kind) ?? 'This connection cannot restore.')
    const { inventory } = await service.snapshot()
    const plan = planRestore(inventory, service.now(), args, await this.mirroredKeys(service, inventory))
    if (plan.problem) throw new Error(plan.problem)
    await r.job.start({ location: service.provider.location, table: args.table, tier: args.tier, days: args.days, keys: plan.files })
    return this.restoreView()
  }

  async restoreStatus(): Promise<RestoreStatusView> {
    await this.current()
    await this.restoreOf?.loaded
    return this.restoreView()
  }

  /** What a mirror build reads: the service's last listing, at its evaluation instant. */
  private mirrorSnapshot(service: AppService): () => Promise<{ inventory: Inventory; now: number }> {
    return async () => ({ inventory: (await service.snapshot()).inventory, now: service.now() })
  }

  async mirrorStatus(): Promise<MirrorStatusView> {
    return this.mirrorFor(await this.current()).refreshUsage()
  }

  async mirrorCancel(): Promise<MirrorStatusView> {
    return this.mirrorFor(await this.current()).cancel()
  }

  /** Builds from where the mirror stopped, for the last listing (none yet: the refresh running builds it when it ends). */
  async mirrorResume(): Promise<MirrorStatusView> {
    const service = await this.current()
    const mirror = this.mirrorFor(service)
    if (this.lastRefreshed !== null) void mirror.update(this.mirrorSnapshot(service))
    return mirror.status()
  }

  /** Removes the mirror and the files downloaded for it; main's engine (which may read those files) opens again. */
  async mirrorClear(): Promise<MirrorStatusView> {
    const service = await this.current()
    if ([...this.exports.values()].some((e) => e.job.running))
      throw new Error('An export is running and reads the mirror: wait for it to finish (or cancel it), then clear the mirror.')
    const engine = this.mainEngine
    this.mainEngine = null
    await engine?.engine.then(
      (e) => e.engine.close(),
      () => {}
    )
    return this.mirrorFor(service).clear()
  }

  async mirrorSetLimit(args: { bytes: number | null }): Promise<MirrorStatusView> {
    const service = await this.current()
    await this.mirrorLimits.set(service.connectionId, args.bytes)
    return this.mirrorFor(service).refreshUsage()
  }

  async engineSource(args: { asOf: string | null }): Promise<EngineSource> {
    const service = await this.current()
    // The query pane reads the parts tables the mirror holds whole from it, and the others from the bucket's files:
    // it never waits for a build (the version changes when one ends, so the views are built again then).
    await this.running.catch(() => {})
    const mirror = await this.mirrorFor(service).segments()
    const { inventory, generation, unreadable } = await service.snapshot()
    const server = await this.byteServerFor(service)
    // Files that are not Parquet are left out of what the renderer's engine builds its views from (the rules' fallback).
    const opts = { unreadable, ...(args.asOf ? { asOf: Date.parse(args.asOf) } : {}) }
    // What the views read of the mirror: per parts table, its segments once it holds the table whole, else the raw files.
    // Only a change of that (a table newly whole, a segment replaced, a clear) builds the views again.
    const mirrorVersion = identityTag(
      CATALOG.filter((t) => t.mode === 'parts')
        .map((t) => {
          const sel = mirrorRead(inventory, t, mirror, { now: service.now(), ...opts })
          return sel ? sel.segments.map((x) => x.file).join(',') : 'raw'
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
      now: service.now(),
      version: `${service.connectionId}|${generation}|${mirrorVersion}|${args.asOf ?? 'latest'}`,
      unknownTables: unknownTables(inventory).map((name) => ({ name, folders: counts.get(name) ?? 0 }))
    }
  }

  private async engineFor(asOf: string | null): Promise<BucketEngine> {
    const service = await this.current()
    // Main's engine (exports, definitions) waits for a running build, as before: it reads the history the mirror
    // holds (archived files once restored among it). A cancelled or stopped build does not hold it up.
    await this.mirrorFor(service).settled()
    const { inventory, objects, generation, unreadable, unlisted } = await service.snapshot()
    const key = `${service.connectionId}|${generation}|${this.mirrorFor(service).version}|${asOf ?? 'latest'}`
    if (this.mainEngine?.key !== key) {
      const old = this.mainEngine
      const store = fileStoreFor(service.provider, this.opts.dataDir, service.connectionId)
      const workDir = join(this.opts.dataDir, 'engine', `${service.connectionId}-${randomUUID().slice(0, 8)}`)
      const mirror = this.mirrorFor(service)
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
          () => {}
        )
    }
    return this.mainEngine.engine
  }

  private exportFolder(): string {
    return this.opts.exportDir ?? this.opts.platform?.downloadsDir ?? join(homedir(), 'Downloads')
  }

  exportDefaults(): { directory: string; dialog: boolean } {
    return { directory: this.exportFolder(), dialog: this.opts.platform !== undefined }
  }

  async chooseSavePath(args: { defaultName: string; format: 'csv' | 'parquet' }): Promise<{ path: string | null }> {
    if (!this.opts.platform) return { path: null }
    const path = await this.opts.platform.chooseSavePath(args.defaultName, args.format)
    if (path) this.grantedPaths.add(path)
    return { path }
  }

  /** Starts writing a query's result to a file in the background; the job reports rows and the outcome. */
  async exportStart(args: ArgsOf<'exportStart'>): Promise<ExportJob> {
    // With a native save dialog, only a path the user chose there may be written (a renderer cannot pick one).
    if (this.opts.platform && !this.grantedPaths.has(args.path)) throw new Error('Choose where to save the file first.')
    // Without one (the web host, which any typed path reaches), only a plain file in the export folder.
    const allowed = this.opts.platform ? null : await checkExportPath(this.exportFolder(), args.path)
    if (allowed && !allowed.ok) throw new Error(allowed.reason)
    const id = randomUUID()
    const abort = new AbortController()
    const entry = {
      job: { id, path: args.path, format: args.format, running: true, done: false, rows: 0, percent: null, bytes: 0, error: null } as ExportJob,
      abort
    }
    this.exports.set(id, entry)
    const update = (patch: Partial<ExportJob>): void => {
      entry.job = { ...entry.job, ...patch }
      if (entry.job.running) this.events.emitThrottled('exportProgress', entry.job, id)
      else this.events.emit('exportProgress', entry.job)
    }
    void (async () => {
      try {
        // A path the user chose in the save dialog may name a new folder; a checked one never does (no folder tree).
        if (!allowed) await mkdir(dirname(args.path), { recursive: true })
        const { engine, views } = await this.engineFor(args.asOf)
        const r = await exportQuery(engine, args.sql, args.path, {
          format: args.format,
          overwrite: args.overwrite,
          signal: abort.signal,
          onProgress: (p) => update({ rows: p.rowsProcessed, percent: p.percent > 0 ? p.percent : null, bytes: p.bytesWritten ?? 0 }),
          ...(allowed ? { guard: { within: this.exportFolder(), ...(this.opts.exportStage ? { onStage: this.opts.exportStage } : {}) } } : {})
        }).catch((e: unknown) => {
          // A table without a view: why (its files could not be listed, archived, no ready copy), not "does not exist".
          const why = missingViewReason(errorMessage(e), views.problems)
          throw why ? new Error(why) : e
        })
        update({ running: false, done: true, rows: r.rows, percent: 100, bytes: (await stat(args.path)).size })
      } catch (e) {
        update({
          running: false,
          error: abort.signal.aborted ? 'Export cancelled: no file was written.' : `Export failed: ${userMessage(e)} No file was written.`
        })
      }
    })()
    return entry.job
  }

  exportStatus(args: { id: string }): ExportJob {
    const e = this.exports.get(args.id)
    if (!e) throw new Error(`No export ${args.id}.`)
    return e.job
  }

  exportCancel(args: { id: string }): ExportJob {
    const e = this.exports.get(args.id)
    if (!e) throw new Error(`No export ${args.id}.`)
    e.abort.abort()
    return e.job
  }

  showInFolder(args: { path: string }): { shown: boolean } {
    // Only a file this app wrote: an export that finished (a renderer cannot have any path revealed or opened).
    if (![...this.exports.values()].some((e) => e.job.done && e.job.path === args.path))
      throw new Error(`Show in folder works only for a file an export of this session wrote; ${args.path} is not one.`)
    if (!this.opts.platform) return { shown: false }
    this.opts.platform.showInFolder(args.path)
    return { shown: true }
  }

  /** Athena / BigQuery definitions of the open connection (issue 15): columns from main's engine, the rules from the core. */
  async ddl(args: ArgsOf<'ddl'>): Promise<{ text: string; notes: readonly string[] }> {
    const service = await this.current()
    const location = warehouseLocation(await this.connectionGet({ id: service.connectionId }))
    const mismatch = engineMismatch(args.engine, location)
    if (mismatch) throw new Error(mismatch)
    const { inventory, unreadable } = await service.snapshot()
    const store = fileStoreFor(service.provider, this.opts.dataDir, service.connectionId)
    const columns = await logicalTableColumns(await this.engineFor(null), store, inventory, { now: service.now(), unreadable })
    const r = warehouseDdl({ ...args, location, inventory, columns, now: service.now(), unreadable })
    if (!r.ok) throw new Error(r.message)
    return { text: r.text, notes: r.notes }
  }

  history(): Promise<{ entries: readonly HistoryEntry[] }> {
    return this.queryHistory.entries()
  }

  historyAdd(args: ArgsOf<'historyAdd'>): Promise<{ entries: readonly HistoryEntry[] }> {
    return this.queryHistory.add({ sql: args.sql, at: new Date(this.clock()).toISOString(), rows: args.rows, ms: args.ms, error: args.error })
  }

  private close(): void {
    this.refreshAbort?.abort()
    this.refreshAbort = null
    // What the closed connection still waits for (a first refresh joined by overview, footer reads) ends too.
    this.service?.close()
    // Its restore stops being watched here; its saved state resumes when the connection opens again.
    this.closingRestore = this.restoreOf?.job.close() ?? Promise.resolve()
    this.restoreOf = null
  }

  /** Stops everything the workspace runs; resolves once nothing more is written under its data folder. */
  async dispose(): Promise<void> {
    this.close()
    if (this.timer) clearInterval(this.timer)
    for (const e of this.exports.values()) e.abort.abort()
    const byteServer = this.byteServer
    const mainEngine = this.mainEngine
    const mirror = this.mirrorOf?.mirror
    this.byteServer = null
    this.mainEngine = null
    this.mirrorOf = null
    await Promise.allSettled([
      this.closingRestore,
      mirror?.close(),
      byteServer?.server.then((s) => s.close()),
      mainEngine?.engine.then((e) => e.engine.close()),
      this.running
    ])
  }
}
