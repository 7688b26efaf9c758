// query, export and ddl: native DuckDB over local copies of the objects, with the bucket's views (the parts tables'
// history compacted once into the cache's mirror). Loaded only for these commands: DuckDB is the heavy part of a start.
import { stat } from 'node:fs/promises'
import { dirname, join, resolve } from 'node:path'
import { missingViewReason } from '../../shared/bucket-views'
import { CATALOG, type CatalogTable } from '../../shared/catalog'
import { tablesNamed } from '../../shared/tables-named'
import { errorMessage } from '../../shared/error-message'
import type { ExportFormat } from '../../shared/export-format'
import { warehouseDdl, warehouseLocation } from '../../shared/warehouse-ddl/warehouse-ddl'
import { StatementRefused } from '../../main/engine/engine-error'
import { logicalTableColumns } from '../../main/engine/logical-table-columns'
import type { NativeEngine, QueryProgress } from '../../main/engine/native-engine'
import type { BucketProvider } from '../../main/bucket/bucket-provider'
import { type BucketEngine, type ViewsStep, engineReadableRoots, openBucketEngine, startBucketEngine } from '../../main/engine/open-bucket-engine'
import { type SavedOpening, type ViewsInputs, findSavedViews, replayViews, saveViews } from '../../main/engine/saved-views'
import { swallowed } from '../../main/log/main-log'
import type { FileStore } from '../../main/store/file-store'
import { clockWindow } from '../../shared/clock-window'
import { fileStoreFor } from '../../main/store/connection-files'
import { ExportError, exportQuery } from '../../main/export/export-to-file'
import { Mirror } from '../../main/mirror/mirror'
import { frameCacheFile, frameJournalFile } from '../../main/store/frame-answers'
import { type BucketRun, cacheDir } from '../bucket-run'
import { writeCsv, writeJson, writeOut, writeTable } from '../cli-output'
import { type CliRequest, UsageError } from '../cli-request'
import { cursorFile } from '../export-cursor'
import { countText } from '../../shared/counts'
import { defaultCursorName, incrementalWords } from '../../shared/incremental-export'
import type { Inventory } from '../../shared/inventory'
import type { RefreshedBucket } from '../../main/bucket/refresh-pipeline'
import { CursorNotSaved, SUPERSEDES_COLUMN, exportSinceLast } from '../../main/export/incremental-export'

const megabytes = (n: number): string => `${(n / 1e6).toFixed(1)} MB`

/** A table without a view (archived objects, unlisted files, no ready copy) is said why, rather than "does not exist". */
function explain(e: unknown, problems: readonly { table: string; message: string }[]): string {
  const message = errorMessage(e)
  return missingViewReason(message, problems) ?? message
}

/** Ctrl+C and SIGTERM cancel the running statement. */
function interrupted(): AbortController {
  const ac = new AbortController()
  process.once('SIGINT', () => ac.abort())
  process.once('SIGTERM', () => ac.abort())
  return ac
}

type OpenedEngine = BucketEngine & {
  readonly unreadable: Set<string>
  /** The opening derived everything for good: the mirror built every segment and list, every file was fetched. */
  readonly settled: boolean
}

let engines = 0
const engineDir = (id: string): string => join(cacheDir(), 'engine', `${id}-${process.pid}${engines++ > 0 ? `-${engines}` : ''}`)
const mirrorDir = (id: string): string => join(cacheDir(), 'mirror', id)
/** Only the parts tables read the mirror: a statement that names none (SELECT 1, a full table) neither builds nor reads it. */
const readsMirror = (tables?: readonly CatalogTable[]): boolean => (tables ?? CATALOG).some((t) => t.mode === 'parts')
const sameFolders = (a: readonly string[], b: readonly string[]): boolean => a.length === b.length && a.every((x, i) => x === b[i])

/** DuckDB started as the bucket opens, before its refresh. */
export interface EarlyEngine {
  /** The engine for a first opening that reads these folders; null when it was taken, or reads others (then closed). */
  take(roots: readonly string[]): { readonly workDir: string; readonly started: Promise<NativeEngine> } | null
  /** The same engine lent, not taken, for work before the first opening (the mirror's build of new hours): it stays
   * the command's to close, on Ctrl+C or at dispose(), until an opening takes it. Null as take() would be. */
  lend(roots: readonly string[]): Promise<NativeEngine> | null
  /** Closes it when no opening took it (the command failed before, or opened none); resolves once it is closed. */
  dispose(): Promise<void>
}

/** The tables a command opens: those its statement names (query, export), the table of export --since-last, every
 * table for ddl (undefined). */
function commandTables(request: CliRequest): readonly CatalogTable[] | undefined {
  if (request.command === 'ddl') return undefined
  if (request.sinceLast) return [request.sinceLast.table]
  return tablesNamed(request.sql ?? '')
}

/**
 * Starts DuckDB for a query, export or ddl as soon as the bucket is opened: its start (~0.1 s on its own threads) then
 * overlaps the refresh instead of following it (issue 23). It reads the folders the command's tables need.
 */
export function startEngineEarly(provider: BucketProvider, id: string, request: CliRequest): EarlyEngine {
  const roots = engineReadableRoots(fileStoreFor(provider, cacheDir(), id), readsMirror(commandTables(request)) ? { dir: mirrorDir(id) } : undefined)
  const workDir = engineDir(id)
  const started = startBucketEngine(workDir, roots)
  // Ctrl+C while the bucket refreshes (minutes, cold): the engine is closed and its folder removed before the exit. The
  // command's own handlers take over once it has the engine.
  const onSignal = (): void => void close().finally(() => process.exit(130))
  process.once('SIGINT', onSignal)
  process.once('SIGTERM', onSignal)
  const quiet = (): void => {
    process.off('SIGINT', onSignal)
    process.off('SIGTERM', onSignal)
  }
  let state: 'left' | 'taken' | Promise<void> = 'left'
  const close = (): Promise<void> => {
    if (state === 'left') {
      quiet()
      state = started.then((engine) => engine.close()).catch(() => undefined)
    }
    return state === 'taken' ? Promise.resolve() : state
  }
  return {
    take: (wanted) => {
      if (state !== 'left') return null
      if (!sameFolders(wanted, roots)) {
        void close()
        return null
      }
      quiet()
      state = 'taken'
      return { workDir, started }
    },
    lend: (wanted) => (state === 'left' && sameFolders(wanted, roots) ? started : null),
    dispose: close
  }
}

/**
 * Native DuckDB over the local file store, with the bucket's views (objects are downloaded once): replayed from the saved
 * views while what they were derived from holds, else derived from the refresh, and saved when the opening was settled.
 */
async function openEngine(run: BucketRun, tables?: readonly CatalogTable[]): Promise<BucketEngine> {
  const { id, request, listing } = run
  // One store and mirror for the key and the opening: what the key names is what the views read.
  const files = connectionFiles(run, tables)
  const { store, mirror } = files
  const inputs: ViewsInputs = {
    dir: join(cacheDir(), 'views'),
    id,
    listingDigest: listing.listingDigest,
    ...(tables ? { tables } : {}),
    ...(request.asOf !== undefined ? { asOf: request.asOf } : {}),
    files: [frameCacheFile(cacheDir(), id), frameJournalFile(frameCacheFile(cacheDir(), id)), ...(mirror ? [mirror.indexFile] : [])],
    roots: engineReadableRoots(store, mirror)
  }
  // A listing that failed somewhere neither replays nor is saved; --no-cache derives everything again (and saves it).
  const listed = listing.listingProblems.length === 0
  const saved = listed && request.flags['no-cache'] !== true ? await findSavedViews(inputs, request.now) : null
  const replayed = saved ? await replaySaved(run, saved, inputs.roots) : null
  if (replayed) return replayed
  const refreshed = await run.derive()
  const steps: ViewsStep[] = []
  const open = await engineOpener(run, refreshed, tables, { files, record: (s) => steps.push(s) })
  const opened = await open(refreshed.inventory)
  // Saved when the opening settled everything for good (else the next run would find something else), within the
  // instants the rules give the same answer (none with archived objects).
  const settled = listed && refreshed.framesSettled && opened.settled && opened.views.problems.length === 0
  const window = settled ? clockWindow(refreshed.objects.values(), request.now) : null
  if (window) await saveViews(inputs, { steps, views: opened.views, engine: opened.engine, window })
  return opened
}

/** The saved opening done again in the run's engine, or null when it failed there (the views are then derived). */
async function replaySaved(run: BucketRun, saved: SavedOpening, roots: readonly string[]): Promise<BucketEngine | null> {
  const early = run.early?.take(roots) ?? null
  const engine = await (early?.started ?? startBucketEngine(engineDir(run.id), roots))
  try {
    return { engine, views: await replayViews(engine, saved), allFetched: true }
  } catch (e) {
    swallowed(`replaying the saved views of ${run.id} (derived again)`)(e)
    await engine.close()
    return null
  }
}

/** What an engine opener needs of the run. */
type EngineRun = Pick<BucketRun, 'provider' | 'id' | 'show' | 'request' | 'early'>

/** Where the views' files are: the connection's file store and, for a statement naming a parts table, its mirror. */
interface ConnectionFiles {
  readonly store: FileStore
  readonly mirror?: Mirror
}

function connectionFiles(run: Pick<EngineRun, 'provider' | 'id'>, tables?: readonly CatalogTable[]): ConnectionFiles {
  const store = fileStoreFor(run.provider, cacheDir(), run.id)
  // Files the views need that are not readable Parquet are remembered with what the mirror's builds found.
  if (!readsMirror(tables)) return { store }
  return { store, mirror: new Mirror(mirrorDir(run.id), store, { unreadableFile: frameCacheFile(cacheDir(), run.id) }) }
}

/** The mirror brought up to the listing once, then engines over any view of the bucket (an incremental export sees it
 * through some folders only), each in a folder of its own. */
export async function engineOpener(
  run: EngineRun,
  refreshed: RefreshedBucket,
  tables?: readonly CatalogTable[],
  opts: {
    /** A later check's instant (watch), instead of the run's first: its openings start their own engines. */
    readonly laterAt?: number
    /** Told each step of the views' opening (saved views). */
    readonly record?: (step: ViewsStep) => void
    /** The store and mirror, when the caller has them already. */
    readonly files?: ConnectionFiles
  } = {}
): Promise<(inventory: Inventory) => Promise<OpenedEngine>> {
  const { id, show, request } = run
  const now = opts.laterAt ?? request.now
  // Files found unreadable never reach the engine (a hostile footer would cost native DuckDB gigabytes).
  const unreadable = new Set(refreshed.unreadable)
  show('opening the tables…')
  const { store, mirror } = opts.files ?? connectionFiles(run, tables)
  // The engine started before the refresh, when it reads these folders (a later check's opening starts its own): lent
  // to compact the new hours into the mirror (no engine of the build's own to open and close), then the first opening's.
  const roots = engineReadableRoots(store, mirror)
  const early = opts.laterAt === undefined ? run.early : undefined
  const lent = early?.lend(roots) ?? null
  const built = await mirror?.refresh(refreshed.inventory, now, {
    onProgress: (p) => show(`compacting ${p.table} (${p.segments}/${p.segmentsTotal})`),
    ...(lent ? { engine: lent } : {})
  })
  for (const p of built?.problems ?? [])
    process.stderr.write(`warning: the local mirror could not compact ${p.table} ${p.period} (its raw files are read instead): ${p.message}\n`)
  for (const u of built?.unreadable ?? []) unreadable.add(u.key)
  return async (inventory) => {
    const taken = early?.take(roots) ?? null
    const opened = await openBucketEngine(store, inventory, refreshed.objects, taken?.workDir ?? engineDir(id), {
      ...(taken ? { started: taken.started } : {}),
      ...(opts.record ? { record: opts.record } : {}),
      now,
      ...(mirror ? { mirror } : {}),
      unreadable,
      unlisted: refreshed.unlisted,
      ...(tables ? { tables } : {}),
      ...(request.asOf !== undefined ? { asOf: request.asOf } : {}),
      onDownload: (p) => show(`downloading ${p.files}/${p.filesTotal} files, ${megabytes(p.bytes)} of ${megabytes(p.bytesTotal)}`)
    })
    show.done()
    return { ...opened, unreadable, settled: opened.allFetched && (built?.problems.length ?? 0) === 0 && (built?.listsFailed.length ?? 0) === 0 }
  }
}

async function exportCommand(run: BucketRun): Promise<number> {
  const { request, show } = run
  if (request.sinceLast) return incrementalExportCommand(run, request.sinceLast)
  const { engine, views } = await openEngine(run, commandTables(request))
  for (const n of views.notes) process.stderr.write(`note: ${n.message}\n`)
  const ac = interrupted()
  const target = resolve(request.flags.out as string)
  try {
    // DuckDB's own progress moves for few COPYs of the logical tables: the bytes written always do.
    const progressText = (p: QueryProgress): string =>
      `exporting… ${megabytes(p.bytesWritten ?? 0)} written${p.percent > 0 ? `, ${Math.round(p.percent)}%` : ''}${p.rowsProcessed > 0 ? `, ${p.rowsProcessed} rows read` : ''}`
    const { rows } = await exportQuery(engine, request.sql as string, target, {
      format: request.format as ExportFormat,
      overwrite: request.flags.force === true,
      signal: ac.signal,
      onProgress: (p) => show(progressText(p))
    })
    show.done()
    // What the file holds: which bucket, and as of which instant (or everything delivered so far).
    const held = `${request.flags.bucket as string}, ${request.asOf !== undefined ? `as of ${new Date(request.asOf).toISOString()}` : 'latest'}`
    process.stderr.write(`wrote ${rows} rows (${megabytes((await stat(target)).size)}) to ${target} from ${held}\n`)
    return 0
  } catch (e) {
    show.done()
    const why = ac.signal.aborted ? 'export cancelled; no file was written' : `the export failed, no file was written: ${explain(e, views.problems)}`
    process.stderr.write(`export-explorer: ${why}${e instanceof ExportError ? ' (--force replaces it)' : ''}\n`)
    // A refused statement, like an existing target, is a request the tool will not carry out: exit 2.
    return ac.signal.aborted ? 130 : e instanceof ExportError || e instanceof StatementRefused ? 2 : 1
  } finally {
    await engine.close()
  }
}

/** export --since-last: the rows of the folders new since the cursor's last run, then the cursor moved. */
async function incrementalExportCommand(run: BucketRun, since: NonNullable<CliRequest['sinceLast']>): Promise<number> {
  const { request, show } = run
  const t = since.table
  const label = since.cursor ?? `${t.table}${since.where ? ` where ${since.where}` : ''}`
  const file = cursorFile(run.id, since.cursor ?? defaultCursorName(t, since.where), since.cursor ?? t.table)
  const refreshed = await run.derive()
  const open = await engineOpener(run, refreshed, commandTables(request))
  const ac = interrupted()
  const target = resolve(request.flags.out as string)
  try {
    const r = await exportSinceLast({
      table: t,
      where: since.where,
      inventory: refreshed.inventory,
      unreadable: new Set(refreshed.unreadable),
      now: request.now,
      target,
      format: request.format as ExportFormat,
      overwrite: request.flags.force === true,
      cursor: file,
      cursorName: label,
      open,
      signal: ac.signal,
      onProgress: (p) => show(`exporting… ${megabytes(p.bytesWritten ?? 0)} written`)
    })
    show.done()
    for (const n of r.notices) process.stderr.write(`export-explorer: cursor file ${file.path}: ${n}\n`)
    process.stderr.write(
      `wrote ${countText(r.rows, 'row')} (${megabytes((await stat(target)).size)}) to ${target} from ${request.flags.bucket as string}, ${incrementalWords(r.plan, label)}${supersedeWords(r.superseding)}\n`
    )
    return 0
  } catch (e) {
    show.done()
    if (e instanceof CursorNotSaved) {
      process.stderr.write(`export-explorer: ${e.message}\n`)
      return 1
    }
    const why = ac.signal.aborted ? 'export cancelled' : `the export failed: ${placeProblem(e, target) ?? explain(e, [])}`
    const force = e instanceof ExportError && /already exists/.test(e.message) ? ' (--force replaces it)' : ''
    process.stderr.write(`export-explorer: ${why}${force}; no file was written and the cursor was not moved\n`)
    return ac.signal.aborted ? 130 : e instanceof ExportError || e instanceof StatementRefused ? 2 : 1
  }
}

/** A target folder that is missing or not writable, in words (the engine's own message names its scratch file). */
export function placeProblem(e: unknown, target: string): string | null {
  const code = (e as { code?: string }).code
  if (code === 'ENOENT') return `the folder ${dirname(target)} does not exist; create it or choose another file`
  if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS') return `${dirname(target)} cannot be written to (${code}); choose another file`
  return null
}

/** "; 3 rows replace a version exported before (_ee_supersedes names its folder)", or nothing. */
export function supersedeWords(n: number): string {
  return n > 0 ? `; ${countText(n, 'row')} ${n === 1 ? 'replaces' : 'replace'} a version exported before (${SUPERSEDES_COLUMN} names its folder)` : ''
}

async function ddlCommand(run: BucketRun): Promise<number> {
  const { request, provider, id } = run
  // The columns come from the logical tables themselves (native DuckDB), the rest from the listing and the core.
  const refreshed = await run.derive()
  const opened = await (await engineOpener(run, refreshed, commandTables(request)))(refreshed.inventory)
  const { unreadable } = opened
  try {
    const columns = await logicalTableColumns(opened, fileStoreFor(provider, cacheDir(), id), refreshed.inventory, { now: request.now, unreadable })
    const r = warehouseDdl({
      engine: request.flags.engine as 'athena' | 'bigquery',
      location: warehouseLocation(request.conn),
      database: request.flags.database ?? null,
      table: request.flags.table ?? null,
      inventory: refreshed.inventory,
      columns,
      now: request.now,
      unreadable
    })
    if (!r.ok) throw new UsageError(r.message)
    await writeOut(request.flags.json ? `${JSON.stringify({ text: r.text, notes: r.notes })}\n` : r.text)
    return 0
  } finally {
    await opened.engine.close()
  }
}

async function queryCommand(run: BucketRun): Promise<number> {
  const { request } = run
  const sql = request.sql as string
  // Only the views the statement names are opened: each costs a schema read (SELECT 1 opens none).
  const { engine, views } = await openEngine(run, commandTables(request))
  for (const p of views.problems) process.stderr.write(`warning: no view for ${p.table}: ${p.message}\n`)
  for (const n of views.notes) process.stderr.write(`note: ${n.message}\n`)
  const ac = interrupted()
  try {
    if (request.format === 'csv') await writeCsv(engine, sql, ac.signal)
    else if (request.format === 'json') await writeJson(engine, sql, ac.signal)
    else await writeTable(engine, sql, ac.signal)
  } catch (e) {
    if (e instanceof StatementRefused) {
      process.stderr.write(`export-explorer: the query was refused: ${e.message}\n`)
      return 2
    }
    process.stderr.write(`export-explorer: the query failed: ${explain(e, views.problems)}\n`)
    return ac.signal.aborted ? 130 : 1
  } finally {
    await engine.close()
  }
  return 0
}

export const ENGINE_COMMANDS = { query: queryCommand, export: exportCommand, ddl: ddlCommand } as const
