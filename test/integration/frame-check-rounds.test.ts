// The frame check with answers remembered from earlier checks, as a property: a full table's hourly copies and a parts
// table's folders, each file real Parquet, cut short or empty. Whatever the check already knows (nothing, everything,
// or what an earlier instant's check learned), it finds the same unreadable files, with the same reasons, and the same
// footers' facts (of the files read now), as a check that knows nothing. Known unreadable files are assumed so from the start (one round for
// a year whose copies are all unreadable, not a round per copy), and that must not change any answer.
import fc from 'fast-check'
import { mkdir, mkdtemp, readFile, rm, truncate, utimes, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { LocalFolderProvider } from '../../src/main/bucket/local-provider'
import { type FrameCheckResult, findUnreadableFiles } from '../../src/main/store/parquet-frame-check'
import { folderPrefix, manifestKey } from '../../src/shared/bucket-key'
import { buildInventory } from '../../src/shared/inventory'
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

type FileState = 'good' | 'cut' | 'empty'
const fileArb = fc.constantFrom<FileState>('good', 'good', 'cut', 'empty')
/** Per hour: the full table's copy (its files) and the parts table's folder (its files). */
const hourArb = fc.record({ csat: fc.array(fileArb, { minLength: 1, maxLength: 2 }), msgs: fc.array(fileArb, { minLength: 1, maxLength: 2 }) })

async function writeCase(root: string, hours: readonly { csat: FileState[]; msgs: FileState[] }[]): Promise<void> {
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
        if (state === 'cut') {
          await truncate(join(root, key), Math.floor(bytes.length / 2))
          await utimes(join(root, key), new Date(at + 10 * MIN), new Date(at + 10 * MIN))
        }
      }
      await put(`${prefix}_SUCCESS`, at + 20 * MIN, '')
    }
  }
}

/** What a check answers, comparable (`within`: only the facts of these files; a check gives the facts of files an
 * earlier check read as well, for the monitors' history). */
const answer = (r: FrameCheckResult, within?: FrameCheckResult): unknown => ({
  unreadable: [...r.unreadable].sort(),
  reasons: [...r.reasons].sort(),
  facts: [...r.facts.keys()].filter((k) => !within || within.facts.has(k)).sort()
})

describe('the frame check with remembered answers', () => {
  it('answers as a check that knows nothing, whatever it already knows', async () => {
    let n = 0
    await fc.assert(
      fc.asyncProperty(fc.array(hourArb, { minLength: 2, maxLength: 8 }), fc.nat(), async (hours, cut) => {
        const root = join(work, `case-${n++}`)
        await writeCase(root, hours)
        const provider = new LocalFolderProvider(root)
        const now = START + hours.length * HOUR + HOUR
        const objects = await listLocalFolder(root)
        const inventory = buildInventory(objects, { now })
        let reads = 0
        const read = async (o: { key: string }, start: number, end: number): Promise<Uint8Array> => {
          reads++
          return (await provider.readRange(o.key, { start, end })).body
        }
        const cold = await findUnreadableFiles(inventory, read, { now })
        // Every answer known (a warm start): the same, without a read.
        const everything = join(root, '..', `frames-${n}-all.json`)
        await findUnreadableFiles(inventory, read, { now, cacheFile: everything })
        reads = 0
        expect(answer(await findUnreadableFiles(inventory, read, { now, cacheFile: everything }))).toEqual(answer(cold))
        expect(reads).toBe(0)
        // What a check as of an earlier hour learned (the copies newer than it not known yet): the same.
        const earlier = join(root, '..', `frames-${n}-earlier.json`)
        await findUnreadableFiles(inventory, read, { now, cacheFile: earlier, asOf: START + (cut % hours.length) * HOUR + 30 * MIN })
        expect(answer(await findUnreadableFiles(inventory, read, { now, cacheFile: earlier }), cold)).toEqual(answer(cold))
        // What a check learned before each folder's second file arrived: the same.
        const firstFiles = join(root, '..', `frames-${n}-first.json`)
        const before = buildInventory(
          objects.filter((o) => !o.key.endsWith('part-1.parquet')),
          { now }
        )
        await findUnreadableFiles(before, read, { now, cacheFile: firstFiles })
        expect(answer(await findUnreadableFiles(inventory, read, { now, cacheFile: firstFiles }), cold)).toEqual(answer(cold))
        await rm(root, { recursive: true, force: true })
      }),
      { numRuns: 25 }
    )
  })
})
