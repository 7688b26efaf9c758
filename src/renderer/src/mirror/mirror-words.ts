// What the local mirror panel says, as pure functions of the mirror's status (tested in Node): the state in words,
// the progress line, and what a table that is not mirrored yet says in the tables view.
import type { MirrorStatusView, MirrorTableView, RestoreJobView } from '../../../shared/api/views'
import { formatBytes, numberText } from '../../../shared/counts'
import { durationText } from '../../../shared/durations'
import { countText } from '../../../shared/counts'

const n = numberText

export function mirrorStateWords(s: MirrorStatusView): string {
  switch (s.state) {
    case 'idle':
      return 'not built yet'
    case 'running':
      return 'building'
    case 'done':
      return s.tables.every((t) => t.folders >= t.foldersTotal) ? 'up to date' : 'partly built'
    case 'cancelled':
      return s.atLimit ? 'stopped at its disk limit' : 'cancelled'
    case 'failed':
      return 'could not be brought up to date'
  }
}

/** "Table 2 of 3 (claudia_messages) · 120 of 400 folders · 300 of 1,000 files · 12.0 MB of 40.0 MB · about 2 min 5 s left". */
export function mirrorProgressWords(s: MirrorStatusView): string | null {
  const p = s.progress
  if (!p) return null
  const table = p.table ? ` (${p.table.split('.').pop() ?? p.table})` : ''
  const left = p.secondsLeft === null ? 'estimating the time left' : p.secondsLeft === 0 ? 'finishing' : `about ${durationText(p.secondsLeft * 1000)} left`
  return `Table ${n(Math.min(p.tables + 1, p.tablesTotal))} of ${n(p.tablesTotal)}${table} · ${n(p.folders)} of ${n(p.foldersTotal)} folders · ${n(p.files)} of ${n(p.filesTotal)} files · ${formatBytes(p.bytes)} of ${formatBytes(p.bytesTotal)} · ${left}`
}

/** "Uses 48.0 MB on disk (compacted 8.0 MB, the bucket's files downloaded for it 40.0 MB) of 25.0 GB allowed (the default: …)". */
export function mirrorUsageWords(s: MirrorStatusView): string {
  const limit = s.limit
    ? ` of ${formatBytes(s.limit.bytes)} allowed${s.limit.chosen ? '' : ' (the default: a quarter of the free space when it was first built)'}`
    : ''
  return `Uses ${formatBytes(s.usage.total)} on disk (compacted ${formatBytes(s.usage.mirror)}, the bucket's files downloaded for it ${formatBytes(s.usage.downloaded)})${limit}`
}

export const tablePercent = (t: MirrorTableView): number => (t.foldersTotal === 0 ? 100 : Math.floor((100 * t.folders) / t.foldersTotal))

/** For a parts table the mirror does not hold whole: "not mirrored yet — 0% (reading the bucket's files meanwhile)", or
 * with part of it held "40% mirrored (the rest read from the bucket's files meanwhile)" (the views read what the mirror
 * holds and the raw files of the rest); null when it holds it all (or for a full table). */
export function tableMirrorNote(s: MirrorStatusView | null, table: string): string | null {
  const t = s?.tables.find((x) => x.table === table)
  if (!s || !t || t.folders >= t.foldersTotal) return null
  return t.folders === 0
    ? `not mirrored yet — 0% (reading the bucket's files meanwhile)`
    : `${tablePercent(t)}% mirrored (the rest read from the bucket's files meanwhile)`
}

const DAY = 86_400_000

/**
 * What "Clear the mirror" warns of when the connection restored archived files: the mirror is where they stay
 * readable for good; S3 keeps a restored copy only for the days chosen, after which reading them needs another
 * restore (hours, and its retrieval fee). Null when nothing was restored.
 */
export function clearMirrorRestoreWarning(job: RestoreJobView | null | undefined, now: number): string | null {
  if (!job || job.counts.done === 0) return null
  const restored = job.endedAt ?? job.checkedAt ?? job.startedAt
  const until = restored ? Date.parse(restored) + job.days * DAY : null
  const files = countText(job.counts.done, 'archived file')
  const lasts =
    until === null
      ? `S3 keeps a restored copy readable for only the ${countText(job.days, 'day')} chosen`
      : until > now
        ? `S3 keeps their restored copies readable for only the ${countText(job.days, 'day')} chosen (until about ${new Date(until).toISOString().slice(0, 10)})`
        : `their restored copies in S3, kept for the ${countText(job.days, 'day')} chosen, expired about ${new Date(until).toISOString().slice(0, 10)}`
  return `The mirror holds ${files} restored from the archive: ${lasts}; once cleared and expired, reading them again needs another restore (hours, and its retrieval fee).`
}
