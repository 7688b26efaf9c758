// The colour and plain words of each cell state: the timeline, its legend and the inspector use these only.
import type { CellState, ManifestState } from '../../../shared/timeline'

export const STATE_STYLE: Record<CellState, { color: string; label: string }> = {
  ready: { color: '#2e9e5b', label: 'ready' },
  late: { color: '#e3b23c', label: 'late (after 40 min)' },
  in_flight: { color: '#7fb3e6', label: 'in flight (not due yet)' },
  failed: { color: '#b3261e', label: 'failed (no _SUCCESS after 3 h)' },
  pending: { color: '#9b6bd1', label: 'pending (catch-up later)' },
  missing: { color: '#e5484d', label: 'missing' },
  pruned: { color: '#b8c4d6', label: 'pruned by retention (expected)' },
  no_delivery: { color: '#eef0f3', label: 'no delivery due (v1 day, switch gap)' },
  not_due: { color: '#ffffff', label: 'not due yet' }
}

/** The era band above the hours: v1 daily, the switch gap, v2 hourly. */
export const ERA_COLOR = { v1: '#dbe4f0', gap: '#f3e3c3', v2: '#d6efdf' } as const

/** The manifest row's states: the parser's, plus a manifest that disagrees with the folders or lags behind. */
export type ManifestCell = ManifestState | 'disagrees' | 'lagging' | 'none'

/** In order of alarm (a zoomed-out pixel shows the first of its hours'). */
export const MANIFEST_CELLS: readonly ManifestCell[] = ['malformed', 'absent', 'disagrees', 'lagging', 'incomplete', 'complete', 'not_due', 'none']

export const MANIFEST_STYLE: Record<ManifestCell, { color: string; label: string }> = {
  complete: { color: '#2e9e5b', label: 'manifest complete' },
  incomplete: { color: '#e3b23c', label: 'manifest incomplete (tables missing or pending)' },
  absent: { color: '#e5484d', label: 'manifest absent' },
  malformed: { color: '#b3261e', label: 'manifest unreadable' },
  disagrees: { color: '#9b6bd1', label: 'manifest disagrees with the folders or itself' },
  lagging: { color: '#6b3fa0', label: 'delivered-through more than 2 h behind' },
  not_due: { color: '#ffffff', label: 'manifest not due yet' },
  none: { color: '#eef0f3', label: 'no manifest expected (v1 day, switch gap)' }
}
