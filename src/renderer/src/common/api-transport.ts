// The renderer's side of the API contract. Under Electron the preload exposes one method per call
// (window.exportExplorer); in a browser the web host answers POST /api/<call> for the session secret the page
// holds (web-session.ts), sent in a header. It never receives a credential. Events main pushes come through the
// preload's subscriptions (onRefreshProgress, …) or, in a browser, one POST stream of JSON lines read as it arrives.
// A refusal main answers (a bad path, a connection not found) is thrown as a RefusalError with its code; a bug as an Error.
// A dev build (and the Node tests) checks each answer and event against the contract's schema: a misfit is main's bug.
import type { ApiName, ArgsOf, ResultOf } from '../../../shared/api/calls'
import { answerProblem, payloadProblem } from '../../../shared/api/check-answer'
import { type EventName, type EventOf, subscriptionOf } from '../../../shared/api/events'
import { type Refused, refusedOf } from '../../../shared/refusal'
import { EVENTS_PATH } from '../../../shared/web-session'
import { sessionHeaders, sessionLost, sessionState } from './web-session'

type Subscriptions = { readonly [E in EventName as `on${Capitalize<E>}`]: (listener: (payload: EventOf<E>) => void) => () => void }
/** An answer as it travels (main's wireAnswer): the result, a refusal, or a bug's words. */
type Answer<N extends ApiName> = { result?: ResultOf<N>; error?: string; code?: string } | Refused
type Bridge = { readonly [N in ApiName]: (args: ArgsOf<N>) => Promise<Answer<N>> } & Subscriptions

declare global {
  interface Window {
    exportExplorer?: Bridge & { readonly appName: string }
  }
}

/** The result an answer carries; a refusal thrown as a RefusalError (code and words), anything else as an Error. */
export function resultOf<N extends ApiName>(name: N, answer: Answer<N>, failed: boolean, status = ''): ResultOf<N> {
  const refused = refusedOf(answer)
  if (refused) throw refused
  const a = answer as { result?: ResultOf<N>; error?: string }
  if (failed || a.error !== undefined) throw new Error(a.error ?? `${name} failed${status ? `: ${status}` : ''}`)
  const problem = import.meta.env.DEV ? answerProblem(name, a.result) : null
  if (problem) throw new Error(`${name}: main's answer does not fit the contract: ${problem}`)
  return a.result as ResultOf<N>
}

/** The listener; in a dev build each payload is checked against its event's schema first (a misfit is logged: main's bug). */
function checkedListener<E extends EventName>(name: E, listener: (payload: EventOf<E>) => void): (payload: EventOf<E>) => void {
  if (!import.meta.env.DEV) return listener
  return (payload) => {
    const problem = payloadProblem(name, payload)
    if (problem) console.error(`${name}: main's event does not fit the contract: ${problem}`)
    listener(payload)
  }
}

export async function call<N extends ApiName>(name: N, args: ArgsOf<N>): Promise<ResultOf<N>> {
  const bridge = window.exportExplorer
  if (bridge) return resultOf(name, await (bridge[name] as (a: ArgsOf<N>) => Promise<Answer<N>>)(args), false)
  const res = await fetch(`/api/${name}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...sessionHeaders() },
    body: JSON.stringify(args)
  })
  const body = (await res.json().catch(() => ({ error: `${res.status} ${res.statusText}` }))) as Answer<N>
  if (res.status === 403 && 'code' in body && body.code === 'no_session') sessionLost()
  return resultOf(name, body, !res.ok, String(res.status))
}

const listeners = new Map<string, Set<(payload: unknown) => void>>()
let following = false

/** Each complete line of the stream, as it arrives; an empty line is the host's keep-alive. */
async function readLines(body: ReadableStream<Uint8Array>, onLine: (line: string) => void): Promise<void> {
  const reader = body.getReader()
  const decoder = new TextDecoder()
  let rest = ''
  for (;;) {
    const { value, done } = await reader.read()
    if (done) return
    // stream: a character cut between two chunks is decoded whole with the next.
    const lines = (rest + decoder.decode(value, { stream: true })).split('\n')
    rest = lines.pop() ?? ''
    for (const line of lines) if (line) onLine(line)
  }
}

/** One stream for every event while the session is open; reconnects with back-off when the line drops or the host restarts. */
async function follow(): Promise<void> {
  let delay = 500
  while (sessionState() === 'open') {
    try {
      const res = await fetch(EVENTS_PATH, { method: 'POST', headers: { 'content-type': 'application/json', ...sessionHeaders() }, body: '{}' })
      if (res.status === 403) {
        sessionLost()
        break
      }
      if (res.ok && res.body) {
        delay = 500
        await readLines(res.body, (line) => {
          const e = JSON.parse(line) as { name: string; payload: unknown }
          for (const l of listeners.get(e.name) ?? []) l(e.payload)
        })
      }
    } catch {
      // The line dropped (the host stopped, the machine slept): tried again below.
    }
    await new Promise((r) => setTimeout(r, delay))
    delay = Math.min(delay * 2, 10_000)
  }
  following = false
}

/** Listens to one event main pushes; returns the unsubscribe. */
export function subscribe<E extends EventName>(name: E, unchecked: (payload: EventOf<E>) => void): () => void {
  const listener = checkedListener(name, unchecked)
  const bridge = window.exportExplorer
  if (bridge) return (bridge[subscriptionOf(name)] as (l: (p: EventOf<E>) => void) => () => void)(listener)
  const forName = listeners.get(name) ?? new Set()
  listeners.set(name, forName)
  const l = listener as (payload: unknown) => void
  forName.add(l)
  if (!following) {
    following = true
    void follow()
  }
  return () => void forName.delete(l)
}
