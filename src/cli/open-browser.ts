// Opening the served address in the user's browser where no Electron window can open (npm start): which command
// opens a URL on this platform, chosen by a pure function, and starting it without waiting on it.
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { delimiter, join } from 'node:path'

/** A command that opens the address given after its `args`, or why none runs (said to the user in one line). */
export type Opener = { readonly command: string; readonly args: readonly string[] } | { readonly skip: string }

export interface OpenerContext {
  readonly platform: NodeJS.Platform
  readonly env: Readonly<Record<string, string | undefined>>
  /** --no-open was given. */
  readonly noOpen: boolean
  /** Whether a command of this name is on the PATH. */
  readonly hasCommand: (name: string) => boolean
}

/** How an address is opened in a browser here. */
export function chooseOpener(ctx: OpenerContext): Opener {
  if (ctx.noOpen) return { skip: 'not opening a browser (--no-open)' }
  const browser = ctx.env['BROWSER']
  if (browser === 'none') return { skip: 'not opening a browser (BROWSER=none)' }
  // BROWSER names the user's own choice of command, as xdg-open and git read it.
  if (browser) return { command: browser, args: [] }
  if (ctx.platform === 'darwin') return { command: 'open', args: [] }
  // start is a cmd builtin; its first quoted argument is a window title, hence the empty one.
  if (ctx.platform === 'win32') return { command: 'cmd', args: ['/c', 'start', '""'] }
  if (!ctx.env['DISPLAY'] && !ctx.env['WAYLAND_DISPLAY']) return { skip: 'not opening a browser (no display here: open the address yourself)' }
  if (!ctx.hasCommand('xdg-open')) return { skip: 'not opening a browser (no xdg-open here: open the address yourself)' }
  return { command: 'xdg-open', args: [] }
}

export function onPath(name: string, env: Readonly<Record<string, string | undefined>> = process.env): boolean {
  return (env['PATH'] ?? '').split(delimiter).some((dir) => dir !== '' && existsSync(join(dir, name)))
}

/**
 * Opens a one-time address of its own (`address()`, asked only when a browser is opened) so the printed one stays
 * unused, to copy into another browser. Starts the opener detached and never waits on it; returns the line to print.
 */
export function openInBrowser(address: () => string, noOpen: boolean): string {
  const opener = chooseOpener({ platform: process.platform, env: process.env, noOpen, hasCommand: (n) => onPath(n) })
  if ('skip' in opener) return opener.skip
  const args = [...opener.args, address()]
  try {
    const child = spawn(opener.command, args, { detached: true, stdio: 'ignore', windowsVerbatimArguments: process.platform === 'win32' })
    // A missing BROWSER command fails here, after the line is printed: the printed address is there all the same.
    child.on('error', () => undefined)
    child.unref()
  } catch {
    return `could not start ${opener.command}: open the address yourself`
  }
  return `opening the app in your browser (${opener.command}; --no-open or BROWSER=none not to)`
}
