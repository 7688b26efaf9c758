// Which timeline cells carry a monitors' finding (a volume anomaly, a schema change, a manifest that disagrees with
// the folder): the timeline draws a mark in the cell's corner, over its state, and its tooltip names them.
import type { TimelineView } from '../../../shared/api/views'
import { MONITOR_KINDS } from '../../../shared/delivery-monitors'
import { type FindingKind, findingHour } from '../../../shared/timeline'

const HOUR_MS = 3_600_000

export interface MonitorMarks {
  /** Hour-major like the cells: 1 where the cell (hour index × tables + table index) has a monitors' finding. */
  readonly flags: Uint8Array
  /** The kinds found at a cell, in MONITOR_KINDS order. */
  kindsAt(hour: number, table: number): readonly FindingKind[]
}

export function monitorMarks(view: TimelineView): MonitorMarks {
  const t = view.tables.length
  const flags = new Uint8Array(view.hours.length * t)
  const kinds = new Map<number, Set<FindingKind>>()
  const first = view.hours.length ? Date.parse(view.hours[0]?.start ?? '') : NaN
  const tableIndex = new Map(view.tables.map((x, i) => [x.table, i]))
  for (const f of view.findings) {
    if (!MONITOR_KINDS.includes(f.kind) || f.table === null) continue
    const at = findingHour(f)
    const j = tableIndex.get(f.table)
    if (at === null || j === undefined) continue
    const i = (at - first) / HOUR_MS
    if (!Number.isInteger(i) || i < 0 || i >= view.hours.length) continue
    flags[i * t + j] = 1
    const set = kinds.get(i * t + j) ?? new Set<FindingKind>()
    set.add(f.kind)
    kinds.set(i * t + j, set)
  }
  return { flags, kindsAt: (hour, table) => MONITOR_KINDS.filter((k) => kinds.get(hour * t + table)?.has(k)) }
}
