// The colour and plain words of each cell state: the timeline, its legend and the inspector use these only.
import type { CellState } from '../../../shared/timeline'

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
