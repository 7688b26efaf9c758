// A disk cache of object bytes in fixed blocks, keyed by object identity (key and ETag or generation): a
// range read once is served from disk afterwards, and a rewritten object is a different identity. Bounded: past
// its cap the least recently used blocks are deleted (blocks being read are never). Files 0600 in 0700 folders.
import { createHash } from 'node:crypto'
import type { Dirent } from 'node:fs'
import { open, readFile, readdir, rm, rmdir, stat, unlink, utimes } from 'node:fs/promises'
import { dirname, join, resolve } from 'node:path'
import type { ByteRange, BucketProvider } from '../bucket/bucket-provider'
import type { ListedObject } from '../../shared/listing'
import { writePrivateFile } from '../files/private-file'
import { swallowed } from '../log/main-log'
import { TAIL_BYTES } from '../store/parquet-footer'

export const BLOCK_SIZE = 16 * 1024

/** The cap when none is given: enough for the Parquet footers and hot columns of a year of deliveries. */
export const DEFAULT_CACHE_BYTES = 2 * 1024 ** 3

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

export interface BlockCacheOptions {
  /** Bytes of blocks kept on disk at most (default 2 GiB); past it the least recently used go. */
  readonly maxBytes?: number
}

/** The identity a listed object's bytes are cached by: its key and ETag (else its size and time), and its size. */
export function blockIdentity(o: ListedObject): ObjectIdentity {
  return { key: o.key, etag: o.etag ?? `${o.size}-${o.lastModified}`, size: o.size }
}

/**
 * A connection's block cache under a data folder: the refresh's frame check, the hour inspector and the byte server
 * read the same blocks, so a footer fetched once for the check is what the query pane reads next, not fetched again.
 * (Earlier versions kept the footers in a folder of their own, `footers/<id>`: removed, it is only a cache.)
 */
export function connectionBlockCache(dataDir: string, connectionId: string, provider: BucketProvider): BlockCache {
  void rm(join(dataDir, 'footers', connectionId), { recursive: true, force: true }).catch(swallowed('removing the footer cache of an earlier version'))
  return new BlockCache(blockCacheDir(dataDir, connectionId), provider)
}

/** The folder of a connection's block cache (every BlockCache of one folder shares what is on disk). */
export const blockCacheDir = (dataDir: string, connectionId: string): string => join(dataDir, 'blocks', connectionId)

/** A block file's modification time is refreshed at most this often, so the order survives a restart. */
const TOUCH_EVERY_MS = 60_000
/** A temporary file older than this was left by a process that died mid-write. */
const STALE_TEMP_MS = 3_600_000
/** A census older than this is taken again, whatever it says. */
const CENSUS_MAX_AGE_MS = 24 * 3_600_000
/** A process scans the cache once what it adds could bring the census's total this near the cap. */
const CENSUS_MARGIN = 0.9

/** What the last scan found in a cache folder: its blocks' bytes, and when (ms). */
interface Census {
  readonly total: number
  readonly at: number
}

/** In the folder, beside the objects' folders (a scan reads folders only). */
const censusFile = (dir: string): string => join(dir, 'census.json')

async function readCensus(dir: string): Promise<Census | null> {
  try {
    const c = JSON.parse(await readFile(censusFile(dir), 'utf8')) as Partial<Census>
    return typeof c.total === 'number' && Number.isFinite(c.total) && c.total >= 0 && typeof c.at === 'number' && Number.isFinite(c.at)
      ? { total: c.total, at: c.at }
      : null
  } catch {
    return null
  }
}

/** A block on disk: its size, and when its file's time was last set (ms). */
interface Block {
  size: number
  touched: number
}

/**
 * What is on disk in one cache folder, shared by every BlockCache of that folder in this process (the byte server
 * makes a new one per connection it serves). The Map's order is the recency order: least recently used first.
 */
class DiskBlocks {
  readonly blocks = new Map<string, Block>()
  readonly inflight = new Map<string, Promise<void>>()
  private readonly pins = new Map<string, number>()
  private readonly perFolder = new Map<string, number>()
  total = 0
  /** Blocks deleted to stay under the cap. */
  evicted = 0
  private evicting: Promise<void> | null = null
  private again = false
  private scanning: Promise<void> | null = null
  private census: Promise<Census | null> | null = null
  /** The decisions of scanWhenNeeded, one after the other. */
  private checking: Promise<void> = Promise.resolve()
  /** Bytes of blocks this process fetched into the folder that no census counts yet. */
  uncounted = 0
  /** When this process's scan started (ms), once it has one. */
  private scannedAt: number | null = null

  constructor(
    private readonly dir: string,
    public maxBytes: number
  ) {}

  /** Learns, once and in the background, the blocks an earlier run left on disk (oldest first), then evicts. */
  scanned(): Promise<void> {
    if (!this.scanning) {
      this.scanning = this.scan().catch(swallowed('scanning the block cache left by an earlier run', 'warn'))
      void this.scanning.then(() => this.evict())
    }
    return this.scanning
  }

  /**
   * Scans (then evicts) once the cache may be near its cap: the last scan's census is missing, a day old, or its total
   * with what this process fetched comes near the cap. Otherwise a short run (a CLI command) scans nothing: a year's
   * cache is ~9,000 folders, a fifth of a second of a warm start.
   */
  scanWhenNeeded(): void {
    this.checking = this.checking.then(async () => {
      if (this.scanning) return
      const c = await (this.census ??= readCensus(this.dir))
      const now = Date.now()
      if (!c || now - c.at > CENSUS_MAX_AGE_MS || now < c.at || c.total + this.uncounted > this.maxBytes * CENSUS_MARGIN) void this.scanned()
    })
  }

  /** Records what this process knows is on disk (after a scan, and after an eviction pass), for later processes: dated
   * by the scan, so the daily scan still comes to a long-running process that knows nothing of other writers since. */
  private writeCensus(): Promise<void> {
    return this.saveCensus({ total: this.total, at: this.scannedAt ?? Date.now() })
  }

  private async saveCensus(c: Census): Promise<void> {
    this.census = Promise.resolve(c)
    await writePrivateFile(censusFile(this.dir), JSON.stringify(c)).catch(swallowed('saving the block cache census'))
  }

  /**
   * Leaves a census for later runs once this one is done with the cache: what a scan found and what came since, or the
   * last census with what this run fetched added (its time kept, so the daily scan still comes).
   */
  async recordCensus(): Promise<void> {
    await this.idle()
    if (this.scanning) return this.writeCensus()
    const c = this.uncounted > 0 ? await (this.census ??= readCensus(this.dir)) : null
    if (!c) return
    const total = c.total + this.uncounted
    this.uncounted = 0
    await this.saveCensus({ total, at: c.at })
  }

  /** Resolves once the scan and any eviction have finished. */
  async idle(): Promise<void> {
    await this.checking
    await this.scanning
    while (this.evicting) await this.evicting
  }

  private async scan(): Promise<void> {
    this.scannedAt = Date.now()
    const found: { path: string; size: number; mtime: number }[] = []
    let folders: Dirent[]
    try {
      folders = await readdir(this.dir, { withFileTypes: true })
    } catch {
      return
    }
    for (const f of folders) {
      if (!f.isDirectory()) continue
      const folder = join(this.dir, f.name)
      for (const name of await readdir(folder).catch(() => [] as string[])) {
        const path = join(folder, name)
        const s = await stat(path).catch(() => null)
        if (!s?.isFile()) continue
        if (/^\d+$/.test(name)) found.push({ path, size: s.size, mtime: s.mtimeMs })
        else if (Date.now() - s.mtimeMs > STALE_TEMP_MS) await unlink(path).catch(swallowed(`removing a stale cache file ${path}`))
      }
    }
    found.sort((a, b) => a.mtime - b.mtime)
    // Blocks this process used meanwhile are more recent than anything found: keep them last.
    const seen = [...this.blocks]
    const earlier = found.filter((b) => !this.blocks.has(b.path))
    for (const b of earlier) this.add(b.path, b.size, b.mtime)
    for (const [path, block] of seen) this.touch(path, block)
    // Only a cache an earlier run left is worth a census (one this run made is scanned again next time, for nothing).
    if (earlier.length > 0) await this.writeCensus()
  }

  add(path: string, size: number, touched = Date.now()): void {
    if (this.blocks.has(path)) this.forget(path)
    this.blocks.set(path, { size, touched })
    this.total += size
    const folder = dirname(path)
    this.perFolder.set(folder, (this.perFolder.get(folder) ?? 0) + 1)
  }

  forget(path: string): void {
    const b = this.blocks.get(path)
    if (!b) return
    this.blocks.delete(path)
    this.total -= b.size
    const folder = dirname(path)
    this.perFolder.set(folder, (this.perFolder.get(folder) ?? 1) - 1)
  }

  /** Marks a block as just used (most recent); its file's time follows now and then. */
  touch(path: string, block = this.blocks.get(path)): void {
    if (!block) return
    this.blocks.delete(path)
    this.blocks.set(path, block)
    const now = Date.now()
    if (now - block.touched > TOUCH_EVERY_MS) {
      block.touched = now
      void utimes(path, now / 1000, now / 1000).catch(swallowed(`touching the cached block ${path}`))
    }
  }

  pin(paths: readonly string[]): void {
    for (const p of paths) this.pins.set(p, (this.pins.get(p) ?? 0) + 1)
  }

  unpin(paths: readonly string[]): void {
    for (const p of paths) {
      const n = (this.pins.get(p) ?? 1) - 1
      if (n <= 0) this.pins.delete(p)
      else this.pins.set(p, n)
    }
  }

  /** Deletes least recently used blocks until under the cap; one pass runs at a time, and a caller meanwhile waits for
   * it to go round again. */
  evict(): Promise<void> {
    if (this.evicting) {
      this.again = true
      return this.evicting
    }
    if (this.total <= this.maxBytes) return Promise.resolve()
    this.evicting = (async () => {
      await this.scanned()
      do {
        this.again = false
        const victims: string[] = []
        for (const path of this.blocks.keys()) {
          if (this.total <= this.maxBytes) break
          if (this.pins.has(path) || this.inflight.has(path)) continue
          this.forget(path)
          victims.push(path)
        }
        for (const path of victims) {
          await unlink(path).catch(swallowed(`removing the evicted block ${path}`))
          this.evicted++
          // An object's folder goes with its last block, unless a fetch is about to write into it.
          const folder = dirname(path)
          if ((this.perFolder.get(folder) ?? 0) <= 0 && ![...this.inflight.keys()].some((k) => dirname(k) === folder)) {
            this.perFolder.delete(folder)
            await rmdir(folder).catch(swallowed(`removing the emptied block folder ${folder}`))
          }
        }
        // In the loop: a read that ends while the census is written is seen by the loop's test.
        if (this.scanning) await this.writeCensus()
      } while (this.again && this.total > this.maxBytes)
    })().finally(() => {
      this.evicting = null
      // A call that came after the loop's last test (before this ran) gets a pass of its own: its blocks were pinned
      // when the last pass looked, and nothing else would evict them.
      if (this.again) {
        this.again = false
        void this.evict()
      }
    })
    return this.evicting
  }
}

/** One state per cache folder for the life of the process (a handful of folders: one per connection and use). */
const shared = new Map<string, DiskBlocks>()

/** A block read from disk that is not there (evicted by another process) or not whole (a crash mid-write). */
class BlockGone extends Error {
  constructor(readonly path: string) {
    super(`block ${path} is missing or incomplete`)
  }
}

export class BlockCache {
  readonly stats: CacheStats = { bytesFetched: 0, bytesServed: 0, blocksFetched: 0 }
  private readonly disk: DiskBlocks

  constructor(
    private readonly dir: string,
    private readonly provider: BucketProvider,
    opts: BlockCacheOptions = {}
  ) {
    const abs = resolve(dir)
    let disk = shared.get(abs)
    if (!disk) shared.set(abs, (disk = new DiskBlocks(abs, opts.maxBytes ?? DEFAULT_CACHE_BYTES)))
    else if (opts.maxBytes !== undefined) disk.maxBytes = opts.maxBytes
    this.disk = disk
  }

  /** Bytes of blocks on disk as this process knows them (what an earlier run left included once scanned). */
  get bytesOnDisk(): number {
    return this.disk.total
  }

  /** Blocks of this cache's folder deleted to stay under the cap, by any cache of that folder in this process. */
  get blocksEvicted(): number {
    return this.disk.evicted
  }

  /** Resolves once what an earlier run left on disk is known and the cache is under its cap. */
  idle(): Promise<void> {
    return this.disk.idle()
  }

  /** Once done with the cache (a refresh's footers read): leaves what it holds for the next run (DiskBlocks.recordCensus). */
  recordCensus(): Promise<void> {
    return this.disk.recordCensus()
  }

  private folder(id: ObjectIdentity): string {
    return join(this.dir, createHash('sha256').update(`${id.key}\u0000${id.etag}`).digest('hex'))
  }

  /** The size block b of an object must have on disk. */
  private blockSize(id: ObjectIdentity, b: number): number {
    return Math.min(BLOCK_SIZE, id.size - b * BLOCK_SIZE)
  }

  /** Is a block on disk, whole? Known blocks are trusted; others (written by an earlier run) are checked. */
  private async present(id: ObjectIdentity, path: string, b: number): Promise<boolean> {
    if (this.disk.blocks.has(path)) return true
    const s = await stat(path).catch(() => null)
    if (!s || s.size !== this.blockSize(id, b)) return false
    this.disk.add(path, s.size, s.mtimeMs)
    return true
  }

  /** Makes sure blocks first..last are on disk, fetching missing runs of blocks in one read each. */
  private async ensure(id: ObjectIdentity, folder: string, first: number, last: number, signal?: AbortSignal): Promise<void> {
    const missing: number[] = []
    const waits: Promise<void>[] = []
    for (let b = first; b <= last; b++) {
      const path = join(folder, String(b))
      const pending = this.disk.inflight.get(path)
      if (pending) waits.push(pending)
      else if (!(await this.present(id, path, b))) missing.push(b)
    }
    // Contiguous runs of missing blocks: one ranged read per run.
    for (let i = 0; i < missing.length;) {
      let j = i
      while (j + 1 < missing.length && missing[j + 1] === (missing[j] as number) + 1) j++
      const from = missing[i] as number
      const to = missing[j] as number
      const run = this.fetchRun(id, folder, from, to, signal)
      for (let b = from; b <= to; b++) this.disk.inflight.set(join(folder, String(b)), run)
      waits.push(
        run.finally(() => {
          for (let b = from; b <= to; b++) if (this.disk.inflight.get(join(folder, String(b))) === run) this.disk.inflight.delete(join(folder, String(b)))
        })
      )
      i = j + 1
    }
    await Promise.all(waits)
  }

  private async fetchRun(id: ObjectIdentity, folder: string, from: number, to: number, signal?: AbortSignal): Promise<void> {
    const start = from * BLOCK_SIZE
    const end = Math.min(id.size - 1, (to + 1) * BLOCK_SIZE - 1)
    const { body } = await this.provider.readRange(id.key, { start, end }, signal)
    this.stats.bytesFetched += body.length
    this.disk.uncounted += body.length
    for (let b = from; b <= to; b++) {
      const slice = body.subarray((b - from) * BLOCK_SIZE, Math.min(body.length, (b - from + 1) * BLOCK_SIZE))
      const path = join(folder, String(b))
      // Not fsynced: a block lost to a crash is fetched again, and an incomplete one fails the size check.
      await writePrivateFile(path, slice, { durable: false })
      this.disk.add(path, slice.length)
      this.stats.blocksFetched++
    }
  }

  /** Reads blocks first..last of an object from disk into the range start..end. */
  private async assemble(id: ObjectIdentity, folder: string, start: number, end: number, first: number, last: number): Promise<Buffer> {
    const parts: Buffer[] = []
    for (let b = first; b <= last; b++) {
      const path = join(folder, String(b))
      const from = b === first ? start - b * BLOCK_SIZE : 0
      const to = b === last ? end - b * BLOCK_SIZE + 1 : BLOCK_SIZE
      let fh
      try {
        fh = await open(path, 'r')
      } catch (e) {
        if ((e as { code?: string }).code === 'ENOENT') throw new BlockGone(path)
        throw e
      }
      try {
        const buf = Buffer.alloc(to - from)
        const { bytesRead } = await fh.read(buf, 0, buf.length, from)
        if (bytesRead !== buf.length) throw new BlockGone(path)
        parts.push(buf)
      } finally {
        await fh.close()
      }
      this.disk.touch(path)
    }
    return parts.length === 1 ? (parts[0] as Buffer) : Buffer.concat(parts)
  }

  /**
   * A whole object from disk when every one of its blocks is there (a small file whose footer the refresh's check read
   * is all there), else null; never fetches. The file store takes it instead of downloading the object again.
   */
  async held(id: ObjectIdentity): Promise<Buffer | null> {
    // Only what a footer check reads whole (a file within its tail) can be held whole.
    if (id.size === 0 || id.size > TAIL_BYTES) return null
    const last = Math.floor((id.size - 1) / BLOCK_SIZE)
    const folder = this.folder(id)
    const paths: string[] = []
    for (let b = 0; b <= last; b++) paths.push(join(folder, String(b)))
    this.disk.pin(paths)
    try {
      for (let b = 0; b <= last; b++) if (!(await this.present(id, paths[b] as string, b))) return null
      const body = await this.assemble(id, folder, 0, id.size - 1, 0, last)
      this.stats.bytesServed += body.length
      return body
    } catch (e) {
      if (e instanceof BlockGone) return null
      throw e
    } finally {
      this.disk.unpin(paths)
    }
  }

  /** The bytes of an inclusive range (clamped to the object), from disk, fetching what is missing. */
  async read(id: ObjectIdentity, range: ByteRange, signal?: AbortSignal): Promise<{ start: number; end: number; body: Buffer }> {
    const start = 'suffix' in range ? Math.max(0, id.size - range.suffix) : range.start
    const end = 'suffix' in range ? id.size - 1 : Math.min(range.end ?? id.size - 1, id.size - 1)
    if (id.size === 0 || end < start) return { start, end: start - 1, body: Buffer.alloc(0) }
    const first = Math.floor(start / BLOCK_SIZE)
    const last = Math.floor(end / BLOCK_SIZE)
    const folder = this.folder(id)
    const paths: string[] = []
    for (let b = first; b <= last; b++) paths.push(join(folder, String(b)))
    this.disk.scanWhenNeeded()
    // Pinned from the check that a block is there until it has been read: eviction leaves it alone.
    this.disk.pin(paths)
    let body: Buffer
    try {
      for (let attempt = 0; ; attempt++) {
        await this.ensure(id, folder, first, last, signal)
        try {
          body = await this.assemble(id, folder, start, end, first, last)
          break
        } catch (e) {
          // Deleted by another process, or cut short by a crash: forget it and fetch it again (twice at most).
          if (!(e instanceof BlockGone) || attempt >= 2) throw e
          this.disk.forget(e.path)
          await unlink(e.path).catch(swallowed(`removing the damaged block ${e.path}`))
        }
      }
    } finally {
      this.disk.unpin(paths)
    }
    // Again with what this read fetched counted: an earlier run's blocks are learnt (and the cap kept) once they may matter.
    this.disk.scanWhenNeeded()
    await this.disk.evict()
    this.stats.bytesServed += body.length
    return { start, end, body }
  }
}
