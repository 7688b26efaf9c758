// The web host's API called as its page calls it, from Node: a session opened with a fresh one-time address
// (host.url stays for the browser), the exact Origin and the session header on every request.
import type { WebHost } from '../../src/main/web-host'
import { SESSION_HEADER, SESSION_PATH } from '../../src/shared/web-session'

export interface ApiSession {
  readonly secret: string
  /** Origin, session header and JSON content type: what the page sends. */
  readonly headers: Readonly<Record<string, string>>
  /** POST /api/<call> with a body (a string is sent as it is). */
  post(call: string, body?: unknown): Promise<Response>
}

/** The token of a one-time address (`…/#t=<token>`). */
export const tokenOf = (address: string): string => new URL(address).hash.replace(/^#t=/, '')

/** Exchanges a token as the page does; the answer as it came. */
export const exchangeToken = (host: Pick<WebHost, 'origin'>, token: unknown): Promise<Response> =>
  fetch(`${host.origin}${SESSION_PATH}`, {
    method: 'POST',
    headers: { origin: host.origin, 'content-type': 'application/json' },
    body: JSON.stringify({ token })
  })

export async function openApiSession(host: WebHost, address: string = host.newAddress()): Promise<ApiSession> {
  const res = await exchangeToken(host, tokenOf(address))
  if (res.status !== 200) throw new Error(`the web host refused the address: ${res.status} ${await res.text()}`)
  const { session } = ((await res.json()) as { result: { session: string } }).result
  const headers = { origin: host.origin, [SESSION_HEADER]: session, 'content-type': 'application/json' }
  return {
    secret: session,
    headers,
    post: (call, body = {}) => fetch(`${host.origin}/api/${call}`, { method: 'POST', headers, body: typeof body === 'string' ? body : JSON.stringify(body) })
  }
}
