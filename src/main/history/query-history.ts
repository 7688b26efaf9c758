// The SQL pane's query history, kept by main across restarts (query-history.json in the data folder): newest
// first, one entry per statement, at most 200; concurrent additions all land, a damaged file is kept aside.
import type { HistoryEntry } from '../../shared/api/views'
import { type Decoded, SavedStateFile } from '../files/saved-state-file'

export const MAX_HISTORY = 200

const nullable = (v: unknown, type: 'number' | 'string'): boolean => v === null || typeof v === type

const isEntry = (e: unknown): e is HistoryEntry => {
  if (typeof e !== 'object' || e === null) return false
  const o = e as Record<string, unknown>
  return (
    typeof o['sql'] === 'string' &&
    typeof o['at'] === 'string' &&
    nullable(o['rows'], 'number') &&
    nullable(o['ms'], 'number') &&
    nullable(o['error'], 'string')
  )
}

/** Entries saved before the connection and "as of" were recorded read as unknown connection, latest. */
const withContext = (e: HistoryEntry): HistoryEntry => ({ ...e, connection: e.connection ?? null, asOf: e.asOf ?? null })

function decode(parsed: unknown): Decoded<HistoryEntry[]> {
  if (!Array.isArray(parsed)) return { value: [], problems: ['query-history.json holds no list of queries.'] }
  const value = parsed.filter(isEntry).map(withContext)
  const skipped = parsed.length - value.length
  return { value, problems: skipped === 0 ? [] : [`${skipped} of the ${parsed.length} entries of query-history.json could not be read and are not shown.`] }
}

export class QueryHistory {
  private readonly saved: SavedStateFile<HistoryEntry[]>

  constructor(file: string) {
    this.saved = new SavedStateFile(file, { empty: () => [], decode, encode: (entries) => JSON.stringify(entries) })
  }

  async entries(): Promise<{ entries: readonly HistoryEntry[] }> {
    return { entries: (await this.saved.read()).value }
  }

  /** Puts an entry first (dropping an older one of the same statement), under the file's lock. */
  async add(entry: HistoryEntry): Promise<{ entries: readonly HistoryEntry[] }> {
    const entries = await this.saved.update((current) => [entry, ...current.filter((e) => e.sql !== entry.sql)].slice(0, MAX_HISTORY))
    return { entries }
  }

  /** What the user should know about the history file (damaged, kept aside and started empty). */
  async problems(): Promise<readonly string[]> {
    return (await this.saved.read()).problems
  }
}
