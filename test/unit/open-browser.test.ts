// Which command npm start runs to open its address in a browser, per platform, and when it runs none.
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { type OpenerContext, chooseOpener, onPath } from '../../src/cli/open-browser'

const ctx = (over: Partial<OpenerContext> = {}): OpenerContext => ({
  platform: 'linux',
  env: { DISPLAY: ':0' },
  noOpen: false,
  hasCommand: () => true,
  ...over
})

describe('chooseOpener', () => {
  it('opens with the platform opener: xdg-open, open, or cmd start with an empty window title', () => {
    expect(chooseOpener(ctx())).toEqual({ command: 'xdg-open', args: [] })
    expect(chooseOpener(ctx({ platform: 'darwin', env: {} }))).toEqual({ command: 'open', args: [] })
    expect(chooseOpener(ctx({ platform: 'win32', env: {} }))).toEqual({ command: 'cmd', args: ['/c', 'start', '""'] })
    expect(chooseOpener(ctx({ platform: 'freebsd', env: { WAYLAND_DISPLAY: 'wayland-0' } }))).toEqual({ command: 'xdg-open', args: [] })
  })

  it('runs the BROWSER command where one is named, and none for BROWSER=none or --no-open', () => {
    expect(chooseOpener(ctx({ env: { BROWSER: 'firefox' } }))).toEqual({ command: 'firefox', args: [] })
    expect(chooseOpener(ctx({ platform: 'darwin', env: { BROWSER: 'firefox' } }))).toEqual({ command: 'firefox', args: [] })
    expect(chooseOpener(ctx({ env: { BROWSER: 'none', DISPLAY: ':0' } }))).toEqual({ skip: 'not opening a browser (BROWSER=none)' })
    expect(chooseOpener(ctx({ noOpen: true, env: { BROWSER: 'firefox' } }))).toEqual({ skip: 'not opening a browser (--no-open)' })
  })

  it('says why it opens nothing on a Unix without a display or without xdg-open', () => {
    expect(chooseOpener(ctx({ env: {} }))).toEqual({ skip: expect.stringContaining('no display here') })
    const seen: string[] = []
    const none = chooseOpener(ctx({ hasCommand: (n) => (seen.push(n), false) }))
    expect(none).toEqual({ skip: expect.stringContaining('no xdg-open here') })
    expect(seen).toEqual(['xdg-open'])
  })
})

describe('onPath', () => {
  it('finds a command in a PATH folder and not elsewhere', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ee-path-'))
    try {
      await writeFile(join(dir, 'my-opener'), '')
      expect(onPath('my-opener', { PATH: `/nonexistent:${dir}` })).toBe(true)
      expect(onPath('my-opener', { PATH: '/nonexistent' })).toBe(false)
      expect(onPath('my-opener', {})).toBe(false)
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })
})
