// A webhook receiver on 127.0.0.1 for the follow targets' and watch's tests: it records each JSON body it is sent (answering 200)
// and resolves whoever waits for the bodies to meet a condition; and a port nothing listens on, for a dead webhook.
import { createServer, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { IncidentPayload } from '../../src/shared/follow/incident-payload'

export interface WebhookReceiver {
  /** Its URL, with a token in the query as a real webhook's (a secret: it must never be shown). */
  readonly url: string
  readonly bodies: IncidentPayload[]
  waitFor(pred: (b: readonly IncidentPayload[]) => boolean): Promise<void>
  close(): Promise<void>
}

export const RECEIVER_TOKEN = 's3cr3t-follow-token'

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const bodies: IncidentPayload[] = []
  const waiters: { pred: (b: readonly IncidentPayload[]) => boolean; resolve: () => void }[] = []
  const read = async (req: IncomingMessage): Promise<string> => {
    const chunks: Buffer[] = []
    for await (const c of req) chunks.push(c as Buffer)
    return Buffer.concat(chunks).toString('utf8')
  }
  const server = createServer((req, res) => {
    void read(req).then((text) => {
      if (req.headers['content-type'] !== 'application/json') return void res.writeHead(415).end()
      bodies.push(JSON.parse(text) as IncidentPayload)
      res.writeHead(200).end('ok')
      for (const w of [...waiters])
        if (w.pred(bodies)) {
          waiters.splice(waiters.indexOf(w), 1)
          w.resolve()
        }
    })
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/hooks/T000?token=${RECEIVER_TOKEN}`,
    bodies,
    waitFor: (pred) => (pred(bodies) ? Promise.resolve() : new Promise((resolve) => waiters.push({ pred, resolve }))),
    close: () => new Promise((r) => server.close(() => r()))
  }
}

/** A port nothing listens on: a listener opened and closed again. */
export async function closedPort(): Promise<number> {
  const s = createServer()
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r))
  const { port } = s.address() as AddressInfo
  await new Promise((r) => s.close(r))
  return port
}
