// The frame check as a property against the check it replaced (a round per copy passed over, the reference here): a
// full table's hourly copies (some holding no Parquet file) and a parts table's folders, each file real Parquet, cut
// short, empty, or unreachable (its reads fail). Whatever the check already knows (nothing, everything, what an earlier
// instant's check learned, what it learned before a folder's second file arrived), and as of any hour, it finds the same
// unreadable files with the same reasons, the same footers' facts and the same errors. Known unreadable files are
// assumed so from the start (one round for a year whose copies are all unreadable), and that must change no answer.
import fc from 'fast-check'
import { mkdir, mkdtemp, readFile, rm, truncate, utimes, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { LocalFolderProvider } from '../../src/main/bucket/local-provider'
import { readParquetFooter } from '../../src/main/store/parquet-footer'
import { type RangeReader, findUnreadableFiles } from '../../src/main/store/parquet-frame-check'
import { objectsForViews } from '../../src/shared/bucket-views'
import { folderPrefix, manifestKey } from '../../src/shared/bucket-key'
import { type Inventory, buildInventory } from '../../src/shared/inventory'
import { isArchived } from '../../src/shared/listing'
import { FIRST_V2_DELIVERY } from '../../src/shared/schedule'
import { quoteLiteral } from '../../src/shared/sql-quote'
import { openDb } from '../helpers/duckdb'
import { listLocalFolder } from '../helpers/local-bucket'
import { CSAT, MSGS, d, h } from '../helpers/unreadable-bucket'

const HOUR = 3_600_000
const MIN = 60_000
const START = FIRST_V2_DELIVERY + 10 * 24 * HOUR
let work: string
/** A real Parquet file of each table, written once by DuckDB. */
const good = new Map<string, Buffer>()

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'ee-frame-rounds-'))
  const db = await openDb()
  try {
    for (const [table, select] of [
      [CSAT.table, `SELECT 'r' || i AS csat_id, 'tnt_acme' AS tenant_id FROM range(3) t(i)`],
      [MSGS.table, `SELECT 'm' || i AS message_id, 'tnt_acme' AS tenant_id, 'x' AS content FROM range(4) t(i)`]
    ] as const) {
      const path = join(work, `${table}.parquet`)
      await db.run(`COPY (${select}) TO ${quoteLiteral(path)} (FORMAT parquet)`)
      good.set(table, await readFile(path))
    }
  } finally {
    db.close()
  }
})
afterAll(async () => {
  await rm(work, { recursive: true, force: true })
})

// `unreachable`: a readable file whose reads fail (the network, not the file): not judged, an error.
type FileState = 'good' | 'cut' | 'empty' | 'unreachable'
const fileArb = fc.constantFrom<FileState>('good', 'good', 'cut', 'empty', 'unreachable')
/** Per hour: the full table's copy (its files; none: a ready copy that holds no Parquet file) and the parts table's folder. */
const hourArb = fc.record({ csat: fc.array(fileArb, { maxLength: 2 }), msgs: fc.array(fileArb, { minLength: 1, maxLength: 2 }) })
type Hour = { csat: FileState[]; msgs: FileState[] }

async function writeCase(root: string, hours: readonly Hour[]): Promise<Set<string>> {
  const unreachable = new Set<string>()
  const put = async (key: string, at: number, body: Buffer | string): Promise<void> => {
    await mkdir(dirname(join(root, key)), { recursive: true })
    await writeFile(join(root, key), body)
    await utimes(join(root, key), new Date(at), new Date(at))
  }
  for (const [i, hour] of hours.entries()) {
    const at = START + i * HOUR
    const manifest = { snapshot_date: d(at), snapshot_hour: h(at), complete: true, tables_delivered: [], tables_missing: [], tables_pending: [] }
    await put(manifestKey('v2', d(at), h(at)), at + 25 * MIN, JSON.stringify(manifest))
    for (const [t, files] of [
      [CSAT, hour.csat],
      [MSGS, hour.msgs]
    ] as const) {
      const prefix = folderPrefix(t, 'v2', d(at), h(at))
      for (const [j, state] of files.entries()) {
        const key = `${prefix}part-${j}.parquet`
        const bytes = good.get(t.table) as Buffer
        await put(key, at + 10 * MIN, state === 'empty' ? '' : bytes)
        if (state === 'unreachable') unreachable.add(key)
        if (state === 'cut') {
          await truncate(join(root, key), Math.floor(bytes.length / 2))
          await utimes(join(root, key), new Date(at + 10 * MIN), new Date(at + 10 * MIN))
        }
      }
      await put(`${prefix}_SUCCESS`, at + 20 * MIN, '')
    }
  }
  return unreachable
}

interface Answer {
  readonly unreadable: ReadonlySet<string>
  readonly reasons: ReadonlyMap<string, string>
  readonly facts: ReadonlyMap<string, unknown>
  readonly errors: readonly { readonly key: string }[]
}

/**
 * The check as it was before known answers were assumed, the reference: round after round, the files the rules need
 * given what was found unreadable so far, each one read, until a round has nothing new to judge.
 */
async function roundByRound(inventory: Inventory, read: RangeReader, opts: { now: number; asOf?: number }): Promise<Answer> {
  const unreadable = new Set<string>()
  const reasons = new Map<string, string>()
  const facts = new Map<string, unknown>()
  const checked = new Set<string>()
  const errors: { key: string }[] = []
  for (;;) {
    const todo = objectsForViews(inventory, { ...opts, unreadable }).filter(
      (o) => o.key.endsWith('.parquet') && !isArchived(o, opts.now) && !checked.has(o.key)
    )
    if (todo.length === 0) break
    for (const o of todo) {
      checked.add(o.key)
      try {
        const r = await readParquetFooter(o.size, (start, end) => read(o, start, end))
        if (r.ok) facts.set(o.key, { rows: r.footer.rows, columns: r.footer.columns, schemaTag: r.footer.schemaTag })
        else {
          unreadable.add(o.key)
          reasons.set(o.key, r.why)
        }
      } catch {
        errors.push({ key: o.key })
      }
    }
  }
  return { unreadable, reasons, facts, errors }
}

/** What a check answers, comparable (`within`: only the facts of these files; a check with answers from earlier checks
 * gives the facts of files they read as well, for the monitors' history). */
const answer = (r: Answer, within?: Answer): unknown => ({
  unreadable: [...r.unreadable].sort(),
  reasons: [...r.reasons].sort(),
  facts: [...r.facts].filter(([k]) => !within || within.facts.has(k)).sort(([a], [b]) => a.localeCompare(b)),
  errors: r.errors.map((e) => e.key).sort()
})

// A full table whose newest ready copy holds no Parquet file (its columns come from the previous copy with files)
// after a copy with an empty file: the copy before that is the one read for its columns.
const EMPTY_AFTER_UNREADABLE: Hour[] = [
  { csat: ['good'], msgs: ['good'] },
  { csat: ['empty'], msgs: ['good'] },
  { csat: [], msgs: ['good'] }
]

describe('the frame check with remembered answers', () => {
  it('answers as the round-by-round check, whatever it already knows', async () => {
    let n = 0
    await fc.assert(
      fc.asyncProperty(fc.array(hourArb, { minLength: 2, maxLength: 8 }), fc.nat(), async (hours, cut) => {
        const root = join(work, `case-${n++}`)
        const unreachable = await writeCase(root, hours)
        const provider = new LocalFolderProvider(root)
        const now = START + hours.length * HOUR + HOUR
        const objects = await listLocalFolder(root)
        const inventory = buildInventory(objects, { now })
        let reads = 0
        const read = async (o: { key: string }, start: number, end: number): Promise<Uint8Array> => {
          if (unreachable.has(o.key)) throw new Error(`connection reset reading ${o.key}`)
          reads++
          return (await provider.readRange(o.key, { start, end })).body
        }
        const reference = await roundByRound(inventory, read, { now })
        expect(answer(await findUnreadableFiles(inventory, read, { now }))).toEqual(answer(reference))
        // As of an earlier hour, the same as the reference as of that hour.
        const asOf = START + (cut % hours.length) * HOUR + 30 * MIN
        expect(answer(await findUnreadableFiles(inventory, read, { now, asOf }))).toEqual(answer(await roundByRound(inventory, read, { now, asOf })))
        // Every answer known (a warm start): the same, without a read.
        const everything = join(root, '..', `frames-${n}-all.json`)
        await findUnreadableFiles(inventory, read, { now, cacheFile: everything })
        reads = 0
        expect(answer(await findUnreadableFiles(inventory, read, { now, cacheFile: everything }))).toEqual(answer(reference))
        expect(reads).toBe(0)
        // What a check as of an earlier hour learned (the copies newer than it not known yet): the same.
        const earlier = join(root, '..', `frames-${n}-earlier.json`)
        await findUnreadableFiles(inventory, read, { now, cacheFile: earlier, asOf })
        expect(answer(await findUnreadableFiles(inventory, read, { now, cacheFile: earlier }), reference)).toEqual(answer(reference))
        // What a check learned before each folder's second file arrived: the same.
        const firstFiles = join(root, '..', `frames-${n}-first.json`)
        const before = buildInventory(
          objects.filter((o) => !o.key.endsWith('part-1.parquet')),
          { now }
        )
        await findUnreadableFiles(before, read, { now, cacheFile: firstFiles })
        expect(answer(await findUnreadableFiles(inventory, read, { now, cacheFile: firstFiles }), reference)).toEqual(answer(reference))
        await rm(root, { recursive: true, force: true })
      }),
      { numRuns: 25, examples: [[EMPTY_AFTER_UNREADABLE, 0]] }
    )
  })

  it('asks the rules a few times, not once per copy, when an empty copy passes over a run of unreadable ones for its columns', async () => {
    // A day of a full table's copies each holding an empty or a cut-short file, then a ready copy with none: its columns
    // come from the previous copy with a readable file, 24 copies back. Judged one round at a time, that was a round per
    // copy. Known unreadable (by its size, or from the cache once an earlier check read it), it takes a few.
    const hours: Hour[] = [
      { csat: ['good'], msgs: ['good'] },
      ...Array.from({ length: 24 }, (_, i): Hour => ({ csat: [i % 2 ? 'empty' : 'cut'], msgs: ['good'] })),
      { csat: [], msgs: ['good'] }
    ]
    const root = join(work, 'empty-after-a-day')
    await writeCase(root, hours)
    const provider = new LocalFolderProvider(root)
    const now = START + hours.length * HOUR + HOUR
    const inventory = buildInventory(await listLocalFolder(root), { now })
    const read: RangeReader = async (o, start, end) => (await provider.readRange(o.key, { start, end })).body
    const reference = await roundByRound(inventory, read, { now })
    expect(reference.unreadable.size).toBe(24)
    const cacheFile = join(work, 'empty-after-a-day.json')
    // Nothing known yet: the cut-short files are learnt by reading them, one copy a round.
    expect(answer(await findUnreadableFiles(inventory, read, { now, cacheFile }))).toEqual(answer(reference))
    const warm = await findUnreadableFiles(inventory, read, { now, cacheFile })
    expect(answer(warm)).toEqual(answer(reference))
    expect(warm.rounds).toBeLessThanOrEqual(3)
  })
})

describe('a warm check of a new hour', () => {
  it('reads only the new files, asks the rules nothing when they are readable, and never names a file no view reads', async () => {
    const hours: Hour[] = Array.from({ length: 4 }, () => ({ csat: ['good'], msgs: ['good'] }))
    const root = join(work, 'warm-new-hour')
    await writeCase(root, hours)
    const provider = new LocalFolderProvider(root)
    const reads: string[] = []
    const read: RangeReader = async (o, start, end) => {
      reads.push(o.key)
      return (await provider.readRange(o.key, { start, end })).body
    }
    const cacheFile = join(work, 'warm-new-hour.json')
    const now = START + hours.length * HOUR + HOUR
    await findUnreadableFiles(buildInventory(await listLocalFolder(root), { now }), read, { now, cacheFile })

    // The next hour lands: each table's folder, ready.
    const at = START + hours.length * HOUR
    const next = [folderPrefix(CSAT, 'v2', d(at), h(at)), folderPrefix(MSGS, 'v2', d(at), h(at))]
    const put = async (key: string, when: number, body: Buffer | string): Promise<void> => {
      await mkdir(dirname(join(root, key)), { recursive: true })
      await writeFile(join(root, key), body)
      await utimes(join(root, key), new Date(when), new Date(when))
    }
    for (const [i, prefix] of next.entries()) {
      await put(`${prefix}part-0.parquet`, at + 10 * MIN, good.get(i === 0 ? CSAT.table : MSGS.table) as Buffer)
      await put(`${prefix}_SUCCESS`, at + 20 * MIN, '')
    }
    const later = now + HOUR
    let inventory = buildInventory(await listLocalFolder(root), { now: later })
    reads.length = 0
    const warm = await findUnreadableFiles(inventory, read, { now: later, cacheFile })
    expect(reads.sort()).toEqual(next.map((p) => `${p}part-0.parquet`).sort())
    expect(warm.rounds).toBe(0)
    // (With the facts of files read at earlier checks, the monitors' history, which the reference never read.)
    const reference = await roundByRound(inventory, read, { now: later })
    expect(answer(warm, reference)).toEqual(answer(reference))
    expect(warm.facts.size).toBeGreaterThan(reference.facts.size)

    // A folder not ready yet (no _SUCCESS) with a file cut short: read with the new files, but no view reads it, so the
    // check names nothing unreadable (as the rules say), and a ready folder's cut-short file it does name.
    const pending = folderPrefix(MSGS, 'v2', d(at + HOUR), h(at + HOUR))
    await put(`${pending}part-0.parquet`, at + HOUR + 10 * MIN, (good.get(MSGS.table) as Buffer).subarray(0, 20))
    inventory = buildInventory(await listLocalFolder(root), { now: later + HOUR })
    const withPending = await findUnreadableFiles(inventory, read, { now: later + HOUR, cacheFile })
    expect(withPending.rounds).toBe(0)
    expect([...withPending.unreadable]).toEqual([])
    const pendingReference = await roundByRound(inventory, read, { now: later + HOUR })
    expect(answer(withPending, pendingReference)).toEqual(answer(pendingReference))
    await put(`${pending}_SUCCESS`, at + HOUR + 20 * MIN, '')
    inventory = buildInventory(await listLocalFolder(root), { now: later + 2 * HOUR })
    const ready = await findUnreadableFiles(inventory, read, { now: later + 2 * HOUR, cacheFile })
    expect([...ready.unreadable]).toEqual([`${pending}part-0.parquet`])
    const readyReference = await roundByRound(inventory, read, { now: later + 2 * HOUR })
    expect(answer(ready, readyReference)).toEqual(answer(readyReference))

    // Another hour: a parts table's file known unreadable (the rule leaves it out of its folder, nothing more) keeps the
    // rules unasked; the new files alone are read, and the answer is the rounds' still.
    const third = at + 2 * HOUR
    const again = [folderPrefix(CSAT, 'v2', d(third), h(third)), folderPrefix(MSGS, 'v2', d(third), h(third))]
    for (const [i, prefix] of again.entries()) {
      await put(`${prefix}part-0.parquet`, third + 10 * MIN, good.get(i === 0 ? CSAT.table : MSGS.table) as Buffer)
      await put(`${prefix}_SUCCESS`, third + 20 * MIN, '')
    }
    inventory = buildInventory(await listLocalFolder(root), { now: later + 3 * HOUR })
    reads.length = 0
    const withKnownBad = await findUnreadableFiles(inventory, read, { now: later + 3 * HOUR, cacheFile })
    expect(reads.sort()).toEqual(again.map((p) => `${p}part-0.parquet`).sort())
    expect(withKnownBad.rounds).toBe(0)
    expect([...withKnownBad.unreadable]).toEqual([`${pending}part-0.parquet`])
    const knownBadReference = await roundByRound(inventory, read, { now: later + 3 * HOUR })
    expect(answer(withKnownBad, knownBadReference)).toEqual(answer(knownBadReference))

    // A full table's new copy cut short: the rule reads the copy before it, which only the rules say: they are asked.
    const fourth = at + 3 * HOUR
    const csat = folderPrefix(CSAT, 'v2', d(fourth), h(fourth))
    await put(`${csat}part-0.parquet`, fourth + 10 * MIN, (good.get(CSAT.table) as Buffer).subarray(0, 20))
    await put(`${csat}_SUCCESS`, fourth + 20 * MIN, '')
    inventory = buildInventory(await listLocalFolder(root), { now: later + 4 * HOUR })
    const cutCopy = await findUnreadableFiles(inventory, read, { now: later + 4 * HOUR, cacheFile })
    expect(cutCopy.rounds).toBeGreaterThan(0)
    expect([...cutCopy.unreadable].sort()).toEqual([`${csat}part-0.parquet`, `${pending}part-0.parquet`].sort())
    const cutReference = await roundByRound(inventory, read, { now: later + 4 * HOUR })
    expect(answer(cutCopy, cutReference)).toEqual(answer(cutReference))
  })
})
