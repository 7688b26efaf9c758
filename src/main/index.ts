// The thin Electron shell: one locked-down window, the API contract over IPC, the menus. Everything it
// serves lives in plain Node services (Workspace, dispatch); this is the only file that imports 'electron'.
import { BrowserWindow, Menu, type MenuItemConstructorOptions, type WebContents, type WebFrameMain, app, dialog, ipcMain, net, protocol, safeStorage, session, shell } from 'electron'
import { dirname, join, normalize, resolve, sep } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { API_NAMES, channelOf } from '../shared/api-contract'
import { APP_NAME } from '../shared/app-info'
import { MENU_CHANNEL, type MenuCommand } from '../shared/menu-commands'
import { dispatch } from './api-handlers'
import { SafeStorageSecretStore } from './connections/secret-store'
import { ensureDemoBucket } from './demo-bucket/demo-location'
import { Workspace } from './workspace'

const here = dirname(fileURLToPath(import.meta.url))
const rendererDir = join(here, '../renderer')
/** The renderer is served from a privileged custom scheme, not file:// (its own origin, no file access). */
const APP_ORIGIN = 'app://export-explorer'
const devUrl = !app.isPackaged ? process.env['ELECTRON_RENDERER_URL'] : undefined
protocol.registerSchemesAsPrivileged([{ scheme: 'app', privileges: { standard: true, secure: true, supportFetchAPI: true } }])
/** Links the app may open in the user's browser: the vendor's documentation only. */
const EXTERNAL_ALLOWED = ['https://docs.aws.amazon.com/', 'https://cloud.google.com/']

app.enableSandbox()
app.setName(APP_NAME)

/** Only our own page, in the main frame of our own window, may call main. */
function trustedSender(frame: WebFrameMain | null, contents: WebContents, win: BrowserWindow | null): boolean {
  if (!frame || !win || contents !== win.webContents || frame !== contents.mainFrame) return false
  try {
    const url = new URL(frame.url)
    return url.origin === (devUrl ? new URL(devUrl).origin : APP_ORIGIN)
  } catch {
    return false
  }
}

function openExternal(url: string): void {
  if (/^https?:\/\//.test(url) && EXTERNAL_ALLOWED.some((p) => url.startsWith(p))) void shell.openExternal(url)
}

let win: BrowserWindow | null = null

function send(command: MenuCommand): void {
  win?.webContents.send(MENU_CHANNEL, command)
}

function buildMenu(): void {
  const mac = process.platform === 'darwin'
  const template: MenuItemConstructorOptions[] = [
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
        ...(app.isPackaged ? [] : [{ role: 'toggleDevTools' as const }])
      ]
    },
    { role: 'windowMenu' }
  ]
  Menu.setApplicationMenu(Menu.buildFromTemplate(template))
}

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
        const r = await dialog.showSaveDialog({ defaultPath: join(app.getPath('downloads'), defaultName), filters: [format === 'csv' ? { name: 'CSV', extensions: ['csv'] } : { name: 'Parquet', extensions: ['parquet'] }] })
        return r.canceled || !r.filePath ? null : r.filePath
      },
      showInFolder: (path) => shell.showItemInFolder(path)
    }
  })
  workspace.setRendererOrigin(devUrl ? new URL(devUrl).origin : APP_ORIGIN)

  // app://export-explorer/<path>: the built renderer's files, nothing outside its folder.
  protocol.handle('app', (request) => {
    const url = new URL(request.url)
    const path = normalize(join(rendererDir, decodeURIComponent(url.pathname === '/' ? '/index.html' : url.pathname)))
    if (url.host !== 'export-explorer' || !path.startsWith(rendererDir + sep)) return new Response('Not found', { status: 404 })
    return net.fetch(pathToFileURL(path).toString())
  })

  // No permission (camera, notifications, …) is ever granted; no <webview>.
  session.defaultSession.setPermissionRequestHandler((_wc, _permission, callback) => callback(false))
  session.defaultSession.setPermissionCheckHandler(() => false)
  app.on('web-contents-created', (_e, contents) => {
    contents.on('will-attach-webview', (event) => event.preventDefault())
    contents.on('will-navigate', (event) => event.preventDefault())
    contents.on('will-redirect', (event) => event.preventDefault())
    contents.setWindowOpenHandler(({ url }) => {
      openExternal(url)
      return { action: 'deny' }
    })
  })

  for (const name of API_NAMES) {
    ipcMain.handle(channelOf(name), async (event, args: unknown) => {
      if (!trustedSender(event.senderFrame, event.sender, win)) return { error: 'Refused: this call did not come from the app window.' }
      const reply = await dispatch(workspace, name, args)
      return reply.ok ? { result: reply.result } : { error: reply.error }
    })
  }

  buildMenu()
  win = new BrowserWindow({
    width: 1360,
    height: 880,
    show: false,
    title: APP_NAME,
    icon: join(here, '../../resources/icon.png'),
    webPreferences: {
      preload: join(here, '../preload/index.cjs'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
      spellcheck: false
    }
  })
  win.once('ready-to-show', () => win?.show())
  win.on('closed', () => {
    win = null
    workspace.dispose()
  })
  if (devUrl) await win.loadURL(devUrl)
  else await win.loadURL(`${APP_ORIGIN}/index.html`)
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
