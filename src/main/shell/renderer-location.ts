// Where the Electron window's page comes from: the built renderer on the app:// scheme, or, unpackaged with
// ELECTRON_RENDERER_URL set (electron-vite dev), the dev server. The sender check and CORS use the same answer.

/** The renderer's privileged custom scheme and host: a page at app://export-explorer/…, never file://. */
export const APP_SCHEME = 'app'
export const APP_HOST = 'export-explorer'
/** What Chromium serializes as the page's origin (the Origin header it sends); Node's URL says "null" for it. */
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`

export interface RendererLocation {
  /** What the window loads. */
  readonly entryUrl: string
  /** The page's origin as the browser sends it (for the byte server's CORS). */
  readonly origin: string
  /** What a trusted frame's URL must have: compared as protocol and host, never as URL.origin. */
  readonly protocol: string
  readonly host: string
}

/** The dev server only when unpackaged: a packaged app never loads a page named by its environment. */
export function rendererLocation(opts: { readonly packaged: boolean; readonly devUrl?: string | undefined }): RendererLocation {
  if (!opts.packaged && opts.devUrl) {
    const u = new URL(opts.devUrl)
    if (u.protocol !== 'http:' && u.protocol !== 'https:')
      throw new Error(`ELECTRON_RENDERER_URL must be an http(s) URL of the dev server, not ${opts.devUrl}.`)
    return { entryUrl: u.href, origin: u.origin, protocol: u.protocol, host: u.host }
  }
  return { entryUrl: `${APP_ORIGIN}/index.html`, origin: APP_ORIGIN, protocol: `${APP_SCHEME}:`, host: APP_HOST }
}
