// Benchmark harness: the app's timeline component on a year of hours (8,760 × 19 tables), states drawn from a
// seeded mix like a real year's (mostly ready, some late, a few missing, failed and pending, the v1 era, the
// switch gap, pruned hours).
import { createRoot } from 'react-dom/client'
import { useState } from 'react'
import type { TimelineView } from '../../../src/shared/api/views'
import { CATALOG } from '../../../src/shared/catalog'
import { CELL_STATES, type CellState } from '../../../src/shared/timeline'
import { TimelineHeatmap } from '../../../src/renderer/src/deliveries/timeline-heatmap'
import type { Focus } from '../../../src/renderer/src/deliveries/timeline-viewport'

function yearView(hours: number): TimelineView {
  let seed = 42
  const rnd = (): number => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648
  const start = Date.UTC(2026, 0, 1)
  const code = (s: CellState): string => String(CELL_STATES.indexOf(s))
  const out = []
  for (let i = 0; i < hours; i++) {
    const t = start + i * 3_600_000
    const era = t < Date.UTC(2026, 10, 2, 8) ? 'v1' : t < Date.UTC(2026, 10, 3, 3) ? 'gap' : 'v2'
    const v1Delivery = new Date(t).getUTCHours() === 7
    let cells = ''
    for (let j = 0; j < CATALOG.length; j++) {
      const r = rnd()
      const s: CellState =
        era === 'gap' || (era === 'v1' && !v1Delivery)
          ? 'no_delivery'
          : r < 0.002
            ? 'missing'
            : r < 0.003
              ? 'failed'
              : r < 0.004
                ? 'pending'
                : r < 0.03
                  ? 'late'
                  : i < 500
                    ? 'pruned'
                    : 'ready'
      cells += code(s)
    }
    out.push({ start: new Date(t).toISOString(), era, manifest: era === 'v2' ? 'complete' : null, cells } as const)
  }
  return { tables: CATALOG.map((t) => ({ schema: t.schema, table: t.table })), hours: out, findings: [] }
}

const view = yearView(8760)

function Harness(): React.JSX.Element {
  const [focus, setFocus] = useState<Focus | null>(null)
  return <TimelineHeatmap view={view} zone="utc" focus={focus} onFocus={setFocus} onSelect={() => {}} />
}

createRoot(document.getElementById('root') as HTMLElement).render(<Harness />)
