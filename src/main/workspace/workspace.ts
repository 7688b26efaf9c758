// The app's state in main, behind every call of the API contract and its events: it composes the saved connections,
// the open connection's session, its refresh schedule, the byte server, exports and the query history, and has no
// job of its own. Plain Node: the Electron shell and the web host both use it.
import { join } from 'node:path'
import type { ArgsOf } from '../../shared/api/calls'
import type { ConnectionVerdictView, ConnectionsView, EngineSource, ExportJob, FollowSettingsView, HistoryEntry } from '../../shared/api/views'
import type { MonitorThresholdsView, NotifySetting, RefreshStatus, RestorePlanView, RestoreStatusView } from '../../shared/api/views'
import type { ConnectionConfig } from '../../shared/connection-config'
import { type ByteServer, startByteServer } from '../byte-server/byte-server'
import { QueryHistory } from '../history/query-history'
import { swallowed } from '../log/main-log'
import { MainEvents } from '../main-events'
import { MirrorLimits } from '../mirror/mirror-limits'
import { FollowDeliveries, type FollowWhere } from '../follow/follow-deliveries'
import type { WebhookOptions } from '../follow/follow-targets'
import { deliveryHeadline } from '../../shared/delivery-headline'
import { type Incident, incidentsOf } from '../../shared/incidents'
import { MonitorSettingsStore } from '../session/monitor-settings'
import { DEFAULT_MONITOR_THRESHOLDS } from '../../shared/delivery-monitors'
import { ConnectionSession } from '../session/connection-session'
import { engineSourceOf } from '../session/engine-source'
import { warehouseDefinitions } from '../session/warehouse-definitions'
import { ExportJobs, type ExportJobsOptions } from './export-jobs'
import { MirrorCommands } from './mirror-commands'
import { RefreshSchedule } from './refresh-schedule'
import { SavedConnections, type SavedConnectionsOptions } from './saved-connections'
import { refusal } from '../../shared/refusal'

export interface WorkspaceOptions extends SavedConnectionsOptions, Omit<ExportJobsOptions, 'events'> {
  /** The clock for buckets other than the demo (tests move it). */
  readonly clock?: () => number
  /** Refresh by itself each hour after the 40-minute mark (default true). */
  readonly autoRefresh?: boolean
  /** The bulk restore's check interval (default a few minutes; tests pass a few milliseconds). */
  readonly restore?: { readonly intervalMs?: number }
  /** The follow targets' webhook retries and back-off (tests shorten them). */
  readonly webhook?: WebhookOptions
  /**
   * Asks the user, in a dialog of main's own, before a command target is saved (Electron: shell/command-consent.ts):
   * a command runs as the user, so the page alone must not add one. Without it (the web host, which the user started
   * from a terminal and opened with its one-time address) the session's page is trusted to have asked.
   */
  readonly confirmCommand?: (command: string, connectionName: string) => Promise<boolean>
}

export class Workspace {
  /** Refresh progress and end, export, mirror and restore progress: pushed to the renderer (IPC or Server-Sent Events). */
  readonly events = new MainEvents()
  private readonly saved: SavedConnections
  private readonly queryHistory: QueryHistory
  private readonly mirrorLimits: MirrorLimits
  /** The mirror calls of the contract. */
  readonly mirror: MirrorCommands
  private readonly follow: FollowDeliveries
  private readonly monitorSettings: MonitorSettingsStore
  private readonly schedule: RefreshSchedule
  private readonly exports: ExportJobs
  /** The open connection, or none. */
  private session: ConnectionSession | null = null
  /** What closed sessions still finish (dispose waits for it). */
  private closing: Promise<unknown> = Promise.resolve()
  /** One byte server for the workspace's life (its origin is in the page's CSP), serving the open connection. */
  private byteServer: Promise<ByteServer> | null = null
  private rendererOrigin: string | undefined

  constructor(private readonly opts: WorkspaceOptions) {
    this.saved = new SavedConnections(opts)
    this.queryHistory = new QueryHistory(join(opts.dataDir, 'query-history.json'))
    this.mirrorLimits = new MirrorLimits(join(opts.dataDir, 'mirror-limits.json'), opts.dataDir)
    this.follow = new FollowDeliveries({
      dataDir: opts.dataDir,
      secrets: opts.secrets,
      events: this.events,
      clock: () => this.clock(),
      ...(opts.webhook ? { webhook: opts.webhook } : {})
    })
    this.monitorSettings = new MonitorSettingsStore(join(opts.dataDir, 'monitor-thresholds.json'))
    this.schedule = new RefreshSchedule({
      clock: () => this.clock(),
      events: this.events,
      autoRefresh: opts.autoRefresh !== false,
      tick: () => this.autoRefreshTick(),
      refreshed: (session) => void this.tellTargets(session)
    })
    this.exports = new ExportJobs({ events: this.events, ...opts })
    this.mirror = new MirrorCommands({
      session: () => this.sessionOrOpenFirst(),
      limits: this.mirrorLimits,
      refreshed: () => this.schedule.refreshed,
      exporting: () => this.exports.running
    })
  }

  private clock(): number {
    return this.opts.clock ? this.opts.clock() : Date.now()
  }

  async connections(): Promise<ConnectionsView> {
    return this.saved.view(this.session?.connectionId ?? null, [...(await this.queryHistory.problems()), ...(await this.follow.problems())])
  }

  connectionGet(args: { id: string }): Promise<ConnectionConfig> {
    return this.saved.get(args)
  }
  connectionSave(input: ArgsOf<'connectionSave'>): Promise<{ id: string }> {
    return this.saved.save(input)
  }
  connectionTest(input: ArgsOf<'connectionTest'>): Promise<ConnectionVerdictView> {
    return this.saved.test(input)
  }
  awsProfiles(): Promise<{ profiles: readonly string[]; error: string | null }> {
    return this.saved.awsProfiles()
  }

  async connectionDelete(args: { id: string }): Promise<ConnectionsView> {
    await this.saved.delete(args)
    await this.follow.forget(args.id)
    if (this.session?.connectionId === args.id) this.close()
    return this.connections()
  }

  /** Opens a connection and starts its first refresh; the previous one stays open if this one cannot be. */
  async connectionOpen(args: { id: string }): Promise<ConnectionsView> {
    const config = await this.saved.get(args)
    const { provider, fixedNow } = await this.saved.open(config)
    this.close()
    this.schedule.reset()
    const session: ConnectionSession = new ConnectionSession({
      config,
      provider,
      dataDir: this.opts.dataDir,
      now: fixedNow !== undefined ? () => fixedNow : () => this.clock(),
      clock: () => this.clock(),
      events: this.events,
      mirrorLimit: () => this.mirrorLimits.get(config.id),
      monitors: () => this.monitorSettings.config(config.id),
      ...(this.opts.restore?.intervalMs !== undefined ? { restoreIntervalMs: this.opts.restore.intervalMs } : {}),
      refresh: { settled: () => this.schedule.settled(), again: () => this.schedule.again(session) }
    })
    this.session = session
    void this.refresh({ full: false }).catch(swallowed('the first refresh of the opened connection (its status says why)'))
    return this.connections()
  }

  /** The open connection's session; when none is open, opens the first saved connection (the demo): the app's first
   * call (its overview) shows a bucket without the user choosing one. */
  async sessionOrOpenFirst(): Promise<ConnectionSession> {
    if (!this.session) {
      const first = (await this.saved.all()).list[0]
      if (!first) throw refusal('no_connection', 'No connection is open: add one in Connections.')
      await this.connectionOpen({ id: first.id })
    }
    return this.session as ConnectionSession
  }

  refreshStatus(): RefreshStatus {
    return this.schedule.status()
  }
  /** Starts a refresh (or joins the running one); the status reports its progress. */
  async refresh(args: { full: boolean }): Promise<RefreshStatus> {
    return this.schedule.start(await this.sessionOrOpenFirst(), args)
  }
  refreshCancel(): RefreshStatus {
    return this.schedule.cancel()
  }

  /** The running refresh, if any (tests and the CLI wait on it). */
  get running(): Promise<void> {
    return this.schedule.running
  }

  /** The open connection's next check, when due (called every 30 s): true when it started a refresh. */
  async autoRefreshTick(): Promise<boolean> {
    if (!this.session) return false
    return this.schedule.check(this.session).catch((e: unknown) => {
      swallowed('the automatic check (its status says why)')(e)
      return false
    })
  }

  /** The origin the renderer is served from, allowed to read the byte server (CORS). */
  setRendererOrigin(origin: string): void {
    this.rendererOrigin = origin
  }
  /** The byte server's origin (http://127.0.0.1:PORT), started on first use; CORS follows setRendererOrigin. */
  async byteServerOrigin(): Promise<string> {
    return (await this.startedByteServer()).origin
  }
  private startedByteServer(): Promise<ByteServer> {
    return (this.byteServer ??= startByteServer({ allowOrigin: () => this.rendererOrigin }))
  }

  async restorePlan(args: ArgsOf<'restorePlan'>): Promise<RestorePlanView> {
    return (await this.sessionOrOpenFirst()).restorePlan(args)
  }
  async restoreStart(args: ArgsOf<'restoreStart'>): Promise<RestoreStatusView> {
    return (await this.sessionOrOpenFirst()).restoreStart(args)
  }
  async restoreStatus(): Promise<RestoreStatusView> {
    return (await this.sessionOrOpenFirst()).restoreStatus()
  }

  async followSettings(): Promise<FollowSettingsView> {
    return this.follow.view((await this.sessionOrOpenFirst()).connectionId)
  }
  async followSetNotify(args: { notify: NotifySetting }): Promise<FollowSettingsView> {
    return this.follow.setNotify((await this.sessionOrOpenFirst()).connectionId, args.notify)
  }
  async followTargetAdd(args: ArgsOf<'followTargetAdd'>): Promise<FollowSettingsView> {
    const session = await this.sessionOrOpenFirst()
    if (args.kind === 'command' && this.opts.confirmCommand && !(await this.opts.confirmCommand(args.value, session.provider.location)))
      throw refusal('declined', 'The command was not added: it was not confirmed in the dialog.')
    return this.follow.add(session.connectionId, args.kind, args.value)
  }
  async followTargetRemove(args: ArgsOf<'followTargetRemove'>): Promise<FollowSettingsView> {
    return this.follow.remove((await this.sessionOrOpenFirst()).connectionId, args.id)
  }
  async followTargetTest(args: ArgsOf<'followTargetTest'>): Promise<FollowSettingsView> {
    const session = await this.sessionOrOpenFirst()
    return this.follow.test(session.connectionId, args.id, { location: session.provider.location, headline: null })
  }

  /** After a refresh of the session: its incident changes told to the connection's targets (in the background). */
  tellTargets(session: ConnectionSession): Promise<void> {
    const where = async (): Promise<FollowWhere> => {
      const s = session.snapshot
      return { location: session.provider.location, headline: deliveryHeadline(await s.overview(), await s.timeline({ fromHours: 48 })) }
    }
    // Every finding comes with any range: the shortest is the cheapest.
    const incidents = async (): Promise<Incident[]> => incidentsOf(await session.snapshot.timeline({ fromHours: 1 }))
    return this.follow.afterRefresh(session.connectionId, incidents, where)
  }

  /** Resolves once the follow targets were told what the refreshes so far found (tests wait on it). */
  get telling(): Promise<void> {
    return this.follow.settled()
  }

  /** The open connection's monitor thresholds: the defaults, and what it set for every table and per table. */
  async monitorThresholds(): Promise<MonitorThresholdsView> {
    const id = (await this.sessionOrOpenFirst()).connectionId
    return { connectionId: id, defaults: DEFAULT_MONITOR_THRESHOLDS, ...(await this.monitorSettings.config(id)) }
  }
  /** Saves one table's thresholds (or every table's; null: back to the defaults) and judges the last refresh again. */
  async monitorSetThresholds(args: ArgsOf<'monitorSetThresholds'>): Promise<MonitorThresholdsView> {
    const session = await this.sessionOrOpenFirst()
    await this.monitorSettings.set(session.connectionId, args.table, args.thresholds)
    await session.snapshot.reanalyze()
    return this.monitorThresholds()
  }

  async engineSource(args: { asOf: string | null }): Promise<EngineSource> {
    const session = await this.sessionOrOpenFirst()
    // The query pane reads the parts tables the mirror holds whole from it, and the others from the bucket's files:
    // it never waits for a build (the version changes when one ends, so the views are built again then).
    await this.schedule.settled()
    return engineSourceOf(session, () => this.startedByteServer(), args)
  }

  exportDefaults(): { directory: string; dialog: boolean } {
    return this.exports.defaults()
  }
  chooseSavePath(args: { defaultName: string; format: 'csv' | 'parquet' }): Promise<{ path: string | null }> {
    return this.exports.chooseSavePath(args)
  }

  /** Starts writing a query's result to a file in the background, on main's engine of the open connection. */
  exportStart(args: ArgsOf<'exportStart'>): Promise<ExportJob> {
    return this.exports.start(args, this.session?.connectionId ?? null, async (asOf) => {
      const session = await this.sessionOrOpenFirst()
      return { connection: session.connectionId, engine: await session.engineFor(asOf) }
    })
  }

  exportStatus(args: { id: string }): ExportJob {
    return this.exports.status(args)
  }
  exportCancel(args: { id: string }): ExportJob {
    return this.exports.cancel(args)
  }
  showInFolder(args: { path: string }): { shown: boolean } {
    return this.exports.showInFolder(args)
  }

  async ddl(args: ArgsOf<'ddl'>): Promise<{ text: string; notes: readonly string[] }> {
    const session = await this.sessionOrOpenFirst()
    return warehouseDefinitions(session, await this.saved.get({ id: session.connectionId }), this.opts.dataDir, args)
  }

  history(): Promise<{ entries: readonly HistoryEntry[] }> {
    return this.queryHistory.entries()
  }
  historyAdd(args: ArgsOf<'historyAdd'>): Promise<{ entries: readonly HistoryEntry[] }> {
    return this.queryHistory.add({ ...args, at: new Date(this.clock()).toISOString(), connection: this.session?.connectionId ?? null })
  }

  /** Closes the open connection (its refresh is cancelled); what it still finishes is awaited by dispose. */
  private close(): void {
    this.schedule.stopRunning()
    const session = this.session
    this.session = null
    if (session) this.closing = Promise.allSettled([this.closing, session.close()])
  }

  /** Stops everything the workspace runs; resolves once nothing more is written under its data folder. */
  async dispose(): Promise<void> {
    this.close()
    this.schedule.stop()
    const byteServer = this.byteServer
    this.byteServer = null
    await Promise.allSettled([this.closing, this.exports.close(), byteServer?.then((s) => s.close()), this.schedule.running])
    await this.follow.close()
  }
}
