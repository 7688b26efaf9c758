// The application menu (commands sent, accelerators per platform, developer tools only unpackaged) and the
// window's webPreferences (the security checklist), as the shell hands them to Electron; and the lint rule
// that keeps 'electron' out of every file but the shell.
import { ESLint } from 'eslint'
import { describe, expect, it } from 'vitest'
import type { MenuCommand } from '../../src/shared/menu-commands'
import { type MenuItemShape, menuTemplate } from '../../src/main/shell/menu-template'
import { mainWindowOptions } from '../../src/main/shell/window-options'

const flatten = (items: readonly MenuItemShape[]): MenuItemShape[] => items.flatMap((i) => [i, ...flatten(i.submenu ?? [])])

describe('application menu', () => {
  it('sends each command to the renderer from its item', () => {
    const sent: MenuCommand[] = []
    const items = flatten(menuTemplate({ mac: false, packaged: true, send: (c) => sent.push(c) }))
    for (const label of ['Connections…', 'Refresh', 'Findings', 'Zoom timeline in', 'Zoom timeline out']) items.find((i) => i.label === label)?.click?.()
    expect(sent).toEqual(['connections', 'refresh', 'findings', 'zoom-in', 'zoom-out'])
  })

  it('follows the platform: the app menu, Close and Cmd+R on macOS; Quit and F5 elsewhere', () => {
    const mac = flatten(menuTemplate({ mac: true, packaged: true, send: () => {} }))
    const linux = flatten(menuTemplate({ mac: false, packaged: true, send: () => {} }))
    expect(mac.some((i) => i.role === 'appMenu')).toBe(true)
    expect(linux.some((i) => i.role === 'appMenu')).toBe(false)
    expect(mac.find((i) => i.label === 'Refresh')?.accelerator).toBe('Cmd+R')
    expect(linux.find((i) => i.label === 'Refresh')?.accelerator).toBe('F5')
    expect(mac.some((i) => i.role === 'close') && !mac.some((i) => i.role === 'quit')).toBe(true)
    expect(linux.some((i) => i.role === 'quit')).toBe(true)
  })

  it('offers developer tools only when unpackaged', () => {
    expect(flatten(menuTemplate({ mac: false, packaged: true, send: () => {} })).some((i) => i.role === 'toggleDevTools')).toBe(false)
    expect(flatten(menuTemplate({ mac: false, packaged: false, send: () => {} })).some((i) => i.role === 'toggleDevTools')).toBe(true)
  })
})

describe('main window', () => {
  it('is isolated, sandboxed, without Node, webview or insecure content', () => {
    const o = mainWindowOptions({ preload: '/app/out/preload/index.cjs', icon: '/app/icon.png', title: 'Export Explorer' })
    expect(o.webPreferences).toMatchObject({
      preload: '/app/out/preload/index.cjs',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false
    })
    expect(o.webPreferences).not.toHaveProperty('enableBlinkFeatures')
    expect(o.show).toBe(false)
  })
})

describe("the 'electron' import rule", () => {
  it("refuses 'electron' in the shell's pure modules and services, allows it in src/main/index.ts", async () => {
    const eslint = new ESLint()
    const code = "import { app } from 'electron'\nexport const name = app.getName()\n"
    const messages = async (filePath: string): Promise<string[]> => (await eslint.lintText(code, { filePath }))[0]?.messages.map((m) => m.ruleId ?? '') ?? []
    expect(await messages('src/main/shell/sender-check.ts')).toContain('no-restricted-imports')
    expect(await messages('src/main/workspace/workspace.ts')).toContain('no-restricted-imports')
    expect(await messages('src/main/index.ts')).not.toContain('no-restricted-imports')
  }, 60_000)
})
