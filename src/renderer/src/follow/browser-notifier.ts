// The desktop's notifications through the browser's Notification API: in the web host the browser's own, asked for
// with a button; under Electron the system's native ones (the shell grants our page this permission only).
import type { DesktopNotifier, NotifyPermission } from '../store/follow-slice'

export function browserNotifier(): DesktopNotifier {
  const api = typeof Notification === 'undefined' ? null : Notification
  const permission = (): NotifyPermission => (api ? (api.permission as NotifyPermission) : 'unsupported')
  return {
    permission,
    request: async () => (api ? ((await api.requestPermission()) as NotifyPermission) : 'unsupported'),
    show: (n, onClick) => {
      if (!api || api.permission !== 'granted') return
      const shown = new api(n.title, { body: n.body, tag: n.tag })
      shown.onclick = () => {
        window.focus()
        onClick()
        shown.close()
      }
    }
  }
}
