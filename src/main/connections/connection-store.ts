// Saved connections, in the app's data folder (connections.json). A damaged file is reported, not fatal:
// the entries that can be read are kept, the others named.
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises'
import { dirname } from 'node:path'
import { type ConnectionConfig, validateConnection } from '../../shared/connection-config'

export interface LoadedConnections {
  readonly connections: ConnectionConfig[]
  /** What could not be read, for the user. */
  readonly problems: string[]
}

export class ConnectionStore {
  constructor(private readonly file: string) {}

  async load(): Promise<LoadedConnections> {
    let text: string
    try {
      text = await readFile(this.file, 'utf8')
    } catch (e) {
      if ((e as { code?: string }).code === 'ENOENT') return { connections: [], problems: [] }
      return { connections: [], problems: [`${this.file} could not be read: ${(e as Error).message}`] }
    }
    let parsed: unknown
    try {
      parsed = JSON.parse(text)
    } catch (e) {
      return { connections: [], problems: [`${this.file} is not valid JSON (${(e as Error).message}); saved connections are not shown. Fix or delete the file.`] }
    }
    const list = Array.isArray(parsed) ? parsed : []
    const connections: ConnectionConfig[] = []
    const problems: string[] = []
    list.forEach((item, i) => {
      const r = validateConnection(item)
      if (r.ok) connections.push(r.value)
      else problems.push(`Saved connection #${i + 1} in ${this.file} was skipped: ${r.reason}.`)
    })
    return { connections, problems }
  }

  async save(connections: readonly ConnectionConfig[]): Promise<void> {
    await mkdir(dirname(this.file), { recursive: true })
    const tmp = `${this.file}.${process.pid}.tmp`
    await writeFile(tmp, JSON.stringify(connections, null, 2), { mode: 0o600 })
    await rename(tmp, this.file)
  }

  async upsert(c: ConnectionConfig): Promise<void> {
    const { connections } = await this.load()
    const i = connections.findIndex((x) => x.id === c.id)
    if (i >= 0) connections[i] = c
    else connections.push(c)
    await this.save(connections)
  }

  async remove(id: string): Promise<void> {
    const { connections } = await this.load()
    await this.save(connections.filter((c) => c.id !== id))
  }
}
