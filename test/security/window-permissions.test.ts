// Attack kept: a page other than ours (or our page asking for more) gets no permission from the shell. The window's
// permissions, with the values Electron passes its handlers: notifications for our page only (the
// check handler's origin, with or without a slash; the request handler's frame URL), nothing else for anyone.
import { describe, expect, it } from 'vitest'
import { isPermissionAllowed } from '../../src/main/shell/permissions'
import { rendererLocation } from '../../src/main/shell/renderer-location'

const packaged = rendererLocation({ packaged: true })
const dev = rendererLocation({ packaged: false, devUrl: 'http://localhost:5173/' })

describe('window permissions', () => {
  it('grants notifications to our page, in both forms Electron gives its origin', () => {
    expect(isPermissionAllowed('notifications', 'app://export-explorer', packaged)).toBe(true)
    expect(isPermissionAllowed('notifications', 'app://export-explorer/', packaged)).toBe(true)
    expect(isPermissionAllowed('notifications', 'app://export-explorer/index.html', packaged)).toBe(true)
    expect(isPermissionAllowed('notifications', 'http://localhost:5173/', dev)).toBe(true)
  })

  it('refuses every other permission, and notifications to any other page', () => {
    for (const p of ['media', 'geolocation', 'clipboard-read', 'openExternal', 'fileSystem', 'unknown'])
      expect(isPermissionAllowed(p, 'app://export-explorer/index.html', packaged)).toBe(false)
    expect(isPermissionAllowed('notifications', 'https://evil.example/', packaged)).toBe(false)
    expect(isPermissionAllowed('notifications', 'app://other-host/', packaged)).toBe(false)
    expect(isPermissionAllowed('notifications', 'http://localhost:5173/', packaged)).toBe(false)
    expect(isPermissionAllowed('notifications', 'file:///etc/passwd', packaged)).toBe(false)
    expect(isPermissionAllowed('notifications', '', packaged)).toBe(false)
    expect(isPermissionAllowed('notifications', undefined, packaged)).toBe(false)
    expect(isPermissionAllowed('notifications', 'not a url', packaged)).toBe(false)
  })
})
