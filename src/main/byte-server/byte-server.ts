// The loopback byte server DuckDB-WASM reads Parquet through: 127.0.0.1, a random port kept for the server's
// life (so a page's CSP can name it exactly), a secret token in every URL, GET and HEAD with Range, read-only,
// objects of the connected bucket only, streamed from the local file store where the object is already held whole
// (one copy of the bytes on disk), else from the disk block cache piece by piece (a few ranges of a large object
// need not wait for the whole file). An archived object answers at once with a message naming it, never a hang.
// Small objects can also be asked for together (a batch: `o/?k=<key>&k=<key>…`), read whole from the bucket several at
// a time: a browser opens six connections to a host, which for a table's hundreds of small hourly files over a bucket
// 30 ms away was most of the time a table took to open.
import { randomBytes, timingSafeEqual } from 'node:crypto'
import { once } from 'node:events'
import { open, readFile } from 'node:fs/promises'
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { pipeline } from 'node:stream/promises'
import { isArchived, type ListedObject } from '../../shared/listing'
import { BucketError } from '../bucket/bucket-errors'
import type { BucketProvider } from '../bucket/bucket-provider'
import { BLOCK_SIZE, BlockCache, type ObjectIdentity, blockIdentity } from './block-cache'
import { errorMessage } from '../../shared/error-message'
import { BATCH_MAX_BYTES, BATCH_MAX_OBJECTS, BATCH_SIZES_HEADER } from '../../shared/byte-batch'
import pLimit from 'p-limit'
import { shareSignal } from '../bucket/bounded-wait'

/** What the server serves: one connection's bucket. Swapped when another connection opens. */
export interface ByteSource {
  readonly provider: BucketProvider
  /** The connected bucket's objects: nothing else is served. */
  readonly lookup: (key: string) => ListedObject | undefined
  readonly cacheDir: string
  readonly now?: () => number
  /** The connection's local file store: an object it holds whole is served from there, not copied into the block cache. */
  readonly store?: HeldFiles
}

/** What the byte server needs of the file store (src/main/store/file-store.ts). */
export interface HeldFiles {
  /** True when the object is held whole under pathOf(o). */
  has(o: ListedObject): Promise<boolean>
  pathOf(o: ListedObject): string
}

export interface ByteServerOptions extends Partial<ByteSource> {
  /** Origin allowed to read from a page (the renderer's), for CORS; a function when it is known only later. */
  readonly allowOrigin?: string | (() => string | undefined)
}

export interface ByteServer {
  readonly origin: string
  /** The URL of an object of the current source, token included. */
  url(key: string): string
  /** The current source's block cache (throws when there is none). */
  readonly cache: BlockCache
  /** `fromStore`: ranges served from the file store's whole copies (the rest went through the block cache); `batches`: batches served. */
  readonly stats: { requests: number; refused: number; fromStore: number; batches: number }
  /** Serves another bucket (or none) on the same origin; URLs given for the previous source stop working. */
  setSource(source: ByteSource | null): void
  close(): Promise<void>
}

/** How much of a range is read from the cache and written at once: memory stays at about two pieces. */
export const PIECE_SIZE = 64 * BLOCK_SIZE

/** Objects of one batch read from the bucket at once (a browser sends six batches at a time). */
const BATCH_READS_AT_ONCE = 8

/** Parses a single-range Range header; null when absent, 'invalid' when it cannot be served. */
export function parseRange(header: string | undefined): { start: number; end?: number } | { suffix: number } | null | 'invalid' {
  if (header === undefined) return null
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim())
  if (!m) return 'invalid'
  const [, a, b] = m as unknown as [string, string, string]
  if (a === '' && b === '') return 'invalid'
  if (a === '') return { suffix: Number(b) }
  if (b !== '' && Number(b) < Number(a)) return 'invalid'
  return b === '' ? { start: Number(a) } : { start: Number(a), end: Number(b) }
}

/** The inclusive bytes a parsed range selects in an object of `size` bytes, or null when none can be (416). */
export function satisfiableRange(range: { start: number; end?: number } | { suffix: number }, size: number): { start: number; end: number } | null {
  if ('suffix' in range) return range.suffix === 0 || size === 0 ? null : { start: Math.max(0, size - range.suffix), end: size - 1 }
  if (range.start >= size) return null
  return { start: range.start, end: Math.min(range.end ?? size - 1, size - 1) }
}

interface Current {
  readonly source: ByteSource
  readonly cache: BlockCache
  readonly token: Buffer
}

export async function startByteServer(opts: ByteServerOptions): Promise<ByteServer> {
  const stats = { requests: 0, refused: 0, fromStore: 0, batches: 0 }
  const sourceOf = (s: ByteSource | null): Current | null =>
    s ? { source: s, cache: new BlockCache(s.cacheDir, s.provider), token: Buffer.from(randomBytes(24).toString('hex')) } : null
  let current: Current | null =
    opts.provider && opts.lookup && opts.cacheDir
      ? sourceOf({
          provider: opts.provider,
          lookup: opts.lookup,
          cacheDir: opts.cacheDir,
          ...(opts.now ? { now: opts.now } : {}),
          ...(opts.store ? { store: opts.store } : {})
        })
      : null

  const cors = (res: ServerResponse): void => {
    const allowed = typeof opts.allowOrigin === 'function' ? opts.allowOrigin() : opts.allowOrigin
    if (!allowed) return
    res.setHeader('Access-Control-Allow-Origin', allowed)
    res.setHeader('Access-Control-Expose-Headers', `Content-Length, Content-Range, Accept-Ranges, ETag, Last-Modified, ${BATCH_SIZES_HEADER}`)
    res.setHeader('Vary', 'Origin')
  }
  const refuse = (res: ServerResponse, status: number, message: string, kind = 'refused'): void => {
    stats.refused++
    cors(res)
    res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'x-export-explorer-error': kind, 'cache-control': 'no-store' }).end(message)
  }

  /** Writes start..end from the cache in pieces, the next piece read while this one is written. */
  const stream = async (
    res: ServerResponse,
    cache: BlockCache,
    id: ObjectIdentity,
    first: Buffer,
    start: number,
    end: number,
    signal: AbortSignal
  ): Promise<void> => {
    const piece = (at: number): Promise<Buffer> =>
      cache.read(id, { start: at, end: Math.min(end, (Math.floor(at / PIECE_SIZE) + 1) * PIECE_SIZE - 1) }, signal).then((r) => r.body)
    let body = first
    for (let at = start; ;) {
      const after = at + body.length
      const next = after <= end ? piece(after) : null
      // Read ahead, but never an unhandled rejection when the client leaves first; awaited below.
      next?.catch(() => {})
      if (!res.write(body)) await once(res, 'drain', { signal })
      if (!next) break
      body = await next
      if (body.length === 0) throw new Error(`${id.key} ended before byte ${after} of ${id.size}`)
      at = after
    }
    res.end()
  }

  /** One object read whole: from the file store's copy where it holds one, else through the block cache. */
  const whole = async ({ source, cache }: Current, obj: ListedObject, signal: AbortSignal): Promise<Buffer> => {
    if (obj.size === 0) return Buffer.alloc(0)
    const held = source.store && (await source.store.has(obj)) ? await readFile(source.store.pathOf(obj), { signal }).catch(() => null) : null
    if (held && held.length === obj.size) {
      stats.fromStore++
      return held
    }
    return (await cache.read(blockIdentity(obj), { start: 0, end: obj.size - 1 }, signal)).body
  }

  /** A batch (`o/?k=<key>&k=<key>…`): the objects whole, one after the other, their sizes in a header; all or nothing. */
  const batch = async (req: IncomingMessage, res: ServerResponse, keys: readonly string[], serving: Current): Promise<void> => {
    if (req.method !== 'GET') return refuse(res, 405, 'A batch is read with GET only.')
    if (keys.length > BATCH_MAX_OBJECTS)
      return refuse(res, 400, `A batch names at most ${BATCH_MAX_OBJECTS} objects; this one names ${keys.length}.`, 'bad_request')
    const now = (serving.source.now ?? Date.now)()
    const objects: ListedObject[] = []
    for (const key of keys) {
      const obj = serving.source.lookup(key)
      if (!obj) return refuse(res, 404, `${key} is not an object of the connected bucket (refresh the listing if it is new).`, 'not_found')
      if (isArchived(obj, now))
        return refuse(
          res,
          409,
          `${key} is in ${obj.storageClass} and cannot be read until restored. Start a restore, then query again when it has finished.`,
          'archived'
        )
      objects.push(obj)
    }
    const total = objects.reduce((n, o) => n + o.size, 0)
    if (total > BATCH_MAX_BYTES)
      return refuse(res, 413, `A batch holds at most ${BATCH_MAX_BYTES} bytes; this one ${total}: ask for its objects one by one.`, 'bad_request')
    const ac = new AbortController()
    res.on('close', () => ac.abort())
    shareSignal(ac.signal)
    const limit = pLimit(BATCH_READS_AT_ONCE)
    // Read before the status line: an object that cannot be read fails the batch with its own status (502, 404).
    const bodies = await Promise.all(objects.map((o) => limit(() => whole(serving, o, ac.signal))))
    stats.batches++
    cors(res)
    res.writeHead(200, {
      'content-type': 'application/octet-stream',
      'cache-control': 'no-store',
      'content-length': String(total),
      [BATCH_SIZES_HEADER]: objects.map((o) => o.size).join(',')
    })
    for (const b of bodies) if (!res.write(b)) await once(res, 'drain', { signal: ac.signal })
    res.end()
  }

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    stats.requests++
    const url = new URL(req.url ?? '/', 'http://127.0.0.1')
    const [, given, kind, ...rest] = url.pathname.split('/')
    const givenBuf = Buffer.from(given ?? '')
    const serving = current
    if (!serving || givenBuf.length !== serving.token.length || !timingSafeEqual(givenBuf, serving.token)) return refuse(res, 403, 'Forbidden')
    if (req.method === 'OPTIONS') {
      cors(res)
      res.writeHead(204, { 'access-control-allow-methods': 'GET, HEAD', 'access-control-allow-headers': 'Range', 'access-control-max-age': '600' }).end()
      return
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.setHeader('connection', 'close')
      return refuse(res, 405, 'Only GET and HEAD: the byte server is read-only.')
    }
    if (kind !== 'o' || rest.length !== 1) return refuse(res, 404, 'Not found')
    if (rest[0] === '' && url.searchParams.has('k')) return batch(req, res, url.searchParams.getAll('k'), serving)
    let key: string
    try {
      key = decodeURIComponent(rest[0] as string)
    } catch {
      return refuse(res, 400, `The object name ${JSON.stringify(rest[0])} is not a valid URL escape: encode it with encodeURIComponent.`, 'bad_request')
    }
    const { source, cache } = serving
    const obj = source.lookup(key)
    if (!obj) return refuse(res, 404, `${key} is not an object of the connected bucket (refresh the listing if it is new).`, 'not_found')
    if (isArchived(obj, (source.now ?? Date.now)()))
      return refuse(
        res,
        409,
        `${key} is in ${obj.storageClass} and cannot be read until restored. Start a restore, then query again when it has finished.`,
        'archived'
      )
    const headers: Record<string, string> = {
      'accept-ranges': 'bytes',
      'last-modified': new Date(obj.lastModified).toUTCString(),
      'content-type': 'application/octet-stream',
      'cache-control': 'no-store'
    }
    if (obj.etag) headers['etag'] = obj.etag.startsWith('"') ? obj.etag : `"${obj.etag}"`
    cors(res)
    const parsed = parseRange(req.headers.range)
    // An empty object has no byte to select: its Range is ignored (RFC 9110 allows it) and it is served whole.
    const ranged = parsed !== null && obj.size > 0
    const range = parsed === 'invalid' ? null : ranged && parsed ? satisfiableRange(parsed, obj.size) : { start: 0, end: obj.size - 1 }
    if (!range) {
      res.writeHead(416, { ...headers, 'content-range': `bytes */${obj.size}` }).end()
      return
    }
    const length = range.end - range.start + 1
    const status = ranged ? 206 : 200
    if (ranged) headers['content-range'] = `bytes ${range.start}-${range.end}/${obj.size}`
    // A HEAD with a range answers as its GET would (206 and the range's length): DuckDB-WASM opens a file
    // with HEAD "Range: bytes=0-" and, given that, skips a second probing request.
    if (req.method === 'HEAD' || length === 0) {
      res.writeHead(status, { ...headers, 'content-length': String(length) }).end()
      return
    }
    const ac = new AbortController()
    res.on('close', () => ac.abort())
    // Held whole in the file store: read from that copy (opened before the status line, so a file that has just
    // gone falls back to the block cache). Its size is checked by has(); the listing's size is the one served.
    const held = source.store && (await source.store.has(obj)) ? await open(source.store.pathOf(obj), 'r').catch(() => null) : null
    if (held) {
      stats.fromStore++
      res.writeHead(status, { ...headers, 'content-length': String(length) })
      await pipeline(held.createReadStream({ start: range.start, end: range.end, highWaterMark: PIECE_SIZE }), res, { signal: ac.signal })
      return
    }
    const id = blockIdentity(obj)
    // The first piece before the status line: an object that cannot be read still gets its own status (409, 404, 502).
    const first = (
      await cache.read(id, { start: range.start, end: Math.min(range.end, (Math.floor(range.start / PIECE_SIZE) + 1) * PIECE_SIZE - 1) }, ac.signal)
    ).body
    res.writeHead(status, { ...headers, 'content-length': String(length) })
    await stream(res, cache, id, first, range.start, range.end, ac.signal)
  }

  const server: Server = createServer((req, res) => {
    // Nothing here reads a request body: drain it, so the connection stays usable for the next request.
    req.resume()
    handle(req, res).catch((e: unknown) => {
      if (res.headersSent) {
        res.destroy()
        return
      }
      const err = e instanceof BucketError ? e : null
      refuse(
        res,
        err?.kind === 'archived' ? 409 : err?.kind === 'not_found' ? 404 : 502,
        err ? err.userMessage : `Reading failed: ${errorMessage(e)}`,
        err?.kind ?? 'other'
      )
    })
  })
  // Clients (the engine's HTTP reader) keep connections open between reads; do not close them under their feet.
  server.keepAliveTimeout = 60_000
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const active = (): Current => {
    if (!current) throw new Error('The byte server has no bucket to serve: open a connection first.')
    return current
  }
  return {
    origin,
    url: (key) => `${origin}/${active().token.toString()}/o/${encodeURIComponent(key)}`,
    get cache() {
      return active().cache
    },
    stats,
    setSource(source) {
      current = sourceOf(source)
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
  }
}
