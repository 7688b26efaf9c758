// One per-column filter of the table browser: column, operator and its value(s).
import { type ColumnFilter, FILTER_OPS, type FilterOp } from '../../../shared/filter-sql'
import type { Column } from '../engine/session'

export function FilterRow({ filter, columns, onChange, onRemove }: { filter: ColumnFilter; columns: readonly Column[]; onChange: (f: ColumnFilter) => void; onRemove: () => void }): React.JSX.Element {
  const op = filter.op
  return (
    <div data-filter-row style={{ display: 'flex', gap: 4, alignItems: 'center', marginBottom: 4 }}>
      <select aria-label="filter column" value={filter.column} onChange={(e) => onChange({ ...filter, column: e.target.value })}>
        {columns.map((c) => (
          <option key={c.name} value={c.name}>
            {c.name}
          </option>
        ))}
      </select>
      <select aria-label="filter operator" value={op} onChange={(e) => onChange({ column: filter.column, op: e.target.value as FilterOp })}>
        {FILTER_OPS.map((o) => (
          <option key={o.op} value={o.op}>
            {o.label}
          </option>
        ))}
      </select>
      {op === 'equals' || op === 'contains' ? <input aria-label="filter value" value={filter.value ?? ''} onChange={(e) => onChange({ ...filter, value: e.target.value })} /> : null}
      {op === 'in' ? <input aria-label="filter values" placeholder="comma-separated" value={(filter.values ?? []).join(',')} onChange={(e) => onChange({ ...filter, values: e.target.value.split(',').map((v) => v.trim()) })} /> : null}
      {op === 'range' ? (
        <>
          <input aria-label="filter from" placeholder="from (inclusive)" value={filter.from ?? ''} onChange={(e) => onChange({ ...filter, from: e.target.value })} />
          <input aria-label="filter to" placeholder="to (exclusive)" value={filter.to ?? ''} onChange={(e) => onChange({ ...filter, to: e.target.value })} />
        </>
      ) : null}
      <button aria-label="remove filter" onClick={onRemove}>
        ×
      </button>
    </div>
  )
}
