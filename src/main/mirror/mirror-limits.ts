// How much disk each connection's mirror (its compacted segments and the bucket's files downloaded for them) may use:
// chosen by the user, or by default a quarter of the free space where the app keeps its data, measured at the
// connection's first build and saved, so the limit does not move as the disk fills.
import { mkdir, statfs } from 'node:fs/promises'
import { type Decoded, SavedStateFile } from '../files/saved-state-file'

export interface MirrorLimit {
  readonly bytes: number
  /** Set by the user (else the default share of free space). */
  readonly chosen: boolean
}

/** The default share of the free space a connection's mirror may use. */
export const DEFAULT_LIMIT_SHARE = 0.25

function decode(parsed: unknown): Decoded<Record<string, MirrorLimit>> {
  const value: Record<string, MirrorLimit> = {}
  const problems: string[] = []
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return { value, problems: ['it is not an object of limits by connection'] }
  for (const [id, v] of Object.entries(parsed)) {
    const l = v as Partial<MirrorLimit>
    if (typeof l?.bytes === 'number' && Number.isFinite(l.bytes) && l.bytes >= 0 && typeof l.chosen === 'boolean')
      value[id] = { bytes: l.bytes, chosen: l.chosen }
    else problems.push(`the limit of connection ${id} is not a number of bytes`)
  }
  return { value, problems }
}

export class MirrorLimits {
  private readonly saved: SavedStateFile<Record<string, MirrorLimit>>

  constructor(
    file: string,
    /** The folder whose disk the mirrors are on. */
    private readonly dataDir: string
  ) {
    this.saved = new SavedStateFile(file, { empty: () => ({}), decode, encode: (all) => JSON.stringify(all, null, 2) })
  }

  private async defaultBytes(): Promise<number> {
    await mkdir(this.dataDir, { recursive: true, mode: 0o700 })
    const s = await statfs(this.dataDir)
    return Math.floor(s.bavail * s.bsize * DEFAULT_LIMIT_SHARE)
  }

  /** The connection's limit; the default is measured and saved the first time. */
  async get(connectionId: string): Promise<MirrorLimit> {
    const known = (await this.saved.read()).value[connectionId]
    if (known) return known
    const bytes = await this.defaultBytes()
    const saved = await this.saved.update(async (all) => (all[connectionId] ? all : { ...all, [connectionId]: { bytes, chosen: false } }))
    return saved[connectionId] ?? { bytes, chosen: false }
  }

  /** Sets the connection's limit, or (null) goes back to the default, measured now. */
  async set(connectionId: string, bytes: number | null): Promise<MirrorLimit> {
    const limit = bytes === null ? { bytes: await this.defaultBytes(), chosen: false } : { bytes: Math.floor(bytes), chosen: true }
    await this.saved.update((all) => ({ ...all, [connectionId]: limit }))
    return limit
  }
}
