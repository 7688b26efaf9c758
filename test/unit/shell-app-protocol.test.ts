// app:// path resolution: the built renderer's files and nothing else (traversal in every spelling refused),
// and the headers its answers carry.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, sep } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { APP_SCHEME_PRIVILEGES, appResponseHeaders, resolveAppPath } from '../../src/main/shell/app-protocol'

let dir: string
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ee-renderer-'))
})
afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

describe('app:// protocol', () => {
  it('maps our host to files of the renderer folder, the root to index.html', () => {
    expect(resolveAppPath('app://export-explorer/', dir)).toBe(join(dir, 'index.html'))
    expect(resolveAppPath('app://export-explorer/index.html', dir)).toBe(join(dir, 'index.html'))
    expect(resolveAppPath('app://export-explorer/assets/index-abc.js?v=1#x', dir)).toBe(join(dir, 'assets', 'index-abc.js'))
    expect(resolveAppPath('app://export-explorer/assets/duckdb%20eh.wasm', dir)).toBe(join(dir, 'assets', 'duckdb eh.wasm'))
  })

  it('refuses another host, another scheme, and what is not a URL', () => {
    for (const u of ['app://other/index.html', 'app://export-explorer:80/index.html', 'file:///etc/passwd', 'http://export-explorer/index.html', 'nonsense'])
      expect(resolveAppPath(u, dir), u).toBeNull()
  })

  it('refuses every way out of the folder: encoded slashes and backslashes, NUL, malformed escapes', () => {
    for (const u of [
      'app://export-explorer/..%2F..%2Fetc%2Fpasswd',
      'app://export-explorer/assets/..%2F..%2F..%2Fetc%2Fpasswd',
      'app://export-explorer/..%5C..%5Cetc%5Cpasswd',
      'app://export-explorer/%2e%2e%2f%2e%2e%2fetc/passwd',
      'app://export-explorer/index.html%00.png',
      'app://export-explorer/%E0%A4%A'
    ])
      expect(resolveAppPath(u, dir), u).toBeNull()
    // The URL parser itself folds plain dot segments back into the folder: still inside.
    expect(resolveAppPath('app://export-explorer/../../etc/passwd', dir)).toBe(join(dir, 'etc', 'passwd'))
    // A sibling folder whose name starts like ours is outside too.
    expect(resolveAppPath(`app://export-explorer/..%2F${encodeURIComponent(dir.split(sep).pop() + '-evil')}%2Fx.js`, dir)).toBeNull()
  })

  it('is registered as a standard, secure scheme and answers with the CSP as a header', () => {
    expect(APP_SCHEME_PRIVILEGES).toEqual({ scheme: 'app', privileges: { standard: true, secure: true, supportFetchAPI: true } })
    const h = appResponseHeaders("default-src 'self'")
    expect(h['content-security-policy']).toBe("default-src 'self'")
    expect(h['x-content-type-options']).toBe('nosniff')
  })
})
