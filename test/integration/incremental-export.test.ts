// `export --since-last` and `watch --export-dir`, run as a user would (the built tool), on the shared demo bucket read
// in place: new hours "land" by moving --now forward (objects written after it do not exist yet). Every run checks
// what the file holds against the tool's own full export and the cursor's folders; a failed write moves no cursor.
import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { IncidentPayload } from '../../src/shared/follow/incident-payload'
import { runCli } from '../helpers/cli'
import { type Demo, readDemo } from '../helpers/demo'
import { type Db, openDb } from '../helpers/duckdb'

let demo: Demo
let cache: string
let out: string
let db: Db
const T1 = '2026-11-10T20:50:00Z'
const T2 = (): string => demo.expected.now

beforeAll(async () => {
  demo = await readDemo({ days: 8 })
  cache = await mkdtemp(join(tmpdir(), 'ee-incr-'))
  out = join(cache, 'out')
  await mkdir(out)
  db = await openDb()
}, 300_000)
afterAll(async () => {
  db?.close()
  await demo?.cleanup()
  await rm(cache, { recursive: true, force: true })
})

const cli = (args: string[]) => runCli(['--bucket', demo.bucketDir, ...args], cache)
const since = (now: string, table: string, file: string, more: string[] = []) =>
  cli(['export', '--now', now, '--table', table, '--since-last', '--out', join(out, file), ...more])
const csv = (file: string): Promise<Record<string, string | null>[]> =>
  db.rows(`SELECT * FROM read_csv('${join(out, file)}', all_varchar = true, header = true)`) as Promise<Record<string, string | null>[]>
const cursorFiles = async (): Promise<string[]> => (await readdir(join(cache, 'state'))).filter((n) => n.startsWith('cursor-'))
const folderOf = (r: Record<string, string | null>): string => `${r['etl_date']}/${r['etl_hour'] ?? ''}`

describe('export --since-last, a parts table', () => {
  let firstKeys: Map<string, string>
  let cursorAfterFirst: string

  it('the first run writes everything delivered so far, and says so', async () => {
    const r = await since(T1, 'claudia_messages', 'm1.csv')
    expect(r.code).toBe(0)
    expect(r.stderr).toMatch(/incremental, first run of cursor "claudia_messages": everything delivered so far, \d+ folders/)
    const full = await cli(['export', '--now', T1, '--table', 'claudia_messages', '--out', join(out, 'm1-full.csv')])
    expect(full.code).toBe(0)
    const rows = await csv('m1.csv')
    expect(rows.length).toBe((await csv('m1-full.csv')).length)
    expect(rows.every((x) => x['_ee_supersedes'] === null)).toBe(true)
    firstKeys = new Map(rows.map((x) => [x['message_id'] as string, folderOf(x)]))
    const [name] = await cursorFiles()
    cursorAfterFirst = await readFile(join(cache, 'state', name as string), 'utf8')
  })

  it('a second run with nothing new writes a header only, and says so', async () => {
    const r = await since(T1, 'claudia_messages', 'm2.csv')
    expect(r.code).toBe(0)
    expect(r.stderr).toMatch(/wrote 0 rows .*no new folder since the last run, so no rows \(header only\)/)
    expect((await readFile(join(out, 'm2.csv'), 'utf8')).trim().split('\n')).toHaveLength(1)
  })

  it('a write that fails (no such folder) leaves the cursor where it was', async () => {
    const r = await since(T2(), 'claudia_messages', join('missing', 'm3.csv'))
    expect(r.code).not.toBe(0)
    expect(r.stderr).toMatch(/does not exist.*no file was written and the cursor was not moved/)
    const [name] = await cursorFiles()
    expect(await readFile(join(cache, 'state', name as string), 'utf8')).toBe(cursorAfterFirst)
  })

  it('after new hours land: only the rows of the new folders, the re-delivered keys naming the version they replace', async () => {
    const r = await since(T2(), 'claudia_messages', 'm3.csv')
    expect(r.code).toBe(0)
    expect(r.stderr).toMatch(/incremental \(cursor "claudia_messages"\): \d+ new folders \(v2\/etl_date=.* … v2\/etl_date=2026-11-11\/etl_hour=02\)/)
    // The oracle: the table as of T2, less the rows of the folders the first run exported (the cursor's).
    const had = new Set(
      (JSON.parse(cursorAfterFirst) as { folders: string[] }).folders.map((p) => {
        const date = /etl_date=([^/]+)/.exec(p)?.[1]
        return `${date}/${/etl_hour=(\d\d)/.exec(p)?.[1] ?? ''}`
      })
    )
    expect((await cli(['export', '--now', T2(), '--table', 'claudia_messages', '--out', join(out, 'm3-full.csv')])).code).toBe(0)
    const expected = (await csv('m3-full.csv')).filter((x) => !had.has(folderOf(x)))
    const rows = await csv('m3.csv')
    expect(rows.map((x) => x['message_id']).sort()).toEqual(expected.map((x) => x['message_id']).sort())
    expect(rows.length).toBeGreaterThan(0)
    // Keys exported before name the folder of the version exported (a v2 folder re-delivering them); the others none.
    const replacing = rows.filter((x) => firstKeys.has(x['message_id'] as string))
    expect(replacing.length).toBeGreaterThan(0)
    for (const x of rows) {
      const was = firstKeys.get(x['message_id'] as string)
      if (was === undefined) expect(x['_ee_supersedes']).toBeNull()
      else expect(x['_ee_supersedes']).toBe(`v2/etl_date=${was.split('/')[0]}/etl_hour=${was.split('/')[1]}`)
    }
    expect(r.stderr).toContain(`${replacing.length} ${replacing.length === 1 ? 'row replaces' : 'rows replace'} a version exported before`)
  })
})

describe('export --since-last, a full table', () => {
  it('the latest copy, then nothing until a new ready copy, then only that copy', async () => {
    const first = await since(T1, 'claudia_conversation', 'c1.csv')
    expect(first.stderr).toMatch(/first run of cursor "claudia_conversation": the latest ready copy v2\/.*snapshot_hour=20\//)
    const none = await since(T1, 'claudia_conversation', 'c2.csv')
    expect(none.stderr).toMatch(/no new ready copy since .*snapshot_hour=20\/, so no rows/)
    expect(await csv('c2.csv')).toHaveLength(0)
    const later = await since(T2(), 'claudia_conversation', 'c3.csv')
    const copy = (demo.expected.latest_ready as Record<string, { prefix: string }>)['claudia_conversation']?.prefix
    expect(later.stderr).toContain(`the new ready copy ${copy}`)
    expect((await cli(['export', '--now', T2(), '--table', 'claudia_conversation', '--out', join(out, 'c3-full.csv')])).code).toBe(0)
    expect((await csv('c3.csv')).length).toBe((await csv('c3-full.csv')).length)
  })
})

describe('named cursors', () => {
  it('are independent of each other and of the default; one of another table is refused', async () => {
    expect((await since(T1, 'claudia_messages', 'a1.csv', ['--cursor', 'a'])).stderr).toMatch(/first run of cursor "a"/)
    expect((await since(T2(), 'claudia_messages', 'b1.csv', ['--cursor', 'b'])).stderr).toMatch(/first run of cursor "b"/)
    expect((await since(T2(), 'claudia_messages', 'b2.csv', ['--cursor', 'b'])).stderr).toMatch(/no new folder/)
    const a2 = await since(T2(), 'claudia_messages', 'a2.csv', ['--cursor', 'a'])
    expect(a2.stderr).toMatch(/incremental \(cursor "a"\): \d+ new folders/)
    expect((await csv('a2.csv')).length).toBe((await csv('m3.csv')).length)
    const refused = await since(T2(), 'claudia_conversation', 'a3.csv', ['--cursor', 'a'])
    expect(refused.code).toBe(2)
    expect(refused.stderr).toMatch(/the cursor "a" follows datamart_claudia.claudia_messages, not datamart_claudia.claudia_conversation/)
    expect(existsSync(join(out, 'a3.csv'))).toBe(false)
  })

  it('a corrupt cursor file is kept aside, said, and the export starts again from everything', async () => {
    expect((await since(T1, 'claudia_prompt_revision', 'p1.csv', ['--cursor', 'damaged'])).code).toBe(0)
    const name = (await cursorFiles()).find((n) => n.startsWith('cursor-damaged-')) as string
    await writeFile(join(cache, 'state', name), '{"table": "cut sho')
    const r = await since(T2(), 'claudia_prompt_revision', 'p2.csv', ['--cursor', 'damaged'])
    expect(r.code).toBe(0)
    expect(r.stderr).toMatch(new RegExp(`${name} could not be read \\(not valid JSON.*\\); it was kept as ${name}\\.corrupt-`))
    expect(r.stderr).toMatch(/first run of cursor "damaged": everything delivered so far/)
    const aside = (await readdir(join(cache, 'state'))).filter((n) => n.startsWith(`${name}.corrupt-`))
    expect(aside).toHaveLength(1)
    expect(await readFile(join(cache, 'state', aside[0] as string), 'utf8')).toBe('{"table": "cut sho')
  })
})

describe('watch --export-dir', () => {
  it('writes a file per new delivery hour and tells the command its name and rows', async () => {
    const dir = join(cache, 'feed')
    const log = join(cache, 'exec.jsonl')
    const exec = `node -e "let s='';process.stdin.on('data',d=>s+=d).on('end',()=>require('fs').appendFileSync(process.argv[1],s))" ${log}`
    const watch = (now: string) => cli(['watch', '--now', now, '--once', '--export-dir', dir, '--table', 'claudia_messages', '--exec', exec])
    const first = await watch(T1)
    expect(first.stderr).toMatch(/a new watch of claudia_messages starts at its newest delivery hour, 2026-11-10 20:00 UTC/)
    expect(await readdir(join(dir, 'claudia_messages'))).toEqual(['2026-11-10T20.csv'])
    await watch(T2())
    const files = (await readdir(join(dir, 'claudia_messages'))).sort()
    expect(files.slice(0, 2)).toEqual(['2026-11-10T20.csv', '2026-11-10T21.csv'])
    expect(files.at(-1)).toBe('2026-11-11T02.csv')
    const told = (await readFile(log, 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as IncidentPayload)
      .filter((p) => p.change === 'exported')
    expect(told.map((p) => p.export?.file)).toEqual(files.map((f) => join(dir, 'claudia_messages', f)))
    // Each file holds its hour's folder only, its rows as told; together, the keys the export since T1 wrote.
    const keys = new Set<string>()
    for (const p of told) {
      const rows = await db.rows(`SELECT message_id, etl_date, etl_hour FROM read_csv('${p.export?.file}', header = true, all_varchar = true)`)
      expect(p.export?.rows).toBe(rows.length)
      const stem = `${rows[0]?.['etl_date']}T${rows[0]?.['etl_hour']}`
      expect(p.export?.file.endsWith(`${stem}.csv`)).toBe(true)
      expect(rows.every((x) => `${x['etl_date']}T${x['etl_hour']}` === stem)).toBe(true)
      if (p !== told[0]) for (const x of rows) keys.add(x['message_id'] as string)
    }
    expect([...keys].sort()).toEqual((await csv('m3.csv')).map((x) => x['message_id']).sort())
  })

  it('replaces no file: an hour written again (its cursor lost) gets a file of its own', async () => {
    const dir = join(cache, 'feed-again')
    const watch = () => cli(['watch', '--now', T1, '--once', '--export-dir', dir, '--table', 'claudia_messages'])
    expect((await watch()).code).toBe((await cli(['doctor', '--now', T1])).code)
    const first = await readFile(join(dir, 'claudia_messages', '2026-11-10T20.csv'), 'utf8')
    for (const n of await cursorFiles()) if (n.startsWith('cursor-watch-')) await rm(join(cache, 'state', n))
    const again = await watch()
    expect(again.stderr).toMatch(/exported 2026-11-10 20:00 UTC: \d+ rows to .*2026-11-10T20-2\.csv/)
    expect((await readdir(join(dir, 'claudia_messages'))).sort()).toEqual(['2026-11-10T20-2.csv', '2026-11-10T20.csv'])
    expect(await readFile(join(dir, 'claudia_messages', '2026-11-10T20.csv'), 'utf8')).toBe(first)
    // The same hour's rows again (in the engine's order).
    const sorted = (text: string): string[] => text.trim().split('\n').sort()
    expect(sorted(await readFile(join(dir, 'claudia_messages', '2026-11-10T20-2.csv'), 'utf8'))).toEqual(sorted(first))
  })

  it('a folder it cannot write into is said, and the watch still checks and tells', async () => {
    const dir = join(cache, 'feed-blocked')
    await mkdir(dir)
    // A file where the table's folder must go: the folder cannot be made.
    await writeFile(join(dir, 'claudia_messages'), 'not a folder')
    const r = await cli(['watch', '--now', T1, '--once', '--export-dir', dir, '--table', 'claudia_messages'])
    expect(r.stderr).toMatch(/the export failed: .*; tried again at the next check/)
    expect(r.stderr).toMatch(/checked 2026-11-10 20:50 UTC: \d+ changes? told/)
    // The exit code is doctor's, as without --export-dir.
    expect(r.code).toBe((await cli(['doctor', '--now', T1])).code)
  })
})
