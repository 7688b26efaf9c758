// The renderer's only door to main: one named method per call of the typed contract (src/shared/api-contract),
// each invoking its own IPC channel; never ipcRenderer itself. Main validates every argument and checks the
// sender. Menu commands come back through one listener limited to known commands.
import { contextBridge, ipcRenderer } from 'electron'
import { API_NAMES, type ApiName, channelOf } from '../shared/api-contract'
import { APP_NAME } from '../shared/app-info'
import { MENU_CHANNEL, MENU_COMMANDS, type MenuCommand } from '../shared/menu-commands'

const calls = Object.fromEntries(API_NAMES.map((name: ApiName) => [name, (args: unknown) => ipcRenderer.invoke(channelOf(name), args)]))

contextBridge.exposeInMainWorld('exportExplorer', {
  appName: APP_NAME,
  ...calls,
  onMenu(listener: (command: MenuCommand) => void): void {
    ipcRenderer.on(MENU_CHANNEL, (_event, command: unknown) => {
      if (typeof command === 'string' && (MENU_COMMANDS as readonly string[]).includes(command)) listener(command as MenuCommand)
    })
  }
})
