// The open connection's mirror, kept current: rebuilt in the background after each refresh (the timeline and the
// query pane never wait for it), one build at a time, with progress, cancel and resume, a disk limit, and clear;
// what the engines need of it (its segments, and the byte server's view of its files as objects held whole on disk).
import { join } from 'node:path'
import type { MirrorProgressView, MirrorStatusView, MirrorTableView } from '../../shared/api/views'
import type { Inventory } from '../../shared/inventory'
import { type ListedObject, isArchived } from '../../shared/listing'
import type { MirroredSegment } from '../../shared/mirror-plan'
import type { HeldFiles } from '../byte-server/byte-server'
import { fileStoreFor } from '../store/connection-files'
import type { BucketProvider } from '../bucket/bucket-provider'
import type { FileStore } from '../store/file-store'
import { frameCacheFile } from '../store/frame-answers'
import { Mirror, type MirrorProgress, type MirrorRefresh, type TableCoverage } from './mirror'
import type { MirrorLimit } from './mirror-limits'
import { MIRROR_KEY_PREFIX, mirrorKey, supersededKey } from '../../shared/mirror-sql'
import type { SupersededList } from '../../shared/mirror-superseded'
import { errorMessage } from '../../shared/error-message'
import type { JobState } from '../../shared/job-state'

type Snapshot = () => Promise<{ inventory: Inventory; now: number }>
/** A mirror file as the byte server serves it. */
type Served = { readonly file: string; readonly bytes: number; readonly identity: string }

export interface ConnectionMirrorOptions {
  /** The connection's disk limit (mirror and downloaded files), read at the start of each build. */
  readonly limit?: () => Promise<MirrorLimit>
  /** The status changed: `final` when a build ended or stopped, or the mirror was cleared (else progress, to throttle). */
  readonly onChange?: (status: MirrorStatusView, final: boolean) => void
  /** The clock (tests need none; the estimate of time left uses it). */
  readonly clock?: () => number
}

interface Usage {
  readonly mirror: number
  readonly downloaded: number
  readonly byTable: Readonly<Record<string, { bytes: number; segments: number }>>
}

export class ConnectionMirror {
  readonly mirror: Mirror
  readonly store: FileStore
  private build: Promise<void> | null = null
  private again = false
  private progress: MirrorProgress | null = null
  private startedAt = 0
  private coverage: readonly TableCoverage[] = []
  private last: MirrorRefresh | null = null
  private error: string | null = null
  /** Why the last build stopped before the end; a cancel's message is said from what the mirror holds once it stopped. */
  private stopped: { readonly state: 'cancelled' | 'limit'; readonly message: string | null } | null = null
  private usage: Usage | null = null
  private limit: MirrorLimit | null = null
  private snapshot: Snapshot | null = null
  private closed = false
  /** Ends the running build (its downloads and its compaction): on cancel, clear, and when the connection closes. */
  private abort: AbortController | null = null
  /** The mirror's files the byte server may serve (segments and superseded lists), by their key: those the index names
   * now (`current`), and those the index before it named (`previous`), which the mirror keeps until the build after. */
  private current: ReadonlyMap<string, Served> = new Map()
  private previous: ReadonlyMap<string, Served> = new Map()
  /** Changes each time what the mirror holds may have changed under a reader (a build ended, a clear): views rebuild. */
  version = 0

  constructor(
    dataDir: string,
    connectionId: string,
    provider: BucketProvider,
    private readonly opts: ConnectionMirrorOptions = {}
  ) {
    this.store = fileStoreFor(provider, dataDir, connectionId)
    // The refresh's file check and the mirror share one record of unreadable files (by key + ETag).
    this.mirror = new Mirror(join(dataDir, 'mirror', connectionId), this.store, { unreadableFile: frameCacheFile(dataDir, connectionId) })
  }

  private now(): number {
    return this.opts.clock ? this.opts.clock() : Date.now()
  }

  status(): MirrorStatusView {
    const usage = this.usage ?? { mirror: 0, downloaded: 0, byTable: {} }
    const tables: MirrorTableView[] = this.coverage.map((c) => ({
      ...c,
      bytes: usage.byTable[c.table]?.bytes ?? 0,
      segments: usage.byTable[c.table]?.segments ?? 0
    }))
    const state: JobState = this.build
      ? 'running'
      : this.stopped
        ? 'cancelled'
        : this.error
          ? 'failed'
          : this.last || tables.some((t) => t.folders > 0)
            ? 'done'
            : 'idle'
    const atLimit = state === 'cancelled' && this.stopped?.state === 'limit'
    const held = tables.reduce((n, t) => n + t.folders, 0)
    const total = tables.reduce((n, t) => n + t.foldersTotal, 0)
    const cancelled = `Cancelled: the mirror keeps what it built (${held.toLocaleString('en')} of ${total.toLocaleString('en')} folders). Resume, or the next refresh, goes on from there; what it does not hold yet is read from the bucket's files meanwhile.`
    const message = state === 'running' ? null : state === 'cancelled' && !atLimit ? cancelled : (this.stopped?.message ?? this.error)
    return {
      state,
      atLimit,
      message,
      progress: this.build ? this.progressView() : null,
      tables,
      usage: { mirror: usage.mirror, downloaded: usage.downloaded, total: usage.mirror + usage.downloaded },
      limit: this.limit,
      last: this.last ? { built: this.last.built, kept: this.last.kept, removed: this.last.removed, problems: this.last.problems } : null
    }
  }

  private progressView(): MirrorProgressView | null {
    const p = this.progress
    if (!p) return null
    const elapsed = (this.now() - this.startedAt) / 1000
    // By bytes (what takes the time: downloads, then compaction), once there is a rate to go by.
    const secondsLeft =
      p.bytes > 0 && elapsed >= 1 && p.bytesTotal > p.bytes
        ? (elapsed * (p.bytesTotal - p.bytes)) / p.bytes
        : p.bytesTotal > 0 && p.bytes >= p.bytesTotal
          ? 0
          : null
    const { coverage: _coverage, ...counts } = p
    return { ...counts, startedAt: new Date(this.startedAt).toISOString(), secondsLeft }
  }

  /** Disk use again (segments from the index, downloaded files from the store's folder) and the limit. */
  async refreshUsage(): Promise<MirrorStatusView> {
    const [u, downloaded] = await Promise.all([this.mirror.usage(), this.store.bytesHeld()])
    const byTable: Record<string, { bytes: number; segments: number }> = {}
    const segments = await this.mirror.segments()
    // Bytes as the mirror counts them (its superseded lists included), segments as files of rows.
    for (const s of segments) {
      const t = (byTable[s.table] ??= { bytes: u.byTable[s.table] ?? 0, segments: 0 })
      t.segments += s.rows > 0 ? 1 : 0
    }
    this.usage = { mirror: u.total, downloaded, byTable }
    // Folders held, from the index (a cancelled build's last segment may have finished after its last progress).
    const folders = new Map<string, number>()
    for (const s of segments) folders.set(s.table, (folders.get(s.table) ?? 0) + s.folders.length)
    if (this.progress === null) this.coverage = this.coverage.map((c) => ({ ...c, folders: folders.get(c.table) ?? 0 }))
    if (this.opts.limit) this.limit = await this.opts.limit()
    return this.status()
  }

  private changed(final: boolean): void {
    this.opts.onChange?.(this.status(), final)
  }

  /** Brings the mirror up to this listing, in the background; a build asked for while one runs follows it. */
  update(snapshot: Snapshot, onProgress?: (s: MirrorStatusView) => void): Promise<void> {
    if (this.closed) return Promise.resolve()
    this.snapshot = snapshot
    if (this.build) {
      this.again = true
      return this.build
    }
    this.stopped = null
    this.error = null
    const run = async (): Promise<void> => {
      do {
        this.again = false
        const abort = new AbortController()
        this.abort = abort
        try {
          const { inventory, now } = await snapshot()
          this.startedAt = this.now()
          await this.refreshUsage().catch(() => null)
          const limit = this.limit?.bytes
          const r = await this.mirror.refresh(inventory, now, {
            signal: abort.signal,
            storeBytes: this.usage?.downloaded ?? 0,
            ...(limit !== undefined ? { limitBytes: limit } : {}),
            onProgress: (p) => {
              this.progress = p
              this.coverage = p.coverage
              onProgress?.(this.status())
              this.changed(false)
            }
          })
          this.last = r
          this.error = null
          if (r.stopped) {
            this.stopped = { state: 'limit', message: r.stopped }
            return
          }
        } catch (e) {
          if (abort.signal.aborted) return
          this.error = `The local mirror could not be brought up to date: ${errorMessage(e)} The tables read the bucket's files meanwhile.`
        }
      } while (this.again && !this.closed)
    }
    this.build = run().finally(async () => {
      this.abort = null
      this.progress = null
      this.version++
      await this.refreshUsage().catch(() => null)
      // A refresh that asked for a build while this one was ending gets its own.
      const again = this.again && !this.closed && this.stopped === null
      this.build = null
      onProgress?.(this.status())
      this.changed(true)
      if (again) void this.update(snapshot, onProgress)
    })
    this.changed(false)
    return this.build
  }

  /** Stops a running build and resolves once it has stopped; what it built stays, and a later build goes on from there. */
  async cancel(): Promise<MirrorStatusView> {
    const running = this.build
    if (running) {
      this.again = false
      this.stopped = { state: 'cancelled', message: null }
      this.abort?.abort()
      await running
    }
    return this.status()
  }

  /** Builds again from where the last build stopped (cancelled, at the limit, or after a clear), for the last listing. */
  async resume(): Promise<MirrorStatusView> {
    if (!this.build && this.snapshot) void this.update(this.snapshot)
    return this.status()
  }

  /** Stops a running build, then removes the mirror and the files downloaded for it; the next refresh builds it again. */
  async clear(): Promise<MirrorStatusView> {
    const running = this.build
    if (running) {
      this.again = false
      this.abort?.abort()
      await running
    }
    await this.mirror.clear()
    // Archived files downloaded while restored are kept: they could not be downloaded again without another restore.
    const listing = await this.snapshot?.().catch(() => null)
    const archived = listing ? listing.inventory.objects.filter((o) => isArchived(o, listing.now)) : []
    await this.store.clear(archived)
    this.current = this.previous = new Map()
    this.last = null
    this.error = null
    this.stopped = null
    this.coverage = this.coverage.map((c) => ({ ...c, folders: 0 }))
    this.version++
    await this.refreshUsage().catch(() => null)
    this.changed(true)
    return this.status()
  }

  /** Stops a running build for good (the connection closes) and resolves once nothing more is written under the data folder. */
  async close(): Promise<void> {
    this.closed = true
    this.again = false
    this.abort?.abort()
    await this.build
  }

  /** Resolves once no build is running (tests, the CLI and benchmarks wait for a complete mirror). */
  async settled(): Promise<void> {
    while (this.build) await this.build
  }

  /** The segments the index names now (a running build's finished ones included); the query pane never waits for a build. */
  async segments(): Promise<MirroredSegment[]> {
    return (await this.served()).segments
  }

  /** The superseded lists the index names now, served by the byte server like segments. */
  async superseded(): Promise<SupersededList[]> {
    return (await this.served()).superseded
  }

  /** What the index names now, and the byte server's files from it (segments with rows, and the lists). The files of
   * the index before stay served: views opened on them (the query pane's, an export's) read on while they rebuild. */
  private async served(): Promise<{ segments: MirroredSegment[]; superseded: SupersededList[] }> {
    const [segments, superseded] = await Promise.all([this.mirror.segments(), this.mirror.superseded()])
    const now = new Map<string, Served>([
      ...segments.filter((s) => s.rows > 0).map((s) => [mirrorKey(s), { file: s.file, bytes: s.bytes, identity: s.identity }] as const),
      // A list's file never changes once written: it is named by the digest it was written for (a new hour's versions also
      // by the folder they follow), and the same name is always the same rows.
      ...superseded.flatMap((l) => l.parts).map((part) => [supersededKey(part), { file: part.file, bytes: part.bytes, identity: 'list' }] as const)
    ])
    if (now.size !== this.current.size || [...now.keys()].some((k) => !this.current.has(k))) {
      this.previous = this.current
      this.current = now
    }
    return { segments, superseded }
  }

  /** A file of the index now, or of the one before it. */
  private servedFile(key: string): Served | undefined {
    return this.current.get(key) ?? this.previous.get(key)
  }

  /** A segment file or a superseded list as the byte server sees an object (its identity in place of an ETag). */
  object(key: string): ListedObject | undefined {
    const s = this.servedFile(key)
    return s ? { key, size: s.bytes, lastModified: new Date(0).toISOString(), etag: `${s.identity}-${s.file}`, storageClass: 'STANDARD' } : undefined
  }

  /** The byte server's whole files: the mirror's segments, else the file store's copies. */
  heldFiles(store: HeldFiles): HeldFiles {
    return {
      has: async (o) => (o.key.startsWith(MIRROR_KEY_PREFIX) ? this.servedFile(o.key) !== undefined : store.has(o)),
      pathOf: (o) => (o.key.startsWith(MIRROR_KEY_PREFIX) ? this.mirror.pathOf(o.key.slice(MIRROR_KEY_PREFIX.length)) : store.pathOf(o))
    }
  }
}
