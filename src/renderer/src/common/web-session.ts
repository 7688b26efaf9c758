// In a browser, the page's session with the web host: the printed address's one-time token is taken out of the
// address bar and exchanged once for a secret kept in sessionStorage (per tab and per origin, the port included:
// a reload keeps it, another loopback port never sees it), sent in a header on every API call. No cookie is used.
import { SESSION_HEADER, SESSION_PATH, SESSION_STORAGE_KEY } from '../../../shared/web-session'

/** opening: asking the host; open: the API answers; none: the page shows how to get a new address. */
export type SessionState = 'opening' | 'open' | 'none'

let state: SessionState = 'opening'
let secret: string | null = null
const watchers = new Set<() => void>()

const become = (next: SessionState): void => {
  state = next
  for (const w of watchers) w()
}

export const sessionState = (): SessionState => state
/** For useSyncExternalStore: called on every change of the state. */
export function onSessionState(watcher: () => void): () => void {
  watchers.add(watcher)
  return () => watchers.delete(watcher)
}

/** The header every API call and the event stream carry. */
export const sessionHeaders = (): Record<string, string> => (secret === null ? {} : { [SESSION_HEADER]: secret })

// sessionStorage can be switched off (a browser setting): the secret then lives in memory, for this page only.
function kept(): string | null {
  try {
    return sessionStorage.getItem(SESSION_STORAGE_KEY)
  } catch {
    return null
  }
}
function keep(value: string | null): void {
  try {
    if (value === null) sessionStorage.removeItem(SESSION_STORAGE_KEY)
    else sessionStorage.setItem(SESSION_STORAGE_KEY, value)
  } catch {
    // Kept in memory only: a reload then needs a new address.
  }
}

/** The host refused this tab's secret (it was restarted): forget it and say what to do. */
export function sessionLost(): void {
  secret = null
  keep(null)
  become('none')
}

/** The one-time token in an address's fragment (`#t=…`) or query (`?t=…`), and the address without it. */
export function takeLaunchToken(href: string): { readonly token: string | null; readonly rest: string } {
  const url = new URL(href)
  const fromHash = new URLSearchParams(url.hash.slice(1)).get('t')
  const fromQuery = url.searchParams.get('t')
  url.searchParams.delete('t')
  if (fromHash !== null) url.hash = ''
  return { token: fromHash ?? fromQuery, rest: url.pathname + url.search + url.hash }
}

/** POST /api/session: with a token, its exchange for a secret; without, whether the secret sent is still open. */
async function askSession(body: { token?: string }, headers: Record<string, string>): Promise<{ session?: string } | null> {
  try {
    const res = await fetch(SESSION_PATH, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) })
    if (!res.ok) return null
    return ((await res.json()) as { result?: { session?: string } }).result ?? null
  } catch {
    return null
  }
}

/** A token out of the address bar (and so out of the history and any bookmark), exchanged once: true when it opened a session. */
async function exchange(href: string): Promise<boolean> {
  const { token, rest } = takeLaunchToken(href)
  if (token === null) return false
  history.replaceState(history.state, '', rest)
  const got = await askSession({ token }, {})
  if (typeof got?.session !== 'string') return false
  secret = got.session
  keep(secret)
  return true
}

/**
 * Opens the page's session: the address's token if it has one, else the secret this tab kept (a reload, or a
 * used address opened again in the same tab). Under Electron the preload is the transport: nothing to open.
 */
export async function openWebSession(): Promise<SessionState> {
  if (window.exportExplorer) {
    become('open')
    return state
  }
  // A new address pasted into a tab already on the app changes only the fragment: no load, so listen for it.
  window.addEventListener('hashchange', () => {
    void exchange(location.href).then((opened) => opened && location.reload())
  })
  if (await exchange(location.href)) {
    become('open')
    return state
  }
  const held = kept()
  if (held !== null && (await askSession({}, { [SESSION_HEADER]: held })) !== null) {
    secret = held
    become('open')
    return state
  }
  sessionLost()
  return state
}
