// The frame check's cache (the footer facts the monitors judge each delivery on) sits in the user's data folder,
// where another process may write. An entry not in its exact shape (negative, fractional or huge rows, columns that
// are not name/type pairs, an unknown kind of value) is not trusted: that file's footer is read again and its real
// facts are what the monitors get; nothing throws. Bucket: test/helpers/unreadable-bucket.ts.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { refreshBucketIndex } from '../../src/main/bucket/bucket-index'
import { LocalFolderProvider } from '../../src/main/bucket/local-provider'
import { findUnreadableFiles } from '../../src/main/store/parquet-frame-check'
import { buildInventory } from '../../src/shared/inventory'
import { openDb } from '../helpers/duckdb'
import { NOW, writeUnreadableBucket } from '../helpers/unreadable-bucket'

let work: string
let root: string

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'ee-frame-cache-'))
  root = join(work, 'bucket')
  const db = await openDb()
  await writeUnreadableBucket(root, db)
  db.close()
})
afterAll(async () => {
  await rm(work, { recursive: true, force: true })
})

describe('a tampered frame-check cache', () => {
  it('is not trusted for an entry out of shape: the footer is read again and gives the real facts', async () => {
    const provider = new LocalFolderProvider(root)
    const inv = buildInventory((await refreshBucketIndex(provider, null, { now: NOW })).index.objects.values(), { now: NOW })
    const read = async (o: { key: string }, start: number, end: number): Promise<Uint8Array> => (await provider.readRange(o.key, { start, end })).body
    const cacheFile = join(work, 'frames.json')
    const first = await findUnreadableFiles(inv, read, { now: NOW, cacheFile })
    expect(first.facts.size).toBeGreaterThan(0)
    const forged = [
      { rows: -5, columns: [] },
      { rows: 1.5, columns: [] },
      { rows: 1e300, columns: [] },
      { rows: 3, columns: 'id BIGINT' },
      { rows: 3, columns: [{ name: 7, type: 'BIGINT' }] },
      { rows: 3, columns: [{ name: 'id', type: { toString: 'x' } }] },
      42,
      // The compact form's [rows, column set]: rows out of range, or a set that is not there.
      [-5, 0],
      [1.5, 0],
      [1e300, 0],
      [3, 99],
      [3, -1],
      [3, 0.5],
      [3]
    ]
    type Stored = { format: unknown; columnSets?: unknown[]; files: Record<string, unknown> }
    // An entry's facts: the compact form [rows, column set] names a set by its place, which a rewrite may renumber.
    const factsOf = (c: Stored, id: string): unknown => {
      const v = c.files[id]
      return Array.isArray(v) ? { rows: v[0], columns: c.columnSets?.[v[1] as number] } : v
    }
    for (const [i, bad] of forged.entries()) {
      const cache = JSON.parse(await readFile(cacheFile, 'utf8')) as Stored
      const ids = Object.keys(cache.files).filter((id) => typeof cache.files[id] === 'object' && cache.files[id] !== null)
      const id = ids[i % ids.length]!
      const real = factsOf(cache, id)
      cache.files[id] = bad
      await writeFile(cacheFile, JSON.stringify(cache))
      const again = await findUnreadableFiles(inv, read, { now: NOW, cacheFile })
      // The forged entry's file was read again; the untouched ones came from the cache.
      expect([JSON.stringify(bad), again.read]).toEqual([JSON.stringify(bad), 1])
      expect([...again.facts].sort()).toEqual([...first.facts].sort())
      expect([...again.unreadable].sort()).toEqual([...first.unreadable].sort())
      // And the cache holds the real facts again.
      expect(factsOf(JSON.parse(await readFile(cacheFile, 'utf8')) as Stored, id)).toEqual(real)
    }
  })

  it('a column set out of shape is not trusted either: every file of it is read again', async () => {
    const provider = new LocalFolderProvider(root)
    const inv = buildInventory((await refreshBucketIndex(provider, null, { now: NOW })).index.objects.values(), { now: NOW })
    const read = async (o: { key: string }, start: number, end: number): Promise<Uint8Array> => (await provider.readRange(o.key, { start, end })).body
    const cacheFile = join(work, 'frames-sets.json')
    const first = await findUnreadableFiles(inv, read, { now: NOW, cacheFile })
    const cache = JSON.parse(await readFile(cacheFile, 'utf8')) as { columnSets: unknown[]; files: Record<string, unknown> }
    const ofFirstSet = Object.values(cache.files).filter((v) => Array.isArray(v) && v[1] === 0).length
    expect(ofFirstSet).toBeGreaterThan(0)
    cache.columnSets[0] = [{ name: 'id', type: 5 }]
    await writeFile(cacheFile, JSON.stringify(cache))
    const again = await findUnreadableFiles(inv, read, { now: NOW, cacheFile })
    expect(again.read).toBe(ofFirstSet)
    expect([...again.facts].sort()).toEqual([...first.facts].sort())
  })

  it("an earlier version's cache (facts per file) is still read: nothing is read again", async () => {
    const provider = new LocalFolderProvider(root)
    const inv = buildInventory((await refreshBucketIndex(provider, null, { now: NOW })).index.objects.values(), { now: NOW })
    const read = async (o: { key: string }, start: number, end: number): Promise<Uint8Array> => (await provider.readRange(o.key, { start, end })).body
    const cacheFile = join(work, 'frames-v2.json')
    const first = await findUnreadableFiles(inv, read, { now: NOW, cacheFile })
    const cache = JSON.parse(await readFile(cacheFile, 'utf8')) as { columnSets: unknown[]; files: Record<string, unknown> }
    const files = Object.fromEntries(
      Object.entries(cache.files).map(([id, v]) => [id, Array.isArray(v) ? { rows: v[0], columns: cache.columnSets[v[1] as number] } : v])
    )
    await writeFile(cacheFile, JSON.stringify({ format: 2, files }))
    const again = await findUnreadableFiles(inv, read, { now: NOW, cacheFile })
    expect(again.read).toBe(0)
    expect([...again.facts].sort()).toEqual([...first.facts].sort())
    expect([...again.unreadable].sort()).toEqual([...first.unreadable].sort())
  })
})
