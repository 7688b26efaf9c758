// Saved state under concurrency and damage: 20 parallel saves of connections, secrets and history all land; a
// file that cannot be read is kept aside byte for byte (never saved over) and the user is told; every file main
// saves is 0600 in a 0700 folder.
import { randomBytes } from 'node:crypto'
import { mkdir, mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ConnectionStore } from '../../src/main/connections/connection-store'
import { MemorySecretStore, SafeStorageSecretStore } from '../../src/main/connections/secret-store'
import { QueryHistory } from '../../src/main/history/query-history'
import { Workspace } from '../../src/main/workspace/workspace'
import type { ConnectionConfig } from '../../src/shared/connection-config'

let work: string
let n = 0
/** A folder of its own for each case (not created: the code under test makes it). */
const fresh = (): string => join(work, `case-${++n}`)

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'ee-saved-'))
})
afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true })
})

/** Stands in for Electron's safeStorage (which needs the Electron binary): a reversible transformation. */
const keychain = {
  isEncryptionAvailable: () => true,
  getSelectedStorageBackend: () => 'gnome_libsecret',
  encryptString: (s: string) => Buffer.from([...Buffer.from(s)].map((b) => b ^ 0x5a)),
  decryptString: (b: Buffer) => Buffer.from([...b].map((x) => x ^ 0x5a)).toString()
}

const local = (i: number): ConnectionConfig => ({ id: `l${i}`, name: `Copy ${i}`, provider: 'local', path: `/data/export-${i}` })
const modeOf = async (p: string): Promise<number> => (await stat(p)).mode & 0o777
const corruptCopies = async (dir: string, name: string): Promise<string[]> => (await readdir(dir)).filter((f) => f.startsWith(`${name}.corrupt-`))

describe('concurrent saves', () => {
  it('20 parallel connectionSave calls (with their secrets) all land; a fresh workspace loads all 20', async () => {
    const dataDir = fresh()
    const secretsFile = join(dataDir, 'secrets.json')
    const w = new Workspace({ dataDir, secrets: new SafeStorageSecretStore(keychain, secretsFile), autoRefresh: false })
    const ids = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        i % 2 === 0
          ? w.connectionSave({ connection: { name: `local ${i}`, provider: 'local', path: `/data/${i}` } as never })
          : w.connectionSave({
              connection: {
                name: `keys ${i}`,
                provider: 's3',
                bucket: 'b',
                prefix: '',
                endpoint: 'http://127.0.0.1:9',
                auth: { kind: 'static', accessKeyId: `AK${i}` }
              } as never,
              secretAccessKey: `secret-${i}`
            })
      )
    )
    await w.dispose()
    const again = new Workspace({ dataDir, secrets: new SafeStorageSecretStore(keychain, secretsFile), autoRefresh: false })
    const view = await again.connections()
    expect(view.problems).toEqual([])
    expect(view.connections.map((c) => c.id).sort()).toEqual(ids.map((r) => r.id).sort())
    expect(new Set(ids.map((r) => r.id)).size).toBe(20)
    const secrets = new SafeStorageSecretStore(keychain, secretsFile)
    for (let i = 1; i < 20; i += 2) expect(await secrets.get(`s3-secret-${(ids[i] as { id: string }).id}`)).toBe(`secret-${i}`)
    await again.dispose()
  })

  it('20 parallel upserts and removes through the store keep exactly what they should', async () => {
    const file = join(fresh(), 'connections.json')
    const store = new ConnectionStore(file)
    await Promise.all(Array.from({ length: 20 }, (_, i) => store.upsert(local(i))))
    await Promise.all([
      ...Array.from({ length: 10 }, (_, i) => store.remove(`l${i * 2}`)),
      ...Array.from({ length: 5 }, (_, i) => store.upsert({ ...local(i * 2 + 1), name: `renamed ${i}` }))
    ])
    const loaded = await new ConnectionStore(file).load()
    expect(loaded.connections.map((c) => c.id).sort()).toEqual(Array.from({ length: 10 }, (_, i) => `l${i * 2 + 1}`).sort())
    expect(loaded.connections.filter((c) => c.name.startsWith('renamed')).length).toBe(5)
  })

  it('20 parallel secret sets, then 10 parallel deletes, keep every other secret', async () => {
    const file = join(fresh(), 'secrets.json')
    const store = new SafeStorageSecretStore(keychain, file)
    await Promise.all(Array.from({ length: 20 }, (_, i) => store.set(`ref-${i}`, `value-${i}`)))
    await Promise.all(Array.from({ length: 10 }, (_, i) => store.delete(`ref-${i * 2}`)))
    const back = new SafeStorageSecretStore(keychain, file)
    for (let i = 0; i < 20; i++) expect(await back.get(`ref-${i}`)).toBe(i % 2 === 0 ? null : `value-${i}`)
  })

  it('20 parallel historyAdd calls keep all 20 entries, across a restart', async () => {
    const dataDir = fresh()
    const w = new Workspace({ dataDir, secrets: new MemorySecretStore(), autoRefresh: false })
    await Promise.all(Array.from({ length: 20 }, (_, i) => w.historyAdd({ sql: `SELECT ${i}`, asOf: null, rows: i, ms: 1, error: null })))
    await w.dispose()
    const again = new Workspace({ dataDir, secrets: new MemorySecretStore(), autoRefresh: false })
    const { entries } = await again.history()
    expect(entries.map((e) => e.sql).sort()).toEqual(Array.from({ length: 20 }, (_, i) => `SELECT ${i}`).sort())
    await again.dispose()
  })
})

describe('a damaged file is kept aside, never saved over', () => {
  it('garbage in connections.json: kept byte for byte as connections.json.corrupt-…, and the user is told', async () => {
    const dataDir = fresh()
    await mkdir(dataDir, { recursive: true })
    const file = join(dataDir, 'connections.json')
    // Not JSON, and not even UTF-8: the copy must hold these exact bytes.
    const garbage = Buffer.concat([Buffer.from('[{"id": "half-written", "name": "'), randomBytes(64), Buffer.from([0xff, 0xfe, 0x00])])
    await writeFile(file, garbage)
    const w = new Workspace({ dataDir, secrets: new MemorySecretStore(), autoRefresh: false })
    const before = await w.connections()
    expect(before.problems.join(' ')).toMatch(/connections\.json could not be read \(not valid JSON/)
    expect(await corruptCopies(dataDir, 'connections.json')).toEqual([])

    const { id } = await w.connectionSave({ connection: { name: 'after', provider: 'local', path: '/data/after' } as never })
    const copies = await corruptCopies(dataDir, 'connections.json')
    expect(copies).toHaveLength(1)
    const kept = join(dataDir, copies[0] as string)
    expect((await readFile(kept)).equals(garbage)).toBe(true)
    expect(await modeOf(kept)).toBe(0o600)
    expect(copies[0]).toMatch(/^connections\.json\.corrupt-\d{8}T\d{6}\.\d{3}Z$/)
    const view = await w.connections()
    expect(view.connections.map((c) => c.id)).toContain(id)
    expect(
      view.problems.some(
        (p) => p.includes(`connections.json could not be read (not valid JSON`) && p.includes(`it was kept as ${copies[0]} and a new one started`)
      )
    ).toBe(true)
    // The new file is whole, and a second save does not keep anything aside again.
    await w.connectionSave({ connection: { name: 'second', provider: 'local', path: '/data/second' } as never })
    expect(await corruptCopies(dataDir, 'connections.json')).toHaveLength(1)
    expect((await new ConnectionStore(file).load()).connections.map((c) => c.name)).toEqual(['after', 'second'])
    await w.dispose()
  })

  it('a file with an entry that cannot be read: the original is kept aside, the readable entries saved with the new one', async () => {
    const dir = fresh()
    await mkdir(dir, { recursive: true })
    const file = join(dir, 'connections.json')
    const original = JSON.stringify([{ id: 'x', name: 'from a newer version', provider: 'azure' }, local(1)])
    await writeFile(file, original)
    const store = new ConnectionStore(file)
    expect((await store.load()).problems.join(' ')).toMatch(/#1 .* skipped: unknown provider "azure".*next save keeps connections\.json as it is now/)
    await store.upsert(local(2))
    const copies = await corruptCopies(dir, 'connections.json')
    expect(copies).toHaveLength(1)
    expect(await readFile(join(dir, copies[0] as string), 'utf8')).toBe(original)
    const loaded = await store.load()
    expect(loaded.connections.map((c) => c.id)).toEqual(['l1', 'l2'])
    expect(loaded.problems.join(' ')).toMatch(
      /could not be read in full .* kept as connections\.json\.corrupt-.* and a new one started with what could be read/
    )
  })

  it('a file that cannot be read at all (not a file) is left alone and the save says why', async () => {
    const dir = fresh()
    const file = join(dir, 'connections.json')
    await mkdir(file, { recursive: true })
    const store = new ConnectionStore(file)
    expect((await store.load()).problems.join(' ')).toMatch(/connections\.json could not be read \(EISDIR/)
    await expect(store.upsert(local(1))).rejects.toThrow(/could not be read .*nothing is saved over it/)
    expect((await stat(file)).isDirectory()).toBe(true)
  })

  it('garbage in secrets.json: kept aside on the next set, the new secret saved, the connection manager says so', async () => {
    const dataDir = fresh()
    await mkdir(dataDir, { recursive: true })
    const file = join(dataDir, 'secrets.json')
    await writeFile(file, '{"s3-secret-a": "AAAA", trunc')
    const secrets = new SafeStorageSecretStore(keychain, file)
    const w = new Workspace({ dataDir, secrets, autoRefresh: false })
    const { id } = await w.connectionSave({
      connection: {
        name: 'keys',
        provider: 's3',
        bucket: 'b',
        prefix: '',
        endpoint: 'http://127.0.0.1:9',
        auth: { kind: 'static', accessKeyId: 'AK' }
      } as never,
      secretAccessKey: 'new-secret'
    })
    const copies = await corruptCopies(dataDir, 'secrets.json')
    expect(copies).toHaveLength(1)
    expect(await readFile(join(dataDir, copies[0] as string), 'utf8')).toBe('{"s3-secret-a": "AAAA", trunc')
    expect(await secrets.get(`s3-secret-${id}`)).toBe('new-secret')
    expect(
      (await w.connections()).problems.some((p) =>
        /^secrets\.json could not be read \(not valid JSON.*kept as secrets\.json\.corrupt-.* and a new one started\.$/.test(p)
      )
    ).toBe(true)
    await w.dispose()
  })

  it('garbage in query-history.json: kept aside, the history starts empty with the new entry', async () => {
    const dataDir = fresh()
    await mkdir(dataDir, { recursive: true })
    const file = join(dataDir, 'query-history.json')
    await writeFile(file, '[{"sql": "SELECT 1", "at": "2026-')
    const w = new Workspace({ dataDir, secrets: new MemorySecretStore(), autoRefresh: false })
    expect((await w.history()).entries).toEqual([])
    const { entries } = await w.historyAdd({ sql: 'SELECT 2', asOf: '2026-11-20T10:00:00Z', rows: 1, ms: 3, error: null })
    expect(entries.map((e) => e.sql)).toEqual(['SELECT 2'])
    // The "as of" it read, and the connection it ran on (none is open here).
    expect(entries[0]).toMatchObject({ asOf: '2026-11-20T10:00:00Z', connection: null })
    const copies = await corruptCopies(dataDir, 'query-history.json')
    expect(copies).toHaveLength(1)
    expect(await readFile(join(dataDir, copies[0] as string), 'utf8')).toBe('[{"sql": "SELECT 1", "at": "2026-')
    expect((await w.connections()).problems.some((p) => p.startsWith('query-history.json could not be read') && p.includes('a new one started'))).toBe(true)
    // Entries of the wrong shape are left out of a readable file, and the file is kept aside before it is rewritten.
    await writeFile(
      file,
      JSON.stringify([
        { sql: 'SELECT 3', at: '2026-11-20T00:00:00.000Z', rows: 'many', ms: null, error: null },
        { sql: 'SELECT 4', at: '2026-11-20T00:00:00.000Z', rows: 1, ms: null, error: null }
      ])
    )
    const h = new QueryHistory(file)
    expect((await h.entries()).entries.map((e) => e.sql)).toEqual(['SELECT 4'])
    await h.add({ sql: 'SELECT 5', at: '2026-11-21T00:00:00.000Z', rows: null, ms: null, error: null, connection: null, asOf: null })
    expect((await h.entries()).entries.map((e) => e.sql)).toEqual(['SELECT 5', 'SELECT 4'])
    expect(await corruptCopies(dataDir, 'query-history.json')).toHaveLength(2)
    await w.dispose()
  })
})

describe('file modes', () => {
  it('connections, secrets and history are 0600 in a 0700 data folder; a folder made wider earlier is narrowed', async () => {
    const dataDir = fresh()
    const w = new Workspace({ dataDir, secrets: new SafeStorageSecretStore(keychain, join(dataDir, 'secrets.json')), autoRefresh: false })
    await w.connectionSave({
      connection: {
        name: 'keys',
        provider: 's3',
        bucket: 'b',
        prefix: '',
        endpoint: 'http://127.0.0.1:9',
        auth: { kind: 'static', accessKeyId: 'AK' }
      } as never,
      secretAccessKey: 's'
    })
    await w.historyAdd({ sql: 'SELECT 1', asOf: null, rows: 1, ms: 1, error: null })
    expect(await modeOf(dataDir)).toBe(0o700)
    for (const f of ['connections.json', 'secrets.json', 'query-history.json']) expect(await modeOf(join(dataDir, f))).toBe(0o600)
    // No temporary file is left beside them.
    expect((await readdir(dataDir)).sort()).toEqual(['connections.json', 'query-history.json', 'secrets.json'])
    await w.dispose()

    const wide = fresh()
    await mkdir(wide, { recursive: true, mode: 0o755 })
    const { chmod } = await import('node:fs/promises')
    await chmod(wide, 0o755)
    await new ConnectionStore(join(wide, 'connections.json')).upsert(local(1))
    expect(await modeOf(wide)).toBe(0o700)
  })
})
