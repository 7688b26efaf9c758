// Which data files the logical tables need are not readable Parquet, learned without the engine: each file's ends by
// ranged reads and its footer through the bounded reader (parquet-footer.ts), in parallel (bounded), remembered by
// key + ETag on disk (frame-answers.ts) so a year of files is checked once, with files found unreadable later (damaged
// pages, by the mirror's build). The rule that uses the answer (fallback copy, files left out, the finding) is the core's.
import pLimit from 'p-limit'
import { objectsForViews } from '../../shared/bucket-views'
import { CATALOG } from '../../shared/catalog'
import { type AsOf, type Inventory, copiesPassedOverForColumns, latestReady, readyPartsFolders, unreadableLeftOut } from '../../shared/inventory'
import { isArchived, type ListedObject } from '../../shared/listing'
import { objectIdentity } from '../../shared/identity-tag'
import { type Cache, type Verdict, loadStampedAnswers, mergeAnswers } from './frame-answers'
import { type FooterParser, readParquetFooter, tooShortForParquet } from './parquet-footer'
import { errorMessage } from '../../shared/error-message'
import type { FooterFacts } from '../../shared/delivery-facts'
import { shareSignal } from '../bucket/bounded-wait'

/** Reads the inclusive byte range of an object (a provider's readRange, or a block cache in front of it). */
export type RangeReader = (o: ListedObject, start: number, end: number, signal?: AbortSignal) => Promise<Uint8Array>

/** Files read at once: at 30 ms a request, a cold year's ~26,000 hourly files wait 12 s on the network at 64 (25 s
 * at 32), and each is small. */
const READS_AT_ONCE = 64
/** New files a warm check reads before asking the rules which files they need (an hour of a few tables is a handful). */
const NEW_FILES_READ_AHEAD = 256

export interface FrameCheckOptions extends AsOf {
  /** Remembers each answer by key + ETag (private, atomic, merged under a lock with concurrent checks). */
  readonly cacheFile?: string
  readonly signal?: AbortSignal
  readonly concurrency?: number
  readonly onProgress?: (p: { readonly checked: number; readonly total: number }) => void
  /** The footer workers (default: the process's pool). */
  readonly parser?: FooterParser
}

export interface FrameCheckResult {
  /** Keys of the files that are not readable Parquet. */
  readonly unreadable: Set<string>
  /** Why each of them is not readable ("zero bytes", "its footer claims 16777225 bytes, more than the 8 MiB allowed"). */
  readonly reasons: ReadonlyMap<string, string>
  /** Files whose ends were read from the bucket this time (the rest were known from the cache, or too small to be Parquet). */
  readonly read: number
  /** Rows and columns of each listed data file whose footer was read (now or at an earlier refresh), by key: the
   * monitors' facts, without a request of their own. */
  readonly facts: ReadonlyMap<string, FooterFacts>
  /** Files that could not be read (network, denied): not judged, the engine tells when it downloads them. */
  readonly errors: readonly { readonly key: string; readonly message: string }[]
  /** How many times the rules were asked for the files they need (each asks of every table, ~0.1 s on a year). */
  readonly rounds: number
  /** Files judged unreadable for now only (their parse ran out of time): not remembered, checked again next time. */
  readonly transient: number
}

/**
 * The unreadable files among those the logical tables need (latest ready copies, every ready parts folder). When a
 * full table's newest copy holds one, the copy the rule falls back to is needed in turn, and checked too.
 *
 * In rounds, each judging the files the rules need given what is known unreadable. Files known unreadable before any
 * round (an earlier check's answer, or too short to be Parquet) are assumed so from the first: the rules pass over
 * every copy holding one at once, where learning them one round at a time took a round per copy. The copies passed
 * over (for a read, or for the columns of an empty copy) and the files left out are judged after, and the rounds end
 * as they always did: when the files the rules need, given only what was judged, are all judged. The answer is the
 * same as without the assumption. A warm check of a new hour asks no round at all when it can (withoutRounds).
 */
export async function findUnreadableFiles(inventory: Inventory, readRange: RangeReader, opts: FrameCheckOptions = {}): Promise<FrameCheckResult> {
  const now = opts.now ?? Date.now()
  shareSignal(opts.signal)
  const loaded = await loadStampedAnswers(opts.cacheFile)
  const cache = loaded.cache
  const added: Cache = new Map()
  const unreadable = new Set<string>()
  const reasons = new Map<string, string>()
  const facts = new Map<string, FooterFacts>()
  const checked = new Set<string>()
  const errors: { key: string; message: string }[] = []
  const limit = pLimit(opts.concurrency ?? READS_AT_ONCE)
  let fetched = 0
  let total = 0
  let transient = 0
  const judge = (o: ListedObject, verdict: FooterFacts | string): void => {
    if (typeof verdict === 'object') facts.set(o.key, verdict)
    else {
      unreadable.add(o.key)
      reasons.set(o.key, verdict)
    }
  }
  // Each object's earlier answer, looked up once by its identity (the rounds ask of the same ~9,000 files again).
  const verdicts = new Map<ListedObject, Verdict | undefined>()
  const cachedVerdict = (o: ListedObject): Verdict | undefined => {
    if (verdicts.has(o)) return verdicts.get(o)
    const v = cache.get(objectIdentity(o))
    verdicts.set(o, v)
    return v
  }
  const saveAdded = async (): Promise<void> => {
    if (opts.cacheFile && (added.size > 0 || loaded.earlierFormat)) await mergeAnswers(opts.cacheFile, added, loaded)
  }
  // Reads that failed before the rounds (the network, not the file): said as their errors if the rules need the file.
  const failedReads = new Map<ListedObject, string>()
  /** Reads a file's ends and footer: its verdict (remembered, unless its parse ran out of time), or null when it could
   * not be read (the network, not the file: in failedReads). */
  const readVerdict = async (o: ListedObject): Promise<{ readonly verdict: FooterFacts | string; readonly transient: boolean } | null> => {
    opts.signal?.throwIfAborted()
    if (tooShortForParquet(o.size) === null) fetched++
    try {
      const r = await readParquetFooter(o.size, (start, end, sig) => readRange(o, start, end, sig), {
        ...(opts.signal ? { signal: opts.signal } : {}),
        ...(opts.parser ? { parser: opts.parser } : {})
      })
      const verdict = r.ok ? { rows: r.footer.rows, columns: r.footer.columns, schemaTag: r.footer.schemaTag } : r.why
      // A parse out of time is unreadable now, and checked again next time (the machine may have been busy).
      const transient = !r.ok && r.transient === true
      if (!transient) {
        added.set(objectIdentity(o), verdict)
        verdicts.set(o, verdict)
      }
      return { verdict, transient }
    } catch (e) {
      if (opts.signal?.aborted) throw e
      failedReads.set(o, errorMessage(e))
      return null
    }
  }
  /**
   * The answer when every file a view may read is known but a few new ones, which are read here, and no full table's
   * copy that a view reads holds an unreadable file; else null. A view may read any file of a parts table's folders
   * (ready or not yet: an unreadable one is left out of a ready folder, which is all the rule does with it) and the copy
   * of a full table the rule reads when none of its files is unreadable: if none is, that copy is the one read, and no
   * other (older copies, never read, are not asked about). "As of" an instant asks the rounds.
   */
  const withoutRounds = async (): Promise<FrameCheckResult | null> => {
    if (cache.size === 0 || opts.asOf !== undefined) return null
    const fullRead = new Set(objectsForViews(inventory, { now, tables: CATALOG.filter((t) => t.mode === 'full'), unreadable: new Set() }).map((o) => o.key))
    let readyParts: Set<string> | null = null
    /** A parts table's file found unreadable: said when its folder is ready (a view reads it), as the rounds say it. */
    const leftOut = (o: ListedObject, prefix: string, why: string): void => {
      readyParts ??= new Set(CATALOG.filter((t) => t.mode === 'parts').flatMap((t) => readyPartsFolders(inventory, t, { now }).map((f) => f.ref.prefix)))
      if (!readyParts.has(prefix)) return
      unreadable.add(o.key)
      reasons.set(o.key, why)
    }
    const unknown: { readonly o: ListedObject; readonly parts: boolean; readonly prefix: string }[] = []
    for (const folder of inventory.folders.values()) {
      const mode = folder.ref.catalog?.mode
      for (const o of folder.dataFiles) {
        if (!o.key.endsWith('.parquet')) continue
        // (Not remembered per object: the rounds, when they follow, look each answer up again.)
        const known = cache.get(objectIdentity(o))
        // (Every file's facts known from before are history for the monitors, as below.)
        if (typeof known === 'object') facts.set(o.key, known)
        const parts = mode === 'parts'
        if (!(parts || (mode === 'full' && fullRead.has(o.key))) || !checkable(o) || typeof known === 'object') continue
        if (typeof known === 'string') {
          if (!parts) return null
          leftOut(o, folder.ref.prefix, known)
        } else if (unknown.push({ o, parts, prefix: folder.ref.prefix }) > NEW_FILES_READ_AHEAD) return null
      }
    }
    const judged = await Promise.all(
      unknown.map(({ o, parts, prefix }) =>
        limit(async (): Promise<boolean> => {
          const r = await readVerdict(o)
          if (r === null || r.transient) return false
          if (typeof r.verdict === 'object') facts.set(o.key, r.verdict)
          else if (parts) leftOut(o, prefix, r.verdict)
          else return false
          return true
        })
      )
    )
    if (!judged.every(Boolean)) return null
    opts.onProgress?.({ checked: facts.size + unreadable.size, total: facts.size + unreadable.size })
    await saveAdded()
    return { unreadable, reasons, facts, read: fetched, errors, rounds: 0, transient }
  }
  /** A data file the check can judge: Parquet by its name, and not archived (not readable until restored). */
  const checkable = (o: ListedObject): boolean => o.key.endsWith('.parquet') && !isArchived(o, now)
  /** Judges files not judged yet: those answered before at once (a warm year is ~9,000 of them, all known), the rest read. */
  const check = async (objects: readonly ListedObject[]): Promise<void> => {
    const todo = objects.filter((o) => checkable(o) && !checked.has(o.key))
    if (todo.length === 0) return
    total += todo.length
    const toRead: ListedObject[] = []
    for (const o of todo) {
      const known = cachedVerdict(o)
      // `true`: readable, checked by a version that kept no facts: read once more for them.
      if (known === undefined || known === true) toRead.push(o)
      else {
        checked.add(o.key)
        judge(o, known)
      }
    }
    if (toRead.length < todo.length) opts.onProgress?.({ checked: checked.size, total })
    await Promise.all(
      toRead.map((o) =>
        limit(async () => {
          checked.add(o.key)
          // Read before the rounds and failed: said as it failed then, not read again.
          const failed = failedReads.get(o)
          const r = failed === undefined ? await readVerdict(o) : null
          if (r === null) {
            errors.push({ key: o.key, message: failed ?? (failedReads.get(o) as string) })
            return
          }
          if (r.transient) transient++
          judge(o, r.verdict)
          opts.onProgress?.({ checked: checked.size, total })
        })
      )
    )
  }
  // A warm check with a few new files (a new hour): the new files are read, and when every full table's copy a view
  // reads is readable, the rules need not be asked which files they read (~50 ms on a year). Otherwise the rounds judge
  // as below, from what was read here: a file the rules do not need is never said unreadable.
  const settled = await withoutRounds()
  if (settled) return settled
  // (What it judged is judged again by the rounds, from the answers it learnt.)
  facts.clear()
  unreadable.clear()
  reasons.clear()
  // Known before any round: an earlier check's answer, or too short to be Parquet (see the doc comment above).
  const knownBad: string[] = []
  for (const o of inventory.objects) if (checkable(o) && (tooShortForParquet(o.size) !== null || typeof cachedVerdict(o) === 'string')) knownBad.push(o.key)
  const assumedNow = (): Set<string> => new Set([...knownBad, ...unreadable])
  // A round that found no unreadable file beyond those it assumed leaves the files the rules read as they were: the last.
  let assumedUnreadable = assumedNow()
  let rounds = 0
  for (;;) {
    rounds++
    await check(objectsForViews(inventory, { ...opts, unreadable: assumedUnreadable }))
    const next = assumedNow()
    if (next.size === assumedUnreadable.size) break
    assumedUnreadable = next
  }
  // The copies passed over and the files left out, judged (a known unreadable file not judged would be no finding): the
  // copies the rule passed over, and those a full table's empty copy passed over for its columns (previousCopyWithFiles).
  const assumed = { ...opts, unreadable: assumedUnreadable }
  await check(
    CATALOG.flatMap((t) => {
      const out = unreadableLeftOut(inventory, t, assumed)
      // (Nothing is passed over when nothing is assumed unreadable: a year of readable files asks nothing more.)
      const newest = t.mode === 'full' && assumedUnreadable.size > 0 ? latestReady(inventory, t, assumed) : null
      const forColumns = newest && newest.dataFiles.length === 0 ? copiesPassedOverForColumns(inventory, t, newest, assumed) : []
      return [...out.files, ...out.copies.flatMap((c) => c.folder.dataFiles), ...forColumns.flatMap((f) => f.dataFiles)]
    })
  )
  // Then the rules given only what was judged, in case a file assumed unreadable was not judged and the rules need it.
  // Nothing to do when what was judged unreadable is what was assumed (a year of readable files: neither holds a file).
  const judgedAsAssumed = unreadable.size === assumedUnreadable.size && [...assumedUnreadable].every((k) => unreadable.has(k))
  while (!judgedAsAssumed) {
    const before = checked.size
    rounds++
    await check(objectsForViews(inventory, { ...opts, unreadable }))
    if (checked.size === before) break
  }
  await saveAdded()
  // Files read at earlier refreshes (a full table's earlier copies, read while they were the newest) give history too.
  for (const o of inventory.objects) {
    if (facts.has(o.key) || !o.key.endsWith('.parquet')) continue
    const id = objectIdentity(o)
    const known = added.get(id) ?? cache.get(id)
    if (typeof known === 'object') facts.set(o.key, known)
  }
  return { unreadable, reasons, facts, read: fetched, errors, rounds, transient }
}
