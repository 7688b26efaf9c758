// What a browser tab without a session of the web host shows instead of the app: why, and how to get one.
import { APP_NAME } from '../../../shared/app-info'
import { NEW_ADDRESS_HELP } from '../../../shared/web-session'
import css from './no-session.module.css'

export function NoSession(): React.JSX.Element {
  return (
    <main className={css.page}>
      <h1 className={css.title}>{APP_NAME}</h1>
      <p role="alert" data-testid="no-session" className={css.message}>
        This tab has no session with the web host: each address it prints opens one tab, once, and a restarted host forgets the tabs it had. To open the app,{' '}
        {NEW_ADDRESS_HELP}.
      </p>
    </main>
  )
}
