// Creates, in an engine, the views of a connected bucket: `<schema>.<table>` and `<table>` (the logical table)
// and, for parts tables, `<table>__versions` (every row of every ready folder, with where it came from).
// An "as of" hour rebuilds them from the folders delivered up to that hour.
import { countText, formatBytes } from './counts'
import { CATALOG, type CatalogTable, qualifiedName } from './catalog'
import {
  type AsOf,
  type Folder,
  type Inventory,
  type UnreadableLeftOut,
  foldersForLogicalTable,
  latestReady,
  readyPartsFolders,
  unreadableLeftOut
} from './inventory'
import { isArchived, type ListedObject } from './listing'
import { type GlobDialect, PARTITION_COLUMNS, globColumnsSql, globOf, logicalTableGlobSql, mirrorShapedGlobSql, versionsGlobSql } from './logical-table-sql'
import { type MirrorRead, type MirroredSegment, mirrorRead } from './mirror-plan'
import { type RawRows, mirrorKey, mirrorLogicalSql, mirrorVersionsSql, supersededKey } from './mirror-sql'
import type { SupersededList } from './mirror-superseded'
import { quoteIdent } from './sql-quote'
import { errorMessage } from './error-message'

/** What the views need of an engine: the CLI's (DuckDB-WASM in a Node worker) and the renderer's (in a browser worker). */
export interface SqlEngine {
  /**
   * Makes bucket objects readable under generated names (by the engine's own means: block cache, byte server).
   * `whole`: a small immutable file every query reads all of (a mirror segment), which an engine may fetch at once.
   */
  register(files: readonly { readonly name: string; readonly key: string; readonly size: number; readonly whole?: boolean }[]): Promise<void>
  query(sql: string): Promise<unknown>
  /** The first value of each row a statement gives, for an engine whose `query` answers no rows (native DuckDB's exec). */
  firstColumn?(sql: string): Promise<unknown[]>
  /**
   * How the engine reads the files registered last under `base`, where not through their one glob: the globs of groups
   * read apart and combined by name (DuckDB-WASM 0.9.1 cannot read files that disagree on a column's type at once),
   * with why in words. Null or absent: the one glob.
   */
  readPlan?(base: string): ReadPlan | null
  /**
   * The vendor's columns of the files registered last under `glob`, as `DESCRIBE` over them with union_by_name gives
   * them, where the engine already read every footer on registering (DuckDB-WASM's type check): one round of footer
   * reads fewer. Null or absent: the views ask the engine with DESCRIBE.
   */
  columnsOf?(glob: string): readonly string[] | null
}

/** Globs a table's files are read through, one group each, and the words for why (a note on the table's view). */
export interface ReadPlan {
  readonly globs: readonly string[]
  readonly note: string
}

/** The vendor's columns of a table's registered files (by name, in the order union_by_name gives them). */
async function vendorColumns(engine: SqlEngine, globs: readonly string[]): Promise<string[]> {
  const known = globs.length === 1 ? engine.columnsOf?.(globs[0] as string) : null
  if (known) return [...known]
  const sql = globColumnsSql(globs)
  if (engine.firstColumn) return (await engine.firstColumn(sql)).map(String)
  const rows = await engine.query(sql)
  if (!Array.isArray(rows)) throw new Error("The engine answers no rows: it must give firstColumn to read a table's columns.")
  return rows.map((r) => String((r as Record<string, unknown>)['column_name']))
}

export interface ViewsResult {
  /** Views created, "schema.table". */
  readonly created: string[]
  /** Tables without a view, and why. */
  readonly problems: { readonly table: string; readonly message: string }[]
  /** Views that differ from what the rules alone give, and how (a vendor column that wins over a partition column). */
  readonly notes: { readonly table: string; readonly message: string }[]
  /** Tables this engine reads otherwise than through their one glob, and why (SqlEngine.readPlan), for the views to say. */
  readonly reads: { readonly table: string; readonly message: string }[]
}

/** A prefix the last listing could not list (the bucket root is ''), with the listing error's words. */
export interface UnlistedPrefix {
  readonly prefix: string
  readonly message: string
}

/** Why a table's files are not known: a failed listing at or above or below one of its prefixes, or null. */
function unlistedMessage(t: CatalogTable, unlisted: readonly UnlistedPrefix[]): string | null {
  const own = [`v1/${t.schema}/${t.table}/`, `v2/${t.schema}/${t.table}/`]
  const hit = unlisted.find((u) => own.some((p) => p.startsWith(u.prefix) || u.prefix.startsWith(p)))
  if (!hit) return null
  return `${t.schema}.${t.table} has no view: its files could not be listed. ${hit.message}`
}

/**
 * Why a query that names a table without a view failed: DuckDB says "Table with name X does not exist", while the
 * views know why (archived files, its files could not be listed, no ready copy). Null when it is not that, or not known.
 */
export function missingViewReason(message: string, problems: readonly ViewsResult['problems'][number][]): string | null {
  const name = /Table with name (\S+) does not exist/.exec(message)?.[1]
  if (!name) return null
  return problems.find((p) => p.table === name || p.table.endsWith(`.${name}`))?.message ?? null
}

export async function createBucketViews(
  engine: SqlEngine,
  inventory: Inventory,
  objects: ReadonlyMap<string, ListedObject>,
  opts: AsOf & {
    readonly now?: number
    readonly onProgress?: (p: { readonly done: number; readonly total: number; readonly table: string }) => void
    /** Where file names start (default "ee/"): an engine that reads files by path gives its own folder. */
    readonly fileBase?: string
    readonly dialect?: GlobDialect
    /** The compacted mirror's segments: parts tables read them where they hold every folder the rules include. */
    readonly mirror?: MirrorSource
    /** Prefixes whose last listing failed, and why: a table they cover that has no copy says so, not "no ready copy". */
    readonly unlisted?: readonly UnlistedPrefix[]
    /** The tables to open (src/shared/tables-named.ts: those a statement names); every table when absent. */
    readonly tables?: readonly CatalogTable[]
  } = {}
): Promise<ViewsResult> {
  const now = opts.now ?? Date.now()
  const created: string[] = []
  const problems: { table: string; message: string }[] = []
  const notes: { table: string; message: string }[] = []
  const reads: { table: string; message: string }[] = []
  const register = async (regs: readonly { name: string; key: string }[]): Promise<void> => {
    await engine.register(regs.map((r) => ({ ...r, size: objects.get(r.key)?.size ?? 0 })))
  }
  const tables = opts.tables ?? CATALOG
  for (const [i, t] of tables.entries()) {
    opts.onProgress?.({ done: i, total: tables.length, table: `${t.schema}.${t.table}` })
    const schema = quoteIdent(t.schema)
    const name = quoteIdent(t.table)
    const fileBase = opts.fileBase ?? 'ee/'
    const base = `${fileBase}${t.schema}/${t.table}/`
    await engine.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`)
    if (
      t.mode === 'parts' &&
      opts.mirror &&
      (await createMirrorViews(engine, register, inventory, t, opts.mirror, { ...opts, fileBase }, { created, notes, reads }))
    )
      continue
    let q = logicalTableGlobSql(t, foldersForLogicalTable(inventory, t, opts), base, opts.dialect)
    let columns: string[] = []
    let plan: ReadPlan | null = null
    const leftOut = unreadableNote(inventory, t, opts)
    if (!q.ok) {
      const unlisted = unlistedMessage(t, opts.unlisted ?? [])
      problems.push({ table: `${t.schema}.${t.table}`, message: unlisted ?? leftOut ?? q.message })
      await engine.query(`DROP VIEW IF EXISTS ${schema}.${name}`)
      await engine.query(`DROP VIEW IF EXISTS ${name}`)
      continue
    }
    // An archived object cannot be read: say which, before the engine fails on the first one.
    const archived = q.registrations.map((r) => objects.get(r.key)).filter((o): o is ListedObject => o !== undefined && isArchived(o, now))
    if (archived.length > 0) {
      const list = archived
        .slice(0, 5)
        .map((o) => `${o.key} (${o.storageClass})`)
        .join(', ')
      problems.push({
        table: `${t.schema}.${t.table}`,
        message: `${t.schema}.${t.table} needs ${countText(archived.length, 'archived object')} that cannot be read until restored: ${list}${archived.length > 5 ? ', …' : ''}. Start a restore, then open the table again when it has finished.`
      })
      await engine.query(`DROP VIEW IF EXISTS ${schema}.${name}`)
      await engine.query(`DROP VIEW IF EXISTS ${name}`)
      continue
    }
    try {
      // One table's failure (a file that cannot be fetched or read) never stops another table's view.
      await register(q.registrations)
      plan = engine.readPlan?.(base) ?? null
      const globs = plan?.globs ?? [globOf(base)]
      // A parts table's own columns (the engine's bookkeeping columns are named apart from them); files read in
      // groups need them for a full table too.
      if (t.mode === 'parts' || plan) {
        columns = await vendorColumns(engine, globs)
        const named = logicalTableGlobSql(t, foldersForLogicalTable(inventory, t, opts), base, opts.dialect, undefined, columns, globs)
        if (named.ok) q = named
      }
      for (const stmt of q.setup) await engine.query(stmt)
      await engine.query(`CREATE OR REPLACE VIEW ${schema}.${name} AS ${q.sql}`)
      await engine.query(`CREATE OR REPLACE VIEW ${name} AS SELECT * FROM ${schema}.${name}`)
      created.push(`${t.schema}.${t.table}`)
      if (leftOut) notes.push({ table: `${t.schema}.${t.table}`, message: leftOut })
      if (plan) reads.push({ table: `${t.schema}.${t.table}`, message: plan.note })
    } catch (e) {
      problems.push({ table: `${t.schema}.${t.table}`, message: errorMessage(e) })
      continue
    }
    if (t.mode === 'parts') {
      const v = versionsGlobSql(t, readyPartsFolders(inventory, t, opts), base, `__ee_files_${t.table}`, opts.dialect, columns, plan?.globs)
      if (!v.ok) continue
      try {
        for (const stmt of v.setup) await engine.query(stmt)
        await engine.query(`CREATE OR REPLACE VIEW ${quoteIdent(`${t.table}__versions`)} AS ${v.sql}`)
        created.push(`${t.table}__versions`)
        notes.push(...(await vendorPartitionColumns(engine, t)))
      } catch (e) {
        problems.push({ table: `${t.table}__versions`, message: errorMessage(e) })
      }
    }
  }
  opts.onProgress?.({ done: tables.length, total: tables.length, table: '' })
  return { created, problems, notes, reads }
}

/** The mirror as the views read it: its segments, and its superseded lists (where an engine has them). */
export interface MirrorSource {
  readonly segments: readonly MirroredSegment[]
  readonly superseded?: readonly SupersededList[]
  /** Each parts table's mirrorRead by qualifiedName, where the caller decided it already with these segments, lists
   * and the views' own instants and unreadable files (deciding it is a pass over a year's folders). */
  readonly reads?: ReadonlyMap<string, MirrorRead | null>
}

/** Where the segments' registered names start, under the engine's file base (apart from any bucket key's name). */
const MIRROR_NAME_DIR = '__mirror/'

/**
 * A parts table's views from the mirror's segments (same rules, few files), with the folders no segment holds yet (a new
 * hour the mirror has not built) read from their raw files beside them. False when the mirror holds none of the
 * table's rows, or cannot be read: the raw files alone are read instead.
 */
async function createMirrorViews(
  engine: SqlEngine,
  register: (regs: readonly { name: string; key: string }[]) => Promise<void>,
  inventory: Inventory,
  t: CatalogTable,
  mirror: MirrorSource,
  opts: AsOf & { readonly fileBase: string; readonly dialect?: GlobDialect },
  out: Pick<ViewsResult, 'created' | 'notes' | 'reads'>
): Promise<boolean> {
  const known = mirror.reads?.get(qualifiedName(t))
  const selection = known !== undefined ? known : mirrorRead(inventory, t, mirror.segments, opts, mirror.superseded)
  if (!selection) return false
  const base = `${opts.fileBase}${MIRROR_NAME_DIR}${t.schema}/${t.table}/`
  const schema = quoteIdent(t.schema)
  const name = quoteIdent(t.table)
  let plan: ReadPlan | null = null
  try {
    const raw = selection.raw.length > 0 ? await rawBesideSegments(engine, register, t, selection.raw, opts) : null
    plan = raw?.plan ?? null
    const logical = mirrorLogicalSql(t, selection, base, raw)
    const versions = mirrorVersionsSql(selection, base, raw)
    const bytes = new Map(selection.segments.map((s) => [mirrorKey(s), s.bytes]))
    for (const part of selection.superseded?.parts ?? []) bytes.set(supersededKey(part), part.bytes)
    await engine.register(logical.registrations.map((r) => ({ ...r, size: bytes.get(r.key) ?? 0, whole: true })))
    for (const stmt of raw?.setup ?? []) await engine.query(stmt)
    await engine.query(`CREATE OR REPLACE VIEW ${schema}.${name} AS ${logical.sql}`)
    await engine.query(`CREATE OR REPLACE VIEW ${name} AS SELECT * FROM ${schema}.${name}`)
    await engine.query(`CREATE OR REPLACE VIEW ${quoteIdent(`${t.table}__versions`)} AS ${versions.sql}`)
  } catch {
    return false
  }
  out.created.push(`${t.schema}.${t.table}`, `${t.table}__versions`)
  if (plan) out.reads.push({ table: `${t.schema}.${t.table}`, message: plan.note })
  const rawUnreadable = rawFoldersUnreadable(inventory, selection.raw, opts)
  const archived = selection.leftOut.filter((o) => o.reason !== 'unreadable')
  const unreadable = [...selection.leftOut.filter((o) => o.reason === 'unreadable'), ...rawUnreadable]
  if (archived.length > 0) {
    const bytes = archived.reduce((n, o) => n + o.size, 0)
    out.notes.push({
      table: `${t.schema}.${t.table}`,
      message: `${t.schema}.${t.table}: ${countText(archived.length, 'archived file')} (${(bytes / 1e6).toFixed(1)} MB) cannot be read until restored and ${archived.length === 1 ? 'is' : 'are'} left out: ${keyList(archived.map((o) => o.key))}; ${lostRows(archived.length, t.keyColumn)}. Restore ${archived.length === 1 ? 'it' : 'them'} to complete the table.`
    })
  }
  if (unreadable.length > 0) {
    out.notes.push({
      table: `${t.schema}.${t.table}`,
      message: `${t.schema}.${t.table}: ${countText(unreadable.length, 'file')} ${unreadable.length === 1 ? 'is' : 'are'} not readable Parquet and ${unreadable.length === 1 ? 'is' : 'are'} left out: ${keyList(unreadable.map((o) => o.key))}; ${lostRows(unreadable.length, t.keyColumn)}. Ask the vendor to deliver ${unreadable.length === 1 ? 'it' : 'them'} again.`
    })
  }
  return true
}

/**
 * The rows of the folders the mirror does not hold yet, from their raw files, in a segment's shape: their files
 * registered under the table's own base (as the raw path registers them), their columns read, and the statements that
 * fill the table of their folders.
 */
async function rawBesideSegments(
  engine: SqlEngine,
  register: (regs: readonly { name: string; key: string }[]) => Promise<void>,
  t: CatalogTable,
  folders: readonly Folder[],
  opts: { readonly fileBase: string; readonly dialect?: GlobDialect }
): Promise<(RawRows & { readonly setup: readonly string[]; readonly plan: ReadPlan | null }) | null> {
  const base = `${opts.fileBase}${t.schema}/${t.table}/`
  const filesTable = `__ee_raw_${t.table}`
  const first = mirrorShapedGlobSql(folders, base, filesTable, opts.dialect)
  // Folders without a file add no row.
  if (!first.ok) return null
  await register(first.registrations)
  const plan = engine.readPlan?.(base) ?? null
  const globs = plan?.globs ?? [globOf(base)]
  const columns = await vendorColumns(engine, globs)
  const q = mirrorShapedGlobSql(folders, base, filesTable, opts.dialect, columns, globs)
  if (!q.ok) return null
  return { sql: q.sql, columns, setup: q.setup, plan }
}

/** The files of the raw folders read beside the segments that are not readable Parquet (left out, as the rules do). */
function rawFoldersUnreadable(inventory: Inventory, folders: readonly Folder[], opts: AsOf): ListedObject[] {
  const bad = opts.unreadable
  if (!bad || bad.size === 0) return []
  return folders.flatMap((f) => (inventory.folders.get(f.ref.prefix)?.dataFiles ?? []).filter((o) => bad.has(o.key)))
}

/** What leaving out n files costs a table: their rows, and for a keyed table the versions of keys in them. */
function lostRows(n: number, keyColumn: string | null): string {
  const [their, them] = n === 1 ? ['its', 'it'] : ['their', 'them']
  return keyColumn === null
    ? `${their} rows are not in the table`
    : `${their} rows are not in the table, and a ${keyColumn} whose newest version is in ${them} shows an older version or none`
}

const keyList = (keys: readonly string[]): string => `${keys.slice(0, 5).join(', ')}${keys.length > 5 ? `, … (${keys.length} in all)` : ''}`

/**
 * What a table's view leaves out because files are not readable Parquet (empty, cut short, damaged footer), in
 * words; null when nothing is. The views, `status` and the app say it the same way.
 */
export function unreadableNote(inventory: Inventory, t: Pick<CatalogTable, 'schema' | 'table' | 'mode' | 'keyColumn'>, opts: AsOf = {}): string | null {
  const name = `${t.schema}.${t.table}`
  const out = unreadableLeftOut(inventory, t, opts)
  if (t.mode === 'parts') {
    if (out.files.length === 0) return null
    const rows = lostRows(out.files.length, t.keyColumn)
    const again = `Ask the vendor to deliver ${out.files.length === 1 ? 'it' : 'them'} again.`
    return `${name}: ${countText(out.files.length, 'file')} ${out.files.length === 1 ? 'is' : 'are'} not readable Parquet and ${out.files.length === 1 ? 'is' : 'are'} left out: ${keyList(out.files.map((o) => o.key))}; ${rows}. ${again}`
  }
  const passed = copiesPassedOver(inventory, t, out, opts)
  if (!passed) return null
  const bad = out.copies.flatMap((c) => c.files.map((o) => o.key))
  const again = `Ask the vendor to deliver ${bad.length === 1 ? 'it' : 'them'} again.`
  return `${name}: ${passed.copies} ${out.copies.length > 1 ? 'hold' : 'holds'} ${bad.length === 1 ? 'a file that is' : 'files that are'} not readable Parquet (${keyList(bad)}); ${passed.instead}. ${again}`
}

/** A full table's copies passed over for unreadable files, and what it reads instead, in words; null when none is. */
function copiesPassedOver(
  inventory: Inventory,
  t: Pick<CatalogTable, 'schema' | 'table' | 'mode'>,
  out: UnreadableLeftOut,
  opts: AsOf
): { readonly copies: string; readonly instead: string } | null {
  const newest = out.copies[0]
  if (!newest) return null
  const read = foldersForLogicalTable(inventory, t, opts)[0]
  return {
    copies:
      out.copies.length > 1
        ? `its ${out.copies.length} newest ready copies (the newest ${newest.folder.ref.prefix})`
        : `its newest ready copy ${newest.folder.ref.prefix}`,
    instead: read ? `the previous readable ready copy ${read.ref.prefix} is read instead` : 'no ready copy is readable, so it has no view'
  }
}

/**
 * What a table does without one of its unreadable files (`out`: what it leaves out, unreadableLeftOut's answer), in words,
 * for that file's own finding: unreadableNote without the list of the others (a year of unreadable files is one finding
 * each; each naming five others and the count made the timeline's answer 38 MB). Null when the table leaves nothing out.
 */
export function unreadableFileNote(
  inventory: Inventory,
  t: Pick<CatalogTable, 'schema' | 'table' | 'mode' | 'keyColumn'>,
  out: UnreadableLeftOut,
  opts: AsOf = {}
): string | null {
  const name = `${t.schema}.${t.table}`
  const again = 'Ask the vendor to deliver it again.'
  if (t.mode === 'parts') {
    if (out.files.length === 0) return null
    const all = out.files.length > 1 ? ` (${out.files.length} of its files are left out in all)` : ''
    return `${name} leaves it out${all}: ${lostRows(1, t.keyColumn)}. ${again}`
  }
  const passed = copiesPassedOver(inventory, t, out, opts)
  return passed ? `${name} passes over ${passed.copies}: ${passed.instead}. ${again}` : null
}

/** Which copy a table reads and why, where a rule makes it differ from the obvious one (the newest ready copy, or
 * every ready folder): an unreadable file passed over or left out, archived files not readable until restored, v1
 * read until v2 has a ready copy, a copy with no Parquet file. One answer for the app's Tables and the CLI's status;
 * `restorable` when restoring archived files would complete it. */
export function copyReadNote(
  inventory: Inventory,
  t: Pick<CatalogTable, 'schema' | 'table' | 'mode' | 'keyColumn'>,
  opts: AsOf & { readonly now: number }
): { readonly note: string | null; readonly restorable: boolean } {
  const leftOut = unreadableNote(inventory, t, opts)
  const archived = foldersForLogicalTable(inventory, t, opts).flatMap((f) => f.dataFiles.filter((o) => isArchived(o, opts.now)))
  const restore =
    archived.length > 0
      ? `${countText(archived.length, 'archived file')} (${formatBytes(archived.reduce((n, o) => n + o.size, 0))}) cannot be read until restored: restore ${archived.length === 1 ? 'it' : 'them'} to complete the table`
      : null
  const f = t.mode === 'full' ? latestReady(inventory, t, opts) : null
  const rule =
    t.mode !== 'full' || !f
      ? null
      : f.ref.version !== inventory.version
        ? `no ready ${inventory.version} copy yet: its newest ready ${f.ref.version} copy is read`
        : f.dataFiles.length === 0
          ? 'the latest copy holds no Parquet file: read as a table with no rows'
          : null
  const notes = [leftOut, restore, rule].filter((x): x is string => x !== null)
  return { note: notes.length ? notes.join('; ') : null, restorable: archived.length > 0 }
}

/** A parts table whose files hold a column named etl_date or etl_hour keeps the data's values there: say so. The
 * versions view has the files' columns only (its own are _etl_date, _etl_hour), so a column that binds there is the data's. */
async function vendorPartitionColumns(engine: SqlEngine, t: { schema: string; table: string }): Promise<{ table: string; message: string }[]> {
  const out: { table: string; message: string }[] = []
  for (const column of PARTITION_COLUMNS) {
    const held = await engine.query(`SELECT ${quoteIdent(column)} FROM ${quoteIdent(`${t.table}__versions`)} LIMIT 0`).then(
      () => true,
      () => false
    )
    if (held)
      out.push({
        table: `${t.schema}.${t.table}`,
        message: `${t.schema}.${t.table}: its files have their own ${column} column; the data's values are kept there, not the folder's (the folder's is in ${t.table}__versions._${column}).`
      })
  }
  return out
}

/** The objects the views read (ready folders' files and _SUCCESS markers, and the first v2 manifest that
 * decides the version): what an engine elsewhere needs to rebuild the same views with `buildInventory`. */
export function objectsForViews(inventory: Inventory, opts: AsOf & { readonly tables?: readonly CatalogTable[] } = {}): ListedObject[] {
  const out: ListedObject[] = []
  // A key is in one folder, its prefix's: a folder seen once gives each of its objects once (not a check per key).
  const seen = new Set<string>()
  // A parts table's logical view reads every ready folder; a full table's, its latest copy (and where its columns come from).
  for (const t of opts.tables ?? CATALOG) {
    for (const f of foldersForLogicalTable(inventory, t, opts)) {
      if (seen.has(f.ref.prefix)) continue
      seen.add(f.ref.prefix)
      for (const o of f.dataFiles) out.push(o)
      if (f.marker) out.push(f.marker)
    }
  }
  // The first object written under v2/_manifests/ decides the version at any instant, there as here.
  if (inventory.v2Evidence) out.push(inventory.v2Evidence)
  return out
}
