// The local file store: bucket objects downloaded whole, once, so that native DuckDB (which reads local files
// only) can query them. A file is named by its key and version (ETag / generation), so a changed object is
// fetched again and an unchanged one never is; parts folders are never rewritten, so history is downloaded
// once per machine. A download goes to a unique temporary name, is checked against the listed size, then
// renamed: a download cut in the middle never leaves a file that looks complete.
import { createHash, randomBytes } from 'node:crypto'
import { createWriteStream } from 'node:fs'
import { mkdir, open, readFile, readdir, rename, rm, stat } from 'node:fs/promises'
import { dirname, join, resolve } from 'node:path'
import { Transform } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import pLimit from 'p-limit'
import { objectIdentity } from '../../shared/identity-tag'
import type { ListedObject } from '../../shared/listing'
import { BucketError, bucketError } from '../bucket/bucket-errors'
import type { BucketProvider } from '../bucket/bucket-provider'
import { errorMessage } from '../../shared/error-message'
import { swallowed } from '../log/main-log'
import { shareSignal } from '../bucket/bounded-wait'
import { copyWriter } from './copy-writer'

export interface StoreProgress {
  readonly files: number
  readonly filesTotal: number
  readonly bytes: number
  readonly bytesTotal: number
}

export interface EnsureResult {
  /** Local path of every object that is held whole. */
  readonly paths: ReadonlyMap<string, string>
  /** Objects that could not be downloaded, with why (the rest are still usable); `unreadable` when it is not Parquet. */
  readonly failures: readonly { readonly key: string; readonly error: BucketError; readonly unreadable?: true }[]
}

/** Where a provider's objects already are on disk (a local folder needs no copy). */
export interface LocalFiles {
  localPath(key: string): string
}

// The errors that say a file is not Parquet (the rules then pass over its copy or leave it out), apart from failed downloads.
const notParquetErrors = new WeakSet<BucketError>()
const notParquet = (key: string): BucketError => {
  const e = bucketError(
    'other',
    key,
    'Not a readable Parquet file (empty, cut short, or its footer is damaged)',
    'Ask the vendor to deliver it again; until then its table cannot use it.'
  )
  notParquetErrors.add(e)
  return e
}

/** Parquet's frame from a file's first 4 and last 8 bytes: "PAR1" at both ends and a footer that fits in the file.
 * Catches empty, truncated and garbled files. */
function frameLooksLikeParquet(head: Buffer, tail: Buffer, size: number): boolean {
  if (size < 12 || head.length < 4 || tail.length < 8) return false
  const footer = tail.readUInt32LE(0)
  return head.toString('latin1', 0, 4) === 'PAR1' && tail.toString('latin1', 4, 8) === 'PAR1' && footer > 0 && footer <= size - 12
}

async function looksLikeParquet(path: string, size: number): Promise<boolean> {
  if (size < 12) return false
  const f = await open(path, 'r')
  try {
    const head = Buffer.alloc(4)
    const tail = Buffer.alloc(8)
    await f.read(head, 0, 4, 0)
    await f.read(tail, 0, 8, size - 8)
    return frameLooksLikeParquet(head, tail, size)
  } finally {
    await f.close()
  }
}

const longerThanListed = (o: ListedObject): BucketError =>
  bucketError(
    'network',
    o.key,
    `The object is longer than listed (more than its ${o.size} bytes): it changed since the listing`,
    'Refresh, then run the query again.'
  )

const cutShort = (o: ListedObject, received: number): BucketError =>
  bucketError('network', o.key, `The download was cut short (${received} of ${o.size} bytes)`, 'Try again; the next query downloads it anew.')

const changedLocally = (key: string): BucketError =>
  bucketError('not_found', key, 'The file was changed or removed since the folder was listed', 'Refresh, then run the query again.')

/** Beside an object's name: this version was downloaded and is not Parquet (a changed object has another name). */
const NOT_PARQUET_MARK = '.not-parquet'

/** A download's name until it is whole and checked (never shared by two writers). */
const temporaryName = (target: string): string => `${target}.${process.pid}.${randomBytes(6).toString('hex')}.partial`

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false
  )
}

/** How many downloads a store runs at once by default (each a GET of one object). */
export const DOWNLOADS_AT_ONCE = 48

/** Objects up to this size are received in memory and written with one call (most hourly files are a few KB):
 * a stream, a reopen for the frame check and their callbacks cost more than the bytes. At most
 * DOWNLOADS_AT_ONCE × this in memory at once; readWhole takes objects up to this size only. */
export const IN_MEMORY_BYTES = 1 << 20

/** From this many objects, ensure reads the store's folders once to learn what it holds, instead of a check per object. */
const SURVEY_FROM = 256

/** The copies this process wrote into each store folder (and did not clear since), shared by every FileStore of the
 * folder: the refresh's check and the mirror's build each make one. */
const writtenInto = new Map<string, Set<string>>()

export class FileStore {
  private readonly inflight = new Map<string, Promise<string>>()
  /** Copies written into this store's folder by this process (checked then): a download queued before another caller
   * fetched the same object finds it here instead of fetching it again, and one the survey sees is taken without a
   * stat. (On disk still: a copy removed by another process is fetched again.) */
  private readonly written: Set<string>

  constructor(
    /** The store's folder (one per connection). */
    readonly dir: string,
    private readonly provider: BucketProvider & Partial<LocalFiles>,
    private readonly opts: {
      readonly concurrency?: number
      /** An object's bytes when another cache of this connection holds it whole (the block cache), else null: taken
       * instead of a download. Checked as a download is (size, frame). */
      readonly held?: (o: ListedObject) => Promise<Buffer | null>
    } = {}
  ) {
    const key = resolve(dir)
    let written = writtenInto.get(key)
    if (!written) writtenInto.set(key, (written = new Set()))
    this.written = written
  }

  /** The folder native DuckDB must be allowed to read for this store's files. */
  get readableRoot(): string {
    return this.provider.localPath ? this.provider.localPath('') : this.dir
  }

  /** Where an object's whole copy lives (whether or not it is there yet). */
  pathOf(o: ListedObject): string {
    if (this.provider.localPath) return this.provider.localPath(o.key)
    const h = createHash('sha256').update(objectIdentity(o)).digest('hex')
    const ext = /\.[A-Za-z0-9]{1,10}$/.exec(o.key)?.[0] ?? ''
    return join(this.dir, 'objects', h.slice(0, 2), `${h.slice(2, 40)}${ext}`)
  }

  /** True when the object is held whole (by size: a partial download never has the final name). */
  async has(o: ListedObject): Promise<boolean> {
    try {
      return (await stat(this.pathOf(o))).size === o.size
    } catch {
      return false
    }
  }

  /** True when this very version was downloaded and is held (a local folder is read in place: never). An archived
   * object held so stays readable here after its restored copy expires. */
  async holdsDownloaded(o: ListedObject): Promise<boolean> {
    return !this.provider.localPath && (await this.has(o))
  }

  /** Bytes of the whole copies this store holds (a local folder, read in place, holds none). */
  async bytesHeld(): Promise<number> {
    if (this.provider.localPath) return 0
    let n = 0
    for (const e of await readdir(join(this.dir, 'objects'), { recursive: true, withFileTypes: true }).catch(() => [])) {
      if (e.isFile() && !e.name.endsWith('.partial'))
        n += await stat(join(e.parentPath, e.name)).then(
          (x) => x.size,
          () => 0
        )
    }
    return n
  }

  /** Removes the whole copies (downloaded again when needed) but those of `keep` (archived objects, which could not be
   * downloaded again without a restore); not while a download runs. */
  async clear(keep: readonly ListedObject[] = []): Promise<void> {
    if (this.provider.localPath) return
    const kept = new Set(keep.map((o) => this.pathOf(o)))
    this.written.clear()
    for (const e of await readdir(join(this.dir, 'objects'), { recursive: true, withFileTypes: true }).catch(() => [])) {
      const path = join(e.parentPath, e.name)
      if (e.isFile() && !kept.has(path)) await rm(path, { force: true })
    }
  }

  /** Of these objects, those the store does not hold whole yet (what ensure would download). */
  async missing(objects: readonly ListedObject[]): Promise<ListedObject[]> {
    const survey = await this.survey(objects)
    const out: ListedObject[] = []
    for (const o of objects) if (!(await this.holds(o, this.pathOf(o), survey))) out.push(o)
    return out
  }

  /** Held whole: seen by the survey and written (checked) by this process, without a look of its own; else by its size. */
  private async holds(o: ListedObject, path: string, survey: Set<string> | null): Promise<boolean> {
    if (survey) return survey.has(path) && (this.written.has(path) || (await this.has(o)))
    return this.has(o)
  }

  /**
   * The paths of every file in the store's folders, read once, when there are enough objects to check that one look
   * at the folders costs less than a check each (a cold year: tens of thousands of files, none there yet). Null for a
   * local folder (read in place) and for a few objects. A path it holds is still checked (its size); one it lacks is
   * missing.
   */
  private async survey(objects: readonly ListedObject[]): Promise<Set<string> | null> {
    if (this.provider.localPath || objects.length < SURVEY_FROM) return null
    const out = new Set<string>()
    const root = join(this.dir, 'objects')
    for (const e of await readdir(root, { recursive: true, withFileTypes: true }).catch(() => [])) if (!e.isDirectory()) out.add(join(e.parentPath, e.name))
    return out
  }

  /** Downloads what is missing, in parallel (bounded), and answers where each object is. */
  async ensure(
    objects: readonly ListedObject[],
    opts: { readonly signal?: AbortSignal; readonly onProgress?: (p: StoreProgress) => void } = {}
  ): Promise<EnsureResult> {
    const paths = new Map<string, string>()
    const failures: { key: string; error: BucketError; unreadable?: true }[] = []
    const fail = (key: string, error: BucketError): void => {
      failures.push({ key, error, ...(notParquetErrors.has(error) ? { unreadable: true as const } : {}) })
    }
    shareSignal(opts.signal)
    const missing: ListedObject[] = []
    const survey = await this.survey(objects)
    for (const o of objects) {
      const path = this.pathOf(o)
      // Known not to be Parquet (this very version was downloaded and checked before): not fetched again.
      if (!this.provider.localPath && (survey ? survey.has(`${path}${NOT_PARQUET_MARK}`) : await exists(`${path}${NOT_PARQUET_MARK}`)))
        fail(o.key, notParquet(o.key))
      // A local folder is read in place and never written: a file no longer as listed is not "downloaded" onto itself.
      else if (this.provider.localPath && !(await this.has(o))) fail(o.key, changedLocally(o.key))
      // Not in the store's folders: missing, without a check of its own.
      else if (!(await this.holds(o, path, survey))) missing.push(o)
      else if (this.provider.localPath && !(await looksLikeParquet(path, o.size))) fail(o.key, notParquet(o.key))
      else paths.set(o.key, path)
    }
    const progress = { files: 0, filesTotal: missing.length, bytes: 0, bytesTotal: missing.reduce((n, o) => n + o.size, 0) }
    opts.onProgress?.({ ...progress })
    const limit = pLimit(this.opts.concurrency ?? DOWNLOADS_AT_ONCE)
    // Settled, not all: a cancelled ensure returns only once every download it started has stopped and cleaned up.
    const settled = await Promise.allSettled(
      missing.map((o) =>
        limit(async () => {
          opts.signal?.throwIfAborted()
          try {
            paths.set(
              o.key,
              await this.download(o, opts.signal, (n) => {
                progress.bytes += n
                opts.onProgress?.({ ...progress })
              })
            )
          } catch (e) {
            if (opts.signal?.aborted) throw bucketError('cancelled', o.key, 'Download cancelled')
            fail(o.key, e instanceof BucketError ? e : bucketError('network', o.key, `Could not download the object: ${errorMessage(e)}`))
          }
          progress.files++
          opts.onProgress?.({ ...progress })
        })
      )
    )
    const thrown = settled.find((r) => r.status === 'rejected')
    if (thrown) throw thrown.reason
    return { paths, failures }
  }

  /** One download at a time per object, even when several callers ask for it. */
  private download(o: ListedObject, signal: AbortSignal | undefined, onBytes: (n: number) => void): Promise<string> {
    const target = this.pathOf(o)
    const running = this.inflight.get(target)
    if (running) return running
    const p = (async () => (this.written.has(target) && (await this.has(o)) ? target : this.fetchTo(o, target, signal, onBytes)))().finally(() =>
      this.inflight.delete(target)
    )
    this.inflight.set(target, p)
    return p
  }

  private async fetchTo(o: ListedObject, target: string, signal: AbortSignal | undefined, onBytes: (n: number) => void): Promise<string> {
    const tmp = temporaryName(target)
    try {
      if (o.size <= IN_MEMORY_BYTES) return await this.keep(o, target, tmp, await this.receive(o, signal, onBytes))
      const body = await this.provider.readStream(o.key, signal)
      let received = 0
      const count = new Transform({
        transform(chunk: Buffer, _enc, done) {
          received += chunk.length
          onBytes(chunk.length)
          done(received > o.size ? longerThanListed(o) : null, chunk)
        }
      })
      await mkdir(dirname(target), { recursive: true, mode: 0o700 })
      await pipeline(body, count, createWriteStream(tmp, { flags: 'wx', mode: 0o600 }), ...(signal ? [{ signal }] : []))
      if (received !== o.size) throw cutShort(o, received)
      return await this.keep(o, target, tmp, null)
    } catch (e) {
      await rm(tmp, { force: true })
      throw e
    }
  }

  /** A small object's bytes in memory: from the connection's other cache when it holds them whole (opts.held, unless
   * `fromBlocks` is false), else received whole. A body longer than listed (another version, or a hostile server that
   * never stops) is not read past its size. */
  private async receive(
    o: ListedObject,
    signal: AbortSignal | undefined,
    onBytes: (n: number) => void,
    { fromBlocks = true }: { readonly fromBlocks?: boolean } = {}
  ): Promise<Buffer> {
    const held = fromBlocks && this.opts.held ? await this.opts.held(o).catch(() => null) : null
    if (held?.length === o.size) {
      onBytes(o.size)
      return held
    }
    const body = await this.provider.readStream(o.key, signal)
    const chunks: Buffer[] = []
    let received = 0
    for await (const chunk of body as AsyncIterable<Buffer>) {
      received += chunk.length
      onBytes(chunk.length)
      if (received > o.size) throw longerThanListed(o)
      chunks.push(chunk)
    }
    if (received !== o.size) throw cutShort(o, received)
    return Buffer.concat(chunks, received)
  }

  /**
   * A small object's whole bytes (up to IN_MEMORY_BYTES): the store's copy when it holds one, else received once and
   * kept, as a download is (one whose frame is not Parquet's is marked, and its bytes still returned: the caller judges
   * them). The refresh's frame check reads an hourly file whole this way, so the mirror's build then finds it here
   * instead of fetching it again. A local folder's file is read in place (nothing kept).
   */
  async readWhole(o: ListedObject, signal?: AbortSignal, { lookOnDisk = true }: { readonly lookOnDisk?: boolean } = {}): Promise<Buffer> {
    if (o.size > IN_MEMORY_BYTES) throw new Error(`readWhole takes objects up to ${IN_MEMORY_BYTES} bytes; ${o.key} has ${o.size}`)
    if (this.provider.localPath) {
      // Read in place, as the provider reads (an archived file stays unreadable until restored).
      const { body } = await this.provider.readRange(o.key, { start: 0, end: o.size - 1 }, signal)
      if (body.length !== o.size) throw changedLocally(o.key)
      return Buffer.from(body.buffer, body.byteOffset, body.byteLength)
    }
    const target = this.pathOf(o)
    await this.inflight.get(target)?.catch(() => {})
    // Not `lookOnDisk` (the refresh's check, whose files are new: it keeps its answers), only a copy this process wrote
    // is looked for: a look at the disk for each of a cold year's files costs more than the rare GET it would save.
    if (lookOnDisk || this.written.has(target)) {
      const copy = await readFile(target, { signal }).catch(() => null)
      if (copy?.length === o.size) return copy
    }
    const bytes = await this.receive(o, signal, () => {}, { fromBlocks: false })
    const tmp = temporaryName(target)
    try {
      await this.keep(o, target, tmp, bytes)
    } catch (e) {
      await rm(tmp, { force: true })
      // Not Parquet: marked, as a download would be; the bytes are still the object's. A copy that could not be
      // written (a full disk) is downloaded when a query needs it.
      if (!(e instanceof BucketError && notParquetErrors.has(e))) swallowed(`keeping a copy of ${o.key}`)(e)
    }
    return bytes
  }

  /** An object's whole bytes (in `bytes`, or already written to `tmp`) checked and put under their final name; one that
   * is not Parquet is marked so, and refused. */
  private async keep(o: ListedObject, target: string, tmp: string, bytes: Buffer | null): Promise<string> {
    if (o.key.endsWith('.parquet')) {
      const parquet = bytes
        ? frameLooksLikeParquet(bytes.subarray(0, 4), bytes.subarray(Math.max(0, bytes.length - 8)), bytes.length)
        : await looksLikeParquet(tmp, o.size)
      if (!parquet) {
        await copyWriter().write(`${target}${NOT_PARQUET_MARK}`, Buffer.alloc(0), { flag: 'w' })
        throw notParquet(o.key)
      }
    }
    if (bytes) await copyWriter().write(tmp, bytes, { target })
    else await rename(tmp, target)
    this.written.add(target)
    return target
  }
}
