// The real Electron window, driven by Playwright's Electron support: runs where the Electron binary is
// installed, and says plainly that it was skipped where it is not (its download cannot run everywhere).
import { existsSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { _electron as electron } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { electronBinary } from '../../src/cli/electron-binary'

const binary = electronBinary()
const built = existsSync(resolve('out/main/index.js'))
const why = !binary
  ? 'the Electron binary is not installed on this machine (ELECTRON_SKIP_BINARY_DOWNLOAD)'
  : !built
    ? 'the app is not built (npm run build)'
    : null
if (why) process.stderr.write(`electron-app.test.ts: SKIPPED — ${why}. The same UI and handlers are tested through the web host in Chromium.\n`)

describe.skipIf(why !== null)('the Electron app', () => {
  it('opens one locked-down window on the demo bucket and answers over IPC', async () => {
    const app = await electron.launch({
      executablePath: binary as string,
      args: [resolve('out/main/index.js'), `--user-data-dir=${mkdtempSync(join(tmpdir(), 'ee-electron-'))}`]
    })
    try {
      const win = await app.firstWindow()
      await win.waitForSelector('[data-testid=timeline-canvas]', { timeout: 120_000 })
      expect(await win.locator('[data-testid=version]').textContent()).toBe('v2')
      // The bundled stylesheet loads over app:// under the CSP: the design tokens resolve.
      expect(await win.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--cell-ready').trim())).toBe('#2e9e5b')
      // No Node in the renderer; the bridge is the contract's methods and nothing else.
      const page = await win.evaluate(() => ({
        require: typeof (globalThis as { require?: unknown }).require,
        process: typeof (globalThis as { process?: unknown }).process,
        bridge: Object.keys((window as unknown as { exportExplorer: object }).exportExplorer).sort()
      }))
      expect(page.require).toBe('undefined')
      expect(page.process).toBe('undefined')
      expect(page.bridge).toContain('overview')
      expect(page.bridge).not.toContain('invoke')
      // Arguments are validated in main: a bad one is refused with the reason, as a value with its code.
      const bad = await win.evaluate(() =>
        (window as unknown as { exportExplorer: { timeline(a: unknown): Promise<{ refused?: { code: string; message: string } }> } }).exportExplorer.timeline({
          fromHours: 'all'
        })
      )
      expect(bad.refused?.code).toBe('bad_argument')
      expect(bad.refused?.message).toMatch(/fromHours/)
      expect(app.windows()).toHaveLength(1)
      // Navigation away and new windows are refused.
      await win.evaluate(() => window.open('https://example.com/'))
      await win.evaluate(() => (window.location.href = 'https://example.com/'))
      await new Promise((r) => setTimeout(r, 500))
      expect(app.windows()).toHaveLength(1)
      expect(win.url()).toMatch(/^app:\/\/export-explorer\//)
    } finally {
      await app.close()
    }
  }, 180_000)
})
