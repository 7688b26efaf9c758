// One per-column filter of the table browser: column, operator and its value(s).
import { type ColumnFilter, FILTER_OPS, type FilterOp } from '../../../shared/filter-sql'
import type { Column } from '../engine/session'
import css from './filter-row.module.css'
import { valueProblem } from './filter-value-check'

export function FilterRow({
  filter,
  columns,
  problem,
  onChange,
  onRemove
}: {
  filter: ColumnFilter
  columns: readonly Column[]
  problem: string | null
  onChange: (f: ColumnFilter) => void
  onRemove: () => void
}): React.JSX.Element {
  // A value the column's type cannot read is marked at once (the query leaves this filter out until it is fixed).
  const bad = problem ? { 'aria-invalid': true } : {}
  // Of a range, only the end that cannot be read.
  const type = columns.find((c) => c.name === filter.column)?.type ?? 'VARCHAR'
  const badEnd = (v: string | undefined): typeof bad => (problem && v?.trim() && valueProblem(v, type) ? bad : {})
  const op = filter.op
  return (
    <div data-filter-row className={css.row}>
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
      {op === 'equals' || op === 'contains' ? (
        <input aria-label="filter value" {...bad} value={filter.value ?? ''} onChange={(e) => onChange({ ...filter, value: e.target.value })} />
      ) : null}
      {op === 'in' ? (
        <input
          aria-label="filter values"
          {...bad}
          placeholder="comma-separated"
          value={(filter.values ?? []).join(',')}
          onChange={(e) => onChange({ ...filter, values: e.target.value.split(',').map((v) => v.trim()) })}
        />
      ) : null}
      {op === 'range' ? (
        <>
          <input
            aria-label="filter from"
            {...badEnd(filter.from)}
            placeholder="from (inclusive)"
            value={filter.from ?? ''}
            onChange={(e) => onChange({ ...filter, from: e.target.value })}
          />
          <input
            aria-label="filter to"
            {...badEnd(filter.to)}
            placeholder="to (exclusive)"
            value={filter.to ?? ''}
            onChange={(e) => onChange({ ...filter, to: e.target.value })}
          />
        </>
      ) : null}
      <button aria-label="remove filter" onClick={onRemove}>
        ×
      </button>
      {problem ? (
        <span data-testid="filter-problem" role="alert" className={css.problem}>
          {problem}
        </span>
      ) : null}
    </div>
  )
}
