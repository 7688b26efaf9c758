// An HTTP proxy on 127.0.0.1 in front of a test server that adds what real networks and providers do:
// latency, throttling (503 SlowDown / 429), dropped connections, a prefix the caller may not read, and requests held
// until the test lets them go.
import { type IncomingMessage, type ServerResponse, createServer, request } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface FaultRules {
  /** Added before every request is forwarded. */
  latencyMs: number
  /** The next N matching requests are answered with this throttling status. */
  throttle: { count: number; status: 503 | 429 }
  /** The next N matching requests have their connection closed: before any answer, or mid-body. */
  drop: { count: number; when: 'before' | 'midbody' }
  /** Requests for keys (or listings of prefixes) under this are refused with denyAnswer. */
  denyPrefix: string | null
  /** How denyPrefix refuses: 403 AccessDenied unless told (e.g. 400 ExpiredToken, 403 InvalidAccessKeyId, 401 for GCS). */
  denyAnswer: { status: number; code: string }
  /** Headers added to every answer (e.g. x-amz-bucket-region). */
  addHeaders: Record<string, string>
  /** Which requests throttle/drop apply to (default: all). */
  match: (req: IncomingMessage) => boolean
  /** Requests this matches wait, unanswered, until `hold.released` settles: a listing caught in the middle, on cue. */
  hold: { match: (req: IncomingMessage) => boolean; released: Promise<void>; held: number } | null
}

export interface FaultProxy {
  readonly endpoint: string
  readonly rules: FaultRules
  readonly stats: { requests: number; throttled: number; dropped: number; denied: number; authorizations: string[] }
  close(): Promise<void>
}

const s3Error = (code: string, message: string): string =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message></Error>`

/** The key or listing prefix a path-style S3 or GCS JSON request is about. */
function targetKey(req: IncomingMessage): string {
  const url = new URL(req.url ?? '/', 'http://x')
  const listPrefix = url.searchParams.get('prefix')
  if (listPrefix !== null) return listPrefix
  const gcs = /\/b\/[^/]+\/o\/([^/?]+)/.exec(url.pathname)
  if (gcs) return decodeURIComponent(gcs[1]!)
  const parts = url.pathname.split('/').slice(2)
  return decodeURIComponent(parts.join('/'))
}

export async function startFaultProxy(target: string, initial: Partial<FaultRules> = {}): Promise<FaultProxy> {
  const rules: FaultRules = {
    latencyMs: 0,
    throttle: { count: 0, status: 503 },
    drop: { count: 0, when: 'before' },
    denyPrefix: null,
    denyAnswer: { status: 403, code: 'AccessDenied' },
    addHeaders: {},
    match: () => true,
    hold: null,
    ...initial
  }
  const stats = { requests: 0, throttled: 0, dropped: 0, denied: 0, authorizations: [] as string[] }
  const upstream = new URL(target)
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    stats.requests++
    stats.authorizations.push(req.headers.authorization ?? '')
    const go = (): void => {
      // A caller gone while its request was held: nothing to forward (an answer nobody reads would hold the server's connection open).
      if (res.destroyed) return
      const matches = rules.match(req)
      if (rules.denyPrefix !== null && targetKey(req).startsWith(rules.denyPrefix)) {
        stats.denied++
        res
          .writeHead(rules.denyAnswer.status, { 'content-type': 'application/xml', ...rules.addHeaders })
          .end(req.method === 'HEAD' ? undefined : s3Error(rules.denyAnswer.code, 'Refused by the fault proxy'))
        req.resume()
        return
      }
      if (matches && rules.throttle.count > 0) {
        rules.throttle.count--
        stats.throttled++
        const body =
          rules.throttle.status === 503
            ? s3Error('SlowDown', 'Please reduce your request rate.')
            : JSON.stringify({ error: { code: 429, message: 'rateLimitExceeded' } })
        res.writeHead(rules.throttle.status, { 'content-type': rules.throttle.status === 503 ? 'application/xml' : 'application/json' }).end(body)
        req.resume()
        return
      }
      let midbody = false
      if (matches && rules.drop.count > 0) {
        rules.drop.count--
        stats.dropped++
        if (rules.drop.when === 'before') {
          req.socket.destroy()
          return
        }
        midbody = true
      }
      const up = request(
        { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: { ...req.headers, host: upstream.host } },
        (ur) => {
          const headers = { ...ur.headers, ...rules.addHeaders }
          res.writeHead(ur.statusCode ?? 502, headers)
          if (!midbody) {
            ur.pipe(res)
            return
          }
          // Send part of the body, then cut the connection.
          ur.once('data', (chunk: Buffer) => {
            res.write(chunk.subarray(0, Math.max(1, Math.floor(chunk.length / 2))))
            setTimeout(() => res.socket?.destroy(), 5)
            ur.destroy()
          })
        }
      )
      up.on('error', () => res.socket?.destroy())
      // A caller gone before the answer ended (an aborted request, held until after the abort): the upstream answer is
      // not read any more, so its connection is ended too (else the server's close waits on it for ever).
      res.once('close', () => {
        if (!res.writableFinished) up.destroy()
      })
      req.pipe(up)
    }
    const hold = rules.hold
    if (hold?.match(req)) {
      hold.held++
      void hold.released.then(go)
    } else if (rules.latencyMs > 0) setTimeout(go, rules.latencyMs)
    else go()
  })
  server.keepAliveTimeout = 30_000
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  return {
    endpoint: `http://127.0.0.1:${port}`,
    rules,
    stats,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
  }
}
