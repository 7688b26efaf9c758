// The volume monitor's thresholds for the table shown, as the connection may change them: how much history it needs
// before judging, how wide the usual band is (MADs, and at least a share of the median and a count's own noise),
// and how far above the median a jump must go. Saved with the connection (main judges the last refresh again at
// once); "Use the defaults" forgets the table's own.
import { useEffect, useState } from 'react'
import { type MonitorThresholds, thresholdsFor } from '../../../shared/delivery-monitors'
import { useApp } from '../store/use-app-store'
import css from './volume-chart.module.css'

type Field = 'minHistory' | 'madFactor' | 'minRelativeBand' | 'countNoise' | 'maxRatio'

/** Each field's words, its input's bounds (those main accepts) and how it is typed (a share as a percentage). */
const FIELDS: readonly { key: Field; label: string; min: number; max: number; step: number; percent?: boolean }[] = [
  { key: 'minHistory', label: 'history needed (deliveries)', min: 1, max: 60, step: 1 },
  { key: 'madFactor', label: 'band width (MADs from the median)', min: 0.5, max: 20, step: 0.5 },
  { key: 'minRelativeBand', label: 'band at least ± (% of the median)', min: 0, max: 500, step: 5, percent: true },
  { key: 'countNoise', label: 'and at least ± (× √median + 2 rows)', min: 0, max: 20, step: 0.5 },
  { key: 'maxRatio', label: 'a jump is above (× the median)', min: 1, max: 100, step: 0.5 }
]

export function VolumeThresholds({ table }: { table: string }): React.JSX.Element {
  const view = useApp((s) => s.monitorThresholds)
  const load = useApp((s) => s.loadMonitorThresholds)
  const save = useApp((s) => s.setMonitorThresholds)
  const active = useApp((s) => s.connections?.active)
  const [draft, setDraft] = useState<Record<Field, string> | null>(null)
  useEffect(() => {
    void load()
  }, [load, active])
  const own = view?.tables?.[table]
  // The form starts from what judges the table now, again when another table or other saved values are shown: a
  // reload that brings the same values keeps what is being typed.
  const judging = view ? `${table}|${JSON.stringify(thresholdsFor(table, view))}` : null
  const [draftOf, setDraftOf] = useState<string | null>(null)
  useEffect(() => {
    if (!view || judging === null || judging === draftOf) return
    const t = thresholdsFor(table, view)
    setDraft(Object.fromEntries(FIELDS.map((f) => [f.key, String(f.percent ? Math.round(t[f.key] * 100) : t[f.key])])) as Record<Field, string>)
    setDraftOf(judging)
  }, [view, table, judging, draftOf])
  // One section whether or not its thresholds are loaded: opened, it stays open while they load again.
  return (
    <details data-testid="volume-thresholds" className={css.thresholds}>
      <summary>
        Thresholds for {table}
        {!view || !draft ? '' : own ? ' (set for this table)' : ' (the defaults)'}
      </summary>
      {view && draft ? (
        <ThresholdForm draft={draft} setDraft={setDraft} ownSet={own !== undefined} save={(thresholds) => save(table, thresholds)} />
      ) : (
        <p className={css.faint}>Loading the thresholds…</p>
      )}
    </details>
  )
}

/** The fields as typed, checked against the bounds main accepts, saved or forgotten for the table. */
function ThresholdForm({
  draft,
  setDraft,
  ownSet,
  save
}: {
  draft: Record<Field, string>
  setDraft: (d: Record<Field, string>) => void
  ownSet: boolean
  save: (thresholds: Partial<MonitorThresholds> | null) => Promise<void>
}): React.JSX.Element {
  const [saving, setSaving] = useState(false)
  const parsed = Object.fromEntries(FIELDS.map((f) => [f.key, Number(draft[f.key]) / (f.percent ? 100 : 1)])) as Record<Field, number>
  const invalid = FIELDS.find((f) => {
    const x = Number(draft[f.key])
    return draft[f.key].trim() === '' || !Number.isFinite(x) || x < f.min || x > f.max || (f.step === 1 && !Number.isInteger(x))
  })
  const run = async (thresholds: Partial<MonitorThresholds> | null): Promise<void> => {
    setSaving(true)
    try {
      await save(thresholds)
    } finally {
      setSaving(false)
    }
  }
  return (
    <form
      className={css.thresholdForm}
      onSubmit={(e) => {
        e.preventDefault()
        if (!invalid) void run(parsed)
      }}
    >
      {FIELDS.map((f) => (
        <label key={f.key} className={css.thresholdField}>
          {f.label}
          <input
            type="number"
            name={f.key}
            min={f.min}
            max={f.max}
            step={f.step}
            value={draft[f.key]}
            onChange={(e) => setDraft({ ...draft, [f.key]: e.target.value })}
          />
        </label>
      ))}
      <div className={css.thresholdButtons}>
        <button type="submit" disabled={saving || invalid !== undefined}>
          Save for this table
        </button>
        <button type="button" disabled={saving || !ownSet} onClick={() => void run(null)}>
          Use the defaults
        </button>
        {invalid ? (
          <span role="alert" className={css.error}>
            {invalid.label} must be from {invalid.min} to {invalid.max}
            {invalid.step === 1 ? ', a whole number' : ''}.
          </span>
        ) : (
          <span className={css.faint}>Saved with the connection; the deliveries are judged again at once.</span>
        )}
      </div>
    </form>
  )
}
