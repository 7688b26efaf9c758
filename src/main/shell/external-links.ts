// Links the app may open in the user's browser (the providers' documentation only), and what a window.open
// or target=_blank link does: never a new Electron window.

const ALLOWED: readonly { readonly host: string; readonly pathPrefix: string }[] = [
  { host: 'docs.aws.amazon.com', pathPrefix: '/' },
  { host: 'cloud.google.com', pathPrefix: '/' }
]

/** The URL to hand to the browser, normalized as parsed (what is opened is what was checked), or null. */
export function allowedExternalUrl(raw: string): string | null {
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    return null
  }
  // https only; no user:password@ part, which could dress another host as an allowed one.
  if (url.protocol !== 'https:' || url.username !== '' || url.password !== '' || url.port !== '') return null
  return ALLOWED.some((a) => url.hostname === a.host && url.pathname.startsWith(a.pathPrefix)) ? url.href : null
}

/** window.open / target=_blank: always denied as a window; an allowed link goes to the browser instead. */
export function windowOpenDecision(raw: string): { readonly action: 'deny'; readonly openExternal: string | null } {
  return { action: 'deny', openExternal: allowedExternalUrl(raw) }
}
