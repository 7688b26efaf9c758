// Commands the application menu sends to the renderer (the only messages main pushes).
export const MENU_COMMANDS = ['refresh', 'connections', 'findings', 'zoom-in', 'zoom-out'] as const
export type MenuCommand = (typeof MENU_COMMANDS)[number]
export const MENU_CHANNEL = 'export-explorer:menu'
