// The delivery timeline: hours (columns) by table (rows, grouped by schema), one colour per cell state.
import type { TimelineView } from '../../shared/api-contract'
import type { CellState } from '../../shared/timeline'

export const STATE_STYLE: Record<CellState, { color: string; label: string }> = {
  ready: { color: '#2e9e5b', label: 'ready' },
  late: { color: '#e3b23c', label: 'late (after 40 min)' },
  in_flight: { color: '#7fb3e6', label: 'in flight' },
  failed: { color: '#b3261e', label: 'failed (no _SUCCESS after 3 h)' },
  pending: { color: '#9b6bd1', label: 'pending (catch-up later)' },
  missing: { color: '#e5484d', label: 'missing' },
  pruned: { color: '#c9ced6', label: 'pruned by retention' },
  no_delivery: { color: '#f1f3f5', label: 'no delivery due' },
  not_due: { color: '#ffffff', label: 'not due yet' }
}

const brasilia = (iso: string): string => {
  const d = new Date(Date.parse(iso) - 3 * 3_600_000)
  return `${d.toISOString().slice(0, 10)} ${d.toISOString().slice(11, 16)} Brasília`
}

export function TimelineHeatmap({ view, onSelect }: { view: TimelineView; onSelect?: (hourStart: string) => void }): React.JSX.Element {
  const schemas = [...new Set(view.tables.map((t) => t.schema))]
  return (
    <div data-testid="heatmap" style={{ overflowX: 'auto', border: '1px solid #dde1e6', borderRadius: 6 }}>
      <table style={{ borderCollapse: 'collapse', fontSize: 12 }}>
        <thead>
          <tr>
            <th style={{ position: 'sticky', left: 0, background: '#fff', textAlign: 'left', padding: '2px 8px' }}>table · hour (UTC)</th>
            {view.hours.map((h) => (
              <th key={h.start} title={`${h.start.slice(0, 16).replace('T', ' ')} UTC · ${brasilia(h.start)} · manifest ${h.manifest ?? 'none expected'}`} style={{ fontWeight: 400, color: '#555', padding: 0, width: 12 }}>
                {h.start.slice(11, 13) === '00' ? <span style={{ writingMode: 'vertical-rl', fontSize: 10 }}>{h.start.slice(5, 10)}</span> : null}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {schemas.map((schema) => [
            <tr key={schema}>
              <td colSpan={view.hours.length + 1} style={{ fontWeight: 600, padding: '6px 8px 2px', color: '#333' }}>{schema}</td>
            </tr>,
            ...view.tables
              .filter((t) => t.schema === schema)
              .map((t) => (
                <tr key={`${schema}.${t.table}`}>
                  <td style={{ position: 'sticky', left: 0, background: '#fff', padding: '0 8px', whiteSpace: 'nowrap' }}>{t.table}</td>
                  {view.hours.map((h) => {
                    const state = h.cells[t.table] as CellState
                    return (
                      <td
                        key={h.start}
                        data-table={t.table}
                        data-hour={h.start}
                        data-state={state}
                        tabIndex={0}
                        onClick={() => onSelect?.(h.start)}
                        onKeyDown={(e) => {
                          if (e.key === 'Enter') onSelect?.(h.start)
                        }}
                        title={`${t.table} · ${h.start.slice(0, 16).replace('T', ' ')} UTC (${brasilia(h.start)}) · ${STATE_STYLE[state].label}`}
                        style={{ background: STATE_STYLE[state].color, width: 12, height: 14, border: '1px solid #fff', padding: 0, cursor: 'pointer' }}
                      />
                    )
                  })}
                </tr>
              ))
          ])}
        </tbody>
      </table>
    </div>
  )
}

export function Legend(): React.JSX.Element {
  return (
    <ul data-testid="legend" style={{ display: 'flex', flexWrap: 'wrap', gap: 12, listStyle: 'none', padding: 0, fontSize: 12 }}>
      {(Object.keys(STATE_STYLE) as CellState[]).map((s) => (
        <li key={s} style={{ display: 'flex', alignItems: 'center', gap: 4 }}>
          <span style={{ width: 12, height: 12, background: STATE_STYLE[s].color, border: '1px solid #ccc', display: 'inline-block' }} />
          {STATE_STYLE[s].label}
        </li>
      ))}
    </ul>
  )
}
