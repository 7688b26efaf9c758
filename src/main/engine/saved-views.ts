// The CLI's saved views: what opening the engine over a bucket did (the files it linked, the statements it ran, and the
// views' result), saved with what it was derived from, and done again step by step while none of that changed. A warm
// query then builds no inventory, frame check, mirror plan or view plan (a year's ~0.4 s, issue 23): it reads the
// listing, finds it unchanged, and replays the steps.
//
// What an opening is derived from, and how each is known unchanged:
// - the listing: the digest of the saved listing's objects (index-store.ts);
// - the frame check's answers and the mirror's index: their files' size, modification and change times and inode;
// - this code: the built file it runs from, by the same stamp (every build writes new files; run from its sources, by
//   tsx, the tool saves nothing: a changed source would not show), and DuckDB's version;
// - the tables the statement names and --as-of;
// - the clock, through the rules: an entry holds within its clock window (src/shared/clock-window.ts);
// - each linked file: still a file of the size it had (a local bucket's file rewritten in place is not replayed).
// An entry is saved only after a settled opening: no listing failed, the frame check answered every file for good, the
// mirror built every segment and superseded list, every file was fetched, and no view had a problem. Otherwise the next
// run derives again.
// Only the steps that succeeded are saved (the views try some statements whose failure they expect).
// The file holds statements the engine runs as its own: it is read only when this user owns it and no one else may write
// it, from a folder only the user may enter, never through a link; linked files must be inside the engine's readable
// folders. Anything unexpected (a stamp that cannot be read, a failed replay) derives the views again.
import { createHash } from 'node:crypto'
import { constants } from 'node:fs'
import { lstat, open, stat } from 'node:fs/promises'
import { join, resolve, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import * as v from 'valibot'
import type { ViewsResult } from '../../shared/bucket-views'
import { type CatalogTable, qualifiedName } from '../../shared/catalog'
import type { ClockWindow } from '../../shared/clock-window'
import { writePrivateFile } from '../files/private-file'
import { swallowed } from '../log/main-log'
import type { NativeEngine } from './native-engine'
import type { ViewsStep } from './open-bucket-engine'

const FORMAT = 1
/** Entries kept per connection: one per set of tables and --as-of, the most recent first. */
const MAX_ENTRIES = 8

// Names and statements are kept split at the engine's file folder (a new one each run), and joined at the next one's.
const Parts = v.array(v.string())
const Note = v.object({ table: v.string(), message: v.string() })
const Step = v.union([v.object({ link: v.array(v.object({ name: Parts, key: v.string(), path: v.string(), size: v.number() })) }), v.object({ exec: Parts })])
const Entry = v.object({
  slot: v.string(),
  key: v.string(),
  /** DuckDB's version the steps ran on. */
  duckdb: v.string(),
  from: v.number(),
  until: v.number(),
  steps: v.array(Step),
  views: v.object({ created: v.array(v.string()), problems: v.array(Note), notes: v.array(Note), reads: v.array(Note) })
})
const SavedFile = v.object({ format: v.literal(FORMAT), entries: v.array(Entry) })
type Entry = v.InferOutput<typeof Entry>

export interface ViewsInputs {
  /** The folder of saved views (one file per connection). */
  readonly dir: string
  /** The connection's name in the cache. */
  readonly id: string
  /** The digest of the saved listing the opening reads (RefreshedListing.listingDigest). */
  readonly listingDigest: string
  /** The tables opened; every table when absent. */
  readonly tables?: readonly CatalogTable[]
  readonly asOf?: number
  /** Files whose contents the opening was derived from (the frame check's answers, the mirror's index). */
  readonly files: readonly string[]
  /** The folders a linked file may be in (the engine's readable folders). */
  readonly roots: readonly string[]
}

/** A saved opening that holds now. */
export interface SavedOpening {
  readonly entry: Entry
}

/** What a file is now, in short: size, modification and change times and inode, or "absent". Another failure throws. */
async function stampOf(path: string): Promise<string> {
  try {
    const s = await stat(path, { bigint: true })
    return `${s.size}:${s.mtimeNs}:${s.ctimeNs}:${s.ino}`
  } catch (e) {
    if ((e as { code?: string }).code === 'ENOENT') return 'absent'
    throw e
  }
}

const codeFile = fileURLToPath(import.meta.url)
/** Run from its built files: run by tsx from its sources, the stamp of this one file would not show a change in another. */
const built = codeFile.endsWith('.js')

const slotOf = (inputs: ViewsInputs): string => `${inputs.tables ? inputs.tables.map(qualifiedName).sort().join(',') : '*'}|${inputs.asOf ?? 'latest'}`

async function keyOf(inputs: ViewsInputs): Promise<string> {
  const stamps = await Promise.all([codeFile, ...inputs.files].map(stampOf))
  return createHash('sha256')
    .update(JSON.stringify([FORMAT, inputs.listingDigest, slotOf(inputs), stamps]))
    .digest('hex')
}

const fileOf = (inputs: ViewsInputs): string => join(inputs.dir, `${encodeURIComponent(inputs.id)}.json`)

/** Whether a file or folder of these owner and mode can only have been written by this user (`uid`): owned by the
 * user, writable by no one else. Where there are no owners (Windows: no uid) the user's profile folder holds the cache. */
export function ownFile(file: { readonly uid: number; readonly mode: number }, uid: number | undefined): boolean {
  return uid === undefined || (file.uid === uid && (file.mode & 0o022) === 0)
}

async function readEntries(path: string): Promise<Entry[]> {
  let text: string
  try {
    const uid = process.getuid?.()
    // The folder the user's alone (another user who made it first could swap the file), the file read without
    // following a link or waiting on a pipe.
    const folder = await lstat(join(path, '..'))
    if (!folder.isDirectory() || !ownFile(folder, uid) || (uid !== undefined && (folder.mode & 0o077) !== 0)) return []
    const handle = await open(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0))
    try {
      const st = await handle.stat()
      if (!st.isFile() || !ownFile(st, uid)) return []
      text = await handle.readFile('utf8')
    } finally {
      await handle.close()
    }
  } catch {
    return []
  }
  try {
    const parsed = v.safeParse(SavedFile, JSON.parse(text))
    return parsed.success ? parsed.output.entries : []
  } catch {
    return []
  }
}

/** Whether every file the entry links is still a file of its size inside the readable folders (one stat each). */
async function linksHold(entry: Entry, roots: readonly string[]): Promise<boolean> {
  const inside = roots.map((r) => resolve(r) + sep)
  const links = entry.steps.flatMap((s) => ('link' in s ? s.link : []))
  if (!links.every((l) => inside.some((r) => resolve(l.path).startsWith(r)))) return false
  const found = await Promise.all(
    links.map((l) =>
      stat(l.path).then(
        (s) => s.isFile() && s.size === l.size,
        () => false
      )
    )
  )
  return found.every(Boolean)
}

/** The saved opening for these inputs that holds at `now`, or null (none, another listing or build, out of its window,
 * run from the sources, or a stamp that could not be read). */
export async function findSavedViews(inputs: ViewsInputs, now: number): Promise<SavedOpening | null> {
  if (!built) return null
  try {
    const [entries, key] = await Promise.all([readEntries(fileOf(inputs)), keyOf(inputs)])
    const entry = entries.find((e) => e.key === key && e.from <= now && now < e.until)
    return entry && (await linksHold(entry, inputs.roots)) ? { entry } : null
  } catch (e) {
    swallowed(`reading the saved views of ${inputs.id}`)(e)
    return null
  }
}

/** Does the saved opening again in `engine` (a new one): the same links and statements, at its own file folder. Throws
 * when the engine is another DuckDB than the one the steps ran on. */
export async function replayViews(engine: NativeEngine, saved: SavedOpening): Promise<ViewsResult> {
  if (saved.entry.duckdb !== engine.version) throw new Error(`saved for DuckDB ${saved.entry.duckdb}, this is ${engine.version}`)
  const base = engine.fileBase
  for (const s of saved.entry.steps) {
    if ('link' in s) await engine.link(s.link.map((f) => ({ name: f.name.join(base), key: f.key, path: f.path })))
    else await engine.exec(s.exec.join(base))
  }
  return saved.entry.views
}

/**
 * Saves a settled opening: its steps as `record` was told them, in `engine` (whose file folder is taken out of them). A
 * failure only costs the next run a derivation: it is logged, never thrown.
 */
export async function saveViews(
  inputs: ViewsInputs,
  opening: { readonly steps: readonly ViewsStep[]; readonly views: ViewsResult; readonly engine: NativeEngine; readonly window: ClockWindow }
): Promise<void> {
  const { engine } = opening
  const base = engine.fileBase
  // A folder whose name holds a quote is written doubled inside a statement's literals: not taken out, so not saved.
  if (!built || /['"\\]/.test(base)) return
  try {
    const sizes = new Map<string, number>()
    for (const s of opening.steps) if ('link' in s) for (const f of s.link) sizes.set(f.path, (await stat(f.path)).size)
    const entry: Entry = {
      slot: slotOf(inputs),
      key: await keyOf(inputs),
      duckdb: engine.version,
      from: opening.window.from,
      until: opening.window.until,
      steps: opening.steps.map((s) =>
        'link' in s
          ? { link: s.link.map((f) => ({ name: f.name.split(base), key: f.key, path: f.path, size: sizes.get(f.path) as number })) }
          : { exec: s.exec.split(base) }
      ),
      views: {
        created: [...opening.views.created],
        problems: [...opening.views.problems],
        notes: [...opening.views.notes],
        reads: [...opening.views.reads]
      }
    }
    const path = fileOf(inputs)
    const others = (await readEntries(path)).filter((e) => e.slot !== entry.slot)
    // A cache: losing it costs one derivation, so no fsync (private-file.ts).
    await writePrivateFile(path, JSON.stringify({ format: FORMAT, entries: [entry, ...others].slice(0, MAX_ENTRIES) }), { durable: false })
  } catch (e) {
    swallowed(`saving the views of ${inputs.id}`)(e)
  }
}
