// While an "as of" is set for the open connection, every view says so in one banner, with the way back: the
// tables, counts, SQL and exports all read what was delivered by that hour.
import { appStore, useApp } from '../store/use-app-store'
import css from './as-of-banner.module.css'
import { timeText } from './time'

export function AsOfBanner(): React.JSX.Element | null {
  const asOf = useApp((s) => s.asOf)
  const zone = useApp((s) => s.zone)
  if (!asOf) return null
  return (
    <div data-testid="as-of-banner" role="status" className={css.banner}>
      As of {timeText(asOf, zone)}: the tables, their counts, SQL and exports read what was delivered by then.{' '}
      <button onClick={() => appStore.getState().setAsOf(null)}>Back to latest</button>
    </div>
  )
}
