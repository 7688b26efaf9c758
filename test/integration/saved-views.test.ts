// The CLI's saved views (src/main/engine/saved-views.ts): a query whose listing, frame answers, mirror and build are
// unchanged replays the engine's opening instead of deriving it, and gives what a fresh cache derives; a new hour, the
// next day, a linked file gone or changed in place makes it derive again. A replay is seen by a note planted in the saved entry (the
// query prints a view's notes). On a copy of the run's demo with its archived object made readable (an archived object
// keeps a listing from being saved).
import { appendFile, copyFile, mkdir, mkdtemp, readdir, unlink, utimes } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CATALOG } from '../../src/shared/catalog'
import { type CliRun, runCli } from '../helpers/cli'
import { type Demo, readableDemo } from '../helpers/demo'
import { markHourReady } from '../helpers/hour-markers'
import { newestReadyFolder } from '../helpers/local-bucket'
import { plantReplayNote, replayed } from '../helpers/saved-views'

const HOUR = 3_600_000
const CLAUDIA = CATALOG.find((t) => t.table === 'claudia_messages')!
// A keyed parts table (read from the mirror), an unkeyed one, and a full table (its raw files, linked from the bucket).
const SQL =
  'SELECT (SELECT count(*) FROM claudia_messages) AS rows, (SELECT count(*) FROM claudia_messages__versions) AS versions, ' +
  '(SELECT count(*) FROM cloud_chat_messages) AS chat, (SELECT count(*) FROM claudia_conversation) AS conversations'

let demo: Demo
let bucket: string
let cache: string

beforeAll(async () => {
  demo = await readableDemo({ days: 8 })
  bucket = demo.bucketDir
  cache = join(demo.dir, 'cache')
}, 300_000)
afterAll(async () => {
  await demo?.cleanup()
})

const query = (now: number, c = cache): Promise<CliRun> =>
  runCli(['query', SQL, '--bucket', bucket, '--now', new Date(now).toISOString(), '--format', 'json'], c)

/** What a cache of its own derives: the answer a replay must equal. */
async function fresh(now: number): Promise<string> {
  const r = await query(now, await mkdtemp(join(demo.dir, 'fresh-')))
  expect(r.code, r.stderr).toBe(0)
  return r.stdout
}

const markEntries = async () => (await plantReplayNote(cache)).entries

describe('saved views', () => {
  it('a second query replays the opening, and answers as a fresh cache does', async () => {
    const at = Date.parse(demo.expected.now)
    const first = await query(at)
    expect(first.code, first.stderr).toBe(0)
    expect(replayed(first)).toBe(false)
    await markEntries()
    const second = await query(at)
    expect(second.code, second.stderr).toBe(0)
    expect(replayed(second)).toBe(true)
    expect(second.stdout).toBe(first.stdout)
    expect(second.stdout).toBe(await fresh(at))
  })

  it('a new hour, the next day, and a linked file gone: derived again, and right', async () => {
    // The hour after the newest ready one: a copy of its files, then its markers.
    const { tableDir, folder } = await newestReadyFolder(bucket, `v2/${CLAUDIA.schema}/${CLAUDIA.table}`)
    const m = /etl_date=(\d{4}-\d{2}-\d{2})\/etl_hour=(\d{2})/.exec(folder)!
    const hour = Date.parse(`${m[1]}T${m[2]}:00:00Z`) + HOUR
    const next = new Date(hour).toISOString()
    const target = join(tableDir, `etl_date=${next.slice(0, 10)}`, `etl_hour=${next.slice(11, 13)}`)
    await mkdir(target, { recursive: true })
    const files = (await readdir(join(tableDir, folder))).filter((f) => f.endsWith('.parquet'))
    for (const f of files) {
      await copyFile(join(tableDir, folder, f), join(target, f))
      await utimes(join(target, f), new Date(hour + 10 * 60_000), new Date(hour + 10 * 60_000))
    }
    await markHourReady(bucket, CLAUDIA, hour, files.length)
    const before = await query(Date.parse(demo.expected.now))
    await markEntries()

    const at = hour + 30 * 60_000
    const withHour = await query(at)
    expect(withHour.code, withHour.stderr).toBe(0)
    expect(replayed(withHour)).toBe(false)
    const versions = (r: CliRun): number => (JSON.parse(r.stdout) as { versions: number }[])[0]!.versions
    expect(versions(withHour)).toBeGreaterThan(versions(before))
    expect(withHour.stdout).toBe(await fresh(at))
    await markEntries()
    expect(replayed(await query(at))).toBe(true)

    const nextDay = at + 24 * HOUR
    const dayAfter = await query(nextDay)
    expect(replayed(dayAfter)).toBe(false)
    expect(dayAfter.stdout).toBe(await fresh(nextDay))

    // A file the entry links (a mirror segment, or a raw file in the store) removed from the cache: fetched or built again.
    const entries = await markEntries()
    const linked = entries.flatMap((e) => e.steps.flatMap((s) => ('link' in s ? s.link.map((l) => l.path) : [])))
    const cached = linked.filter((p) => p.startsWith(cache))
    expect(cached.length).toBeGreaterThan(0)
    expect(linked.some((p) => p.startsWith(bucket))).toBe(true)
    await unlink(cached[0]!)
    const afterLoss = await query(nextDay)
    expect(afterLoss.code, afterLoss.stderr).toBe(0)
    expect(replayed(afterLoss)).toBe(false)
    expect(afterLoss.stdout).toBe(dayAfter.stdout)

    // A file of the bucket rewritten in place (a local folder's listing refresh does not look at an old folder again):
    // a fresh opening checks it against the listing, so a replay must not read it.
    await markEntries()
    const inBucket = linked.find((p) => p.startsWith(bucket))!
    await appendFile(inBucket, 'changed in place')
    expect(replayed(await query(nextDay))).toBe(false)
  })
})
