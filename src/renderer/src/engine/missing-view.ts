// A query that names a table without a view fails with DuckDB's "Table with name X does not exist!": the
// reason the view is missing (archived files, files the pane's engine cannot read, no ready copy) goes with it.
import type { ViewsResult } from '../../../shared/bucket-views'

export function withViewProblem(message: string, problems: readonly ViewsResult['problems'][number][]): string {
  const name = /Table with name (\S+) does not exist/.exec(message)?.[1]
  if (!name) return message
  const problem = problems.find((p) => p.table === name || p.table.endsWith(`.${name}`))
  return problem ? `${message}\n\nWhy ${problem.table} has no view: ${problem.message}` : message
}
