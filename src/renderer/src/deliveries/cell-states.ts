// The colour and plain words of each cell state: the timeline, its legend and the inspector use these only. The
// colours themselves are tokens (common/tokens.css): `token` names the custom property, CSS uses it as var(),
// the canvas reads its value (cssToken).
import type { CellState, ManifestState } from '../../../shared/timeline'

type Token = `--${string}`

export const STATE_STYLE: Record<CellState, { token: Token; label: string }> = {
  ready: { token: '--cell-ready', label: 'ready' },
  late: { token: '--cell-late', label: 'late (after 40 min)' },
  in_flight: { token: '--cell-in-flight', label: 'in flight (not due yet)' },
  failed: { token: '--cell-failed', label: 'failed (no _SUCCESS after 3 h)' },
  pending: { token: '--cell-pending', label: 'pending (catch-up later)' },
  missing: { token: '--cell-missing', label: 'missing' },
  pruned: { token: '--cell-pruned', label: 'pruned by retention (expected)' },
  no_delivery: { token: '--cell-no-delivery', label: 'no delivery due (v1 day, switch gap)' },
  not_due: { token: '--cell-not-due', label: 'not due yet' },
  unreadable: { token: '--cell-unreadable', label: 'unreadable file (copy passed over, or file left out)' },
  archived: { token: '--cell-archived', label: 'archived (left out until restored)' },
  empty: { token: '--cell-empty', label: 'empty copy (no Parquet file)' }
}

/** The era band above the hours: v1 daily, the switch gap, v2 hourly. */
export const ERA_TOKEN = { v1: '--era-v1', gap: '--era-gap', v2: '--era-v2' } as const satisfies Record<string, Token>

/** The manifest row's states: the parser's, plus a manifest that disagrees with the folders or lags behind. */
export type ManifestCell = ManifestState | 'disagrees' | 'lagging' | 'none'

/** In order of alarm (a zoomed-out pixel shows the first of its hours'). */
export const MANIFEST_CELLS: readonly ManifestCell[] = ['malformed', 'absent', 'disagrees', 'lagging', 'incomplete', 'complete', 'not_due', 'none']

export const MANIFEST_STYLE: Record<ManifestCell, { token: Token; label: string }> = {
  complete: { token: '--manifest-complete', label: 'manifest complete' },
  incomplete: { token: '--manifest-incomplete', label: 'manifest incomplete (tables missing or pending)' },
  absent: { token: '--manifest-absent', label: 'manifest absent' },
  malformed: { token: '--manifest-malformed', label: 'manifest unreadable' },
  disagrees: { token: '--manifest-disagrees', label: 'manifest disagrees with the folders or itself' },
  lagging: { token: '--manifest-lagging', label: 'delivered-through more than 2 h behind' },
  not_due: { token: '--manifest-not-due', label: 'manifest not due yet' },
  none: { token: '--manifest-none', label: 'no manifest expected (v1 day, switch gap)' }
}
