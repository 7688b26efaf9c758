// The open connection's mirror, kept current: rebuilt in the background after each refresh (the timeline never
// waits for it), one build at a time; what the engines need of it (its segments, and the byte server's view of its
// files as objects held whole on disk).
import { join } from 'node:path'
import type { Inventory } from '../../shared/inventory'
import type { ListedObject } from '../../shared/listing'
import type { MirroredSegment } from '../../shared/mirror-plan'
import type { HeldFiles } from '../byte-server/byte-server'
import { fileStoreFor } from '../engine/open-bucket-engine'
import type { BucketProvider } from '../bucket/bucket-provider'
import { Mirror, type MirrorProgress, type MirrorRefresh } from './mirror'

/** Keys under which the byte server serves the mirror's segment files. */
export const MIRROR_KEY_PREFIX = 'mirror/'

export interface MirrorStatus {
  readonly building: boolean
  readonly progress: MirrorProgress | null
  readonly last: MirrorRefresh | null
  readonly error: string | null
}

export class ConnectionMirror {
  readonly mirror: Mirror
  private build: Promise<void> | null = null
  private again = false
  private progress: MirrorProgress | null = null
  private last: MirrorRefresh | null = null
  private error: string | null = null
  private byKey = new Map<string, MirroredSegment>()
  /** Ends the running build (its downloads and its compaction) when the connection closes. */
  private readonly abort = new AbortController()

  constructor(dataDir: string, connectionId: string, provider: BucketProvider) {
    this.mirror = new Mirror(join(dataDir, 'mirror', connectionId), fileStoreFor(provider, dataDir, connectionId))
  }

  status(): MirrorStatus {
    return { building: this.build !== null, progress: this.progress, last: this.last, error: this.error }
  }

  /** Brings the mirror up to this listing, in the background; a build asked for while one runs follows it. */
  update(snapshot: () => Promise<{ inventory: Inventory; now: number }>, onProgress?: (s: MirrorStatus) => void): Promise<void> {
    if (this.abort.signal.aborted) return Promise.resolve()
    if (this.build) {
      this.again = true
      return this.build
    }
    const run = async (): Promise<void> => {
      do {
        this.again = false
        try {
          const { inventory, now } = await snapshot()
          this.last = await this.mirror.refresh(inventory, now, {
            signal: this.abort.signal,
            onProgress: (p) => {
              this.progress = p
              onProgress?.(this.status())
            }
          })
          this.error = null
        } catch (e) {
          if (this.abort.signal.aborted) return
          this.error = `The local mirror could not be brought up to date: ${(e as Error).message} The tables read the bucket's files meanwhile.`
        }
      } while (this.again && !this.abort.signal.aborted)
    }
    this.build = run().finally(() => {
      this.build = null
      this.progress = null
      onProgress?.(this.status())
    })
    return this.build
  }

  /** Stops a running build and resolves once it has ended (nothing more is written under the data folder). */
  async close(): Promise<void> {
    this.abort.abort()
    await this.build
  }

  /** The segments, once a running build has finished (the query pane waits; the timeline does not). */
  async segments(): Promise<MirroredSegment[]> {
    if (this.build) await this.build
    const segments = await this.mirror.segments()
    this.byKey = new Map(segments.filter((s) => s.rows > 0).map((s) => [`${MIRROR_KEY_PREFIX}${s.file}`, s]))
    return segments
  }

  /** A segment file as the byte server sees an object (its identity in place of an ETag). */
  object(key: string): ListedObject | undefined {
    const s = this.byKey.get(key)
    return s ? { key, size: s.bytes, lastModified: new Date(0).toISOString(), etag: `${s.identity}-${s.file}`, storageClass: 'STANDARD' } : undefined
  }

  /** The byte server's whole files: the mirror's segments, else the file store's copies. */
  heldFiles(store: HeldFiles): HeldFiles {
    return {
      has: async (o) => (o.key.startsWith(MIRROR_KEY_PREFIX) ? this.byKey.has(o.key) : store.has(o)),
      pathOf: (o) => (o.key.startsWith(MIRROR_KEY_PREFIX) ? this.mirror.pathOf(o.key.slice(MIRROR_KEY_PREFIX.length)) : store.pathOf(o))
    }
  }
}
