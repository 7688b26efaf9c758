// The mirror's list of superseded row versions, per keyed parts table: every row of its segments that a later version
// of the same key replaces (the newest-version rule: by folder, then file name, then row position). Reading the
// table is then "every row but those", an anti-join, in place of a window over every version of every key: on a
// year of hourly folders ~40 ms against ~400 ms. A list stands for the rows it was made from (each folder's
// identity and the files left out of it); a view uses it only when it reads exactly those rows, else the window.
// A list is a few files: the one it was made as, then one per new hour's additions (a year's list is ~175,000 rows:
// rewriting it at every hour cost ~40 ms), folded into one file again when there are MAX_LIST_PARTS.
import type { CatalogTable } from './catalog'
import { storedName } from './bookkeeping-columns'
import { IdentityHasher, identityTag } from './identity-tag'
import type { MirroredSegment } from './mirror-plan'
import { quoteIdent, quoteLiteral } from './sql-quote'

/** One of a list's files. */
export interface SupersededPart {
  /** The Parquet file, relative to the mirror folder (named by the list's digest when it was written). */
  readonly file: string
  readonly rows: number
  readonly bytes: number
}

export interface SupersededList {
  /** "schema.table". */
  readonly table: string
  /** Its files, the oldest first: together they name every superseded row version (one may be named twice, which
   * changes nothing: a view reads the rows no file names). */
  readonly parts: readonly SupersededPart[]
  /** The newest folder (its delivery-order key) of the rows it was made from. */
  readonly newest: number
  /** rowsDigest of the folders it was made from: a view compares it to know whether the list fits, and a new hour
   * whether the list can be added to (the digest of the folders up to `newest` is still this one). Like every digest
   * of the mirror's (identityTag), it names rows the mirror made itself; it is not a defence against crafted input. */
  readonly digest: string
}

/** A row version's place, which names it in segments and list alike. */
export const ROW_PLACE = ['__ee_order', '__ee_file_rank', '__ee_row'] as const

/** The rule's order, newest version first: later folder, then later file name, then later row position. */
export const NEWEST_FIRST = '__ee_order DESC, __ee_file_rank DESC, __ee_row DESC'

// What a segment's folders' signatures share, worked out once per segment read from the index (a year holds ~9,000
// folders): whether a folder stands for its rows by its own identity, and the types the rows were read in.
const shared = new WeakMap<MirroredSegment, { readonly ownPlace: boolean; readonly types: string }>()
function sharedOf(s: MirroredSegment): { readonly ownPlace: boolean; readonly types: string } {
  let known = shared.get(s)
  if (!known) {
    // A row's place within its file is the same in any segment, but where a vendor column is named file_row_number
    // (then the place is the row's position in the segment's read) or a folder predates folder identities: the
    // segment's own identity stands in, and a regrouping makes the list anew.
    const ownPlace = !s.columns.some((c) => c.toLowerCase() === 'file_row_number')
    // The types the rows were read in (the type unification rewrites a segment in wider types, same identity).
    known = { ownPlace, types: identityTag(JSON.stringify(Object.entries(s.types).sort(([a], [b]) => (a < b ? -1 : 1)))) }
    shared.set(s, known)
  }
  return known
}

/**
 * One name for the rows of these segments: their folders' signatures in delivery order (however they are grouped),
 * or only those of the folders up to `upTo` (by delivery-order key). The tag of the lines `order:signature`, a
 * folder's signature being `folder|types|left out…`, hashed as they are walked (no text of a year's ~9,000 built).
 */
export function rowsDigest(segments: readonly MirroredSegment[], upTo = Infinity): string {
  return digestsOf(segments, upTo).bounded
}

/** rowsDigest of the segments, whole and up to `upTo`, in one walk: the folders up to it are the first walked. */
function digestsOf(segments: readonly MirroredSegment[], upTo: number): { readonly whole: string; readonly bounded: string } {
  const same = (d: (typeof digests)[number]): boolean => d.segments.length === segments.length && d.segments.every((s, i) => s === segments[i])
  const whole = digests.find((d) => d.upTo === Infinity && same(d))
  const bounded = upTo === Infinity ? whole : digests.find((d) => d.upTo === upTo && same(d))
  if (whole && bounded) return { whole: whole.digest, bounded: bounded.digest }
  const folders: { readonly s: MirroredSegment; readonly f: MirroredSegment['folders'][number] }[] = []
  let sorted = true
  for (const s of segments)
    for (const f of s.folders) {
      if (folders.length > 0 && (folders[folders.length - 1]?.f.order as number) > f.order) sorted = false
      folders.push({ s, f })
    }
  if (!sorted) folders.sort((a, b) => a.f.order - b.f.order)
  const h = new IdentityHasher()
  // Taken before the first folder after the bound (the folders are walked in order).
  let upToTag: string | null = null
  folders.forEach(({ s, f }, i) => {
    if (upToTag === null && f.order > upTo) upToTag = h.tag()
    const { ownPlace, types } = sharedOf(s)
    if (i > 0) h.add('\n')
    h.add(String(f.order)).add(':')
    if (ownPlace && f.identity) h.add(f.identity)
    else h.add(s.identity).add('#').add(String(f.order))
    h.add('|').add(types).add('|')
    f.leftOut.forEach((o, j) => (j === 0 ? h : h.add('|')).add(o.key))
  })
  const out = { whole: h.tag(), bounded: upToTag ?? h.tag() }
  // (Each remembered once: one of the two may have been already.)
  if (!bounded && upTo !== Infinity) remember(segments, upTo, out.bounded)
  if (!whole) remember(segments, Infinity, out.whole)
  return out
}

// The last few digests, by the segments (objects never changed, like signaturesOf's) and the bound: a new hour's build
// asks of the same segments as the views that follow it (~10 ms each on a year). Four: a whole table's digest and its
// digest up to the list's newest folder, for each of the catalog's two keyed parts tables.
const digests: { readonly segments: readonly MirroredSegment[]; readonly upTo: number; readonly digest: string }[] = []
function remember(segments: readonly MirroredSegment[], upTo: number, digest: string): void {
  digests.unshift({ segments: [...segments], upTo, digest })
  digests.length = Math.min(digests.length, 4)
}

/** The list made from exactly the rows of these segments of the table, if there is one. */
export function supersededFor(table: string, segments: readonly MirroredSegment[], lists: readonly SupersededList[]): SupersededList | null {
  const mine = lists.filter((l) => l.table === table)
  if (mine.length === 0) return null
  const digest = rowsDigest(segments)
  return mine.find((l) => l.digest === digest) ?? null
}

/**
 * How to bring a table's list up to its segments: keep it (same rows); add to it, when the folders up to its newest
 * are exactly those it was made from (none changed, went, or came late: their digest is still the list's), so every
 * other folder comes after them in delivery order (a new hour: a row of the new folders supersedes any older version
 * of its key); or make it anew. `after`: the list's newest folder; `newest`: the segments', the new list's.
 */
export type SupersededPlan =
  | { readonly kind: 'keep'; readonly list: SupersededList }
  | {
      readonly kind: 'append'
      readonly list: SupersededList
      readonly after: number
      readonly newest: number
      readonly digest: string
      /** The list's files and the new rows are written as one file (it has MAX_LIST_PARTS already); else the new rows
       * alone are a file of their own beside them. */
      readonly fold: boolean
    }
  | { readonly kind: 'full'; readonly newest: number; readonly digest: string }

/** Files a list has at most: each is read by every query of its table (and fetched by the query pane). */
export const MAX_LIST_PARTS = 8

export function planSuperseded(segments: readonly MirroredSegment[], existing: SupersededList | null): SupersededPlan {
  // (The digest up to the list's newest folder comes with the whole one, from the same walk.)
  const walked = digestsOf(segments, existing && existing.newest >= 0 ? existing.newest : Infinity)
  const digest = walked.whole
  if (existing?.digest === digest) return { kind: 'keep', list: existing }
  const newest = Math.max(-1, ...segments.flatMap((s) => s.folders.map((f) => f.order)))
  if (existing && existing.newest >= 0 && walked.bounded === existing.digest)
    return { kind: 'append', list: existing, after: existing.newest, newest, digest, fold: existing.parts.length >= MAX_LIST_PARTS }
  return { kind: 'full', newest, digest }
}

/** The file name of a list for these rows (relative to the mirror folder); `after`: of the versions a new hour added to
 * a list whose newest folder was `after` (never the name of a whole list: a reader served one never gets the other). */
export const supersededFile = (table: string, digest: string, after?: number): string =>
  `superseded/${table}/${digest}${after === undefined ? '' : `.after-${after}`}.parquet`

/** Whether `file` is a name supersededFile gives a list of `table` (the list's own file, or the versions it added after
 * a folder), and the digest it names. Null for anything else (another folder, another table's, a path that climbs). */
export function supersededFileDigest(table: string, file: string): string | null {
  const folder = `superseded/${table}/`
  if (!file.startsWith(folder)) return null
  return /^([0-9a-z]+)(?:\.after-\d+)?\.parquet$/.exec(file.slice(folder.length))?.[1] ?? null
}

/**
 * Native DuckDB: the rows of the file the plan writes (each superseded version's place), from the table's segment files
 * (`segmentPaths`) and, to add to, the list's files (`listPaths`). A plan that adds writes the versions the new folders
 * supersede, and (when it folds) the list's own rows with them. `newerPaths`: the segment files holding a folder after
 * the list's (the new versions are read from them only: one scan of the year's keys fewer). Null for a plan that keeps
 * its list.
 */
export function supersededSql(
  t: Pick<CatalogTable, 'keyColumn'> & { readonly keyColumn: string },
  plan: SupersededPlan,
  segmentPaths: readonly string[],
  listPaths: readonly string[] = [],
  newerPaths: readonly string[] = segmentPaths
): string | null {
  if (plan.kind === 'keep') return null
  const key = quoteIdent(storedName(t.keyColumn))
  const place = ROW_PLACE.join(', ')
  const read = (paths: readonly string[]): string => `read_parquet([${paths.map(quoteLiteral).join(', ')}], union_by_name = true, hive_partitioning = false)`
  const replaced = (rows: string, where: string): string =>
    `SELECT ${place} FROM ${rows} WHERE ${key} IS NOT NULL${where} QUALIFY row_number() OVER (PARTITION BY ${key} ORDER BY ${NEWEST_FIRST}) > 1`
  if (plan.kind === 'full') return replaced(read(segmentPaths), '')
  if (listPaths.length === 0) throw new Error('Adding to a superseded list needs its files.')
  const newer = `__ee_order > ${plan.after}`
  const newRows = read(newerPaths)
  // Versions up to the list's newest folder that the new folders' keys supersede, and the new folders' own superseded
  // versions: two sets of places that never meet (UNION ALL).
  const added =
    `SELECT ${place} FROM ${read(segmentPaths)} WHERE __ee_order <= ${plan.after} AND ${key} IN (SELECT ${key} FROM ${newRows} WHERE ${newer}) ` +
    `UNION ALL ${replaced(newRows, ` AND ${newer}`)}`
  return plan.fold ? `SELECT ${place} FROM read_parquet([${listPaths.map(quoteLiteral).join(', ')}]) UNION ${added}` : added
}

/** The rows of `rows` (a relation with the row places) that no later version replaced: those the list (its files as
 * the engine knows them) does not name. */
export function withoutSuperseded(rows: string, listFiles: readonly string[]): string {
  const match = ROW_PLACE.map((c) => `__ee_s.${c} = __ee_r.${c}`).join(' AND ')
  const list = `read_parquet([${listFiles.map(quoteLiteral).join(', ')}])`
  return `SELECT * FROM (${rows}) __ee_r WHERE NOT EXISTS (SELECT 1 FROM ${list} __ee_s WHERE ${match})`
}
