// The loopback byte server DuckDB-WASM reads Parquet through: 127.0.0.1, a random port, a per-launch secret
// token in every URL, GET and HEAD with Range, read-only, objects of the connected bucket only, served through
// the disk block cache. An archived object answers at once with a message naming it, never a hang.
import { randomBytes, timingSafeEqual } from 'node:crypto'
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { isArchived, type ListedObject } from '../../shared/listing'
import { BucketError } from '../bucket/bucket-errors'
import type { BucketProvider } from '../bucket/bucket-provider'
import { BlockCache } from './block-cache'

export interface ByteServerOptions {
  readonly provider: BucketProvider
  /** The connected bucket's objects: nothing else is served. */
  readonly lookup: (key: string) => ListedObject | undefined
  readonly cacheDir: string
  /** Origin allowed to read from a page (the renderer's), for CORS. */
  readonly allowOrigin?: string
  readonly now?: () => number
}

export interface ByteServer {
  readonly origin: string
  /** The URL of an object, token included. */
  url(key: string): string
  readonly cache: BlockCache
  readonly stats: { requests: number; refused: number }
  close(): Promise<void>
}

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

export async function startByteServer(opts: ByteServerOptions): Promise<ByteServer> {
  const token = randomBytes(24).toString('hex')
  const tokenBuf = Buffer.from(token)
  const cache = new BlockCache(opts.cacheDir, opts.provider)
  const stats = { requests: 0, refused: 0 }
  const now = opts.now ?? Date.now

  const cors = (res: ServerResponse): void => {
    if (!opts.allowOrigin) return
    res.setHeader('Access-Control-Allow-Origin', opts.allowOrigin)
    res.setHeader('Access-Control-Expose-Headers', 'Content-Length, Content-Range, Accept-Ranges, ETag, Last-Modified')
    res.setHeader('Vary', 'Origin')
  }
  const refuse = (res: ServerResponse, status: number, message: string, kind = 'refused'): void => {
    stats.refused++
    cors(res)
    res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'x-export-explorer-error': kind, 'cache-control': 'no-store' }).end(message)
  }

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    stats.requests++
    const url = new URL(req.url ?? '/', 'http://127.0.0.1')
    const [, given, kind, ...rest] = url.pathname.split('/')
    const givenBuf = Buffer.from(given ?? '')
    if (givenBuf.length !== tokenBuf.length || !timingSafeEqual(givenBuf, tokenBuf)) return refuse(res, 403, 'Forbidden')
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
    const key = decodeURIComponent(rest[0] as string)
    const obj = opts.lookup(key)
    if (!obj) return refuse(res, 404, `${key} is not an object of the connected bucket (refresh the listing if it is new).`, 'not_found')
    if (isArchived(obj, now())) return refuse(res, 409, `${key} is in ${obj.storageClass} and cannot be read until restored. Start a restore, then query again when it has finished.`, 'archived')
    const headers: Record<string, string> = { 'accept-ranges': 'bytes', 'last-modified': new Date(obj.lastModified).toUTCString(), 'content-type': 'application/octet-stream', 'cache-control': 'no-store' }
    if (obj.etag) headers['etag'] = obj.etag.startsWith('"') ? obj.etag : `"${obj.etag}"`
    cors(res)
    const range = parseRange(req.headers.range)
    if (range === 'invalid' || (range && 'start' in range && range.start >= obj.size && obj.size > 0)) {
      res.writeHead(416, { ...headers, 'content-range': `bytes */${obj.size}` }).end()
      return
    }
    if (req.method === 'HEAD') {
      // A HEAD with a range answers as its GET would (206 and the range's length): DuckDB-WASM opens a file
      // with HEAD "Range: bytes=0-" and, given that, skips a second probing request.
      if (range && obj.size > 0) {
        const start = 'suffix' in range ? Math.max(0, obj.size - range.suffix) : range.start
        const end = 'suffix' in range ? obj.size - 1 : Math.min(range.end ?? obj.size - 1, obj.size - 1)
        res.writeHead(206, { ...headers, 'content-length': String(end - start + 1), 'content-range': `bytes ${start}-${end}/${obj.size}` }).end()
        return
      }
      res.writeHead(200, { ...headers, 'content-length': String(obj.size) }).end()
      return
    }
    const ac = new AbortController()
    res.on('close', () => ac.abort())
    const id = { key, etag: obj.etag ?? `${obj.size}-${obj.lastModified}`, size: obj.size }
    const { start, end, body } = await cache.read(id, range ?? { start: 0 }, ac.signal)
    if (range) res.writeHead(206, { ...headers, 'content-length': String(body.length), 'content-range': `bytes ${start}-${end}/${obj.size}` })
    else res.writeHead(200, { ...headers, 'content-length': String(body.length) })
    res.end(body)
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
      refuse(res, err?.kind === 'archived' ? 409 : err?.kind === 'not_found' ? 404 : 502, err ? err.userMessage : `Reading failed: ${(e as Error).message}`, err?.kind ?? 'other')
    })
  })
  // Clients (the engine's HTTP reader) keep connections open between reads; do not close them under their feet.
  server.keepAliveTimeout = 60_000
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    origin,
    url: (key) => `${origin}/${token}/o/${encodeURIComponent(key)}`,
    cache,
    stats,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
  }
}
