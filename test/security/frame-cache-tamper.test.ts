// The frame check's cache (the footer facts the monitors judge each delivery on) sits in the user's data folder,
// where another process may write. An entry not in its exact shape (negative, fractional or huge rows, columns that
// are not name/type pairs, an unknown kind of value), in the file written whole or in its journal, is not trusted:
// that file's footer is read again and its real facts are what the monitors get; nothing throws. A journal line cut
// short is left out, and a journal of another generation than the whole file is not read at all.
// Bucket: test/helpers/unreadable-bucket.ts.
import { mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { refreshBucketIndex } from '../../src/main/bucket/bucket-index'
import { LocalFolderProvider } from '../../src/main/bucket/local-provider'
import { findUnreadableFiles } from '../../src/main/store/parquet-frame-check'
import { frameJournalFile, loadStampedAnswers, mergeAnswers } from '../../src/main/store/frame-answers'
import { buildInventory } from '../../src/shared/inventory'
import type { FooterFacts } from '../../src/shared/delivery-facts'
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
    type Stored = { format: unknown; columnSets?: unknown[]; schemaTags?: unknown[]; ids: string[]; values: unknown[] }
    // An entry's facts: the compact form [rows, column set] names a set (and its schema tag) by its place, which a
    // rewrite may renumber.
    const factsOf = (c: Stored, id: string): unknown => {
      const v = c.values[c.ids.indexOf(id)]
      return Array.isArray(v) ? { rows: v[0], columns: c.columnSets?.[v[1] as number], schemaTag: c.schemaTags?.[v[1] as number] } : v
    }
    // Each forged entry in the file as first written (a journal may hold the real answer a round read again).
    const original = await readFile(cacheFile, 'utf8')
    for (const [i, bad] of forged.entries()) {
      const cache = JSON.parse(original) as Stored
      const ids = cache.ids.filter((_, j) => typeof cache.values[j] === 'object' && cache.values[j] !== null)
      const id = ids[i % ids.length]!
      const real = factsOf(cache, id)
      cache.values[cache.ids.indexOf(id)] = bad
      await writeFile(cacheFile, JSON.stringify(cache))
      await rm(frameJournalFile(cacheFile), { force: true })
      const again = await findUnreadableFiles(inv, read, { now: NOW, cacheFile })
      // The forged entry's file was read again; the untouched ones came from the cache.
      expect([JSON.stringify(bad), again.read]).toEqual([JSON.stringify(bad), 1])
      expect([...again.facts].sort()).toEqual([...first.facts].sort())
      expect([...again.unreadable].sort()).toEqual([...first.unreadable].sort())
      // And the cache holds the real facts again.
      expect((await loadStampedAnswers(cacheFile)).cache.get(id)).toEqual(real)
    }
  })

  it('a column set out of shape is not trusted either: every file of it is read again', async () => {
    const provider = new LocalFolderProvider(root)
    const inv = buildInventory((await refreshBucketIndex(provider, null, { now: NOW })).index.objects.values(), { now: NOW })
    const read = async (o: { key: string }, start: number, end: number): Promise<Uint8Array> => (await provider.readRange(o.key, { start, end })).body
    const cacheFile = join(work, 'frames-sets.json')
    const first = await findUnreadableFiles(inv, read, { now: NOW, cacheFile })
    const cache = JSON.parse(await readFile(cacheFile, 'utf8')) as { columnSets: unknown[]; values: unknown[] }
    const ofFirstSet = cache.values.filter((v) => Array.isArray(v) && v[1] === 0).length
    expect(ofFirstSet).toBeGreaterThan(0)
    cache.columnSets[0] = [{ name: 'id', type: 5 }]
    await writeFile(cacheFile, JSON.stringify(cache))
    const again = await findUnreadableFiles(inv, read, { now: NOW, cacheFile })
    expect(again.read).toBe(ofFirstSet)
    expect([...again.facts].sort()).toEqual([...first.facts].sort())
    // The set's schema tag out of shape (the mirror's build reads files of one tag as one schema): the same.
    for (const bad of [{ toString: 'x' }, 7, '', 'not a tag', 'x'.repeat(23)]) {
      const tagged = JSON.parse(await readFile(cacheFile, 'utf8')) as { schemaTags: unknown[]; values: unknown[] }
      const ofTagged = tagged.values.filter((v) => Array.isArray(v) && v[1] === 0).length
      expect(ofTagged).toBeGreaterThan(0)
      tagged.schemaTags[0] = bad
      await writeFile(cacheFile, JSON.stringify(tagged))
      await rm(frameJournalFile(cacheFile), { force: true })
      const third = await findUnreadableFiles(inv, read, { now: NOW, cacheFile })
      expect([bad, third.read]).toEqual([bad, ofTagged])
      expect([...third.facts].sort()).toEqual([...first.facts].sort())
    }
  })

  it('a journal line out of shape or cut short is left out, and a journal of another generation is not read', async () => {
    const provider = new LocalFolderProvider(root)
    const inv = buildInventory((await refreshBucketIndex(provider, null, { now: NOW })).index.objects.values(), { now: NOW })
    const read = async (o: { key: string }, start: number, end: number): Promise<Uint8Array> => (await provider.readRange(o.key, { start, end })).body
    const cacheFile = join(work, 'frames-journal.json')
    const first = await findUnreadableFiles(inv, read, { now: NOW, cacheFile })
    const whole = JSON.parse(await readFile(cacheFile, 'utf8')) as { generation: string; ids: string[]; values: unknown[] }
    const readable = whole.ids.filter((_, j) => Array.isArray(whole.values[j]))
    expect(readable.length).toBeGreaterThan(2)
    const [a, b, c] = readable as [string, string, string]
    const journal = (generation: string, lines: readonly string[]): Promise<void> =>
      writeFile(frameJournalFile(cacheFile), [JSON.stringify({ generation }), ...lines].map((l) => `${l}\n`).join(''))
    const check = async (): Promise<{ read: number; unreadable: string[]; facts: unknown }> => {
      const r = await findUnreadableFiles(inv, read, { now: NOW, cacheFile })
      return { read: r.read, unreadable: [...r.unreadable].sort(), facts: [...r.facts].sort() }
    }
    const asFirst = { read: 0, unreadable: [...first.unreadable].sort(), facts: [...first.facts].sort() }
    // Lines out of shape for three readable files, one cut short, and one for a file the bucket does not hold: left out
    // (the whole file's answers stand), nothing read, nothing thrown.
    await journal(whole.generation, [
      JSON.stringify([a, { rows: -1, columns: [] }]),
      JSON.stringify([b, 42]),
      JSON.stringify([c, { rows: 3, columns: [{ name: 'x', type: 7 }] }]),
      JSON.stringify([a, 'its footer is a lie']).slice(0, 20),
      JSON.stringify(['v2/elsewhere/part-0.parquet\u0000e', { rows: 1, columns: [] }]),
      // Facts of the right shape but a schema tag that is not one.
      ...[7, '', 'not a tag'].map((schemaTag) => JSON.stringify([a, { rows: 1, columns: [{ name: 'x', type: 'BIGINT' }], schemaTag }]))
    ])
    expect(await check()).toEqual(asFirst)
    // A line of the right shape is an answer (the journal is read: here a file said unreadable)...
    const keyOfA = a.split('\u0000')[0] as string
    await journal(whole.generation, [JSON.stringify([a, 'not Parquet'])])
    expect((await check()).unreadable).toContain(keyOfA)
    // ...but not in a journal of another generation than the whole file (left beside a file written whole since).
    await journal('another', [JSON.stringify([a, 'not Parquet'])])
    expect(await check()).toEqual(asFirst)
  })

  it('adds to its journal never through a link: one planted there is refused, its target untouched', async () => {
    const cacheFile = join(work, 'frames-link.json')
    await mergeAnswers(cacheFile, new Map([['a\u0000e', true]]), await loadStampedAnswers(cacheFile))
    await mergeAnswers(cacheFile, new Map([['b\u0000e', true]]), await loadStampedAnswers(cacheFile))
    const target = join(work, 'elsewhere.txt')
    await writeFile(target, 'not yours\n')
    await rm(frameJournalFile(cacheFile))
    await symlink(target, frameJournalFile(cacheFile))
    const read = await loadStampedAnswers(cacheFile)
    // (As if the journal read were the link's: the next answer goes to append.)
    await expect(mergeAnswers(cacheFile, new Map([['c\u0000e', true]]), { ...read, journalBytes: 10 })).rejects.toThrow()
    expect(await readFile(target, 'utf8')).toBe('not yours\n')
  })

  it("an earlier version's cache (facts per file) is still read: nothing is read again", async () => {
    const provider = new LocalFolderProvider(root)
    const inv = buildInventory((await refreshBucketIndex(provider, null, { now: NOW })).index.objects.values(), { now: NOW })
    const read = async (o: { key: string }, start: number, end: number): Promise<Uint8Array> => (await provider.readRange(o.key, { start, end })).body
    const cacheFile = join(work, 'frames-v2.json')
    const first = await findUnreadableFiles(inv, read, { now: NOW, cacheFile })
    const cache = JSON.parse(await readFile(cacheFile, 'utf8')) as { columnSets: unknown[]; ids: string[]; values: unknown[] }
    // Earlier versions kept no schema tags: the same facts without them (their files are read as before by the mirror).
    const untagged = (facts: ReadonlyMap<string, FooterFacts>): [string, FooterFacts][] =>
      [...facts].map(([k, f]): [string, FooterFacts] => [k, { rows: f.rows, columns: f.columns }]).sort()
    const files = Object.fromEntries(
      cache.ids.map((id, j) => {
        const v = cache.values[j]
        return [id, Array.isArray(v) ? { rows: v[0], columns: cache.columnSets[v[1] as number] } : v]
      })
    )
    await writeFile(cacheFile, JSON.stringify({ format: 2, files }))
    const again = await findUnreadableFiles(inv, read, { now: NOW, cacheFile })
    expect(again.read).toBe(0)
    expect(untagged(again.facts)).toEqual(untagged(first.facts))
    expect([...again.facts.values()].every((f) => f.schemaTag === undefined)).toBe(true)
    expect([...again.unreadable].sort()).toEqual([...first.unreadable].sort())
    // Format 3 (the compact answers keyed by id), written until Dec 7: read too.
    await rm(frameJournalFile(cacheFile), { force: true })
    const keyed = Object.fromEntries(cache.ids.map((id, j) => [id, cache.values[j]]))
    await writeFile(cacheFile, JSON.stringify({ format: 3, columnSets: cache.columnSets, files: keyed }))
    const third = await findUnreadableFiles(inv, read, { now: NOW, cacheFile })
    expect(third.read).toBe(0)
    expect(untagged(third.facts)).toEqual(untagged(first.facts))
    expect([...third.unreadable].sort()).toEqual([...first.unreadable].sort())
    // Format 4 (no schema tags), written until Dec 7: read too.
    await rm(frameJournalFile(cacheFile), { force: true })
    await writeFile(cacheFile, JSON.stringify({ format: 4, generation: 'g4', columnSets: cache.columnSets, ids: cache.ids, values: cache.values }))
    const fourth = await findUnreadableFiles(inv, read, { now: NOW, cacheFile })
    expect(fourth.read).toBe(0)
    expect(untagged(fourth.facts)).toEqual(untagged(first.facts))
    expect([...fourth.facts.values()].every((f) => f.schemaTag === undefined)).toBe(true)
  })
})
