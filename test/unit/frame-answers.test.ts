// The frame check's answers on disk: written whole once, then each new answer appended to a journal of that
// generation (the whole file untouched), written whole again once the journal is large; a journal left beside a file
// another writer wrote whole since is not read.
import { mkdtemp, readFile, rename, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Verdict, frameJournalFile, loadStampedAnswers, mergeAnswers } from '../../src/main/store/frame-answers'

let dir: string
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ee-frame-answers-'))
})
afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

const facts = (rows: number) => ({ rows, columns: [{ name: 'message_id', type: 'VARCHAR' }] })
const exists = (p: string): Promise<boolean> =>
  stat(p).then(
    () => true,
    () => false
  )

describe('the frame answers on disk', () => {
  it('appends new answers to a journal, and writes them whole again once it is large', async () => {
    const file = join(dir, 'frames', 'c.json')
    await mergeAnswers(file, new Map([['a\u0000e1', facts(1)]]), await loadStampedAnswers(file))
    expect(await exists(frameJournalFile(file))).toBe(false)
    const whole = await stat(file)
    const generation = (JSON.parse(await readFile(file, 'utf8')) as { generation: string }).generation

    // An hour's answers: the whole file untouched, the journal of its generation holds them.
    await mergeAnswers(
      file,
      new Map<string, Verdict>([
        ['b\u0000e1', facts(2)],
        ['c\u0000e1', 'zero bytes']
      ]),
      await loadStampedAnswers(file)
    )
    expect((await stat(file)).mtimeMs).toBe(whole.mtimeMs)
    expect((await readFile(frameJournalFile(file), 'utf8')).split('\n')[0]).toBe(JSON.stringify({ generation }))
    const read = await loadStampedAnswers(file)
    expect([...read.cache].sort()).toEqual([
      ['a\u0000e1', facts(1)],
      ['b\u0000e1', facts(2)],
      ['c\u0000e1', 'zero bytes']
    ])
    // Private, as every file main writes.
    expect((await stat(frameJournalFile(file))).mode & 0o777).toBe(0o600)

    // Answers until the journal passes its bound: then all of them written whole, under a new generation, no journal.
    let n = 0
    while (await exists(frameJournalFile(file))) {
      const batch = new Map(Array.from({ length: 50 }, (_, i) => [`k${n}-${i}\u0000e`, facts(n)] as const))
      await mergeAnswers(file, batch, await loadStampedAnswers(file))
      n++
      expect(n).toBeLessThan(100)
    }
    const again = await loadStampedAnswers(file)
    expect(again.cache.size).toBe(3 + 50 * n)
    expect(again.generation).not.toBe(generation)
    expect(again.journalBytes).toBe(0)
  })

  it('does not read a journal beside a file another writer wrote whole since', async () => {
    const file = join(dir, 'frames', 'd.json')
    await mergeAnswers(file, new Map([['a\u0000e1', facts(1)]]), await loadStampedAnswers(file))
    await mergeAnswers(file, new Map([['a\u0000e2', 'zero bytes']]), await loadStampedAnswers(file))
    expect(await exists(frameJournalFile(file))).toBe(true)
    // Another process's whole file (an earlier version's, without a generation), renamed over this one.
    const other = join(dir, 'frames', 'other.tmp')
    await writeFile(other, JSON.stringify({ format: 3, columnSets: [], files: { 'b\u0000e1': true } }))
    await rename(other, file)
    expect([...(await loadStampedAnswers(file)).cache]).toEqual([['b\u0000e1', true]])
    // The next answer writes it whole (with a generation of its own), the old journal gone.
    await mergeAnswers(file, new Map([['c\u0000e1', facts(3)]]), await loadStampedAnswers(file))
    expect(await exists(frameJournalFile(file))).toBe(false)
    expect([...(await loadStampedAnswers(file)).cache.keys()].sort()).toEqual(['b\u0000e1', 'c\u0000e1'])
  })
})
