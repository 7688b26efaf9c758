// A disk cache of object bytes in fixed blocks, keyed by object identity (key and ETag or generation): a
// range read once is served from disk afterwards, and a rewritten object is a different identity.
import { createHash } from 'node:crypto'
import { mkdir, open, readFile, rename, stat, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { ByteRange, BucketProvider } from '../bucket/bucket-provider'

export const BLOCK_SIZE = 16 * 1024

export interface CacheStats {
  /** Bytes fetched from the bucket (whole blocks). */
  bytesFetched: number
  /** Bytes served (from disk, whatever their origin). */
  bytesServed: number
  blocksFetched: number
}

export interface ObjectIdentity {
  readonly key: string
  readonly etag: string
  readonly size: number
}

export class BlockCache {
  readonly stats: CacheStats = { bytesFetched: 0, bytesServed: 0, blocksFetched: 0 }
  private readonly inflight = new Map<string, Promise<void>>()

  constructor(
    private readonly dir: string,
    private readonly provider: BucketProvider
  ) {}

  private folder(id: ObjectIdentity): string {
    return join(this.dir, createHash('sha256').update(`${id.key}\u0000${id.etag}`).digest('hex'))
  }

  /** Makes sure blocks first..last are on disk, fetching missing runs of blocks in one read each. */
  private async ensure(id: ObjectIdentity, first: number, last: number, signal?: AbortSignal): Promise<void> {
    const folder = this.folder(id)
    await mkdir(folder, { recursive: true })
    const missing: number[] = []
    const waits: Promise<void>[] = []
    for (let b = first; b <= last; b++) {
      const path = join(folder, String(b))
      const pending = this.inflight.get(path)
      if (pending) waits.push(pending)
      else if (!(await stat(path).then(() => true, () => false))) missing.push(b)
    }
    // Contiguous runs of missing blocks: one ranged read per run.
    for (let i = 0; i < missing.length; ) {
      let j = i
      while (j + 1 < missing.length && missing[j + 1] === (missing[j] as number) + 1) j++
      const from = missing[i] as number
      const to = missing[j] as number
      const run = this.fetchRun(id, folder, from, to, signal)
      for (let b = from; b <= to; b++) this.inflight.set(join(folder, String(b)), run)
      waits.push(run.finally(() => { for (let b = from; b <= to; b++) this.inflight.delete(join(folder, String(b))) }))
      i = j + 1
    }
    await Promise.all(waits)
  }

  private async fetchRun(id: ObjectIdentity, folder: string, from: number, to: number, signal?: AbortSignal): Promise<void> {
    const start = from * BLOCK_SIZE
    const end = Math.min(id.size - 1, (to + 1) * BLOCK_SIZE - 1)
    const { body } = await this.provider.readRange(id.key, { start, end }, signal)
    this.stats.bytesFetched += body.length
    for (let b = from; b <= to; b++) {
      const slice = body.subarray((b - from) * BLOCK_SIZE, Math.min(body.length, (b - from + 1) * BLOCK_SIZE))
      const path = join(folder, String(b))
      const tmp = `${path}.${process.pid}.tmp`
      await writeFile(tmp, slice)
      await rename(tmp, path)
      this.stats.blocksFetched++
    }
  }

  /** The bytes of an inclusive range (clamped to the object), from disk, fetching what is missing. */
  async read(id: ObjectIdentity, range: ByteRange, signal?: AbortSignal): Promise<{ start: number; end: number; body: Buffer }> {
    const start = 'suffix' in range ? Math.max(0, id.size - range.suffix) : range.start
    const end = 'suffix' in range ? id.size - 1 : Math.min(range.end ?? id.size - 1, id.size - 1)
    if (id.size === 0 || end < start) return { start, end: start - 1, body: Buffer.alloc(0) }
    const first = Math.floor(start / BLOCK_SIZE)
    const last = Math.floor(end / BLOCK_SIZE)
    await this.ensure(id, first, last, signal)
    const folder = this.folder(id)
    const parts: Buffer[] = []
    for (let b = first; b <= last; b++) {
      const from = b === first ? start - b * BLOCK_SIZE : 0
      const to = b === last ? end - b * BLOCK_SIZE + 1 : BLOCK_SIZE
      if (from === 0 && to === BLOCK_SIZE) parts.push(await readFile(join(folder, String(b))))
      else {
        const fh = await open(join(folder, String(b)), 'r')
        try {
          const buf = Buffer.alloc(to - from)
          await fh.read(buf, 0, buf.length, from)
          parts.push(buf)
        } finally {
          await fh.close()
        }
      }
    }
    const body = Buffer.concat(parts)
    this.stats.bytesServed += body.length
    return { start, end, body }
  }
}
