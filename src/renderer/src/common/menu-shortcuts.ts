// The application menu's shortcuts for the browser build, where there is no menu: the same keys send the same
// commands (Refresh is F5 only on the desktop, where the menu owns it; the browser's F5 reloads the page).
import type { MenuCommand } from '../../../shared/menu-commands'

/** The command a key press stands for, or null. */
export function shortcutCommand(e: Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey' | 'shiftKey' | 'altKey'>): MenuCommand | null {
  const mod = e.ctrlKey || e.metaKey
  if (!mod || e.altKey) return null
  const key = e.key.toLowerCase()
  if (key === 'k' && !e.shiftKey) return 'connections'
  if (key === 'f' && e.shiftKey) return 'findings'
  return null
}
