// The app:// scheme: which file of the built renderer folder a request names (nothing outside it), and the
// headers its answer carries (the Content-Security-Policy is a header, not only a meta tag).
import { resolve, sep } from 'node:path'
import { APP_HOST, APP_SCHEME } from './renderer-location'

/** Registered before the app is ready: standard (relative URLs, an origin of its own) and secure (no mixed content). */
export const APP_SCHEME_PRIVILEGES = { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } } as const

/**
 * The file an app:// URL names inside `rendererDir`, or null when it names none: another host, a malformed
 * escape, a NUL byte, or a path that leaves the folder once decoded (`..%2F`, an encoded backslash).
 */
export function resolveAppPath(requestUrl: string, rendererDir: string): string | null {
  let url: URL
  try {
    url = new URL(requestUrl)
  } catch {
    return null
  }
  if (url.protocol !== `${APP_SCHEME}:` || url.host !== APP_HOST) return null
  return rendererFileOf(rendererDir, url.pathname)
}

/**
 * The renderer file a URL path names (the app:// scheme and the web host serve the same folder), or null when it
 * cannot be decoded, holds a NUL byte, or leaves the folder once decoded.
 */
export function rendererFileOf(rendererDir: string, pathname: string): string | null {
  let path: string
  try {
    path = decodeURIComponent(pathname === '/' ? '/index.html' : pathname)
  } catch {
    return null
  }
  if (path.includes('\0')) return null
  const root = resolve(rendererDir)
  // Decoded separators of either kind count: on Windows an encoded backslash is one.
  const file = resolve(root, `.${path.replace(/\\/g, '/')}`)
  return file.startsWith(root + sep) ? file : null
}

/** The headers an app:// answer is given on top of the file's own type. */
export function appResponseHeaders(csp: string): Record<string, string> {
  return { 'content-security-policy': csp, 'x-content-type-options': 'nosniff', 'cache-control': 'no-cache' }
}
