// A query that names a table without a view fails with DuckDB's "Table with name X does not exist!": the
// reason the view is missing (archived files, files the pane's engine cannot read, no ready copy) goes with it.
// A parts table whose files disagree on a column's type opens here once the local mirror has compacted it (one
// type per column): while it is being compacted, that is said in plain words, and the query waits for it.
import type { MirrorStatusView } from '../../../shared/api/views'
import type { ViewsResult } from '../../../shared/bucket-views'
import { countText, numberText } from '../../../shared/counts'
import { TYPE_CONFLICT_MARK } from './wasm-readable-files'

type ViewProblem = ViewsResult['problems'][number]

function problemOf(message: string, problems: readonly ViewProblem[]): ViewProblem | null {
  const name = /Table with name (\S+) does not exist/.exec(message)?.[1]
  if (!name) return null
  return problems.find((p) => p.table === name || p.table.endsWith(`.${name}`)) ?? null
}

/** The table (schema.table) a failed query waits for: one the mirror is compacting and this pane can read only from it. */
export function waitsForMirror(message: string, problems: readonly ViewProblem[], mirror: MirrorStatusView | null): string | null {
  const problem = problemOf(message, problems)
  if (!problem || !mirror || !problem.message.includes(TYPE_CONFLICT_MARK)) return null
  const held = mirror.tables.find((t) => t.table === problem.table)
  return held && held.foldersTotal > 0 && mirror.state === 'running' ? problem.table : null
}

/** A table's missing view in plain words when the mirror opens it (compacting it, or stopped before it): null otherwise. */
export function mirrorWaitWords(problem: ViewProblem, mirror: MirrorStatusView | null): string | null {
  const held = problem.message.includes(TYPE_CONFLICT_MARK) ? mirror?.tables.find((t) => t.table === problem.table) : undefined
  if (!mirror || !held || held.foldersTotal === 0) return null
  const hours = `${countText(held.folders, 'hour')} of ${numberText(held.foldersTotal)}`
  const words =
    mirror.state === 'running'
      ? `${problem.table} is being prepared: the local mirror is compacting it (${hours} so far). The app's engine reads it from the mirror, ` +
        `where each column has one type; the query runs again by itself when the mirror is ready.`
      : `${problem.table} opens here once the local mirror has compacted it (${hours} so far): start or resume the mirror ` +
        `in the Mirror panel, or query it with the command-line tool now.`
  return `${words}\n\nWhy: ${problem.message}`
}

export function withViewProblem(message: string, problems: readonly ViewProblem[], mirror: MirrorStatusView | null = null): string {
  const problem = problemOf(message, problems)
  if (!problem) return message
  return mirrorWaitWords(problem, mirror) ?? `${message}\n\nWhy ${problem.table} has no view: ${problem.message}`
}
