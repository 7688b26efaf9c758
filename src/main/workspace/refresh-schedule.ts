// The open connection's refresh: its status (progress, generation, last end and error, next check), cancel, and
// following the feed as `watch` does (src/shared/follow/check-schedule.ts): a refresh at each hour's due time (40
// minutes after it starts) and, while the due hour's markers (its manifest, each table's _SUCCESS) have not all
// landed, a poll of a few of their folders every minute, which refreshes as soon as one lands. Progress and end are pushed as events.
import type { RefreshStatus } from '../../shared/api/views'
import { DEFAULT_POLL_MS, type NextCheck, awaitedMarkers, dueHourAt, nextCheck } from '../../shared/follow/check-schedule'
import type { IndexProgress } from '../bucket/bucket-index'
import { pollMarkers } from '../follow/marker-poll'
import type { MainEvents } from '../main-events'
import type { ConnectionSession } from '../session/connection-session'
import { userMessage } from './user-message'

export interface RefreshScheduleOptions {
  readonly clock: () => number
  readonly events: MainEvents
  /** Follow the feed by itself (default true): `tick` is called every 30 s. */
  readonly autoRefresh: boolean
  readonly tick: () => Promise<unknown>
  /** After each successful refresh of the session (its incidents told to the follow targets). */
  readonly refreshed?: (session: ConnectionSession) => void
  /** How often the due hour's manifest is polled while it has not landed (default a minute). */
  readonly pollMs?: number
}

export class RefreshSchedule {
  private refreshAbort: AbortController | null = null
  private progress: IndexProgress | null = null
  private generation = 0
  private lastRefreshed: number | null = null
  private lastError: string | null = null
  /** The next check: a refresh at the due time, or a poll of the due hour's manifest folder; null before a refresh. */
  private next: NextCheck | null = null
  /** The due hour's markers the last listing lacked, and how many polls have looked for them. */
  private awaiting: readonly string[] = []
  private round = 0
  private readonly timer: NodeJS.Timeout | null
  /** The running refresh, if any (tests and the CLI wait on it). */
  running: Promise<void> = Promise.resolve()

  constructor(private readonly opts: RefreshScheduleOptions) {
    this.timer = opts.autoRefresh ? setInterval(() => void opts.tick(), 30_000) : null
    this.timer?.unref()
  }

  status(): RefreshStatus {
    const next = this.next === null || !this.opts.autoRefresh ? null : new Date(this.next.at).toISOString()
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

  /** Whether the next check is due: none runs, and its time has come. */
  due(): boolean {
    return !this.refreshAbort && this.next !== null && this.opts.clock() >= this.next.at
  }

  /**
   * The next check of the session, when due: a refresh (started, and true), or a poll of the due hour's awaited markers
   * (at most 5 listings: marker-poll.ts) that refreshes once one has landed (true) or plans the next poll (false).
   */
  async check(session: ConnectionSession): Promise<boolean> {
    const next = this.next
    if (!next || !this.due()) return false
    if (next.kind === 'poll') {
      let seen: ReadonlySet<string> = new Set()
      try {
        // Written after the session's instant, an object does not exist yet (the demo bucket's own "now").
        seen = (await pollMarkers(session.provider, this.awaiting, this.round++, session.snapshot.now())).seen
      } catch {
        // Not reachable now: the next poll asks again (a refresh would say why, at the due time).
      }
      if (session.closed || this.next !== next) return false
      if (!this.awaiting.some((k) => seen.has(k))) {
        this.next = { ...nextCheck(this.opts.clock(), { awaiting: true, pollMs: this.pollMs }), hour: next.hour }
        return false
      }
    }
    this.start(session, { full: false })
    return true
  }

  private get pollMs(): number {
    return this.opts.pollMs ?? DEFAULT_POLL_MS
  }

  /**
   * After a refresh of the session: polls while the due hour's markers are awaited (awaitedMarkers), else the next due
   * time. Which hour is due is the session's instant (the demo bucket's own); when to check is the clock's.
   */
  private planAfter(session: ConnectionSession): void {
    const { hour } = dueHourAt(session.snapshot.now())
    this.awaiting = awaitedMarkers(hour, (k) => session.snapshot.object(k) !== undefined)
    this.round = 0
    this.next = { ...nextCheck(this.opts.clock(), { awaiting: this.awaiting.length > 0, pollMs: this.pollMs }), hour }
  }

  /** Another connection opened (or none is): its refresh starts from nothing, a new generation. */
  reset(): void {
    this.stopRunning()
    this.generation++
    this.lastRefreshed = null
    this.lastError = null
    this.next = null
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
            this.opts.refreshed?.(session)
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
          if (!session.closed) this.planAfter(session)
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
