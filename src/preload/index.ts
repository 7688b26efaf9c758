// contextBridge surface: one named method per API call, never a generic ipcRenderer.
import { contextBridge } from 'electron'
import { APP_NAME } from '../shared/app-info'

contextBridge.exposeInMainWorld('exportExplorer', {
  appName: APP_NAME
})
