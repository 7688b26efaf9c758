// The web host's session, as both sides see it: where the page exchanges the one-time token of the printed address
// for a per-session secret, the header that carries the secret on every API call, and the words a refusal says.

/** Where the page trades the printed address's one-time token for its session secret (POST, JSON `{ token }`). */
export const SESSION_PATH = '/api/session'
/** The stream of the contract's events (POST: a browser sends Origin on every POST, on no same-origin GET). */
export const EVENTS_PATH = '/api/events'
/** The header of every API call and of the event stream. A custom header: a page of another origin cannot send it without a preflight, which gets no allow. */
export const SESSION_HEADER = 'x-export-explorer-session'
/** Where the page keeps its secret: sessionStorage is per tab and per origin, the port included (a cookie on 127.0.0.1 goes to every port). */
export const SESSION_STORAGE_KEY = 'export-explorer-session'

/** What to do when the page has no session; the same words in the terminal's startup lines, the refusals and the page. */
export const NEW_ADDRESS_HELP = 'open the address npm run serve printed, or press Enter in its terminal for a new one'

/** The one-time address of a token: in the fragment, which a browser never sends to a server, nor to a Referer. */
export const launchAddress = (origin: string, token: string): string => `${origin}/#t=${token}`
