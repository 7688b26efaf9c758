// The renderer's CSP: the byte server's exact origin in connect-src (no loopback wildcard), scripts and WASM
// from the app only, no framing.
import { describe, expect, it } from 'vitest'
import { contentSecurityPolicy } from '../../src/main/shell/content-security-policy'

const directives = (csp: string): Map<string, string[]> =>
  new Map(
    csp
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .map(([name, ...values]) => [name as string, values])
  )

describe('content security policy', () => {
  it('lets the page reach itself and the one byte server, nothing else on loopback', () => {
    const d = directives(contentSecurityPolicy({ byteServerOrigin: 'http://127.0.0.1:40123' }))
    expect(d.get('connect-src')).toEqual(["'self'", 'http://127.0.0.1:40123'])
    expect([...d.values()].flat().some((v) => v.includes('*'))).toBe(false)
    expect(d.get('script-src')).toEqual(["'self'", "'wasm-unsafe-eval'"])
    expect(d.get('style-src')).toEqual(["'self'", "'unsafe-inline'"])
    expect(d.get('object-src')).toEqual(["'none'"])
    expect(d.get('frame-ancestors')).toEqual(["'none'"])
    expect(d.get('base-uri')).toEqual(["'none'"])
  })

  it('refuses to build a policy around anything but a loopback origin with a port', () => {
    for (const bad of ['http://127.0.0.1:*', 'http://127.0.0.1', 'http://localhost:4000', 'https://evil.example', 'http://127.0.0.1:1; script-src *', ''])
      expect(() => contentSecurityPolicy({ byteServerOrigin: bad }), bad).toThrow(/must be http:\/\/127\.0\.0\.1:PORT/)
  })
})
