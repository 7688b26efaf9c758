// Attack: the CLI's saved views (src/main/engine/saved-views.ts) hold statements the engine runs as its own and the files
// it links. A file another local user could have written (writable by others, or not owned by the user) is not read: the
// views are derived again, and the answer is the bucket's. An entry linking a file outside the engine's readable folders
// is not replayed either (DuckDB's own folder check stands behind that). A replay is seen by a note planted in the entry.
import { chmod, copyFile, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { ownFile } from '../../src/main/engine/saved-views'
import { type CliRun, runCli } from '../helpers/cli'
import { copyTree } from '../helpers/copy-tree'
import { type Demo, readDemo } from '../helpers/demo'

const MARK = 'replayed from the saved views'
const SQL = 'SELECT count(*) AS versions FROM claudia_messages__versions'

let demo: Demo
let work: string
let bucket: string
let cache: string
let truth: CliRun

beforeAll(async () => {
  demo = await readDemo({ days: 8 })
  work = await mkdtemp(join(tmpdir(), 'ee-saved-views-owner-'))
  bucket = join(work, 'bucket')
  cache = join(work, 'cache')
  await copyTree(demo.bucketDir, bucket)
  // The archived object made readable: a listing with one is never saved.
  await writeFile(join(bucket, '.export-explorer', 'storage-classes.json'), '{}')
  truth = await query()
  expect(truth.code, truth.stderr).toBe(0)
}, 300_000)
afterAll(async () => {
  await demo?.cleanup()
  await rm(work, { recursive: true, force: true })
})

const query = (): Promise<CliRun> => runCli(['query', SQL, '--bucket', bucket, '--now', demo.expected.now, '--format', 'json'], cache)

interface SavedFile {
  entries: { views: { notes: { table: string; message: string }[] }; steps: ({ link: { path: string }[] } | { exec: string[] })[] }[]
}

async function viewsFile(): Promise<string> {
  const files = await readdir(join(cache, 'views'))
  expect(files).toHaveLength(1)
  return join(cache, 'views', files[0]!)
}

/** Rewrites the saved entries (the file keeps its owner and mode), each with the note a replay prints. */
async function plant(change: (saved: SavedFile) => void = () => {}): Promise<string> {
  const path = await viewsFile()
  const saved = JSON.parse(await readFile(path, 'utf8')) as SavedFile
  for (const e of saved.entries) e.views.notes = [{ table: 'claudia_messages', message: MARK }]
  change(saved)
  await writeFile(path, JSON.stringify(saved))
  return path
}

const replayed = (r: CliRun): boolean => r.stderr.includes(`note: ${MARK}`)

it("replays the user's own file, and not one others may write", async () => {
  const path = await plant()
  const own = await query()
  expect(replayed(own)).toBe(true)
  expect(own.stdout).toBe(truth.stdout)

  await plant()
  await chmod(path, 0o666)
  const widened = await query()
  expect(widened.code, widened.stderr).toBe(0)
  expect(replayed(widened)).toBe(false)
  expect(widened.stdout).toBe(truth.stdout)
})

it('trusts a file only when the user owns it and no one else may write it', async () => {
  const path = join(work, 'probe.json')
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
  const outside = join(work, 'outside')
  await mkdir(outside, { recursive: true })
  const copies: [string, string][] = []
  await plant((saved) => {
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
