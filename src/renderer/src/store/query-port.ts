// What the store needs of the query engine: the window's one session (engine/session.ts) with its views, its
// queue and its cancel. The app passes the DuckDB-WASM session; the slices' tests pass one on DuckDB-WASM's Node build.
import type { CatalogTable } from '../../../shared/catalog'
import type { ResultSet } from '../engine/result-set'
import type { CancelOutcome, Owner, SessionEvent, ViewsState } from '../engine/session'

export interface QueryPort {
  /** Which engine work runs on now: results materialized on an earlier one are gone. */
  readonly generation: number
  /** Starts the engine ahead of the first query (app.tsx says when), and warms it up; nothing when one is started. */
  warmUp(): Promise<void>
  /** The views of the open connection ("as of" an hour, or latest): of the tables given (ahead of the rest), or all. */
  ensureViews(asOf: string | null, tables?: readonly CatalogTable[]): Promise<ViewsState>
  /** Runs one statement; `owner` names whose work it is, for cancel(). */
  query(sql: string, owner?: Owner): Promise<Record<string, unknown>[]>
  /** Runs a statement and materializes its rows, read a page at a time. */
  runQuery(sql: string, owner?: Owner): Promise<ResultSet>
  /** Stops the work of `owner` (or whatever runs now). */
  cancel(owner?: Owner): Promise<CancelOutcome>
  /** Listens to the views opening and the engine's restarts; returns the unsubscribe. */
  subscribe(listener: (e: SessionEvent) => void): () => void
  close(): Promise<void>
}
