// The web host: the renderer and the same API over HTTP on 127.0.0.1, for a browser and for end-to-end
// tests. The only difference from the Electron shell is the transport: the handlers are the AppService's.
// Any local user can reach a loopback port, so nothing is served without a session: the printed URL carries a
// one-time token, exchanged on first load for an HttpOnly, SameSite=Strict cookie that the page, its assets
// and every API call need. Requests for another Host (DNS rebinding) or from another Origin are refused.
import { randomBytes, timingSafeEqual } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { type IncomingMessage, type ServerResponse, createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { extname } from 'node:path'
import { dispatch, encodeReply } from './api-handlers'
import { contentSecurityPolicy } from './shell/content-security-policy'
import { rendererFileOf } from './shell/app-protocol'
import type { Workspace } from './workspace'

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
const COOKIE = 'ee_session'
/** The Server-Sent Events stream of the contract's ApiEvents. */
export const EVENTS_PATH = '/api/events'

export interface WebHost {
  /** The address to open, once: http://127.0.0.1:PORT/?t=<one-time token>. */
  readonly url: string
  /** http://127.0.0.1:PORT */
  readonly origin: string
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

/** Our one cookie's value from a Cookie header (a cookie of our own naming: no general parser needed). */
function sessionCookie(header: string | undefined): string | null {
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=')
    if (eq > 0 && part.slice(0, eq).trim() === COOKIE) return part.slice(eq + 1).trim()
  }
  return null
}

const text = (res: ServerResponse, status: number, message: string, extra: Record<string, string> = {}): void =>
  void res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store', ...extra }).end(message)
const json = (res: ServerResponse, status: number, body: unknown, extra: Record<string, string> = {}): void =>
  void res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store', ...extra }).end(JSON.stringify(body))

export async function startWebHost(opts: { workspace: Workspace; rendererDir: string; port?: number }): Promise<WebHost> {
  const launchToken = randomBytes(32).toString('hex')
  let tokenUsed = false
  const sessions = new Set<string>()
  let host = ''
  let origin = ''
  let csp = ''
  const hasSession = (req: IncomingMessage): boolean => {
    const given = sessionCookie(req.headers.cookie)
    return given !== null && [...sessions].some((s) => sameSecret(given, s))
  }
  const noSession = `No session: open the address npm run serve printed (it works once, in one browser). To open the app again, restart npm run serve.`

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (req.headers.host !== host) return text(res, 421, 'Misdirected request')
    // A page of another site (or of another loopback port) may send requests here; none is answered.
    if (req.headers.origin !== undefined && req.headers.origin !== origin)
      return text(res, 403, `Refused: a request from ${req.headers.origin}, not from the app's page.`)
    const url = new URL(req.url ?? '/', origin)
    const given = url.searchParams.get('t')
    if (url.pathname === '/' && given !== null) {
      if (!tokenUsed && sameSecret(given, launchToken)) {
        tokenUsed = true
        const session = randomBytes(32).toString('hex')
        sessions.add(session)
        // Redirected to /: the token leaves the address bar and the history.
        return text(res, 303, 'Opening Export Explorer…', {
          location: '/',
          'set-cookie': `${COOKIE}=${session}; HttpOnly; SameSite=Strict; Path=/`,
          'referrer-policy': 'no-referrer'
        })
      }
      if (hasSession(req)) return text(res, 303, 'Opening Export Explorer…', { location: '/' })
      return text(res, 403, `This address was already used, or is not the one npm run serve printed. ${noSession}`)
    }
    if (!hasSession(req)) return text(res, 403, noSession)

    // What main pushes (refresh and export progress), as Server-Sent Events, for the session's page only.
    if (url.pathname === EVENTS_PATH) {
      if (req.method !== 'GET') return text(res, 405, 'GET only', { allow: 'GET' })
      res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' })
      res.write(': connected\n\n')
      const off = opts.workspace.events.on((e) => void res.write(`event: ${e.name}\ndata: ${JSON.stringify(e.payload)}\n\n`))
      // A comment now and then: an idle stream is not taken for a dead one.
      const keepAlive = setInterval(() => res.write(': keep-alive\n\n'), 25_000)
      req.on('close', () => {
        off()
        clearInterval(keepAlive)
      })
      return
    }
    const api = /^\/api\/([A-Za-z]+)$/.exec(url.pathname)
    if (api) {
      if (req.method !== 'POST') return text(res, 405, 'POST only', { allow: 'POST' })
      const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase()
      if (type !== 'application/json')
        return json(res, 415, { error: `The API takes application/json bodies, not ${type || 'a body without a content type'}.` })
      const tooLarge = { error: `The request is larger than ${MAX_BODY_BYTES} bytes, the API's limit.` }
      if (Number(req.headers['content-length'] ?? 0) > MAX_BODY_BYTES) return json(res, 413, tooLarge, { connection: 'close' })
      let args: unknown
      try {
        const body = await readBody(req, MAX_BODY_BYTES)
        args = JSON.parse(body || '{}')
      } catch (e) {
        if (e instanceof BodyTooLarge) return json(res, 413, tooLarge, { connection: 'close' })
        return json(res, 400, { error: e instanceof SyntaxError ? 'The body is not JSON.' : 'The body is not UTF-8 text.' })
      }
      const { status, body } = encodeReply(api[1] ?? '', await dispatch(opts.workspace, api[1] ?? '', args))
      return void res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end(body)
    }
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
  return {
    url: `${origin}/?t=${launchToken}`,
    origin,
    close: () =>
      new Promise((r) => {
        server.closeAllConnections()
        server.close(() => r())
      })
  }
}
