// Attack: the CLI's saved views (src/main/engine/saved-views.ts) hold statements the engine runs as its own and the files
// it links. A file another local user could have written (writable by others, or not owned by the user) is not read: the
// views are derived again, and the answer is the bucket's. An entry linking a file outside the engine's readable folders
// is not replayed either (DuckDB's own folder check stands behind that), nor one read from a folder others may enter or
// through a link. A replay is seen by a note planted in the entry.
import { chmod, copyFile, mkdir, rename, stat, symlink, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { ownFile } from '../../src/main/engine/saved-views'
import { type CliRun, runCli } from '../helpers/cli'
import { type Demo, readableDemo } from '../helpers/demo'
import { plantReplayNote, replayed } from '../helpers/saved-views'

const SQL = 'SELECT count(*) AS versions FROM claudia_messages__versions'

let demo: Demo
let cache: string
let truth: CliRun

beforeAll(async () => {
  // The archived object made readable: a listing with one is never saved.
  demo = await readableDemo({ days: 8 })
  cache = join(demo.dir, 'cache')
  truth = await query()
  expect(truth.code, truth.stderr).toBe(0)
}, 300_000)
afterAll(async () => {
  await demo?.cleanup()
})

const query = (): Promise<CliRun> => runCli(['query', SQL, '--bucket', demo.bucketDir, '--now', demo.expected.now, '--format', 'json'], cache)

it("replays the user's own file, and not one others may write", async () => {
  const { path } = await plantReplayNote(cache)
  const own = await query()
  expect(replayed(own)).toBe(true)
  expect(own.stdout).toBe(truth.stdout)

  await plantReplayNote(cache)
  await chmod(path, 0o666)
  const widened = await query()
  expect(widened.code, widened.stderr).toBe(0)
  expect(replayed(widened)).toBe(false)
  expect(widened.stdout).toBe(truth.stdout)
})

it('reads it only from a folder closed to others, and not through a link', async () => {
  // The folder opened to others (who could then swap the file): not read.
  const { path } = await plantReplayNote(cache)
  await chmod(dirname(path), 0o777)
  const open = await query()
  expect(replayed(open)).toBe(false)
  expect(open.stdout).toBe(truth.stdout)
  // (That run's save closed the folder again.)
  expect((await stat(dirname(path))).mode & 0o777).toBe(0o700)

  // The file swapped for a link to a file of the user's that someone else could have fed (here: a copy, marked).
  const { path: again } = await plantReplayNote(cache)
  const elsewhere = join(demo.dir, 'fed.json')
  await rename(again, elsewhere)
  await symlink(elsewhere, again)
  const linked = await query()
  expect(replayed(linked)).toBe(false)
  expect(linked.stdout).toBe(truth.stdout)
})

it('trusts a file only when the user owns it and no one else may write it', async () => {
  const path = join(demo.dir, 'probe.json')
  await writeFile(path, '{}', { mode: 0o600 })
  const mine = await stat(path)
  expect(ownFile(mine, mine.uid)).toBe(true)
  // Another user's file, even one no one else may write.
  expect(ownFile(mine, mine.uid + 1)).toBe(false)
  await chmod(path, 0o620)
  expect(ownFile(await stat(path), mine.uid)).toBe(false)
  await chmod(path, 0o602)
  expect(ownFile(await stat(path), mine.uid)).toBe(false)
})

it('does not replay an entry that links a file outside the engine’s readable folders', async () => {
  // A Parquet file the views would read, copied outside the cache and the bucket.
  const outside = join(demo.dir, 'outside')
  await mkdir(outside, { recursive: true })
  const copies: [string, string][] = []
  await plantReplayNote(cache, (saved) => {
    for (const e of saved.entries)
      for (const s of e.steps)
        if ('link' in s)
          for (const l of s.link) {
            const to = join(outside, `${copies.length}.parquet`)
            copies.push([l.path, to])
            l.path = to
          }
  })
  expect(copies.length).toBeGreaterThan(0)
  for (const [from, to] of copies) await copyFile(from, to)
  const r = await query()
  expect(r.code, r.stderr).toBe(0)
  expect(replayed(r)).toBe(false)
  expect(r.stdout).toBe(truth.stdout)
})
