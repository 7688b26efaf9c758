// A connection's bulk restore: asks S3 to restore each archived key (RestoreObject, a few at a time, with the
// provider's retries), then watches by HEAD at an interval until every key is readable or failed, and then
// hands the restored keys over (the workspace records them in the listing and refreshes, so the logical tables
// and the mirror include them). Its state is saved after every step (restore-state-file.ts): a job loaded again
// from the same data folder resumes where it was, asking for the keys it had not asked for yet.
import pLimit from 'p-limit'
import type { RestoreJobView, RestoreKeyState } from '../../shared/api/views'
import { RESTORE_KEY_STATES } from '../../shared/api/views'
import { isArchived, type RestoreState } from '../../shared/listing'
import type { RestoreTier } from '../../shared/restore-plan'
import { BucketError } from '../bucket/bucket-errors'
import type { BucketProvider } from '../bucket/bucket-provider'
import type { SavedStateFile } from '../files/saved-state-file'
import { type SavedRestore, type SavedRestoreKey, restoreStateFile } from './restore-state-file'
import { errorMessage } from '../../shared/error-message'
import { refusal } from '../../shared/refusal'

/** How often S3 is asked how far the restores are: restores take minutes (Expedited) to hours. */
export const DEFAULT_RESTORE_CHECK_MS = 3 * 60_000

export interface RestoreJobOptions {
  /** The saved state (restore/<connection>.json in the data folder). */
  readonly file: string
  readonly provider: BucketProvider
  /** Between two checks (default DEFAULT_RESTORE_CHECK_MS; tests pass a few milliseconds). */
  readonly intervalMs?: number
  /** RestoreObject requests in flight at once. */
  readonly concurrency?: number
  /** The clock of times shown and saved; `readNow` the instant an expiry is compared with (the rules' "now"). */
  readonly clock: () => number
  readonly readNow: () => number
  /** The job changed (pushed to the renderer). */
  readonly onChange: (job: RestoreJobView | null) => void
  /** Every key is done or failed: record the restored ones in the listing and refresh. The job is finished once it resolves. */
  readonly onRestored: (restored: readonly { readonly key: string; readonly restore: RestoreState }[]) => Promise<void>
}

const messageOf = (e: unknown): string => (e instanceof BucketError ? e.userMessage : errorMessage(e))
const unsettled = (k: SavedRestoreKey): boolean => k.state === 'waiting' || k.state === 'requested' || k.state === 'in_progress'

export class RestoreJob {
  private readonly saved: SavedStateFile<SavedRestore | null>
  private state: SavedRestore | null = null
  private timer: NodeJS.Timeout | null = null
  private nextCheck: number | null = null
  private lastError: string | null = null
  /** The request or check pass running, if any (one at a time). */
  private pass: Promise<void> | null = null
  private readonly abort = new AbortController()

  constructor(private readonly opts: RestoreJobOptions) {
    this.saved = restoreStateFile(opts.file)
  }

  private get interval(): number {
    return this.opts.intervalMs ?? DEFAULT_RESTORE_CHECK_MS
  }

  /** Reads the saved job of this location; an unfinished one resumes (keys not asked for yet are asked, then watched). */
  async load(location: string): Promise<readonly string[]> {
    const { value, problems } = await this.saved.read()
    this.state = value && value.location === location ? value : null
    if (this.state && this.state.finishedAt === null) this.run(() => this.requestWaiting())
    return problems
  }

  view(): RestoreJobView | null {
    const s = this.state
    if (!s) return null
    const counts = Object.fromEntries(RESTORE_KEY_STATES.map((k) => [k, 0])) as Record<RestoreKeyState, number>
    for (const k of s.keys) counts[k.state]++
    const failed = s.keys
      .filter((k) => k.state === 'failed')
      .slice(0, 20)
      .map((k) => ({ key: k.key, message: k.message ?? 'failed' }))
    return {
      table: s.table,
      tier: s.tier,
      days: s.days,
      state: s.finishedAt === null ? 'running' : 'done',
      startedAt: s.startedAt,
      endedAt: s.finishedAt,
      checkedAt: s.checkedAt,
      nextCheck: s.finishedAt === null && this.nextCheck !== null ? new Date(this.nextCheck).toISOString() : null,
      total: s.keys.length,
      bytes: s.keys.reduce((n, k) => n + k.size, 0),
      counts,
      failed,
      lastError: this.lastError
    }
  }

  get running(): boolean {
    return this.state !== null && this.state.finishedAt === null
  }

  /** Starts a restore of these keys (refused while one runs); resolves once it is saved, before any request. */
  async start(args: {
    readonly location: string
    readonly table: string | null
    readonly tier: RestoreTier
    readonly days: number
    readonly keys: readonly { readonly key: string; readonly size: number }[]
  }): Promise<RestoreJobView> {
    if (this.running) {
      const v = this.view() as RestoreJobView
      throw refusal(
        'busy',
        `A restore is already running on this connection (${v.counts.done} of ${v.total} restored, started ${(v.startedAt ?? '').slice(0, 16).replace('T', ' ')} UTC): wait for it to finish, then start another.`
      )
    }
    if (args.keys.length === 0) throw refusal('nothing_to_do', 'Nothing to restore: no file the table reads is archived.')
    this.lastError = null
    this.state = {
      location: args.location,
      table: args.table,
      tier: args.tier,
      days: args.days,
      startedAt: new Date(this.opts.clock()).toISOString(),
      checkedAt: null,
      finishedAt: null,
      keys: args.keys.map((k) => ({ key: k.key, size: k.size, state: 'waiting' }))
    }
    await this.save()
    this.changed()
    this.run(() => this.requestWaiting())
    return this.view() as RestoreJobView
  }

  /** Runs one pass now (the timer's, or a test's): asks S3 how far each key not done yet is. */
  async checkNow(): Promise<void> {
    await this.pass
    await this.runNow(() => this.check())
  }

  /** Resolves when the running pass (if any) has ended. */
  async idle(): Promise<void> {
    while (this.pass) await this.pass
  }

  /** Stops watching; resolves once nothing more is written. The saved state stays for the next launch. */
  async close(): Promise<void> {
    this.abort.abort()
    if (this.timer) clearTimeout(this.timer)
    this.timer = null
    await this.idle()
  }

  private run(fn: () => Promise<void>): void {
    void this.runNow(fn)
  }

  private async runNow(fn: () => Promise<void>): Promise<void> {
    if (this.abort.signal.aborted) return
    const pass = (async () => {
      try {
        await fn()
      } catch (e) {
        if (!this.abort.signal.aborted) this.lastError = messageOf(e)
      }
    })()
    this.pass = pass
    await pass
    if (this.pass === pass) this.pass = null
    if (this.abort.signal.aborted) return
    this.changed()
    this.schedule()
  }

  private schedule(): void {
    if (this.timer) clearTimeout(this.timer)
    this.timer = null
    this.nextCheck = null
    if (!this.running || this.abort.signal.aborted) return
    this.nextCheck = this.opts.clock() + this.interval
    this.timer = setTimeout(() => {
      this.timer = null
      this.run(() => this.check())
    }, this.interval)
    this.timer.unref()
  }

  private changed(): void {
    try {
      this.opts.onChange(this.view())
    } catch {
      // A transport that fails must not stop the restore.
    }
  }

  private async save(): Promise<void> {
    const s = this.state
    await this.saved.update(() => s)
  }

  private setKey(key: string, patch: Partial<SavedRestoreKey>): void {
    const s = this.state
    if (!s) return
    this.state = { ...s, keys: s.keys.map((k) => (k.key === key ? { ...k, ...patch } : k)) }
  }

  /** Asks S3 to restore every key not asked for yet, a few at a time. */
  private async requestWaiting(): Promise<void> {
    const s = this.state
    if (!s) return
    const limit = pLimit(this.opts.concurrency ?? 8)
    const signal = this.abort.signal
    await Promise.all(
      s.keys
        .filter((k) => k.state === 'waiting')
        .map((k) =>
          limit(async () => {
            if (signal.aborted) return
            try {
              const r = await this.opts.provider.restore(k.key, s.days, s.tier, signal)
              this.setKey(k.key, { state: r === 'in_progress' ? 'in_progress' : 'requested' })
            } catch (e) {
              if (signal.aborted) return
              this.setKey(k.key, { state: 'failed', message: `The restore could not be started: ${messageOf(e)}` })
            }
          })
        )
    )
    await this.save()
    await this.finishIfSettled()
  }

  /** HEAD of each key asked for: in progress, done (with its expiry), or gone. */
  private async check(): Promise<void> {
    const s = this.state
    if (!s || s.finishedAt !== null) return
    if (s.keys.some((k) => k.state === 'waiting')) await this.requestWaiting()
    const limit = pLimit(this.opts.concurrency ?? 8)
    const signal = this.abort.signal
    let problem: string | null = null
    await Promise.all(
      (this.state as SavedRestore).keys
        .filter((k) => k.state === 'requested' || k.state === 'in_progress')
        .map((k) =>
          limit(async () => {
            if (signal.aborted) return
            try {
              const head = await this.opts.provider.head(k.key, signal)
              if (!isArchived(head, this.opts.readNow()))
                this.setKey(k.key, { state: 'done', ...(head.restore?.expiry ? { expiry: head.restore.expiry } : {}) })
              else if (head.restore?.ongoing) this.setKey(k.key, { state: 'in_progress' })
            } catch (e) {
              if (signal.aborted) return
              if (e instanceof BucketError && e.kind === 'not_found')
                this.setKey(k.key, { state: 'failed', message: `The object is gone from the bucket: ${messageOf(e)}` })
              else problem = `Checking the restore failed: ${messageOf(e)} It is checked again at the next interval.`
            }
          })
        )
    )
    if (signal.aborted) return
    this.lastError = problem
    this.state = { ...(this.state as SavedRestore), checkedAt: new Date(this.opts.clock()).toISOString() }
    await this.save()
    await this.finishIfSettled()
  }

  /** Once no key is waiting or in progress: the restored keys go into the listing, and the job is finished. */
  private async finishIfSettled(): Promise<void> {
    const s = this.state
    if (!s || s.finishedAt !== null || s.keys.some(unsettled)) return
    const restored = s.keys
      .filter((k) => k.state === 'done')
      .map((k) => ({ key: k.key, restore: { ongoing: false, ...(k.expiry ? { expiry: k.expiry } : {}) } }))
    if (restored.length > 0) await this.opts.onRestored(restored)
    this.state = { ...s, finishedAt: new Date(this.opts.clock()).toISOString() }
    await this.save()
  }
}
