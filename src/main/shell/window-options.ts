// The main window's options: the security checklist's webPreferences in one place, so a test reads them.

export function mainWindowOptions(opts: { readonly preload: string; readonly icon: string; readonly title: string }) {
  return {
    width: 1360,
    height: 880,
    show: false,
    title: opts.title,
    icon: opts.icon,
    webPreferences: {
      preload: opts.preload,
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
  } as const
}
