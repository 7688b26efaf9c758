// The CLI's saved views: what opening the engine over a bucket did (the files it linked, the statements it ran, and the
// views' result), saved with what it was derived from, and done again step by step while none of that changed. A warm
// query then builds no inventory, frame check, mirror plan or view plan (a year's ~0.4 s, issue 23): it reads the
// listing, finds it unchanged, and replays some dozens of steps.
//
// What an opening is derived from, and how each is known unchanged:
// - the listing: the digest of the saved listing's text (index-store.ts);
// - the frame check's answers and the mirror's index: their files' size, change time and inode (both are written by
//   rename, so every write is a new inode);
// - this code: the file it runs from, by the same stamp (a new build is new files);
// - the tables the statement names and --as-of;
// - the clock, through the rules: an entry holds within its clock window (src/shared/clock-window.ts).
// An entry is saved only after a settled opening: no listing failed, the frame check answered every file for good, the
// mirror built every segment, every file was fetched, and no view had a problem. Otherwise the next run derives again.
// The file holds statements the engine runs as its own: it is read only when this user owns it and no one else may write
// it (another local user cannot have planted it; the folder is the user's alone, 0700), and before a replay every linked
// file must still be a file inside the engine's readable folders.
import { createHash } from 'node:crypto'
import { open, stat } from 'node:fs/promises'
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
const Step = v.union([v.object({ link: v.array(v.object({ name: Parts, key: v.string(), path: v.string() })) }), v.object({ exec: Parts })])
const Entry = v.object({
  slot: v.string(),
  key: v.string(),
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

/** What a file is now, in short: size, change time and inode, or "absent". */
async function stampOf(path: string): Promise<string> {
  try {
    const s = await stat(path, { bigint: true })
    return `${s.size}:${s.mtimeNs}:${s.ino}`
  } catch (e) {
    if ((e as { code?: string }).code === 'ENOENT') return 'absent'
    throw e
  }
}

const slotOf = (inputs: ViewsInputs): string => `${inputs.tables ? inputs.tables.map(qualifiedName).sort().join(',') : '*'}|${inputs.asOf ?? 'latest'}`

async function keyOf(inputs: ViewsInputs): Promise<string> {
  const stamps = await Promise.all([fileURLToPath(import.meta.url), ...inputs.files].map(stampOf))
  return createHash('sha256')
    .update(JSON.stringify([FORMAT, inputs.listingDigest, slotOf(inputs), stamps]))
    .digest('hex')
}

const fileOf = (inputs: ViewsInputs): string => join(inputs.dir, `${encodeURIComponent(inputs.id)}.json`)

/** Whether a file of these owner and mode can only have been written by this user (`uid`; undefined where there are
 * no owners, as on Windows): owned by the user, writable by no one else. */
export function ownFile(file: { readonly uid: number; readonly mode: number }, uid: number | undefined): boolean {
  return (uid === undefined || file.uid === uid) && (file.mode & 0o022) === 0
}

async function readEntries(path: string): Promise<Entry[]> {
  let text: string
  try {
    const handle = await open(path, 'r')
    try {
      if (!ownFile(await handle.stat(), process.getuid?.())) return []
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

/** Whether every file the entry links is still a file inside the readable folders (each is stat'ed: some dozens). */
async function linksHold(entry: Entry, roots: readonly string[]): Promise<boolean> {
  const inside = roots.map((r) => resolve(r) + sep)
  const paths = entry.steps.flatMap((s) => ('link' in s ? s.link.map((f) => f.path) : []))
  if (!paths.every((p) => inside.some((r) => resolve(p).startsWith(r)))) return false
  const found = await Promise.all(
    paths.map((p) =>
      stat(p).then(
        (s) => s.isFile(),
        () => false
      )
    )
  )
  return found.every(Boolean)
}

/** The saved opening for these inputs that holds at `now`, or null (none, another listing or build, out of its window). */
export async function findSavedViews(inputs: ViewsInputs, now: number): Promise<SavedOpening | null> {
  const [entries, key] = await Promise.all([readEntries(fileOf(inputs)), keyOf(inputs)])
  const entry = entries.find((e) => e.key === key && e.from <= now && now < e.until)
  if (!entry) return null
  return (await linksHold(entry, inputs.roots)) ? { entry } : null
}

/** Does the saved opening again in `engine` (a new one): the same links and statements, at its own file folder. */
export async function replayViews(engine: NativeEngine, saved: SavedOpening): Promise<ViewsResult> {
  const base = engine.fileBase
  for (const s of saved.entry.steps) {
    if ('link' in s) await engine.link(s.link.map((f) => ({ name: f.name.join(base), key: f.key, path: f.path })))
    else await engine.exec(s.exec.join(base))
  }
  return saved.entry.views
}

/** Saves a settled opening (its steps as `record` was told them, in an engine whose file folder was `fileBase`). */
export async function saveViews(
  inputs: ViewsInputs,
  opening: { readonly steps: readonly ViewsStep[]; readonly views: ViewsResult; readonly fileBase: string; readonly window: ClockWindow }
): Promise<void> {
  const { fileBase } = opening
  const entry: Entry = {
    slot: slotOf(inputs),
    key: await keyOf(inputs),
    from: opening.window.from,
    until: opening.window.until,
    steps: opening.steps.map((s) =>
      'link' in s ? { link: s.link.map((f) => ({ name: f.name.split(fileBase), key: f.key, path: f.path })) } : { exec: s.exec.split(fileBase) }
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
  await writePrivateFile(path, JSON.stringify({ format: FORMAT, entries: [entry, ...others].slice(0, MAX_ENTRIES) }), { durable: false }).catch(
    swallowed(`saving the views of ${inputs.id}`)
  )
}
