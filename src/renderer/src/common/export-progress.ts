// What an export under way says: a percent, a bar and the time left where DuckDB's own progress tells how far
// along it is; the rows it is writing when the grid it came from counted them; the bytes written otherwise.
import type { ExportJob } from '../../../shared/api/views'
import { countText, formatBytes } from '../../../shared/counts'
import { durationText } from '../../../shared/durations'

export interface ExportProgress {
  /** 0–100 for the bar, or null (an indeterminate bar) when nothing tells how far along the export is. */
  readonly percent: number | null
  readonly text: string
}

/** Below this, DuckDB's percent is too young to extrapolate a time left from. */
const MIN_PERCENT = 1
const MIN_ELAPSED_MS = 2_000

/** The progress of a running export at `now`; `expectedRows` is the count of the grid it was asked from, if any. */
export function exportProgress(job: ExportJob, now: number, expectedRows: number | null): ExportProgress {
  const elapsed = job.startedAt === null ? 0 : now - Date.parse(job.startedAt)
  const rows = expectedRows !== null ? `${countText(expectedRows, 'row')} to write` : job.rows > 0 ? `${countText(job.rows, 'row')} read` : null
  const bytes = `${formatBytes(job.bytes)} written`
  if (job.percent !== null && job.percent > 0) {
    const p = Math.min(100, job.percent)
    const left = p >= MIN_PERCENT && elapsed >= MIN_ELAPSED_MS && p < 100 ? `about ${durationText((elapsed * (100 - p)) / p)} left` : null
    return { percent: p, text: `Exporting… ${[`${Math.floor(p)}%`, left, rows, bytes].filter(Boolean).join(' · ')}` }
  }
  // DuckDB cannot tell for most COPYs of the logical tables (a window, a join): the bytes written move.
  return { percent: null, text: `Exporting… ${[rows, bytes, `${durationText(Math.max(0, elapsed))} so far`].filter(Boolean).join(' · ')}` }
}
