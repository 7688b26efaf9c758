// The web host: the renderer and the same API over HTTP on 127.0.0.1, for a browser and for end-to-end
// tests. The only difference from the Electron shell is the transport: the handlers are the workspace's.
// Any local user can reach a loopback port, and a cookie on 127.0.0.1 goes to every port, so no cookie means
// anything here: the printed address carries a one-time token the page exchanges (POST /api/session) for a
// per-session secret it keeps per tab and origin and sends in a header on every API call and on the event stream.
// The API also needs the exact Origin; any request for another Host (DNS rebinding) is refused. The renderer's
// files (built code, no data) are served to anyone who asks.
import { randomBytes, timingSafeEqual } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { type IncomingMessage, type ServerResponse, createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { extname } from 'node:path'
import { EVENTS_PATH, NEW_ADDRESS_HELP, SESSION_HEADER, SESSION_PATH, launchAddress } from '../shared/web-session'
import { dispatch, encodeReply } from './api-handlers'
import { contentSecurityPolicy } from './shell/content-security-policy'
import { rendererFileOf } from './shell/app-protocol'
import type { Workspace } from './workspace/workspace'

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.json': 'application/json'
}

/** The largest API body: the contract's largest argument is a 1,000,000-character SQL (up to 3 bytes each in UTF-8). */
export const MAX_BODY_BYTES = 4 * 1024 * 1024

export interface WebHost {
  /** The address printed at start: http://127.0.0.1:PORT/#t=<one-time token>. It opens one tab, once. */
  readonly url: string
  /** http://127.0.0.1:PORT */
  readonly origin: string
  /** A fresh one-time address, for a tab that lost its session (serve prints one on Enter or SIGUSR1). */
  newAddress(): string
  close(): Promise<void>
}

class BodyTooLarge extends Error {}

/** The whole body as bytes, then decoded once: a character split across TCP chunks stays whole. */
async function readBody(req: IncomingMessage, limit: number): Promise<string> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length
    if (size > limit) throw new BodyTooLarge()
    chunks.push(chunk)
  }
  // fatal: a body that is not UTF-8 is refused, not silently turned into U+FFFD.
  return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(chunks, size))
}

const sameSecret = (given: string, expected: string): boolean => {
  const a = Buffer.from(given)
  const b = Buffer.from(expected)
  return a.length === b.length && timingSafeEqual(a, b)
}
/** Every entry compared, in constant time each: how long it takes says nothing of which one matched. */
const matchOf = (given: string, secrets: ReadonlySet<string>): string | null => {
  let found: string | null = null
  for (const s of secrets) if (sameSecret(given, s)) found = s
  return found
}

const text = (res: ServerResponse, status: number, message: string, extra: Record<string, string> = {}): void =>
  void res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store', ...extra }).end(message)
const json = (res: ServerResponse, status: number, body: unknown, extra: Record<string, string> = {}): void =>
  void res
    .writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff', ...extra })
    .end(JSON.stringify(body))

/** The API body as JSON, or the refusal already sent (null). */
async function readJson(req: IncomingMessage, res: ServerResponse): Promise<{ args: unknown } | null> {
  const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase()
  if (type !== 'application/json') {
    json(res, 415, { error: `The API takes application/json bodies, not ${type || 'a body without a content type'}.` })
    return null
  }
  const tooLarge = { error: `The request is larger than ${MAX_BODY_BYTES} bytes, the API's limit.` }
  if (Number(req.headers['content-length'] ?? 0) > MAX_BODY_BYTES) {
    json(res, 413, tooLarge, { connection: 'close' })
    return null
  }
  try {
    return { args: JSON.parse((await readBody(req, MAX_BODY_BYTES)) || '{}') }
  } catch (e) {
    if (e instanceof BodyTooLarge) json(res, 413, tooLarge, { connection: 'close' })
    else json(res, 400, { error: e instanceof SyntaxError ? 'The body is not JSON.' : 'The body is not UTF-8 text.' })
    return null
  }
}

export async function startWebHost(opts: { workspace: Workspace; rendererDir: string; port?: number }): Promise<WebHost> {
  /** Printed, not yet exchanged: each one opens one session, once. */
  const launchTokens = new Set<string>()
  const sessions = new Set<string>()
  let host = ''
  let origin = ''
  let csp = ''
  const sessionOf = (req: IncomingMessage): string | null => {
    const given = req.headers[SESSION_HEADER]
    return typeof given === 'string' ? matchOf(given, sessions) : null
  }
  // code: the page tells a lost session (it shows what to do) from a refusal of one call.
  const noSession = (): { error: string; code: string } => ({
    error: `Refused: this request carries no session of the web host on ${origin}, or one it does not know (it was restarted). To open the app: ${NEW_ADDRESS_HELP}.`,
    code: 'no_session'
  })

  // What main pushes (refresh, mirror, export and restore progress), one JSON object a line, for as long as the page reads.
  const streamEvents = (req: IncomingMessage, res: ServerResponse): void => {
    // Subscribed before the headers go out: a client that has them misses no event after.
    const off = opts.workspace.events.on((e) => void res.write(`${JSON.stringify({ name: e.name, payload: e.payload })}\n`))
    res.writeHead(200, { 'content-type': 'application/x-ndjson', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' })
    res.write('\n')
    // An empty line now and then: an idle stream is not taken for a dead one.
    const keepAlive = setInterval(() => res.write('\n'), 25_000)
    req.on('close', () => {
      off()
      clearInterval(keepAlive)
    })
  }

  const handleApi = async (req: IncomingMessage, res: ServerResponse, pathname: string): Promise<void> => {
    // A browser sends Origin on every POST; a page of another site or of another loopback port sends its own.
    const from = req.headers.origin
    if (from !== origin)
      return json(res, 403, {
        error:
          from === undefined
            ? `Refused: an API request without an Origin header; only the app's page on ${origin} calls the API.`
            : `Refused: a request from ${from}, not from the app's page on ${origin}.`,
        code: 'origin'
      })
    if (req.method !== 'POST') return json(res, 405, { error: 'The API takes POST only.' }, { allow: 'POST' })
    if (pathname === SESSION_PATH) {
      const body = await readJson(req, res)
      if (!body) return
      const args = body.args as { token?: unknown } | null
      // No token: the page asks whether the secret it kept (a reload) is still one of ours.
      if (typeof args !== 'object' || args === null || args.token === undefined)
        return sessionOf(req) ? json(res, 200, { result: {} }) : json(res, 403, noSession())
      const token = typeof args.token === 'string' ? matchOf(args.token, launchTokens) : null
      if (token === null)
        return json(res, 403, {
          error: `Refused: this address was already used or is not one npm run serve printed (each opens one tab, once). To open the app: ${NEW_ADDRESS_HELP}.`,
          code: 'no_session'
        })
      launchTokens.delete(token)
      const session = randomBytes(32).toString('hex')
      sessions.add(session)
      return json(res, 200, { result: { session } })
    }
    if (!sessionOf(req)) return json(res, 403, noSession())
    if (pathname === EVENTS_PATH) return streamEvents(req, res)
    const api = /^\/api\/([A-Za-z]+)$/.exec(pathname)
    if (!api) return json(res, 404, { error: `No API call ${pathname}.` })
    const body = await readJson(req, res)
    if (!body) return
    // Encoded apart: an answer JSON cannot hold (a manifest nested too deep) is a 500 with words, not an empty reply.
    const encoded = encodeReply(api[1] ?? '', await dispatch(opts.workspace, api[1] ?? '', body.args))
    return void res.writeHead(encoded.status, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end(encoded.body)
  }

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (req.headers.host !== host) return text(res, 421, 'Misdirected request')
    const url = new URL(req.url ?? '/', origin)
    if (url.pathname === '/api' || url.pathname.startsWith('/api/')) return handleApi(req, res, url.pathname)
    // A page of another site (or of another loopback port) may ask for the files too (a module script sends Origin): no answer.
    if (req.headers.origin !== undefined && req.headers.origin !== origin)
      return text(res, 403, `Refused: a request from ${req.headers.origin}, not from the app's page on ${origin}.`)
    if (req.method !== 'GET' && req.method !== 'HEAD') return text(res, 405, 'GET only', { allow: 'GET, HEAD' })
    const file = rendererFileOf(opts.rendererDir, url.pathname)
    if (!file) return text(res, 404, 'Not found')
    const content = await readFile(file)
    res.writeHead(200, {
      'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
      // On every file, the worker scripts included: a worker's policy comes from its own response.
      'content-security-policy': csp,
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'DENY',
      'referrer-policy': 'no-referrer',
      'cache-control': 'no-store'
    })
    res.end(req.method === 'HEAD' ? undefined : content)
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((e: unknown) => {
      const missing = (e as { code?: string }).code === 'ENOENT' || (e as { code?: string }).code === 'EISDIR'
      if (!res.headersSent) text(res, missing ? 404 : 500, missing ? 'Not found' : 'Error')
      else res.destroy()
    })
  })
  await new Promise<void>((r) => server.listen(opts.port ?? 0, '127.0.0.1', r))
  host = `127.0.0.1:${(server.address() as AddressInfo).port}`
  origin = `http://${host}`
  opts.workspace.setRendererOrigin(origin)
  // Started now, for the page's CSP to name its exact origin.
  csp = contentSecurityPolicy({ byteServerOrigin: await opts.workspace.byteServerOrigin() })
  const newAddress = (): string => {
    const token = randomBytes(32).toString('hex')
    launchTokens.add(token)
    return launchAddress(origin, token)
  }
  return {
    url: newAddress(),
    origin,
    newAddress,
    close: () =>
      new Promise((r) => {
        server.closeAllConnections()
        server.close(() => r())
      })
  }
}
