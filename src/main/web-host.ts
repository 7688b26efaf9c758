// The web host: the renderer and the same API over HTTP on 127.0.0.1, for a browser and for end-to-end
// tests. The only difference from the Electron shell is the transport: the handlers are the AppService's.
// A per-launch token guards the API; requests for another Host are refused (DNS rebinding).
import { randomBytes, timingSafeEqual } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { type IncomingMessage, createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { extname, join, normalize } from 'node:path'
import { dispatch } from './api-handlers'
import type { Workspace } from './workspace'

const TYPES: Record<string, string> = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.css': 'text/css', '.wasm': 'application/wasm', '.svg': 'image/svg+xml', '.png': 'image/png', '.json': 'application/json' }

async function body(req: IncomingMessage): Promise<string> {
  let text = ''
  for await (const chunk of req) {
    text += chunk
    if (text.length > 64 * 1024) throw new Error('request too large')
  }
  return text
}

export async function startWebHost(opts: { workspace: Workspace; rendererDir: string; port?: number }): Promise<{ url: string; token: string; close(): Promise<void> }> {
  const token = randomBytes(24).toString('hex')
  let host = ''
  const server = createServer(async (req, res) => {
    try {
      if (req.headers.host !== host) return void res.writeHead(421).end('Misdirected request')
      const url = new URL(req.url ?? '/', `http://${host}`)
      const api = /^\/api\/([^/]+)\/([A-Za-z]+)$/.exec(url.pathname)
      if (api) {
        const given = Buffer.from(api[1] ?? '')
        if (given.length !== token.length || !timingSafeEqual(given, Buffer.from(token))) return void res.writeHead(403).end('Forbidden')
        if (req.method !== 'POST') return void res.writeHead(405).end('POST only')
        let args: unknown
        try {
          args = JSON.parse((await body(req)) || '{}')
        } catch {
          return void res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'the body is not JSON' }))
        }
        const reply = await dispatch(opts.workspace, api[2] ?? '', args)
        const json = reply.ok ? { result: reply.result } : { error: reply.error }
        return void res.writeHead(reply.ok ? 200 : reply.status, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end(JSON.stringify(json))
      }
      if (req.method !== 'GET') return void res.writeHead(405).end()
      const path = normalize(url.pathname === '/' ? '/index.html' : url.pathname).replace(/^(\.\.[/\\])+/, '')
      let file = await readFile(join(opts.rendererDir, path))
      if (path === '/index.html') file = Buffer.from(file.toString('utf8').replace('</head>', `<meta name="ee-api" content="/api/${token}/" /></head>`))
      res.writeHead(200, { 'content-type': TYPES[extname(path)] ?? 'application/octet-stream', 'x-content-type-options': 'nosniff', 'x-frame-options': 'DENY', 'referrer-policy': 'no-referrer' }).end(file)
    } catch (e) {
      if (!res.headersSent) res.writeHead((e as { code?: string }).code === 'ENOENT' ? 404 : 500).end((e as { code?: string }).code === 'ENOENT' ? 'Not found' : 'Error')
    }
  })
  await new Promise<void>((r) => server.listen(opts.port ?? 0, '127.0.0.1', r))
  host = `127.0.0.1:${(server.address() as AddressInfo).port}`
  opts.workspace.setRendererOrigin(`http://${host}`)
  return { url: `http://${host}/`, token, close: () => new Promise((r) => { server.closeAllConnections(); server.close(() => r()) }) }
}
