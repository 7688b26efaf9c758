// "As of" an hour: latest, or a past delivery hour (UTC); the views are rebuilt from what was delivered by then.
import css from './as-of-picker.module.css'

/** "As of" an hour: latest, or a past delivery hour (UTC). */
export function AsOfPicker({ asOf, onAsOf }: { asOf: string | null; onAsOf: (h: string | null) => void }): React.JSX.Element {
  return (
    <label title="Read the tables as they were after the delivery of this hour (UTC)">
      As of{' '}
      <input
        aria-label="as of hour"
        type="datetime-local"
        step={3600}
        value={asOf ? asOf.slice(0, 16) : ''}
        onChange={(e) => {
          const v = e.target.value
          onAsOf(v ? `${v.slice(0, 13)}:00:00Z` : null)
        }}
      />{' '}
      UTC {asOf ? <button onClick={() => onAsOf(null)}>latest</button> : <span className={css.latest}>(latest)</span>}
    </label>
  )
}
