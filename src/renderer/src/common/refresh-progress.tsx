// How far a refresh's listing has got, in the same words in the top bar and where the eye is while nothing is
// shown yet (a first listing of a large bucket takes a minute).
import type { RefreshStatus } from '../../../shared/api/views'
import { numberText } from '../../../shared/counts'
import css from './refresh-progress.module.css'

export function refreshProgressText(p: RefreshStatus['progress'] | undefined): string {
  return p ? `${numberText(p.prefixesDone)}/${numberText(p.prefixesTotal)} folders listed, ${numberText(p.objects)} objects` : 'starting'
}

/** The main area's placeholder while the first refresh of a connection runs: what it is doing, with a bar. */
export function ReadingTheBucket({ status }: { status: RefreshStatus | null }): React.JSX.Element {
  const p = status?.running ? status.progress : null
  return (
    <div data-testid="reading-bucket" role="status" className={css.reading}>
      <p>Reading the bucket{status?.running ? `: ${refreshProgressText(p)}` : '…'}</p>
      {status?.running ? <progress max={p?.prefixesTotal || 1} value={p?.prefixesDone ?? 0} className={css.bar} /> : null}
    </div>
  )
}
