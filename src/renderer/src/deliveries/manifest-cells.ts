// The manifest row's state of each hour: the manifest's own state, or, when its findings say it disagrees
// with the folders (or itself) or its delivered_through lags, that. Pure.
import type { TimelineView } from '../../../shared/api/views'
import { findingHour } from '../../../shared/timeline'
import { MANIFEST_CELLS, type ManifestCell } from './cell-states'

const DISAGREES = new Set(['manifest_mismatch', 'manifest_contradiction', 'manifest_warning'])

/** One code (an index into MANIFEST_CELLS) per hour of the view. */
export function manifestCells(view: TimelineView): Uint8Array {
  const flags = new Map<number, ManifestCell>()
  for (const f of view.findings) {
    const t = findingHour(f)
    if (t === null) continue
    if (DISAGREES.has(f.kind)) flags.set(t, 'disagrees')
    else if (f.kind === 'delivered_through_lag' && flags.get(t) !== 'disagrees') flags.set(t, 'lagging')
  }
  return Uint8Array.from(view.hours, (h) => {
    const base: ManifestCell = h.manifest ?? 'none'
    const flag = base === 'complete' || base === 'incomplete' ? flags.get(Date.parse(h.start)) : undefined
    return MANIFEST_CELLS.indexOf(flag ?? base)
  })
}
