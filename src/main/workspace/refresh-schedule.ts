// The open connection's refresh: its status (progress, generation, last end and error, next automatic one), cancel,
// and the automatic refresh after each hour's 40-minute mark. Progress and end are pushed as events.
import type { RefreshStatus } from '../../shared/api/views'
import { nextAutoRefresh } from '../../shared/schedule'
import type { IndexProgress } from '../bucket/bucket-index'
import type { MainEvents } from '../main-events'
import type { ConnectionSession } from '../session/connection-session'
import { userMessage } from './user-message'

export interface RefreshScheduleOptions {
  readonly clock: () => number
  readonly events: MainEvents
  /** Refresh by itself each hour after the 40-minute mark (default true): `tick` is called every 30 s. */
  readonly autoRefresh: boolean
  readonly tick: () => Promise<unknown>
}

export class RefreshSchedule {
  private refreshAbort: AbortController | null = null
  private progress: IndexProgress | null = null
  private generation = 0
  private lastRefreshed: number | null = null
  private lastRefreshStart: number | null = null
  private lastError: string | null = null
  private readonly timer: NodeJS.Timeout | null
  /** The running refresh, if any (tests and the CLI wait on it). */
  running: Promise<void> = Promise.resolve()

  constructor(private readonly opts: RefreshScheduleOptions) {
    this.timer = opts.autoRefresh ? setInterval(() => void opts.tick(), 30_000) : null
    this.timer?.unref()
  }

  status(): RefreshStatus {
    const next = this.lastRefreshStart === null || !this.opts.autoRefresh ? null : new Date(nextAutoRefresh(this.lastRefreshStart)).toISOString()
    return {
      running: this.refreshAbort !== null,
      progress: this.progress,
      generation: this.generation,
      lastRefreshed: this.lastRefreshed === null ? null : new Date(this.lastRefreshed).toISOString(),
      lastError: this.lastError,
      nextAuto: next
    }
  }

  /** True once a refresh of the open connection succeeded. */
  get refreshed(): boolean {
    return this.lastRefreshed !== null
  }

  get error(): string | null {
    return this.lastError
  }

  /** Whether the automatic refresh is due: none runs, and the hour's mark after the last start has passed. */
  due(): boolean {
    return !this.refreshAbort && this.lastRefreshStart !== null && this.opts.clock() >= nextAutoRefresh(this.lastRefreshStart)
  }

  /** Another connection opened (or none is): its refresh starts from nothing, a new generation. */
  reset(): void {
    this.stopRunning()
    this.generation++
    this.lastRefreshed = null
    this.lastError = null
  }

  /** The open connection closed: its running refresh is cancelled. */
  stopRunning(): void {
    this.refreshAbort?.abort()
    this.refreshAbort = null
  }

  /** Starts a refresh of the session (or joins the running one); the status reports its progress. */
  start(session: ConnectionSession, args: { full: boolean }): RefreshStatus {
    const service = session.snapshot
    if (!this.refreshAbort) {
      const abort = new AbortController()
      this.refreshAbort = abort
      this.progress = null
      this.lastRefreshStart = this.opts.clock()
      const done = service
        .refresh({
          full: args.full,
          signal: abort.signal,
          onProgress: (p) => {
            this.progress = p
            this.opts.events.emitThrottled('refreshProgress', this.status())
          }
        })
        .then(
          () => {
            if (session.closed) return
            this.generation++
            this.lastRefreshed = this.opts.clock()
            this.lastError = null
            void session.mirror.update(session.mirrorSnapshot())
          },
          (e: unknown) => {
            if (session.closed) return
            this.lastError = abort.signal.aborted
              ? 'Refresh cancelled; the last refresh is still shown.'
              : `Refresh failed: ${userMessage(e)} The last refresh is still shown.`
          }
        )
        .finally(() => {
          if (this.refreshAbort === abort) this.refreshAbort = null
          this.opts.events.emit('refreshDone', this.status())
        })
      this.running = done
      this.opts.events.emit('refreshProgress', this.status())
    }
    return this.status()
  }

  /** Resolves once no refresh runs (whatever its outcome). */
  settled(): Promise<void> {
    // Nothing lost: a refresh's failure is in its status (lastError).
    return this.running.catch(() => {})
  }

  /** Refreshes the session and waits for the end; rejects with the refresh's error. */
  async again(session: ConnectionSession): Promise<void> {
    this.start(session, { full: false })
    await this.running
    if (this.lastError) throw new Error(this.lastError)
  }

  cancel(): RefreshStatus {
    this.refreshAbort?.abort()
    return this.status()
  }

  /** Stops the automatic refresh and the running one. */
  stop(): void {
    this.stopRunning()
    if (this.timer) clearInterval(this.timer)
  }
}
