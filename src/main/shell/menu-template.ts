// The application menu as plain data: the commands it sends to the renderer, the accelerators per platform,
// developer tools only when unpackaged. The shell hands it to Menu.buildFromTemplate.
import type { MenuCommand } from '../../shared/menu-commands'

/** The roles used here (a subset of Electron's MenuItemConstructorOptions['role']). */
export type MenuRole = 'appMenu' | 'close' | 'quit' | 'editMenu' | 'togglefullscreen' | 'toggleDevTools' | 'windowMenu'

/** The part of Electron's MenuItemConstructorOptions used here. */
export interface MenuItemShape {
  readonly label?: string
  readonly accelerator?: string
  readonly role?: MenuRole
  readonly type?: 'separator'
  readonly click?: () => void
  readonly submenu?: MenuItemShape[]
}

export function menuTemplate(opts: { readonly mac: boolean; readonly packaged: boolean; readonly send: (command: MenuCommand) => void }): MenuItemShape[] {
  const { mac, send } = opts
  return [
    ...(mac ? [{ role: 'appMenu' as const }] : []),
    {
      label: 'File',
      submenu: [
        { label: 'Connections…', accelerator: 'CmdOrCtrl+K', click: () => send('connections') },
        { label: 'Refresh', accelerator: mac ? 'Cmd+R' : 'F5', click: () => send('refresh') },
        { type: 'separator' },
        mac ? { role: 'close' } : { role: 'quit' }
      ]
    },
    { role: 'editMenu' },
    {
      label: 'View',
      submenu: [
        { label: 'Findings', accelerator: 'CmdOrCtrl+Shift+F', click: () => send('findings') },
        { label: 'Zoom timeline in', accelerator: 'CmdOrCtrl+Plus', click: () => send('zoom-in') },
        { label: 'Zoom timeline out', accelerator: 'CmdOrCtrl+-', click: () => send('zoom-out') },
        { type: 'separator' },
        { role: 'togglefullscreen' },
        ...(opts.packaged ? [] : [{ role: 'toggleDevTools' as const }])
      ]
    },
    { role: 'windowMenu' }
  ]
}
