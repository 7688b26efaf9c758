// The answer of "Test connection" in the connection form: green (the export, ready to open), amber (not the
// export's folder, with a one-click "Use …" for each folder that is), red (cannot be used, and why). Plain
// words only; the provider's own words (an error code) are in the tooltip.
import type { ConnectionVerdictView } from '../../../shared/api/views'
import css from './connection-verdict.module.css'

// The colours are the CSS module's, by data-level.
const LOOK: Record<ConnectionVerdictView['level'], { mark: string; heading: string }> = {
  green: { mark: '✓', heading: 'Ready' },
  amber: { mark: '!', heading: 'Not the export’s folder' },
  red: { mark: '✗', heading: 'Cannot be used' }
}

/** The words of a "Use …" button: the prefix or folder, or the bucket's top for an empty prefix. */
export const insteadLabel = (value: string): string => `Use ${value === '' ? 'the bucket’s top' : value}`

export function ConnectionVerdict({ verdict, onUse }: { verdict: ConnectionVerdictView; onUse: (value: string) => void }): React.JSX.Element {
  const look = LOOK[verdict.level]
  return (
    <div data-testid="verdict" data-ok={verdict.ok} data-level={verdict.level} role="status" title={verdict.detail ?? undefined} className={css.verdict}>
      <span aria-hidden="true" className={css.mark}>
        {look.mark}
      </span>
      <div className={css.body}>
        <b className={css.heading}>{look.heading}.</b> <span>{verdict.message}</span>
        {verdict.useInstead.length ? (
          <div className={css.uses}>
            {verdict.useInstead.map((v) => (
              <button key={v} type="button" onClick={() => onUse(v)}>
                {insteadLabel(v)}
              </button>
            ))}
          </div>
        ) : null}
      </div>
    </div>
  )
}
