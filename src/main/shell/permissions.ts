// Which permission the window's page may have: desktop notifications (the Follow feature tells incidents that way),
// asked by our own page only; nothing else (camera, geolocation, clipboard, …) is ever granted. Pure, so Node tests
// give it the values Electron passes: the check handler's requestingOrigin ("app://export-explorer" or with a slash)
// and the request handler's details.requestingUrl (the frame's URL), both compared by protocol and host (WHATWG URL
// gives app:// the origin "null").
import type { RendererLocation } from './renderer-location'

/** The permissions our page may be granted. */
const GRANTED = new Set(['notifications'])

export function isPermissionAllowed(permission: string, requestingUrl: string | undefined, expected: Pick<RendererLocation, 'protocol' | 'host'>): boolean {
  if (!GRANTED.has(permission) || !requestingUrl) return false
  let url: URL
  try {
    url = new URL(requestingUrl)
  } catch {
    return false
  }
  return url.protocol === expected.protocol && url.host === expected.host
}
