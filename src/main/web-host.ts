// The web host: the renderer and the same API over HTTP on 127.0.0.1, for a browser and for end-to-end
// tests. The only difference from the Electron shell is the transport: the handlers are the AppService's.
// A per-launch token guards the API; requests for another Host are refused (DNS rebinding).
import { randomBytes, timingSafeEqual } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { type IncomingMessage, createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { extname, join, normalize } from 'node:path'
import { API_NAMES, type ApiName, validateArgs } from '../shared/api-contract'
import type { AppService } from './app-service'

const TYPES: Record<string, string> = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.css': 'text/css', '.wasm': 'application/wasm', '.svg': 'image/svg+xml', '.png': 'image/png', '.json': 'application/json' }

async function body(req: IncomingMessage): Promise<string> {
  let text = ''
  for await (const chunk of req) {
    text += chunk
    if (text.length > 64 * 1024) throw new Error('request too large')
  }
  return text
}

export async function startWebHost(opts: { service: AppService; rendererDir: string; port?: number }): Promise<{ url: string; token: string; close(): Promise<void> }> {
  const token = randomBytes(24).toString('hex')
  let host = ''
  const server = createServer(async (req, res) => {
    try {
      if (req.headers.host !== host) return void res.writeHead(421).end('Misdirected request')
      const url = new URL(req.url ?? '/', `http://${host}`)
      const api = /^\/api\/([^/]+)\/([a-z]+)$/.exec(url.pathname)
      if (api) {
        const given = Buffer.from(api[1] ?? '')
        if (given.length !== token.length || !timingSafeEqual(given, Buffer.from(token))) return void res.writeHead(403).end('Forbidden')
        const name = api[2] as ApiName
        if (req.method !== 'POST' || !API_NAMES.includes(name)) return void res.writeHead(404).end('No such call')
        const checked = validateArgs(name, JSON.parse((await body(req)) || '{}'))
        if (!checked.ok) return void res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: checked.reason }))
        const result = name === 'overview' ? await opts.service.overview() : name === 'timeline' ? await opts.service.timeline(checked.args as { fromHours: number }) : await opts.service.hour(checked.args as { start: string })
        return void res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end(JSON.stringify(result))
      }
      if (req.method !== 'GET') return void res.writeHead(405).end()
      const path = normalize(url.pathname === '/' ? '/index.html' : url.pathname).replace(/^(\.\.[/\\])+/, '')
      let file = await readFile(join(opts.rendererDir, path))
      if (path === '/index.html') file = Buffer.from(file.toString('utf8').replace('</head>', `<meta name="ee-api" content="/api/${token}/" /></head>`))
      res.writeHead(200, { 'content-type': TYPES[extname(path)] ?? 'application/octet-stream', 'x-content-type-options': 'nosniff' }).end(file)
    } catch (e) {
      if (!res.headersSent) res.writeHead((e as { code?: string }).code === 'ENOENT' ? 404 : 500).end((e as { code?: string }).code === 'ENOENT' ? 'Not found' : 'Error')
    }
  })
  await new Promise<void>((r) => server.listen(opts.port ?? 0, '127.0.0.1', r))
  host = `127.0.0.1:${(server.address() as AddressInfo).port}`
  return { url: `http://${host}/`, token, close: () => new Promise((r) => { server.closeAllConnections(); server.close(() => r()) }) }
}
