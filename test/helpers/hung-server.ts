// Servers on 127.0.0.1 that hang the way real networks do: one that accepts connections and never answers,
// one that answers headers and then stalls the body, and a proxy in front of a real server that does either
// only for the requests chosen by the test (a manifest, a given key) and forwards the rest untouched.
import { type IncomingMessage, type ServerResponse, createServer as createHttpServer, request } from 'node:http'
import { type AddressInfo, type Server, type Socket, createServer } from 'node:net'

/** silent: accept, read the request, never answer. body: answer 200 with headers and part of the body, then nothing. */
export type HangMode = 'silent' | 'body'

export interface HungServer {
  readonly endpoint: string
  /** Connections accepted so far. */
  readonly accepted: () => number
  close(): Promise<void>
}

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return (server.address() as AddressInfo).port
}

function closer(server: Server, sockets: Set<Socket>): () => Promise<void> {
  return () =>
    new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy()
      server.close(() => resolve())
    })
}

/** A plain TCP server: whatever is asked, it hangs (mode silent), or sends headers and 100 bytes of a 1 MB body. */
export async function startHungServer(mode: HangMode = 'silent'): Promise<HungServer> {
  const sockets = new Set<Socket>()
  let accepted = 0
  const server = createServer((socket) => {
    accepted++
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
    socket.on('error', () => {})
    if (mode === 'body') {
      socket.once('data', () => {
        socket.write('HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nContent-Length: 1048576\r\nETag: "hung"\r\n\r\n')
        socket.write(Buffer.alloc(100, 1))
      })
    }
    // Otherwise: read and drop the request, answer nothing, keep the connection open.
    socket.resume()
  })
  const port = await listen(server)
  return { endpoint: `http://127.0.0.1:${port}`, accepted: () => accepted, close: closer(server, sockets) }
}

export interface StallingProxy {
  readonly endpoint: string
  /** Which requests hang, and how; null forwards. Change it at any time. */
  stall: (req: IncomingMessage) => HangMode | null
  /** Requests that were made to hang. */
  readonly stalled: string[]
  close(): Promise<void>
}

/** The path of a path-style S3 or GCS JSON request without its query, decoded ("/bucket/key"). */
export const requestPath = (req: IncomingMessage): string => decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)

/** A proxy in front of `target` (s3rver, the GCS emulator) that hangs only the requests `stall` picks. */
export async function startStallingProxy(target: string, stall: (req: IncomingMessage) => HangMode | null = () => null): Promise<StallingProxy> {
  const upstream = new URL(target)
  const sockets = new Set<Socket>()
  const proxy: StallingProxy = {
    endpoint: '',
    stall,
    stalled: [],
    close: async () => {}
  }
  const server = createHttpServer((req: IncomingMessage, res: ServerResponse) => {
    const mode = proxy.stall(req)
    if (mode === 'silent') {
      proxy.stalled.push(`${req.method} ${req.url}`)
      req.resume()
      return
    }
    const up = request(
      { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: { ...req.headers, host: upstream.host } },
      (ur) => {
        res.writeHead(ur.statusCode ?? 502, ur.headers)
        if (mode !== 'body') {
          ur.pipe(res)
          return
        }
        proxy.stalled.push(`${req.method} ${req.url}`)
        // The headers and the first bytes of the real answer, then silence on an open connection.
        ur.once('data', (chunk: Buffer) => {
          res.write(chunk.subarray(0, Math.max(1, Math.floor(chunk.length / 2))))
          ur.destroy()
        })
      }
    )
    up.on('error', () => res.socket?.destroy())
    req.pipe(up)
  })
  server.on('connection', (s: Socket) => {
    sockets.add(s)
    s.on('close', () => sockets.delete(s))
  })
  const port = await listen(server)
  return Object.assign(proxy, { endpoint: `http://127.0.0.1:${port}`, close: closer(server, sockets) })
}
