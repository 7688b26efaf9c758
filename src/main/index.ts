// The thin Electron shell: wiring only. Every decision it applies (who may call, which file app:// serves, the
// CSP, which links open, the menu, the window's options) is a pure module under ./shell, tested in plain Node;
// this is the only file that imports 'electron'.
import { BrowserWindow, Menu, app, dialog, ipcMain, net, protocol, safeStorage, session, shell } from 'electron'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { API_NAMES } from '../shared/api/calls'
import { channelOf, eventChannelOf } from '../shared/api/events'
import { APP_NAME } from '../shared/app-info'
import { MENU_CHANNEL, type MenuCommand } from '../shared/menu-commands'
import { dispatch, wireAnswer } from './api-handlers'
import { SafeStorageSecretStore } from './connections/secret-store'
import { ensureDemoBucket } from './demo-bucket/demo-location'
import { APP_SCHEME_PRIVILEGES, appResponseHeaders, resolveAppPath } from './shell/app-protocol'
import { contentSecurityPolicy } from './shell/content-security-policy'
import { commandConsentDialog, consentGiven } from './shell/command-consent'
import { windowOpenDecision } from './shell/external-links'
import { menuTemplate } from './shell/menu-template'
import { isPermissionAllowed } from './shell/permissions'
import { APP_SCHEME, rendererLocation } from './shell/renderer-location'
import { isTrustedSender } from './shell/sender-check'
import { mainWindowOptions } from './shell/window-options'
import { Workspace } from './workspace/workspace'

const here = dirname(fileURLToPath(import.meta.url))
const rendererDir = join(here, '../renderer')
const location = rendererLocation({ packaged: app.isPackaged, devUrl: process.env['ELECTRON_RENDERER_URL'] })
protocol.registerSchemesAsPrivileged([APP_SCHEME_PRIVILEGES])

app.enableSandbox()
app.setName(APP_NAME)

let win: BrowserWindow | null = null

const send = (command: MenuCommand): void => win?.webContents.send(MENU_CHANNEL, command)

async function start(): Promise<void> {
  const userData = app.getPath('userData')
  const demo = await ensureDemoBucket([join(process.resourcesPath, 'demo-bucket'), resolve('resources/demo-bucket')], join(userData, 'demo-bucket'))
  const workspace = new Workspace({
    dataDir: join(userData, 'data'),
    secrets: new SafeStorageSecretStore(safeStorage, join(userData, 'secrets.json')),
    demo,
    platform: {
      downloadsDir: app.getPath('downloads'),
      async chooseSavePath(defaultName, format) {
        const r = await dialog.showSaveDialog({
          defaultPath: join(app.getPath('downloads'), defaultName),
          filters: [format === 'csv' ? { name: 'CSV', extensions: ['csv'] } : { name: 'Parquet', extensions: ['parquet'] }]
        })
        return r.canceled || !r.filePath ? null : r.filePath
      },
      showInFolder: (path) => shell.showItemInFolder(path)
    },
    // A command target runs as the user: only a yes in main's own dialog saves one.
    async confirmCommand(command, connectionName) {
      const options = commandConsentDialog(command, connectionName)
      return consentGiven(win ? await dialog.showMessageBox(win, options) : await dialog.showMessageBox(options))
    }
  })
  workspace.setRendererOrigin(location.origin)
  // The byte server runs for the window's life, so its exact origin can be in the page's CSP.
  const csp = contentSecurityPolicy({ byteServerOrigin: await workspace.byteServerOrigin() })

  protocol.handle(APP_SCHEME, async (request) => {
    const path = resolveAppPath(request.url, rendererDir)
    if (!path) return new Response('Not found', { status: 404 })
    const file = await net.fetch(pathToFileURL(path).toString())
    const headers = new Headers(file.headers)
    for (const [k, v] of Object.entries(appResponseHeaders(csp))) headers.set(k, v)
    return new Response(file.body, { status: file.status, headers })
  })

  // Only desktop notifications, and only to our page (shell/permissions.ts); no <webview>, no navigation, no new window.
  session.defaultSession.setPermissionRequestHandler((_wc, permission, callback, details) =>
    callback(isPermissionAllowed(permission, details.requestingUrl, location))
  )
  session.defaultSession.setPermissionCheckHandler((_wc, permission, requestingOrigin) => isPermissionAllowed(permission, requestingOrigin, location))
  app.on('web-contents-created', (_e, contents) => {
    contents.on('will-attach-webview', (event) => event.preventDefault())
    contents.on('will-navigate', (event) => event.preventDefault())
    contents.on('will-redirect', (event) => event.preventDefault())
    contents.setWindowOpenHandler(({ url }) => {
      const decision = windowOpenDecision(url)
      if (decision.openExternal) void shell.openExternal(decision.openExternal)
      return { action: decision.action }
    })
  })

  for (const name of API_NAMES) {
    ipcMain.handle(channelOf(name), async (event, args: unknown) => {
      if (!isTrustedSender(event.senderFrame, event.sender, win, location)) return { error: 'Refused: this call did not come from the app window.' }
      return wireAnswer(await dispatch(workspace, name, args))
    })
  }

  // Pushed events go to our window only (its webContents), one channel per event.
  workspace.events.on((e) => win?.webContents.send(eventChannelOf(e.name), e.payload))

  Menu.setApplicationMenu(Menu.buildFromTemplate(menuTemplate({ mac: process.platform === 'darwin', packaged: app.isPackaged, send })))
  win = new BrowserWindow(mainWindowOptions({ preload: join(here, '../preload/index.cjs'), icon: join(here, '../../resources/icon.png'), title: APP_NAME }))
  win.once('ready-to-show', () => win?.show())
  win.on('closed', () => {
    win = null
    void workspace.dispose()
  })
  await win.loadURL(location.entryUrl)
}

if (!app.requestSingleInstanceLock()) app.quit()
else {
  app.on('second-instance', () => {
    if (win?.isMinimized()) win.restore()
    win?.focus()
  })
  void app.whenReady().then(start)
  app.on('window-all-closed', () => app.quit())
}
