// The IPC sender check with the values Electron really gives: app://export-explorer URLs (whose WHATWG origin
// is "null"), the dev server's URL, a null frame, a subframe, another window, file:// and another app:// host.
import { describe, expect, it } from 'vitest'
import { APP_ORIGIN, rendererLocation } from '../../src/main/shell/renderer-location'
import { type ContentsShape, type FrameShape, isTrustedSender } from '../../src/main/shell/sender-check'

const packaged = rendererLocation({ packaged: true, devUrl: 'http://localhost:5173/' })
const dev = rendererLocation({ packaged: false, devUrl: 'http://localhost:5173/' })

/** A window as Electron shapes it: webContents with an id and a main frame (no parent). */
function windowAt(url: string, id = 1, processId = 4, routingId = 1): { webContents: ContentsShape; main: FrameShape } {
  const main: FrameShape = { url, parent: null, processId, routingId }
  return { webContents: { id, mainFrame: main }, main }
}

describe('IPC sender check', () => {
  it('is the fact it defends against: Node gives app:// URLs the origin "null"', () => {
    expect(new URL('app://export-explorer/x').origin).toBe('null')
    expect(new URL('app://other/').origin).toBe('null')
    // So an origin comparison can never tell our page from another app:// host or file://.
    expect(new URL('file:///tmp/index.html').origin).toBe(new URL('app://export-explorer/index.html').origin)
  })

  it('accepts our window main frame on app://export-explorer (index.html and the root)', () => {
    for (const url of ['app://export-explorer/index.html', 'app://export-explorer/', 'app://export-explorer/index.html#/tables?x=1']) {
      const w = windowAt(url)
      expect(isTrustedSender(w.main, w.webContents, w, packaged), url).toBe(true)
    }
  })

  it('accepts a frame object that is a different wrapper of the same main frame (compared by ids)', () => {
    const w = windowAt('app://export-explorer/index.html')
    const sameFrameOtherWrapper: FrameShape = { ...w.main }
    expect(isTrustedSender(sameFrameOtherWrapper, { ...w.webContents }, w, packaged)).toBe(true)
  })

  it('refuses another app:// host, file://, the dev URL when packaged, and garbage', () => {
    for (const url of [
      'app://other/',
      'app://other/index.html',
      'file:///opt/export-explorer/resources/app.asar/out/renderer/index.html',
      'http://localhost:5173/',
      'app://export-explorer:8080/',
      'https://export-explorer/',
      'about:blank',
      'not a url',
      ''
    ]) {
      const w = windowAt(url)
      expect(isTrustedSender(w.main, w.webContents, w, packaged), url).toBe(false)
    }
  })

  it('in development trusts the dev server only, by protocol and host', () => {
    const ok = windowAt('http://localhost:5173/')
    expect(isTrustedSender(ok.main, ok.webContents, ok, dev)).toBe(true)
    for (const url of ['http://localhost:5174/', 'https://localhost:5173/', 'app://export-explorer/index.html', 'http://127.0.0.1:5173/']) {
      const w = windowAt(url)
      expect(isTrustedSender(w.main, w.webContents, w, dev), url).toBe(false)
    }
  })

  it('refuses a null frame (the frame navigated away or was destroyed) and a closed window', () => {
    const w = windowAt('app://export-explorer/index.html')
    expect(isTrustedSender(null, w.webContents, w, packaged)).toBe(false)
    expect(isTrustedSender(undefined, w.webContents, w, packaged)).toBe(false)
    expect(isTrustedSender(w.main, w.webContents, null, packaged)).toBe(false)
  })

  it('refuses a subframe of our page, even one showing our own URL', () => {
    const w = windowAt('app://export-explorer/index.html')
    const sub: FrameShape = { url: 'app://export-explorer/index.html', parent: w.main, processId: 4, routingId: 7 }
    expect(isTrustedSender(sub, w.webContents, w, packaged)).toBe(false)
    // A subframe that claims the main frame's routing id but has a parent is still a subframe.
    expect(isTrustedSender({ ...sub, routingId: 1 }, w.webContents, w, packaged)).toBe(false)
  })

  it("refuses another window's webContents, even on our URL", () => {
    const ours = windowAt('app://export-explorer/index.html', 1)
    const other = windowAt('app://export-explorer/index.html', 2, 9, 1)
    expect(isTrustedSender(other.main, other.webContents, ours, packaged)).toBe(false)
    // A main frame of another process in our contents (a stale frame after a crash) is not our main frame.
    expect(isTrustedSender({ ...ours.main, processId: 5 }, ours.webContents, ours, packaged)).toBe(false)
  })

  it('loads app://export-explorer/index.html when packaged, whatever the environment says', () => {
    expect(packaged.entryUrl).toBe('app://export-explorer/index.html')
    expect(packaged.origin).toBe(APP_ORIGIN)
    expect(rendererLocation({ packaged: false }).entryUrl).toBe('app://export-explorer/index.html')
    expect(dev).toMatchObject({ entryUrl: 'http://localhost:5173/', origin: 'http://localhost:5173', host: 'localhost:5173' })
    expect(() => rendererLocation({ packaged: false, devUrl: 'file:///etc/passwd' })).toThrow(/http\(s\) URL of the dev server/)
  })
})
