// Lists a bucket into an index at speed: the catalog's tables are listed per month in parallel (bounded),
// tables the catalog does not know are found by delimiter listings, and a refresh of an existing index lists
// only what can have changed (src/shared/listing-plan.ts). A prefix that fails (access denied, say) is
// reported, the rest finishes, and the next refresh lists that prefix again.
import pLimit from 'p-limit'
import { CATALOG } from '../../shared/catalog'
import { detectVersion } from '../../shared/inventory'
import { type ListedObject, sameListedObject } from '../../shared/listing'
import { type IndexedUnit, type ListingUnit, coldUnits, coveredBy, refreshUnits } from '../../shared/listing-plan'
import { type BucketError, bucketError, classifyFsError } from './bucket-errors'
import type { BucketProvider } from './bucket-provider'
import { tablePrefix } from '../../shared/bucket-key'
import { shareSignal } from './bounded-wait'

export interface BucketIndex {
  readonly location: string
  /** When the index was last refreshed (UTC ms). */
  readonly refreshedAt: number
  readonly units: readonly IndexedUnit[]
  readonly objects: ReadonlyMap<string, ListedObject>
}

export interface ListingProblem {
  readonly prefix: string
  readonly error: BucketError
}

export interface IndexProgress {
  readonly prefixesDone: number
  readonly prefixesTotal: number
  readonly objects: number
}

export interface RefreshResult {
  readonly index: BucketIndex
  readonly problems: readonly ListingProblem[]
  readonly mode: 'cold' | 'incremental'
  /** Listing requests made (pages). */
  readonly requests: number
  /** Objects the listings returned (an incremental refresh returns only what is new or re-listed). */
  readonly objectsListed: number
}

export interface RefreshOptions {
  readonly now?: number
  /** Listings in flight at once. */
  readonly concurrency?: number
  readonly signal?: AbortSignal
  readonly onProgress?: (p: IndexProgress) => void
  /** Ignore the previous index and list everything again. */
  readonly full?: boolean
}

const maxKey = (a: string | null, b: string | null): string | null =>
  a === null ? b : b === null ? a : Buffer.compare(Buffer.from(a), Buffer.from(b)) >= 0 ? a : b

class Run {
  readonly limit: ReturnType<typeof pLimit>
  readonly problems: ListingProblem[] = []
  readonly pending: Promise<void>[] = []
  requests = 0
  objectsSeen = 0
  done = 0
  total = 0

  constructor(
    readonly provider: BucketProvider,
    readonly opts: RefreshOptions
  ) {
    this.limit = pLimit(opts.concurrency ?? 64)
  }

  progress(): void {
    try {
      this.opts.onProgress?.({ prefixesDone: this.done, prefixesTotal: this.total, objects: this.objectsSeen })
    } catch {
      // A failing progress callback must not break the listing.
    }
  }

  /** Queues one listing (all its pages); failures become problems of that prefix. */
  spawn(prefix: string, body: (p: string) => Promise<void>): void {
    this.total++
    const task = this.limit(async () => {
      this.opts.signal?.throwIfAborted()
      try {
        await body(prefix)
      } catch (e) {
        if (this.opts.signal?.aborted) throw e
        const err = (e as { name?: string }).name === 'BucketError' ? (e as BucketError) : classifyFsError(e, prefix)
        this.problems.push({ prefix, error: err })
      } finally {
        this.done++
        this.progress()
      }
    })
    // settle() awaits every task in order; a cancelled one rejecting meanwhile is not "unhandled".
    task.catch(() => {})
    this.pending.push(task)
  }

  async delimited(prefix: string): Promise<{ objects: ListedObject[]; prefixes: string[] }> {
    const objects: ListedObject[] = []
    const prefixes: string[] = []
    for await (const page of this.provider.list(prefix, { delimiter: '/', ...(this.opts.signal ? { signal: this.opts.signal } : {}) })) {
      this.requests++
      objects.push(...page.objects)
      prefixes.push(...page.prefixes)
    }
    this.objectsSeen += objects.length
    return { objects, prefixes }
  }

  async flat(unit: ListingUnit): Promise<ListedObject[]> {
    const out: ListedObject[] = []
    for await (const page of this.provider.list(unit.prefix, {
      ...(unit.startAfter ? { startAfter: unit.startAfter } : {}),
      ...(this.opts.signal ? { signal: this.opts.signal } : {})
    })) {
      this.requests++
      out.push(...page.objects)
      this.objectsSeen += page.objects.length
      this.progress()
    }
    return out
  }

  /** Waits for every queued listing, including those queued by listings that finished meanwhile. */
  async settle(): Promise<void> {
    let failure: unknown = null
    for (let i = 0; i < this.pending.length; i++) {
      try {
        await this.pending[i]
      } catch (e) {
        // Only a cancellation escapes a listing task; the queue is dropped, the rest still awaited.
        failure ??= e
        this.limit.clearQueue()
      }
    }
    if (this.opts.signal?.aborted) throw bucketError('cancelled', '', 'Listing cancelled')
    if (failure) throw failure
  }
}

/** A map of listed objects copied at its first change; setting an object equal to the one held is no change. */
class ObjectsOnWrite {
  private map: Map<string, ListedObject>
  private copied = false

  constructor(base: ReadonlyMap<string, ListedObject>) {
    // Never written before writable() copies it: the base is the previous index's own map (which the app may still show,
    // and which indexChanged compares by identity).
    this.map = base as Map<string, ListedObject>
  }

  /** The objects now: the base itself while nothing changed. */
  get current(): ReadonlyMap<string, ListedObject> {
    return this.map
  }

  keys(): IterableIterator<string> {
    return this.map.keys()
  }

  set(o: ListedObject): void {
    const held = this.map.get(o.key)
    if (held !== undefined && sameListedObject(held, o)) return
    this.writable().set(o.key, o)
  }

  delete(key: string): void {
    if (this.map.has(key)) this.writable().delete(key)
  }

  private writable(): Map<string, ListedObject> {
    if (!this.copied) {
      this.map = new Map(this.map)
      this.copied = true
    }
    return this.map
  }
}

/** Prefixes, asked whether one starts a key. Indexed by their first three path segments (a table's folder): a key is
 * compared with the few under its own, where each key was compared with every prefix (15 ms of a warm year). */
class PrefixSet {
  private readonly byHead = new Map<string, string[]>()
  private readonly short: string[] = []
  readonly size: number

  constructor(prefixes: readonly string[]) {
    this.size = prefixes.length
    for (const p of prefixes) {
      const head = headOf(p)
      if (head === null) this.short.push(p)
      else {
        const list = this.byHead.get(head)
        if (list) list.push(p)
        else this.byHead.set(head, [p])
      }
    }
  }

  holds(key: string): boolean {
    if (this.short.some((p) => key.startsWith(p))) return true
    const head = headOf(key)
    return head !== null && (this.byHead.get(head)?.some((p) => key.startsWith(p)) ?? false)
  }
}

/** The text up to and including the third "/", or null when there are fewer. */
function headOf(s: string): string | null {
  let at = -1
  for (let i = 0; i < 3; i++) {
    at = s.indexOf('/', at + 1)
    if (at === -1) return null
  }
  return s.slice(0, at + 1)
}

/**
 * Lists the bucket behind `provider` into an index. With a previous index (of the same location) and not
 * `full`, lists only what can have changed since.
 */
export async function refreshBucketIndex(provider: BucketProvider, previous: BucketIndex | null, opts: RefreshOptions = {}): Promise<RefreshResult> {
  const now = opts.now ?? Date.now()
  shareSignal(opts.signal)
  const run = new Run(provider, opts)
  const incremental = previous !== null && previous.location === provider.location && !opts.full
  // The previous index's objects, copied at the first change only: a warm refresh that finds nothing new keeps the same
  // map (no copy of a year's 20,000 objects, and nothing to compare before saving, issue 23).
  const objects = new ObjectsOnWrite(incremental ? previous.objects : new Map())
  const units = new Map<string, IndexedUnit>()
  // Keys under a prefix listed in full that the listing no longer returned are dropped in one pass at the end.
  const replaced: string[] = []
  const relisted = new Set<string>()
  const record = (unit: ListingUnit, listed: ListedObject[]): void => {
    if (unit.replace) {
      replaced.push(unit.prefix)
      for (const o of listed) relisted.add(o.key)
    }
    let last: string | null = unit.startAfter ?? null
    for (const o of listed) {
      objects.set(o)
      last = maxKey(last, o.key)
    }
    // A day re-listed for retention belongs to a month unit: keep the month's last key as it was.
    const prev = units.get(unit.prefix)
    units.set(unit.prefix, { prefix: unit.prefix, lastKey: maxKey(prev?.lastKey ?? null, last) })
  }
  const keepFolders = (unit: ListingUnit, listed: { objects: ListedObject[]; prefixes: string[] }): void => {
    const alive = new Set(listed.prefixes)
    const dead: string[] = []
    for (const k of objects.keys()) {
      if (!k.startsWith(unit.prefix)) continue
      const slash = k.indexOf('/', unit.prefix.length)
      if (slash !== -1 && !alive.has(k.slice(0, slash + 1))) dead.push(k)
    }
    for (const k of dead) objects.delete(k)
    for (const o of listed.objects) objects.set(o)
  }
  // Units listed flat: one that fails is kept in the index marked for a retry, so that its objects, missing now,
  // are listed by the next refresh (else an old month that failed once would never be listed again).
  const flatUnits: ListingUnit[] = []
  const listUnit = (unit: ListingUnit): void => {
    if (!unit.foldersOnly) flatUnits.push(unit)
    run.spawn(unit.prefix, async () => (unit.foldersOnly ? keepFolders(unit, await run.delimited(unit.prefix)) : record(unit, await run.flat(unit))))
  }

  if (incremental) {
    for (const u of previous.units) units.set(u.prefix, u)
    // The greatest key of each listing unit includes the newest manifest key, if any: enough for the rule.
    const onV2 = detectVersion(previous.units.map((u) => u.lastKey ?? '')) === 'v2'
    for (const unit of refreshUnits(previous.units, previous.objects.keys(), now, previous.refreshedAt, onV2)) listUnit(unit)
  } else {
    const planned = coldUnits(now)
    for (const unit of planned) listUnit(unit)
    // Delimiter listings, in parallel with the above, find what the plan does not cover: tables the catalog
    // does not know, folders dated outside the months planned, files sitting where no folder should be.
    const extra: ListingUnit[] = []
    const uncovered = (prefix: string): void => {
      if (coveredBy(planned, prefix) || coveredBy(extra, prefix)) return
      const unit = { prefix, replace: true }
      extra.push(unit)
      listUnit(unit)
    }
    // Depth 0 is the root, 1 a version, 2 a schema, 3 a table (or v2/_manifests/), whose folders are partitions.
    const separately = new Set(CATALOG.filter((c) => c.mode === 'parts').map((c) => tablePrefix(c, 'v2')))
    const discover = (prefix: string, depth: number): void =>
      run.spawn(prefix, async (p) => {
        const { objects: direct, prefixes } = await run.delimited(p)
        for (const o of direct) objects.set(o)
        for (const sub of prefixes) {
          if (coveredBy(planned, sub)) continue
          if (depth === 0) {
            // Folders beside v1/ and v2/ are not part of the export: not listed.
            if (sub === 'v1/' || sub === 'v2/') discover(sub, 1)
          } else if (depth === 1) {
            if (!sub.endsWith('/_manifests/')) discover(sub, 2)
          } else if (depth === 2) {
            if (!separately.has(sub)) uncovered(sub)
          } else {
            uncovered(sub)
          }
        }
      })
    discover('', 0)
    for (const t of CATALOG.filter((c) => c.mode === 'parts')) discover(tablePrefix(t, 'v2'), 3)
    discover('v2/_manifests/', 3)
  }
  await run.settle()
  if (opts.signal?.aborted) throw bucketError('cancelled', '', 'Listing cancelled')
  const failed = new Set(run.problems.map((p) => p.prefix))
  for (const unit of flatUnits) {
    if (!failed.has(unit.prefix)) continue
    const before = incremental ? previous.units.find((u) => u.prefix === unit.prefix) : undefined
    units.set(unit.prefix, { prefix: unit.prefix, lastKey: before?.lastKey ?? null, retry: true })
  }
  const gone = new PrefixSet(replaced.filter((p) => !failed.has(p)))
  if (gone.size > 0) {
    const dead: string[] = []
    for (const k of objects.keys()) if (!relisted.has(k) && gone.holds(k)) dead.push(k)
    for (const k of dead) objects.delete(k)
  }
  const sortedUnits = [...units.values()].sort((a, b) => (a.prefix < b.prefix ? -1 : 1))
  return {
    index: { location: provider.location, refreshedAt: now, units: sortedUnits, objects: objects.current },
    problems: run.problems,
    mode: incremental ? 'incremental' : 'cold',
    requests: run.requests,
    objectsListed: run.objectsSeen
  }
}
