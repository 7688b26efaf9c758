// Saved connections, in the app's data folder (connections.json). A damaged file is reported, not fatal:
// the entries that can be read are kept, the others named; it is never saved over (src/main/files).
import { basename } from 'node:path'
import { type ConnectionConfig, validateConnection } from '../../shared/connection-config'
import { type Decoded, SavedStateFile } from '../files/saved-state-file'

export interface LoadedConnections {
  readonly connections: ConnectionConfig[]
  /** What could not be read, for the user. */
  readonly problems: string[]
}

export class ConnectionStore {
  private readonly saved: SavedStateFile<ConnectionConfig[]>

  constructor(private readonly file: string) {
    const decode = (parsed: unknown): Decoded<ConnectionConfig[]> => {
      if (!Array.isArray(parsed)) return { value: [], problems: [`${basename(file)} holds no list of connections.`] }
      const connections: ConnectionConfig[] = []
      const problems: string[] = []
      parsed.forEach((item, i) => {
        const r = validateConnection(item)
        if (r.ok) connections.push(r.value)
        else problems.push(`Saved connection #${i + 1} in ${this.file} was skipped: ${r.reason}.`)
      })
      return { value: connections, problems }
    }
    this.saved = new SavedStateFile(file, { empty: () => [], decode, encode: (list) => JSON.stringify(list, null, 2) })
  }

  async load(): Promise<LoadedConnections> {
    const { value, problems } = await this.saved.read()
    return { connections: value, problems }
  }

  /** Replaces the saved list (a damaged file is kept aside first). */
  async save(connections: readonly ConnectionConfig[]): Promise<void> {
    await this.saved.update(() => [...connections])
  }

  /** Adds or replaces one connection, under the file's lock: concurrent saves all land. */
  async upsert(input: ConnectionConfig): Promise<void> {
    // Saved as rebuilt from its known fields only: whatever else the caller's object holds is never written.
    const checked = validateConnection(input)
    if (!checked.ok)
      throw new Error(
        `The connection ${JSON.stringify(input.name)?.slice(0, 80)} cannot be saved: ${checked.reason}. Correct it in Connections and save again.`
      )
    const c = checked.value
    await this.saved.update((connections) => {
      const i = connections.findIndex((x) => x.id === c.id)
      return i >= 0 ? connections.map((x, j) => (j === i ? c : x)) : [...connections, c]
    })
  }

  async remove(id: string): Promise<void> {
    await this.saved.update((connections) => connections.filter((c) => c.id !== id))
  }
}
