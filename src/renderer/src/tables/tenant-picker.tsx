// The tenant filter: a search box over the table's tenants and a checkbox per tenant (no Ctrl+click), with
// how many are chosen and a way to clear them.
import { useState } from 'react'
import css from './tenant-picker.module.css'

export function TenantPicker({
  choices,
  chosen,
  onChange
}: {
  choices: readonly string[]
  chosen: readonly string[]
  onChange: (t: readonly string[]) => void
}): React.JSX.Element {
  const [search, setSearch] = useState('')
  const shown = choices.filter((t) => t.toLowerCase().includes(search.trim().toLowerCase()))
  const toggle = (t: string, on: boolean): void => onChange(on ? [...chosen, t].sort() : chosen.filter((x) => x !== t))
  return (
    <fieldset role="group" aria-label="tenants" className={css.picker}>
      <legend>
        tenant {chosen.length ? `(${chosen.length} chosen)` : '(all)'}{' '}
        {chosen.length ? (
          <button type="button" onClick={() => onChange([])} className={css.clear}>
            clear
          </button>
        ) : null}
      </legend>
      {choices.length > 6 ? (
        <input aria-label="search tenants" placeholder="search" value={search} onChange={(e) => setSearch(e.target.value)} className={css.search} />
      ) : null}
      <div className={css.choices}>
        {shown.map((t) => (
          <label key={t} className={css.choice}>
            <input type="checkbox" checked={chosen.includes(t)} onChange={(e) => toggle(t, e.target.checked)} /> {t}
          </label>
        ))}
        {shown.length === 0 ? <span className={css.none}>no tenant matches</span> : null}
      </div>
    </fieldset>
  )
}
