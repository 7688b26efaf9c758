// The compacted mirror of a connection: the parts tables' history as few immutable Parquet files (segments), built
// by native DuckDB from the file store's whole copies, per the plan in src/shared/mirror-plan.ts. A refresh builds
// only segments whose folders changed; each segment is written under a new name and renamed; the index is written
// last, so a crash (even kill -9) leaves the previous mirror valid, and the next refresh completes it.
import { randomUUID } from 'node:crypto'
import * as v from 'valibot'
import { chmod, copyFile, mkdir, readFile, readdir, rename, rm, stat } from 'node:fs/promises'
import { dirname, join, resolve } from 'node:path'
import type { MirrorProgressView } from '../../shared/api/views'
import { formatBytes } from '../../shared/counts'
import { CATALOG } from '../../shared/catalog'
import type { Inventory } from '../../shared/inventory'
import { identityTag } from '../../shared/identity-tag'
import { type ListedObject, isArchived } from '../../shared/listing'
import { type MirroredSegment, type SegmentFolder, type SegmentPlan, folderIdentity, planMirror, typesAgree } from '../../shared/mirror-plan'
import {
  type SupersededList,
  type SupersededPart,
  type SupersededPlan,
  planSuperseded,
  supersededFile,
  supersededFileDigest,
  supersededSql
} from '../../shared/mirror-superseded'
import { MIRROR_COLUMNS, segmentBuildSql } from '../../shared/mirror-sql'
import { SupersededListSchema } from '../../shared/api/core-values'
import { storedName, vendorName } from '../../shared/bookkeeping-columns'
import { quoteIdent, quoteLiteral } from '../../shared/sql-quote'
import { NativeEngine } from '../engine/native-engine'
import { PRIVATE_FILE_MODE, ensurePrivateDir, writePrivateFile } from '../files/private-file'
import type { FileStore, StoreProgress } from '../store/file-store'
import { type KnownFiles, knownFiles, noKnownFiles, recordUnreadable } from '../store/frame-answers'
import { errorMessage } from '../../shared/error-message'
import { swallowed } from '../log/main-log'

/** A build's progress as main counts it: the contract's view without what the connection adds (its start, the time left). */
export interface MirrorProgress extends Omit<MirrorProgressView, 'startedAt' | 'secondsLeft'> {
  /** Per parts table: folders the mirror holds of those the rules read now (a table reads the mirror once it holds all). */
  readonly coverage: readonly TableCoverage[]
}

export interface TableCoverage {
  readonly table: string
  readonly folders: number
  readonly foldersTotal: number
}

export interface MirrorRefresh {
  readonly built: number
  readonly kept: number
  readonly removed: number
  /** Segments that could not be built (their files could not be fetched or read), with why. */
  readonly problems: readonly { readonly table: string; readonly period: string; readonly message: string }[]
  /** Why the build stopped before the end (the disk limit), or null when it went through. */
  readonly stopped: string | null
  /** Files this build found unreadable (their pages: the footer was sound), left out of their segments and recorded. */
  readonly unreadable: readonly { readonly key: string; readonly why: string }[]
  /** Keyed tables whose superseded list could not be made this time: their views rank every version until a later build. */
  readonly listsFailed: readonly string[]
}

export interface MirrorRefreshOptions {
  readonly signal?: AbortSignal
  readonly onProgress?: (p: MirrorProgress) => void
  /** Bytes this connection's mirror and downloaded files may use; a segment that would go past it is not built. */
  readonly limitBytes?: number
  /** Bytes the connection's file store holds already (counted against the limit). */
  readonly storeBytes?: number
  /** At most this often the index is written during a build (it always is at the end, on cancel and at the limit). */
  readonly checkpointMs?: number
  /** An engine to build with, the caller's (the CLI's query engine, started while the bucket was listed): one that
   * reads the store's and this mirror's folders, or every build fails on a permission error. Left open; without it the
   * build opens and closes its own (~50 ms). */
  readonly engine?: Promise<NativeEngine>
}

const INDEX_VERSION = 4
/** The index version whose segments store every vendor column under its own name (storedName came in 4). */
const STORED_NAMES_BEFORE = 3

function isSegment(v: unknown): v is MirroredSegment {
  const s = v as MirroredSegment
  return (
    typeof s === 'object' &&
    s !== null &&
    typeof s.table === 'string' &&
    typeof s.period === 'string' &&
    typeof s.identity === 'string' &&
    typeof s.file === 'string' &&
    typeof s.rows === 'number' &&
    Array.isArray(s.columns) &&
    Array.isArray(s.columnSets) &&
    typeof s.types === 'object' &&
    Array.isArray(s.folders)
  )
}

export interface MirrorOptions {
  /** The connection's file-check answers (frame-answers.ts): files known unreadable there never reach the
   * engine, files a build finds unreadable are recorded there, so the next refresh reports them, and each file's
   * columns known there are not read from its footer again. */
  readonly unreadableFile?: string
}

/** What the index names: the built segments, and each keyed parts table's superseded list (mirror-superseded.ts). */
interface MirrorIndex {
  readonly segments: readonly MirroredSegment[]
  readonly superseded: readonly SupersededList[]
}

/** A list entry of the index as this version writes it, naming its own file under the mirror folder, for a keyed parts
 * table of the catalog (an entry that fails is dropped, and the list made again). */
function isSupersededList(x: unknown): x is SupersededList {
  if (!v.is(SupersededListSchema, x)) return false
  const known = CATALOG.some((t) => t.mode === 'parts' && t.keyColumn !== null && `${t.schema}.${t.table}` === x.table)
  // Its files are its own: each named as a list's file of its table, the newest for its own digest.
  const digests = x.parts.map((p) => supersededFileDigest(x.table, p.file))
  return known && digests.length > 0 && digests.every((d) => d !== null) && digests.at(-1) === x.digest
}

/**
 * Each mirror's index as last read or written, by its file's path, for every Mirror of that folder in this process:
 * the mirror owns its index (no other process writes it), so it is read from disk once and replaced when written.
 */
const indexes = new Map<string, Promise<MirrorIndex>>()

export class Mirror {
  constructor(
    /** The connection's mirror folder. */
    readonly dir: string,
    private readonly store: FileStore,
    private readonly opts: MirrorOptions = {}
  ) {}

  /** The mirror's index: what its segments are (the CLI's saved views are keyed by it). */
  get indexFile(): string {
    return resolve(this.dir, 'index.json')
  }

  /** The built segments; none when there is no index yet or it cannot be read (the next refresh rebuilds). */
  async segments(): Promise<MirroredSegment[]> {
    return [...(await this.index()).segments]
  }

  /** The keyed parts tables' superseded lists (each names the rows it was made from: a view checks it fits). */
  async superseded(): Promise<SupersededList[]> {
    return [...(await this.index()).superseded]
  }

  private index(): Promise<MirrorIndex> {
    let known = indexes.get(this.indexFile)
    if (!known) indexes.set(this.indexFile, (known = this.readIndex()))
    return known
  }

  private async readIndex(): Promise<MirrorIndex> {
    try {
      const parsed = JSON.parse(await readFile(this.indexFile, 'utf8')) as { version?: number; segments?: unknown[]; superseded?: unknown[] }
      const known = parsed.version === INDEX_VERSION || parsed.version === STORED_NAMES_BEFORE
      if (!known || !Array.isArray(parsed.segments) || !parsed.segments.every(isSegment)) return { segments: [], superseded: [] }
      // Lists of an older index, or of a shape not ours, are made again (a view without its list ranks the versions).
      const superseded = parsed.version === INDEX_VERSION && Array.isArray(parsed.superseded) ? parsed.superseded.filter(isSupersededList) : []
      // Before version 4 a vendor column starting with "_" was stored under its own name (and could meet the mirror's):
      // such a segment is built again, every other one is kept.
      const segments = parsed.version === INDEX_VERSION ? parsed.segments : parsed.segments.filter((s) => !s.columnSets.flat().some((c) => c.startsWith('_')))
      return { segments, superseded }
    } catch {
      return { segments: [], superseded: [] }
    }
  }

  /** Writes the index (atomically: until it is renamed, the previous one stands), then remembers it. */
  private async writeIndex(segments: readonly MirroredSegment[], superseded: readonly SupersededList[]): Promise<void> {
    const written = { segments: [...segments], superseded: [...superseded] }
    await writePrivateFile(this.indexFile, JSON.stringify({ version: INDEX_VERSION, ...written }))
    indexes.set(this.indexFile, Promise.resolve(written))
  }

  /** Where a segment's file is. */
  pathOf(file: string): string {
    return join(this.dir, ...file.split('/'))
  }

  /** Bytes on disk, per table (its segments and its superseded list). */
  async usage(): Promise<{ readonly total: number; readonly byTable: Readonly<Record<string, number>> }> {
    const byTable: Record<string, number> = {}
    const { segments, superseded } = await this.index()
    for (const s of segments) byTable[s.table] = (byTable[s.table] ?? 0) + s.bytes
    for (const l of superseded) for (const part of l.parts) byTable[l.table] = (byTable[l.table] ?? 0) + part.bytes
    return { total: Object.values(byTable).reduce((a, b) => a + b, 0), byTable }
  }

  /** Removes the mirror (the next refresh builds it again); not while a build runs (ConnectionMirror stops it first). */
  async clear(): Promise<void> {
    try {
      await rm(this.dir, { recursive: true, force: true })
    } finally {
      // Read again: whatever of the folder a failed removal left is what the index is now.
      indexes.delete(this.indexFile)
    }
  }

  /**
   * Brings the mirror to the plan for this inventory at `now`: builds what changed, keeps the rest. The index is
   * written as segments are built (at most every `checkpointMs`, and on a cancel), each time naming only finished
   * files: a crash or a cancel keeps what was built, and the next refresh goes on from there. A table whose
   * segments still disagree on a column's type (the build stopped before unifying them) reads the raw files.
   */
  async refresh(inventory: Inventory, now: number, opts: MirrorRefreshOptions = {}): Promise<MirrorRefresh> {
    // An archived file downloaded while it was restored is read from that copy, for good.
    const held = new Set<string>()
    for (const o of inventory.objects) if (o.key.endsWith('.parquet') && isArchived(o, now) && (await this.store.holdsDownloaded(o))) held.add(o.key)
    const plan = planMirror(inventory, now, held)
    const keyOf = (s: { table: string; period: string; identity: string }): string => `${s.table}|${s.period}|${s.identity}`
    const existing = new Map<string, MirroredSegment>()
    const before = await this.index()
    for (const s of before.segments) if (await this.exists(s)) existing.set(keyOf(s), s)
    const next: MirroredSegment[] = []
    const todo = plan.filter((p) => {
      const kept = existing.get(keyOf(p))
      if (kept) next.push(kept)
      return !kept
    })
    const problems: { table: string; period: string; message: string }[] = []
    const listsFailed: string[] = []
    const found: { key: string; why: string }[] = []
    const filesOf = (p: SegmentPlan): ListedObject[] => p.folders.flatMap((f) => f.files.map((x) => x.object))
    const total = {
      segmentsTotal: todo.length,
      tablesTotal: new Set(todo.map((p) => p.table)).size,
      foldersTotal: todo.reduce((n, p) => n + p.folders.length, 0),
      filesTotal: todo.reduce((n, p) => n + filesOf(p).length, 0),
      bytesTotal: todo.reduce((n, p) => n + filesOf(p).reduce((m, o) => m + o.size, 0), 0)
    }
    const done = { segments: 0, tables: 0, folders: 0, files: 0, bytes: 0 }
    const planned = new Map<string, number>()
    for (const p of plan) planned.set(p.table, (planned.get(p.table) ?? 0) + p.folders.length)
    for (const t of CATALOG) if (t.mode === 'parts' && !planned.has(`${t.schema}.${t.table}`)) planned.set(`${t.schema}.${t.table}`, 0)
    let coverage: TableCoverage[] = []
    const cover = (): void => {
      coverage = [...planned].map(([table, foldersTotal]) => ({
        table,
        foldersTotal,
        folders: next.filter((s) => s.table === table).reduce((n, s) => n + s.folders.length, 0)
      }))
    }
    cover()
    let table = ''
    const report = (current: { files: number; bytes: number } = { files: 0, bytes: 0 }): void =>
      opts.onProgress?.({ ...total, ...done, files: done.files + current.files, bytes: done.bytes + current.bytes, table, coverage })
    report()
    const order = new Map(plan.map((p, i) => [`${p.table}|${p.period}`, i]))
    let written = Date.now()
    // In plan order (also what type unification reads, so a resumed build unifies exactly as an uninterrupted one).
    const sortNext = (): MirroredSegment[] => next.sort((a, b) => (order.get(`${a.table}|${a.period}`) ?? 0) - (order.get(`${b.table}|${b.period}`) ?? 0))
    // Lists made from rows the segments no longer hold are kept until replaced: a view checks that its list fits.
    let lists: SupersededList[] = []
    for (const l of before.superseded) if (await this.holds(l.parts)) lists.push(l)
    const writeIndex = async (): Promise<void> => {
      sortNext()
      await this.writeIndex(next, lists)
      written = Date.now()
    }
    let stopped: string | null = null
    let used = (opts.storeBytes ?? 0) + next.reduce((n, s) => n + s.bytes, 0)
    const tables = [...planned.keys()]
    const disagree = (t: string): boolean => !typesAgree(next.filter((s) => s.table === t && s.rows > 0))
    if (todo.length > 0 || tables.some(disagree)) {
      await privateDir(this.dir)
      await this.withEngine(opts.engine, [this.store.readableRoot, this.dir], async (engine) => {
        // What each segment downloads, known before anything is: the limit is checked against it.
        const needs = new Map<SegmentPlan, number>()
        const missing = new Set((await this.store.missing(todo.flatMap((p) => filesOf(p)))).map((o) => o.key))
        for (const p of todo)
          needs.set(
            p,
            filesOf(p).reduce((n, o) => n + (missing.has(o.key) ? o.size : 0), 0)
          )
        const needTotal = [...needs.values()].reduce((a, b) => a + b, 0)
        // What the frame check knows of the files (unreadable ones, each one's columns and schema tag), read once for the
        // whole build.
        const known = this.opts.unreadableFile
          ? await knownFiles(
              this.opts.unreadableFile,
              todo.flatMap((p) => filesOf(p))
            )
          : noKnownFiles()
        // Downloads run ahead of the compaction, in segment order: while DuckDB compacts one segment, the files of the
        // next ones arrive (each build's own ensure joins the downloads already under way). Its failures are each
        // build's to report; it is awaited before returning, so nothing is written after the refresh ends. Not when the
        // whole build might not fit in the limit (compacted files counted at their raw size, more than they take):
        // then each segment downloads its own files, and the build stops before the one that would go past it.
        const fits = opts.limitBytes === undefined || used + needTotal + total.bytesTotal <= opts.limitBytes
        const ahead = fits
          ? this.store
              .ensure(
                todo.flatMap((p) => filesOf(p)),
                opts.signal ? { signal: opts.signal } : {}
              )
              // Downloads ahead of compaction: a failure is met again, and said, when the segment is compacted.
              .catch(swallowed('downloading ahead of the compaction'))
          : Promise.resolve()
        try {
          build: for (const t of tables) {
            const mine = todo.filter((p) => p.table === t)
            for (const p of mine) {
              opts.signal?.throwIfAborted()
              table = p.table
              const files = filesOf(p)
              const need = needs.get(p) ?? 0
              if (opts.limitBytes !== undefined && used + need > opts.limitBytes) {
                stopped = `The local mirror stopped at its limit: it uses ${formatBytes(used)} of the ${formatBytes(opts.limitBytes)} allowed for this connection, and ${t} (${p.period}) needs ${formatBytes(need)} more. Raise the limit or clear the mirror; what it does not hold yet is read from the bucket's files meanwhile.`
                break build
              }
              report()
              const bytes = files.reduce((n, o) => n + o.size, 0)
              try {
                const built = await this.build(
                  engine,
                  p,
                  opts.signal,
                  (sp) => report({ files: files.length - sp.filesTotal + sp.files, bytes: bytes - sp.bytesTotal + sp.bytes }),
                  found,
                  known
                )
                next.push(built)
                used += need + built.bytes
              } catch (e) {
                if (opts.signal?.aborted) throw e
                problems.push({ table: p.table, period: p.period, message: errorMessage(e) })
              }
              done.segments++
              done.folders += p.folders.length
              done.files += files.length
              done.bytes += bytes
              cover()
              report()
              if (Date.now() - written >= (opts.checkpointMs ?? 2000)) await writeIndex()
            }
            if (disagree(t)) await this.unifyTypes(engine, sortNext(), t)
            if (mine.length > 0) done.tables++
          }
          // Stopped at the disk limit: the tables read their raw files meanwhile, and nothing more is written.
          if (stopped === null) lists = await this.updateSuperseded(engine, sortNext(), lists, listsFailed, opts.signal)
        } catch (e) {
          // Cancelled: the segments finished so far stay (the index names them), and the next build goes on from there.
          if (opts.signal?.aborted) await writeIndex().catch(swallowed('saving the mirror index of a cancelled build', 'warn'))
          throw e
        } finally {
          await ahead
        }
      })
      table = ''
      report()
    } else if (supersededPlans(next, lists).some((p) => p.plan.kind !== 'keep')) {
      // No segment changed, but a list is missing or stale (an index written before lists, a build cancelled before them).
      lists = await this.withEngine(opts.engine, [this.dir], (engine) => this.updateSuperseded(engine, sortNext(), lists, listsFailed, opts.signal))
    }
    // Nothing changed (a warm start with nothing new): the index on disk says it all already. What a crash left over
    // is removed by the next refresh that changes something.
    const same = <T>(a: readonly T[], b: readonly T[]): boolean => a.length === b.length && a.every((x) => b.includes(x))
    if (same(next, before.segments) && same(lists, before.superseded))
      return { built: 0, kept: next.length, removed: 0, problems, stopped, unreadable: found, listsFailed }
    // The index last: until it is written, the previous one (and its files) stands. Its files stay until the next build
    // that changes something: views opened on them (the query pane's, an export's) read on meanwhile.
    await writeIndex()
    const removed = await this.removeUnlisted([...next, ...before.segments], [...lists, ...before.superseded])
    const built = done.segments - problems.length
    return { built, kept: next.length - built, removed, problems, stopped, unreadable: found, listsFailed }
  }

  /**
   * `work` done with the caller's engine (left open), or with one of the build's own that reads `readableRoots`, in a
   * folder of its own under the mirror's (closed after; the folder removed by the next build that changes something).
   */
  private async withEngine<T>(
    given: Promise<NativeEngine> | undefined,
    readableRoots: readonly string[],
    work: (engine: NativeEngine) => Promise<T>
  ): Promise<T> {
    const engine = await (given ?? NativeEngine.open({ workDir: join(this.dir, `.build-${randomUUID().slice(0, 8)}`), readableRoots }))
    try {
      return await work(engine)
    } finally {
      if (!given) await engine.close()
    }
  }

  /**
   * Each keyed parts table's superseded list brought up to its segments: kept, added to (a new hour), or made anew.
   * A list that cannot be made is left out, and said in the log: the table's views rank its versions instead.
   */
  private async updateSuperseded(
    engine: NativeEngine,
    segments: readonly MirroredSegment[],
    lists: readonly SupersededList[],
    failed: string[],
    signal?: AbortSignal
  ): Promise<SupersededList[]> {
    const out: SupersededList[] = []
    for (const { table, keyColumn, mine, plan } of supersededPlans(segments, lists)) {
      signal?.throwIfAborted()
      if (plan.kind === 'keep') {
        out.push(plan.list)
        continue
      }
      const withRows = mine.filter((s) => s.rows > 0)
      const paths = withRows.map((s) => this.pathOf(s.file))
      if (paths.length === 0) continue
      const after = plan.kind === 'append' ? plan.after : -1
      // The segments holding the folders after the list's (none when those have no rows: then every segment, as it
      // reads no row after the list's either way).
      const newer = withRows.filter((s) => s.folders.some((f) => f.order > after)).map((s) => this.pathOf(s.file))
      const listPaths = plan.kind === 'append' ? plan.list.parts.map((part) => this.pathOf(part.file)) : []
      const sql = supersededSql({ keyColumn }, plan, paths, listPaths, newer.length > 0 ? newer : paths)
      if (sql === null) continue
      try {
        const file = plan.kind === 'append' && !plan.fold ? supersededFile(table, plan.digest, plan.after) : supersededFile(table, plan.digest)
        const { rows, bytes } = await this.copyInto(engine, sql, file)
        // A new hour's versions are a file beside the list's (fewer than its rows: written, not the whole list again).
        const kept = plan.kind === 'append' && !plan.fold ? plan.list.parts : []
        out.push({ table, parts: [...kept, { file, rows, bytes }], newest: plan.newest, digest: plan.digest })
      } catch (e) {
        if (signal?.aborted) throw e
        swallowed(`making the superseded list of ${table} (its views rank every version instead)`, 'warn')(e)
        failed.push(table)
      }
    }
    return out
  }

  /** Whether each of a list's files is on disk, whole. */
  private async holds(parts: readonly SupersededPart[]): Promise<boolean> {
    for (const part of parts) if ((await stat(this.pathOf(part.file)).catch(() => null))?.size !== part.bytes) return false
    return true
  }

  private async exists(s: MirroredSegment): Promise<boolean> {
    if (s.rows === 0) return true
    try {
      return (await stat(this.pathOf(s.file))).size === s.bytes
    } catch {
      return false
    }
  }

  /** Builds one segment without the files that cannot be read: those the store or the file check know, and those
   * whose pages fail when DuckDB compacts them (each file of the segment then read whole on its own to find exactly
   * which; `found` gets them, and the file check's record). */
  private async build(
    engine: NativeEngine,
    planned: SegmentPlan,
    signal: AbortSignal | undefined,
    onProgress: (p: StoreProgress) => void,
    found: { key: string; why: string }[],
    known: KnownFiles
  ): Promise<MirroredSegment> {
    const objects = planned.folders.flatMap((f) => f.files.map((x) => x.object))
    const { paths, failures } = await this.store.ensure(objects, { onProgress, ...(signal ? { signal } : {}) })
    const failed = failures.find((f) => !f.unreadable)
    if (failed) throw new Error(failed.error.userMessage)
    const unreadable = new Set([...failures.map((f) => f.key), ...objects.filter((o) => known.unreadable.has(o.key)).map((o) => o.key)])
    try {
      return await this.compact(engine, planned, paths, unreadable, known)
    } catch (e) {
      if (signal?.aborted) throw e
      const damaged: { object: ListedObject; why: string }[] = []
      for (const o of objects) {
        if (unreadable.has(o.key)) continue
        signal?.throwIfAborted()
        const why = await unreadablePages(engine, paths.get(o.key) as string)
        if (why !== null) damaged.push({ object: o, why })
      }
      // Not one file fails on its own: the segment's failure is not a damaged file's, and is said as it is.
      if (damaged.length === 0) throw e
      for (const d of damaged) {
        unreadable.add(d.object.key)
        found.push({ key: d.object.key, why: d.why })
      }
      if (this.opts.unreadableFile) await recordUnreadable(this.opts.unreadableFile, damaged)
      return await this.compact(engine, planned, paths, unreadable, known)
    }
  }

  private async compact(
    engine: NativeEngine,
    planned: SegmentPlan,
    paths: ReadonlyMap<string, string>,
    unreadable: ReadonlySet<string>,
    /** What the frame check read of the files' footers: their top-level columns, and their schema tags. */
    known: Pick<KnownFiles, 'columns' | 'schemaTags'>
  ): Promise<MirroredSegment> {
    // A file that is not Parquet is left out of its folder, as the rules read a parts folder without it, and said.
    const p: SegmentPlan = {
      ...planned,
      folders: planned.folders.map((f) => ({
        ...f,
        files: f.files.filter((x) => !unreadable.has(x.object.key)),
        leftOut: [...f.leftOut, ...f.files.filter((x) => unreadable.has(x.object.key)).map((x) => x.object)]
      }))
    }
    // Each folder's columns (a column added part-way: a view "as of" before it must not have it).
    const columnSets: string[][] = []
    const setOf = new Map<string, number>()
    const folders = []
    const objects = p.folders.flatMap((f) => f.files.map((x) => x.object))
    const filesInOrder = objects.map((o) => paths.get(o.key) as string)
    // The frame check's columns where it has them; the footers of the other files read here.
    const byFile = new Map<string, readonly string[]>()
    for (const o of objects) {
      const columns = known.columns.get(o.key)
      if (columns) byFile.set(paths.get(o.key) as string, columns)
    }
    for (const [file, columns] of await topLevelColumns(
      engine,
      filesInOrder.filter((f) => !byFile.has(f))
    ))
      byFile.set(file, columns)
    const sql = segmentBuildSql(p, (key) => paths.get(key) as string, [...new Set(filesInOrder.flatMap((f) => byFile.get(f) ?? []))], {
      oneSchema: sameSchema(objects, known)
    })
    for (const f of p.folders) {
      // In file order, each column once where it first appears: the order union_by_name gives the folder.
      const columns = [...new Set(f.files.flatMap((x) => byFile.get(paths.get(x.object.key) as string) ?? []))]
      const id = columns.join('\u0000')
      if (!setOf.has(id)) {
        setOf.set(id, columnSets.length)
        columnSets.push(columns)
      }
      const leftOut = f.leftOut.map((o) => ({
        key: o.key,
        size: o.size,
        storageClass: o.storageClass ?? null,
        reason: unreadable.has(o.key) ? ('unreadable' as const) : ('archived' as const)
      }))
      const identity = folderIdentity(planned.folders[p.folders.indexOf(f)] as SegmentFolder)
      folders.push({ prefix: f.folder.ref.prefix, order: f.order, readyAt: f.readyAt, columnSet: setOf.get(id) as number, leftOut, identity })
    }
    const base = { table: p.table, period: p.period, identity: p.identity, folders, columnSets }
    if (sql === null) return { ...base, file: '', rows: 0, bytes: 0, columns: [], types: {} }
    const file = `segments/${p.table}/${p.period}-${p.identity}.parquet`
    const { rows, bytes } = await this.copyInto(engine, sql, file)
    const types = await vendorTypes(engine, [this.pathOf(file)])
    return { ...base, file, rows, bytes, columns: Object.keys(types), types }
  }

  /**
   * A statement's rows as the mirror's file `file` (relative to its folder): DuckDB's COPY into the engine's scratch,
   * then renamed into place, so a reader never sees half a file.
   */
  private async copyInto(engine: NativeEngine, select: string, file: string): Promise<{ rows: number; bytes: number }> {
    const scratch = join(engine.scratchDir, `${randomUUID()}.parquet`)
    const copied = await engine.execRows(`COPY (${select}) TO ${quoteLiteral(scratch)} (FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE 122880)`)
    const path = this.pathOf(file)
    await privateDir(dirname(path))
    // DuckDB's COPY creates its file by the umask (0644): narrowed before it is renamed into place, like every file main writes.
    await chmod(scratch, PRIVATE_FILE_MODE)
    await rename(scratch, path).catch(async (e: unknown) => {
      // The caller's engine works on another file system than the mirror's (a mirror folder on a disk of its own): the
      // file is copied beside its place, then renamed into it, so a reader still never sees half a file.
      if ((e as { code?: string }).code !== 'EXDEV') throw e
      const beside = `${path}.${randomUUID().slice(0, 8)}.tmp`
      await copyFile(scratch, beside)
      await rename(beside, path)
      await rm(scratch, { force: true })
    })
    return { rows: Number(copied[0]?.[0] ?? 0), bytes: (await stat(path)).size }
  }

  /**
   * Gives every segment of each table the same column types, as native DuckDB combines the table's files (BIGINT
   * in older files, DOUBLE in newer: DOUBLE everywhere), rewriting a segment whose types differ: DuckDB-WASM 0.9.1
   * cannot read files of one table that disagree on a column's type.
   */
  private async unifyTypes(engine: NativeEngine, segments: MirroredSegment[], table: string): Promise<void> {
    const mine = segments.filter((s) => s.table === table && s.rows > 0)
    const unified = await vendorTypes(
      engine,
      mine.map((s) => this.pathOf(s.file))
    )
    for (const s of mine) {
      const differ = Object.entries(s.types).filter(([c, t]) => unified[c] !== undefined && unified[c] !== t)
      if (differ.length === 0) continue
      const casts = differ.map(([c]) => `CAST(${quoteIdent(storedName(c))} AS ${unified[c]}) AS ${quoteIdent(storedName(c))}`).join(', ')
      const file = s.file.replace(/(-u[0-9a-z]+)?\.parquet$/, `-u${identityTag(JSON.stringify(unified))}.parquet`)
      const { bytes } = await this.copyInto(engine, `SELECT * REPLACE (${casts}) FROM read_parquet(${quoteLiteral(this.pathOf(s.file))})`, file)
      const types = Object.fromEntries(Object.keys(s.types).map((c) => [c, unified[c] ?? (s.types[c] as string)]))
      segments[segments.indexOf(s)] = { ...s, file, types, bytes }
    }
  }

  /** Segment files and superseded lists none of these entries names (replaced, or left by a crash), and build folders
   * of earlier runs. Counts the segments removed. */
  private async removeUnlisted(segments: readonly MirroredSegment[], lists: readonly SupersededList[]): Promise<number> {
    const listed = new Set([...segments, ...lists.flatMap((l) => l.parts)].map((s) => this.pathOf(s.file)))
    let removed = 0
    for (const kind of ['segments', 'superseded']) {
      const root = join(this.dir, kind)
      for (const table of await readdir(root).catch(() => [] as string[])) {
        for (const f of await readdir(join(root, table)).catch(() => [] as string[])) {
          const path = join(root, table, f)
          if (!listed.has(path)) {
            await rm(path, { force: true })
            if (kind === 'segments') removed++
          }
        }
      }
    }
    for (const d of await readdir(this.dir).catch(() => [] as string[]))
      if (d.startsWith('.build-')) await rm(join(this.dir, d), { recursive: true, force: true })
    return removed
  }
}

/** A folder made (again, after a clear) every time: ensurePrivateDir remembers folders it made, and a clear removes them. */
async function privateDir(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: 0o700 })
  await ensurePrivateDir(dir)
}

/** Null when DuckDB reads every value of the file (each column's pages decoded), else why not, for the user. */
async function unreadablePages(engine: NativeEngine, path: string): Promise<string | null> {
  try {
    await engine.execRows(`SELECT max(hash(COLUMNS(*))) FROM read_parquet(${quoteLiteral(path)})`)
    return null
  } catch (e) {
    // DuckDB names the local copy; the user knows the file by its bucket key, which the caller says.
    const message = errorMessage(e).replace(/"[^"]*"/g, 'the file')
    return `its pages cannot be read (${message.slice(0, 200)})`
  }
}

/** The vendor's columns of Parquet files and their types, as native DuckDB combines them. */
async function vendorTypes(engine: NativeEngine, files: readonly string[]): Promise<Record<string, string>> {
  const own = new Set<string>(MIRROR_COLUMNS)
  const rows = await engine.execRows(`DESCRIBE SELECT * FROM read_parquet([${files.map(quoteLiteral).join(', ')}], union_by_name = true)`)
  // By the vendor's names (a segment stores them apart from its own: storedName).
  return Object.fromEntries(rows.filter((r) => !own.has(String(r[0]))).map((r) => [vendorName(String(r[0])), String(r[1])] as const))
}

/**
 * The top-level column names of each Parquet file, from one parquet_schema() over them all (a DESCRIBE per folder
 * costs a millisecond each: half a minute for a year of hourly folders). The schema lists elements depth first, each
 * group with its number of children: the root's direct children are the columns.
 */
async function topLevelColumns(engine: NativeEngine, files: readonly string[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>()
  if (files.length === 0) return out
  const rows = await engine.execRows(`SELECT file_name, name, num_children FROM parquet_schema([${files.map(quoteLiteral).join(', ')}])`)
  const perFile = new Map<string, { name: string; children: number }[]>()
  for (const [file, name, children] of rows) {
    const list = perFile.get(String(file)) ?? []
    list.push({ name: String(name), children: children === null ? 0 : Number(children) })
    perFile.set(String(file), list)
  }
  for (const [file, elements] of perFile) {
    const skip = (at: number): number => {
      let next = at + 1
      for (let k = 0; k < (elements[at]?.children ?? 0); k++) next = skip(next)
      return next
    }
    const columns: string[] = []
    let at = 1
    for (let k = 0; k < (elements[0]?.children ?? 0) && at < elements.length; k++) {
      columns.push((elements[at] as { name: string }).name)
      at = skip(at)
    }
    out.set(file, columns)
  }
  return out
}

/** Per keyed parts table with segments: how its superseded list is brought up to them (mirror-superseded.ts). */
function supersededPlans(
  segments: readonly MirroredSegment[],
  lists: readonly SupersededList[]
): { table: string; keyColumn: string; mine: MirroredSegment[]; plan: SupersededPlan }[] {
  const out = []
  for (const t of CATALOG) {
    if (t.mode !== 'parts' || t.keyColumn === null) continue
    const table = `${t.schema}.${t.table}`
    const mine = segments.filter((s) => s.table === table)
    if (!mine.some((s) => s.rows > 0)) continue
    const plan = planSuperseded(mine, lists.find((l) => l.table === table) ?? null)
    out.push({ table, keyColumn: t.keyColumn, mine, plan })
  }
  return out
}

/** True when the frame check tagged every file a segment reads with one and the same schema: DuckDB then reads them
 * as one, without binding each file's schema first (alternating builds of a local year: 9.4-9.9 s against 10.3-10.8 s). */
function sameSchema(objects: readonly ListedObject[], known: Pick<KnownFiles, 'schemaTags'>): boolean {
  let tag: string | undefined
  for (const o of objects) {
    const t = known.schemaTags.get(o.key)
    if (t === undefined || (tag !== undefined && t !== tag)) return false
    tag = t
  }
  return tag !== undefined
}
