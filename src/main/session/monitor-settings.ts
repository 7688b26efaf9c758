// The volume monitor's thresholds each connection set (for every table, and per table), saved by connection id
// beside the follow settings. A saved file that cannot be read in full is kept aside and said (SavedStateFile).
import * as v from 'valibot'
import { MonitorConfigSchema } from '../../shared/api/core-values'
import type { MonitorConfig, MonitorThresholds } from '../../shared/delivery-monitors'
import { type Decoded, SavedStateFile } from '../files/saved-state-file'

function decode(parsed: unknown): Decoded<Record<string, MonitorConfig>> {
  const value: Record<string, MonitorConfig> = {}
  const problems: string[] = []
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return { value, problems: ['it is not an object of thresholds by connection'] }
  for (const [id, c] of Object.entries(parsed)) {
    const r = v.safeParse(MonitorConfigSchema, c)
    if (r.success) value[id] = r.output
    else problems.push(`the monitor thresholds of connection ${id} are not usable (${r.issues[0]?.message ?? 'unknown shape'})`)
  }
  return { value, problems }
}

/** The config with one table's thresholds (or, table null, every table's) replaced; null goes back to the defaults. */
export function withThresholds(config: MonitorConfig, table: string | null, thresholds: Partial<MonitorThresholds> | null): MonitorConfig {
  if (table === null) {
    const { all: _all, ...rest } = config
    return thresholds ? { ...rest, all: thresholds } : rest
  }
  const { [table]: _old, ...others } = config.tables ?? {}
  const tables = thresholds ? { ...others, [table]: thresholds } : others
  const { tables: _tables, ...rest } = config
  return Object.keys(tables).length ? { ...rest, tables } : rest
}

export class MonitorSettingsStore {
  private readonly saved: SavedStateFile<Record<string, MonitorConfig>>

  constructor(file: string) {
    this.saved = new SavedStateFile(file, { empty: () => ({}), decode, encode: (all) => JSON.stringify(all, null, 2) })
  }

  async config(connectionId: string): Promise<MonitorConfig> {
    return (await this.saved.read()).value[connectionId] ?? {}
  }

  async set(connectionId: string, table: string | null, thresholds: Partial<MonitorThresholds> | null): Promise<MonitorConfig> {
    const all = await this.saved.update((x) => {
      const next = withThresholds(x[connectionId] ?? {}, table, thresholds)
      const { [connectionId]: _old, ...others } = x
      return Object.keys(next).length ? { ...others, [connectionId]: next } : others
    })
    return all[connectionId] ?? {}
  }
}
