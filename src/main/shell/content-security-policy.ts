// The renderer's Content-Security-Policy, sent as a header by the web host and the app:// scheme: scripts and
// WASM from the app only, and no network but the app itself and the byte server's exact origin.

/** A byte server's origin as startByteServer gives it: loopback, a port, nothing else. */
const LOOPBACK_ORIGIN = /^http:\/\/127\.0\.0\.1:\d{1,5}$/

export function contentSecurityPolicy(opts: { readonly byteServerOrigin: string }): string {
  // A wildcard here (http://127.0.0.1:*) would let a compromised page talk to every loopback service.
  if (!LOOPBACK_ORIGIN.test(opts.byteServerOrigin)) throw new Error(`The byte server's origin must be http://127.0.0.1:PORT, not ${opts.byteServerOrigin}.`)
  return [
    "default-src 'self'",
    "script-src 'self' 'wasm-unsafe-eval'",
    // The app's own styles are the bundled stylesheet (CSS modules on tokens.css). 'unsafe-inline' stays for the SQL
    // editor: CodeMirror writes its theme into a <style> element of the document (style-mod), which 'self' refuses.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    `connect-src 'self' ${opts.byteServerOrigin}`,
    "worker-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    // Only a header can say this (a meta tag's frame-ancestors is ignored): no page may frame the app.
    "frame-ancestors 'none'"
  ].join('; ')
}
