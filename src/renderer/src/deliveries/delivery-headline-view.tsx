// The answer to "is the last hour there?": the newest due hour, complete or what it lacks, its manifest, and a
// stopped feed said loudly, with since when nothing has arrived.
import type { Overview, TimelineView } from '../../../shared/api/views'
import { deliveryHeadline } from '../../../shared/delivery-headline'
import type { CellState } from '../../../shared/timeline'
import { age, timeText } from '../common/time'
import { appStore, useApp } from '../store/use-app-store'
import css from './delivery-headline-view.module.css'
import { MANIFEST_WORDS } from './finding-words'

const PROBLEMS: readonly [CellState, string][] = [
  ['missing', 'missing'],
  ['failed', 'failed'],
  ['unreadable', 'unreadable'],
  ['pending', 'pending'],
  ['archived', 'archived'],
  ['empty', 'empty'],
  ['in_flight', 'still arriving']
]

export function DeliveryHeadlineView({ overview, timeline }: { overview: Overview; timeline: TimelineView }): React.JSX.Element {
  const h = deliveryHeadline(overview, timeline)
  const zone = useApp((s) => s.zone)
  const openHour = (start: string): Promise<void> => appStore.getState().inspect(start)
  const hourText = (iso: string): string => timeText(iso, zone)
  const now = Date.parse(overview.now)
  const arrived = (h.counts.ready ?? 0) + (h.counts.late ?? 0)
  const lacking = PROBLEMS.filter(([s]) => (h.counts[s] ?? 0) > 0).map(([s, w]) => `${h.counts[s]} ${w}`)
  const tone = h.stopped ? 'stopped' : h.complete ? 'ok' : 'incomplete'
  return (
    <section data-testid="headline" data-tone={tone} role="status" className={css.headline}>
      {h.stopped ? (
        <div className={css.stopped}>
          The feed has stopped: nothing has arrived {h.lastArrival ? `since ${hourText(h.lastArrival)} (${age(Date.parse(h.lastArrival), now)} ago)` : 'at all'}
          .
        </div>
      ) : null}
      {h.hour ? (
        <div className={css.hour}>
          {h.complete ? '✓ ' : '✗ '}
          The last due hour,{' '}
          <button className={css.hourLink} data-testid="headline-hour" title="Open this hour in the inspector" onClick={() => void openHour(h.hour as string)}>
            {hourText(h.hour)}
          </button>
          ,{' '}
          {h.complete
            ? `is complete: all ${h.tables} tables arrived`
            : `has ${arrived} of ${h.tables} tables usable${lacking.length ? `: ${lacking.join(', ')}` : ''}`}
          {h.manifest ? `; ${MANIFEST_WORDS[h.manifest]}` : ''}.
        </div>
      ) : (
        <div>No hour is due yet in the shown range.</div>
      )}
      {h.stopped ? <div className={css.advice}>Ask the vendor whether the export job runs; the tables show the last copies that arrived.</div> : null}
    </section>
  )
}
