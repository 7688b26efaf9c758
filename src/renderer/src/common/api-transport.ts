// The renderer's side of the API contract. Under Electron the preload exposes one method per call
// (window.exportExplorer); in a browser the web host answers POST /api/<call>, for the session cookie it set
// when the page was opened (the page holds no token). It never receives a credential. Events main pushes
// come through the preload's subscriptions (onRefreshProgress, …) or, in a browser, one Server-Sent Events stream.
import { type ApiName, type ArgsOf, type EventName, type EventOf, type ResultOf, subscriptionOf } from '../../../shared/api-contract'

type Subscriptions = { readonly [E in EventName as `on${Capitalize<E>}`]: (listener: (payload: EventOf<E>) => void) => () => void }
type Bridge = { readonly [N in ApiName]: (args: ArgsOf<N>) => Promise<{ result?: ResultOf<N>; error?: string }> } & Subscriptions

declare global {
  interface Window {
    exportExplorer?: Bridge & { readonly appName: string }
  }
}

export async function call<N extends ApiName>(name: N, args: ArgsOf<N>): Promise<ResultOf<N>> {
  const bridge = window.exportExplorer
  if (bridge) {
    const reply = await (bridge[name] as (a: ArgsOf<N>) => Promise<{ result?: ResultOf<N>; error?: string }>)(args)
    if (reply.error !== undefined) throw new Error(reply.error)
    return reply.result as ResultOf<N>
  }
  const res = await fetch(`/api/${name}`, {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(args)
  })
  if (res.status === 403) throw new Error(`${name} was refused: ${(await res.text()).slice(0, 300)}`)
  const body = (await res.json().catch(() => ({ error: `${res.status} ${res.statusText}` }))) as { result?: ResultOf<N>; error?: string }
  if (!res.ok || body.error !== undefined) throw new Error(body.error ?? `${name} failed: ${res.status}`)
  return body.result as ResultOf<N>
}

let stream: EventSource | null = null

/** Listens to one event main pushes; returns the unsubscribe. */
export function subscribe<E extends EventName>(name: E, listener: (payload: EventOf<E>) => void): () => void {
  const bridge = window.exportExplorer
  if (bridge) return (bridge[subscriptionOf(name)] as (l: (p: EventOf<E>) => void) => () => void)(listener)
  // One stream for every event; EventSource reconnects by itself when the web host restarts or the line drops.
  stream ??= new EventSource('/api/events', { withCredentials: true })
  const handler = (m: MessageEvent<string>): void => listener(JSON.parse(m.data) as EventOf<E>)
  stream.addEventListener(name, handler)
  return () => stream?.removeEventListener(name, handler)
}
