// The "Follow" panel of the open connection: what its desktop notifications tell (errors, everything, never; saved
// with the connection), the button that asks this window for the permission (never asked on load), and the
// notifications told since the window opened, each opening its hour in the inspector; then its webhooks and commands.
import { NOTIFY_SETTINGS, type NotifySetting } from '../../../shared/api/views'
import { timeText } from '../common/time'
import type { NotifyPermission } from '../store/follow-slice'
import { appStore, useApp } from '../store/use-app-store'
import css from './follow-panel.module.css'
import { FollowTargetsSection } from './follow-targets-section'

const SETTING_WORDS: Record<NotifySetting, string> = { errors: 'errors only', all: 'every change', never: 'never' }

const PERMISSION_WORDS: Record<Exclude<NotifyPermission, 'default'>, string> = {
  granted: 'Desktop notifications are on in this window.',
  denied: 'This window may not show notifications: allow them in the browser’s site settings, then reload.',
  unsupported: 'This window cannot show desktop notifications; the list below still says what changed.'
}

export function FollowPanel(): React.JSX.Element | null {
  const follow = useApp((s) => s.follow)
  const permission = useApp((s) => s.notifyPermission)
  const told = useApp((s) => s.told)
  const zone = useApp((s) => s.zone)
  const { setNotify, askNotifyPermission, show, jumpTo } = appStore.getState()
  if (!follow) return null
  return (
    <section className={css.panel} aria-label="follow">
      <h2 className={css.title}>Follow</h2>
      <div className={css.row}>
        <label>
          Notify on{' '}
          <select aria-label="notify on" value={follow.notify} onChange={(e) => void setNotify(e.target.value as NotifySetting)}>
            {NOTIFY_SETTINGS.map((s) => (
              <option key={s} value={s}>
                {SETTING_WORDS[s]}
              </option>
            ))}
          </select>
        </label>
        {permission === 'default' ? (
          <button onClick={() => void askNotifyPermission()}>Turn on desktop notifications</button>
        ) : (
          <span data-testid="notify-permission" className={css.muted}>
            {PERMISSION_WORDS[permission]}
          </span>
        )}
      </div>
      {told.length ? (
        <ul data-testid="told" className={css.list}>
          {told.map((n) => (
            <li key={`${n.at}|${n.tag}`} className={css.item}>
              <button
                className={css.link}
                disabled={!n.finding}
                onClick={() => {
                  if (!n.finding) return
                  show('deliveries')
                  void jumpTo(n.finding)
                }}
              >
                {n.title}
              </button>
              <span className={css.muted}>
                {' '}
                {n.body ? `${n.body} · ` : ''}
                {timeText(n.at, zone)}
                {n.shown ? '' : ' · not shown on the desktop'}
              </span>
            </li>
          ))}
        </ul>
      ) : (
        <p data-testid="told-none" className={css.muted}>
          Nothing has changed since this window opened. After each refresh, an incident that opens, changes or resolves is told here
          {follow.notify === 'never' ? '' : ' and on the desktop'}.
        </p>
      )}
      <FollowTargetsSection follow={follow} />
    </section>
  )
}
