// The frame check's answers on disk (parquet-frame-check.ts asks, the mirror's build adds what it finds): per object
// version (key + ETag), its footer's facts or why it is not readable Parquet. Two private files per connection: the
// answers written whole, and a journal of those added since (a new hour adds a few to a year's ~9,000: writing them
// whole again took ~35 ms of it). The journal names the generation of the whole file it adds to, so one left beside
// a file written whole since (by this process or another) is never read; at JOURNAL_MAX_BYTES the answers are written
// whole again. Entries of any other shape are left out when read: those files are checked again.
import { randomUUID } from 'node:crypto'
import { constants } from 'node:fs'
import { open, readFile, rm, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { type FooterFacts, isSchemaTag } from '../../shared/delivery-facts'
import { objectIdentity } from '../../shared/identity-tag'
import type { ListedObject } from '../../shared/listing'
import { withFileLock } from '../files/file-lock'
import { writePrivateFile } from '../files/private-file'

/** The file of a connection's answers, under a data folder (the app's, or the CLI's cache folder). */
export function frameCacheFile(dataDir: string, connectionId: string): string {
  return join(dataDir, 'frames', `${connectionId}.json`)
}

/** The journal of answers added since the answers file was written whole (what reads the answers stamps both). */
export const frameJournalFile = (cacheFile: string): string => `${cacheFile}.added`

/** Past this, the next answers added are written with the rest, whole (a line is ~0.4 KB: ~600 answers). */
const JOURNAL_MAX_BYTES = 256 * 1024

// Format 5 keeps each distinct column list once with its schema tag (a year of one table's files shares a handful), and
// the answers as two lists, ids and values: a year's ~9,000 ids as an object's keys (format 3) took JSON.parse ~40%
// longer. Format 4 (no schema tags), 3 and 2 (facts per file) are read as well and written as 5; format 1 (a bare map
// of booleans, frame only) is read as empty, so every file is checked again with its footer.
const CACHE_FORMAT = 5
const WITHOUT_SCHEMA_TAGS = 4
const KEYED_BY_ID = 3
const FACTS_PER_FILE = 2
/** Per key + ETag: its footer's facts when readable (true: readable, checked before the facts were kept), else why not. */
export type Verdict = true | FooterFacts | string
export type Cache = Map<string, Verdict>
type Columns = FooterFacts['columns']
/** On disk: `[rows, index into columnSets]` for a readable file. */
type StoredVerdict = true | string | readonly [rows: number, columnSet: number]

const isColumns = (v: unknown): v is Columns =>
  Array.isArray(v) &&
  v.every(
    (c: unknown) =>
      typeof c === 'object' && c !== null && typeof (c as { name: unknown }).name === 'string' && typeof (c as { type: unknown }).type === 'string'
  )
const isRowCount = (n: unknown): n is number => Number.isSafeInteger(n) && (n as number) >= 0

/** A cache entry of the facts' shape, every column a name and a type, its schema tag (if any) of a tag's shape: anything
 * else is checked again, never trusted. */
function isFacts(v: unknown): v is FooterFacts {
  if (typeof v !== 'object' || v === null) return false
  const f = v as FooterFacts
  return isRowCount(f.rows) && isColumns(f.columns) && (f.schemaTag === undefined || isSchemaTag(f.schemaTag))
}

const isVerdict = (v: unknown): v is Verdict => v === true || typeof v === 'string' || isFacts(v)

/** What a process read of a connection's answers: enough for the next merge to add to them rather than write them whole. */
export interface LoadedAnswers {
  readonly cache: Cache
  /** The files' stamps when read (null: neither was there): the same stamps, the same answers. */
  readonly stamp: string | null
  /** The whole file's generation, null when it has none (none there, or written by an earlier version). */
  readonly generation: string | null
  /** Bytes of this generation's journal (0: none). */
  readonly journalBytes: number
  /** Written by an earlier version: written whole in this one at the next merge. */
  readonly earlierFormat: boolean
}

const empty = (): Omit<LoadedAnswers, 'stamp'> => ({ cache: new Map(), generation: null, journalBytes: 0, earlierFormat: false })

/** The answers of the whole file in memory. */
function fromDisk(parsed: {
  format?: unknown
  files?: unknown
  ids?: unknown
  values?: unknown
  columnSets?: unknown
  schemaTags?: unknown
  generation?: unknown
}): Omit<LoadedAnswers, 'stamp' | 'journalBytes'> {
  const out: Cache = new Map()
  if (parsed?.format === FACTS_PER_FILE && typeof parsed.files === 'object' && parsed.files !== null) {
    for (const [id, v] of Object.entries(parsed.files)) if (isVerdict(v)) out.set(id, v)
    return { cache: out, generation: null, earlierFormat: true }
  }
  const format = parsed?.format
  if ((format !== CACHE_FORMAT && format !== WITHOUT_SCHEMA_TAGS && format !== KEYED_BY_ID) || !Array.isArray(parsed.columnSets))
    return { ...empty(), cache: out }
  // Each set's schema tag (format 5), in a list beside the sets: a set whose tag is out of shape is not trusted.
  const tags: readonly unknown[] | null = format === CACHE_FORMAT ? (Array.isArray(parsed.schemaTags) ? parsed.schemaTags : []) : null
  const sets = parsed.columnSets.map((c: unknown, i): { readonly columns: Columns; readonly schemaTag: string | null } | null => {
    const schemaTag = tags === null ? null : tags[i]
    return isColumns(c) && (schemaTag === null || isSchemaTag(schemaTag)) ? { columns: c, schemaTag } : null
  })
  const add = (id: unknown, v: unknown): void => {
    if (typeof id !== 'string') return
    if (v === true || typeof v === 'string') out.set(id, v)
    else if (Array.isArray(v) && v.length === 2 && isRowCount(v[0]) && Number.isInteger(v[1])) {
      const set = sets[v[1] as number]
      if (set) out.set(id, set.schemaTag === null ? { rows: v[0], columns: set.columns } : { rows: v[0], columns: set.columns, schemaTag: set.schemaTag })
    }
  }
  if (parsed.format === KEYED_BY_ID) {
    if (typeof parsed.files === 'object' && parsed.files !== null) for (const [id, v] of Object.entries(parsed.files)) add(id, v)
    return { cache: out, generation: null, earlierFormat: true }
  }
  if (!Array.isArray(parsed.ids) || !Array.isArray(parsed.values) || parsed.ids.length !== parsed.values.length) return { ...empty(), cache: out }
  for (let i = 0; i < parsed.ids.length; i++) add(parsed.ids[i], parsed.values[i])
  return { cache: out, generation: typeof parsed.generation === 'string' ? parsed.generation : null, earlierFormat: format !== CACHE_FORMAT }
}

function toDisk(
  cache: Cache,
  generation: string
): { format: number; generation: string; columnSets: Columns[]; schemaTags: (string | null)[]; ids: string[]; values: StoredVerdict[] } {
  const columnSets: Columns[] = []
  const schemaTags: (string | null)[] = []
  const setOf = new Map<Columns | string, number>()
  const ids: string[] = []
  const values: StoredVerdict[] = []
  for (const [id, v] of cache) {
    ids.push(id)
    if (typeof v !== 'object') {
      values.push(v)
      continue
    }
    // A set is a column list and a schema tag. The same list object (read from one set) is found at once, and taken when
    // its set has the same tag; another list with the same columns and tag, by their text.
    const schemaTag = v.schemaTag ?? null
    const byObject = setOf.get(v.columns)
    let i = byObject !== undefined && schemaTags[byObject] === schemaTag ? byObject : undefined
    if (i === undefined) {
      const text = JSON.stringify([schemaTag, v.columns])
      i = setOf.get(text)
      if (i === undefined) {
        i = columnSets.push(v.columns) - 1
        schemaTags.push(schemaTag)
        setOf.set(text, i)
      }
      setOf.set(v.columns, i)
    }
    values.push([v.rows, i])
  }
  return { format: CACHE_FORMAT, generation, columnSets, schemaTags, ids, values }
}

/** Appends to an existing journal (never through a link, never creating one: a journal starts with its head, written
 * by writePrivateFile); false when there is none. The one file main adds to rather than replaces (private-file.ts). */
async function appendJournal(path: string, lines: string): Promise<boolean> {
  let handle
  try {
    handle = await open(path, constants.O_WRONLY | constants.O_APPEND | (constants.O_NOFOLLOW ?? 0))
  } catch (e) {
    if ((e as { code?: string }).code === 'ENOENT') return false
    throw e
  }
  try {
    await handle.appendFile(lines)
    return true
  } finally {
    await handle.close()
  }
}

/** The journal's first line, naming the generation it adds to; then one `[id, verdict]` per line. */
const journalHead = (generation: string): string => `${JSON.stringify({ generation })}\n`
const journalLines = (added: Cache): string => [...added].map((e) => `${JSON.stringify(e)}\n`).join('')

/** Adds the journal's answers for `generation` to `cache`; its bytes (0 when it is not that generation's). A line that
 * does not parse (a write cut short) or is out of shape is left out. */
async function readJournal(path: string, generation: string, cache: Cache): Promise<number> {
  const text = await readFile(frameJournalFile(path), 'utf8').catch(() => '')
  if (!text.startsWith(journalHead(generation))) return 0
  for (const line of text.split('\n').slice(1)) {
    if (line === '') continue
    try {
      const e = JSON.parse(line) as unknown
      if (Array.isArray(e) && e.length === 2 && typeof e[0] === 'string' && isVerdict(e[1])) cache.set(e[0], e[1])
    } catch {
      // (Left out: checked again.)
    }
  }
  return Buffer.byteLength(text)
}

async function loadAnswers(path: string): Promise<Omit<LoadedAnswers, 'stamp'>> {
  let whole: Omit<LoadedAnswers, 'stamp' | 'journalBytes'>
  try {
    whole = fromDisk(JSON.parse(await readFile(path, 'utf8')) as { format?: unknown; files?: unknown })
  } catch {
    return empty()
  }
  const journalBytes = whole.generation === null ? 0 : await readJournal(path, whole.generation, whole.cache)
  return { ...whole, journalBytes }
}

/** Which versions of the files a process read: a merge re-reads them only when another writer changed them since. */
async function stampOf(path: string): Promise<string | null> {
  const one = async (p: string): Promise<string> => {
    const s = await stat(p).catch(() => null)
    return s ? `${s.ino}/${s.size}/${s.mtimeMs}` : '-'
  }
  const [whole, journal] = await Promise.all([one(path), one(frameJournalFile(path))])
  return whole === '-' && journal === '-' ? null : `${whole}|${journal}`
}

/** The answers this process last read or wrote, with the stamps of those versions of the files: the mirror's build,
 * right after a check, takes them from here rather than reading and parsing the file again (~35 ms on a year). */
let remembered: (LoadedAnswers & { readonly path: string }) | null = null

/** The answers as read now, with the stamps read before them (so a write between the two is read again next time). */
export async function loadStampedAnswers(path: string | undefined): Promise<LoadedAnswers> {
  if (!path) return { ...empty(), stamp: null }
  const stamp = await stampOf(path)
  const loaded = { ...(await loadAnswers(path)), stamp }
  if (stamp !== null) remembered = { ...loaded, path }
  return loaded
}

/** The answers: those in memory when the files are still the versions they came from, else read. */
async function currentAnswers(path: string): Promise<Cache> {
  const stamp = await stampOf(path)
  if (stamp !== null && remembered?.path === path && remembered.stamp === stamp) return remembered.cache
  return (await loadStampedAnswers(path)).cache
}

/**
 * Adds answers (under the file's lock in this process): to the answers this process read when the files are still
 * those versions (`read.cache` itself: it then holds them too, as the files do), else to the files as they are now.
 * Appended to the journal of the whole file's generation while it is small; else all written whole under a new
 * generation (a journal left beside it is then another generation's).
 */
export async function mergeAnswers(path: string, added: Cache, read?: LoadedAnswers): Promise<void> {
  await withFileLock(path, async () => {
    const same = read !== undefined && read.stamp !== null && (await stampOf(path)) === read.stamp
    const now = same ? read : await loadAnswers(path)
    const cache = now.cache
    for (const [id, v] of added) cache.set(id, v)
    const lines = journalLines(added)
    let { generation, journalBytes } = now
    if (generation === null || now.earlierFormat || journalBytes + Buffer.byteLength(lines) > JOURNAL_MAX_BYTES) {
      generation = randomUUID()
      await writePrivateFile(path, JSON.stringify(toDisk(cache, generation)))
      await rm(frameJournalFile(path), { force: true })
      journalBytes = 0
    } else if (journalBytes > 0 && (await appendJournal(frameJournalFile(path), lines))) journalBytes += Buffer.byteLength(lines)
    else {
      // No journal of this generation (none, another's, or gone since it was read): one anew, never added to. A cache:
      // no fsync (a line cut short by a crash is left out when read, and that file checked again).
      const text = journalHead(generation) + lines
      await writePrivateFile(frameJournalFile(path), text, { durable: false })
      journalBytes = Buffer.byteLength(text)
    }
    // Stamped under the lock: no other writer in this process can have changed them since.
    const stamp = await stampOf(path)
    if (stamp !== null) remembered = { path, stamp, cache, generation, journalBytes, earlierFormat: false }
  })
}

/** Remembers that these versions of objects are not readable (the mirror's build found their pages damaged): the
 * next check reports them without reading them again. */
export async function recordUnreadable(cacheFile: string, found: readonly { readonly object: ListedObject; readonly why: string }[]): Promise<void> {
  if (found.length > 0) await mergeAnswers(cacheFile, new Map(found.map((f) => [objectIdentity(f.object), f.why])))
}

/** What an earlier check or build knows of files, by key: which are unreadable, with why; the top-level column names of
 * those whose footer was read (the mirror's build takes them instead of reading every footer again), and their schema
 * tags where known (files with the same one are read together without binding each one's schema). */
export interface KnownFiles {
  readonly unreadable: ReadonlyMap<string, string>
  readonly columns: ReadonlyMap<string, readonly string[]>
  readonly schemaTags: ReadonlyMap<string, string>
}

/** Nothing known (a mirror without the frame check's answers reads every footer itself). */
export const noKnownFiles = (): KnownFiles => ({ unreadable: new Map(), columns: new Map(), schemaTags: new Map() })

export async function knownFiles(cacheFile: string, objects: readonly ListedObject[]): Promise<KnownFiles> {
  const cache = await currentAnswers(cacheFile)
  const unreadable = new Map<string, string>()
  const columns = new Map<string, string[]>()
  const schemaTags = new Map<string, string>()
  for (const o of objects) {
    const v = cache.get(objectIdentity(o))
    if (typeof v === 'string') unreadable.set(o.key, v)
    else if (typeof v === 'object') {
      columns.set(
        o.key,
        v.columns.map((c) => c.name)
      )
      if (v.schemaTag !== undefined) schemaTags.set(o.key, v.schemaTag)
    }
  }
  return { unreadable, columns, schemaTags }
}
