// What DuckDB-WASM 0.9.1 (the query pane's engine) cannot read at once although native DuckDB can: a table whose
// files disagree on a column's Parquet type (INT32 in older files, INT64 in newer ones; BIGINT then DOUBLE) fails
// there with "INTERNAL Error: SetMin or SetMax called with Value that does not match statistics' column value" once
// Parquet metadata is cached, and an INTERNAL error invalidates the whole database, every other table with it.
// Wraps the engine handed to createBucketViews: such a table's files are registered again per type and read one
// type at a time (its read plan, combined by name as the wider type, as native DuckDB does), so it opens at once,
// without waiting for the local mirror; where that cannot be done, registration fails with why, a problem for that
// table only. (A vendor column named like a bookkeeping column is otherwise no problem: logical-table-sql.ts names
// its own columns apart from the table's.)
import type { ReadPlan, SqlEngine } from '../../../shared/bucket-views'
import { globOf } from '../../../shared/logical-table-sql'
import { quoteIdent, quoteLiteral } from '../../../shared/sql-quote'

interface SchemaRow {
  readonly file_name: string
  readonly name: string
  readonly type: string | null
  readonly converted_type: string | null
  readonly logical_type: string | null
  readonly num_children: number | bigint | null
  readonly scale: number | bigint | null
  readonly precision: number | bigint | null
}

/** One leaf column of one file: its path (struct fields joined by '.') and its type as Parquet stores it. */
export interface FileColumn {
  readonly file: string
  readonly column: string
  readonly type: string
}

/** The type of a Parquet leaf as a reader sees it: physical type, with its converted/logical annotation. */
function typeOf(r: SchemaRow): string {
  const logical = r.logical_type ?? ''
  const annotation = r.converted_type ?? /^(\w+?)Type\(/.exec(logical)?.[1]?.toUpperCase() ?? ''
  const decimal = annotation === 'DECIMAL' ? `(${String(r.precision)},${String(r.scale)})` : ''
  // A timestamp that is UTC-adjusted reads as TIMESTAMP WITH TIME ZONE, another type.
  const utc = /isAdjustedToUTC=(1|true)/i.test(logical) ? ' UTC' : ''
  return `${r.type ?? '?'}${annotation ? ` (${annotation}${decimal}${utc})` : ''}`
}

/** Leaf columns per file, from parquet_schema rows (each file's schema in order, groups with num_children). */
export function leafColumns(rows: readonly SchemaRow[]): FileColumn[] {
  const out: FileColumn[] = []
  let file = ''
  let stack: { name: string; left: number }[] = []
  for (const r of rows) {
    if (r.file_name !== file) {
      file = r.file_name
      // The first element of a file's schema is its root.
      stack = [{ name: '', left: Number(r.num_children ?? 0) }]
      continue
    }
    while (stack.length > 1 && (stack[stack.length - 1] as { left: number }).left === 0) stack.pop()
    const parent = stack[stack.length - 1]
    if (parent) parent.left--
    const path = [...stack.slice(1).map((s) => s.name), r.name].join('.')
    const children = Number(r.num_children ?? 0)
    if (children > 0 && r.type === null) stack.push({ name: r.name, left: children })
    else out.push({ file, column: path, type: typeOf(r) })
  }
  return out
}

/**
 * The columns `read_parquet(glob, union_by_name = true)` gives over these files (DESCRIBE's names, in its order: each
 * file's top-level columns, a name first seen in a later file added after), from parquet_schema rows already read, so
 * the views need not read every footer again to learn them. Null where DuckDB's own matching could differ: a name
 * empty, or two names equal but for case (DuckDB matches them as one column).
 */
export function topLevelColumns(rows: readonly SchemaRow[]): string[] | null {
  const names = new Map<string, string>()
  let file = ''
  let inFile = new Set<string>()
  // Children left to read at each open level; the root's first.
  let left: number[] = []
  for (const r of rows) {
    if (r.file_name !== file) {
      file = r.file_name
      inFile = new Set()
      left = [Number(r.num_children ?? 0)]
      continue
    }
    while (left.length > 1 && left[left.length - 1] === 0) left.pop()
    if (left.length === 1) {
      const folded = r.name.toLowerCase()
      const seen = names.get(folded)
      // A name twice in one file, or spelt two ways across files: DuckDB's names could differ from these.
      if (r.name === '' || inFile.has(folded) || (seen !== undefined && seen !== r.name)) return null
      inFile.add(folded)
      names.set(folded, r.name)
    }
    left[left.length - 1] = (left[left.length - 1] ?? 0) - 1
    const children = Number(r.num_children ?? 0)
    if (children > 0 && r.type === null) left.push(children)
  }
  return [...names.values()]
}

/** Columns whose type differs across files: per column, the files of each type. */
export function typeConflicts(columns: readonly FileColumn[]): { column: string; byType: Map<string, string[]> }[] {
  const byColumn = new Map<string, Map<string, string[]>>()
  for (const c of columns) {
    const types = byColumn.get(c.column) ?? new Map<string, string[]>()
    byColumn.set(c.column, types)
    types.set(c.type, [...(types.get(c.type) ?? []), c.file])
  }
  return [...byColumn].filter(([, t]) => t.size > 1).map(([column, byType]) => ({ column, byType: inDeliveryOrder(byType) }))
}

// Engine names end with the file's rank in delivery order (`…-000000012.parquet`): oldest files, and the type
// they hold, first.
const rankOf = (name: string): number => Number(/(\d+)\.parquet$/.exec(name)?.[1] ?? Number.MAX_SAFE_INTEGER)
function inDeliveryOrder(byType: Map<string, string[]>): Map<string, string[]> {
  const sorted = [...byType].map(([t, files]) => [t, [...files].sort((a, b) => rankOf(a) - rankOf(b))] as const)
  return new Map(sorted.sort((a, b) => rankOf(a[1][0] ?? '') - rankOf(b[1][0] ?? '')))
}

const listFiles = (keys: readonly string[]): string => `${keys.slice(0, 3).join(', ')}${keys.length > 3 ? ` and ${keys.length - 3} more` : ''}`

/** The words that mark a table refused for disagreeing column types (the mirror, one type per column, opens it). */
export const TYPE_CONFLICT_MARK = 'cannot be opened in the query pane: its files disagree on column types'

/** Each conflicting column, with the files of each of its types (bucket keys, not engine names). */
function conflictWords(conflicts: ReturnType<typeof typeConflicts>, keyOf: (name: string) => string): string {
  const parts = conflicts.slice(0, 3).map(({ column, byType }) => {
    const each = [...byType].map(([type, files]) => `${type} in ${files.length} file${files.length === 1 ? '' : 's'} (${listFiles(files.map(keyOf))})`)
    return `column ${column} is ${each.join(', but ')}`
  })
  return `${parts.join('; ')}${conflicts.length > 3 ? `; and ${conflicts.length - 3} more columns` : ''}`
}

const WASM_FAILS = `DuckDB-WASM 0.9.1, this pane's engine, fails on such a set of files read at once ("SetMin or SetMax called with Value that does not match statistics' column value")`

/** The message for a table whose files disagree on column types and cannot be read in groups (bucket keys, not engine names). */
export function typeConflictMessage(table: string, conflicts: ReturnType<typeof typeConflicts>, keyOf: (name: string) => string): string {
  return (
    `${table} ${TYPE_CONFLICT_MARK}: ${conflictWords(conflicts, keyOf)}. ${WASM_FAILS} and then stops reading every table; ` +
    `its files also hold a column named filename or file_row_number, so they cannot be read one type at a time here. ` +
    `Native DuckDB 1.5, the command-line tool's engine, combines them (the wider type): query this table with the command-line tool; the other tables open here as usual.`
  )
}

/** The note on a table whose files this pane reads one type at a time (bucket keys, not engine names): each
 * column's types in delivery order, with the first file of each later type, and counts rather than lists. */
export function typeGroupsNote(table: string, conflicts: ReturnType<typeof typeConflicts>, keyOf: (name: string) => string): string {
  const parts = conflicts.slice(0, 3).map(({ column, byType }) => {
    const each = [...byType].map(([type, files], i) =>
      i === 0
        ? `${type} in ${files.length} file${files.length === 1 ? '' : 's'}`
        : `${type} from ${keyOf(files[0] ?? '')} (${files.length} file${files.length === 1 ? '' : 's'})`
    )
    return `${column} is ${each.join(', then ')}`
  })
  const more = conflicts.length > 3 ? `; and ${conflicts.length - 3} more columns` : ''
  return (
    `${table} is read here from the bucket's files one type at a time: ${parts.join('; ')}${more}. ` +
    `This pane's engine (DuckDB-WASM 0.9.1) cannot read files that disagree on a column's type in one go; read apart, they combine as the wider type, ` +
    `as native DuckDB gives them (the command-line tool, exports). Once the local mirror holds the table (one type per column), it is read from there.`
  )
}

/** Where the files of one type group are registered again: beside the table's folder, never under its glob. */
const groupDir = (dir: string, i: number): string => `${dir.slice(0, -1)}.types${i}/`

/** Files grouped by the types they hold for the conflicting columns (delivery order of each group's first file). */
function typeGroups(columns: readonly FileColumn[], conflicts: ReturnType<typeof typeConflicts>, files: readonly string[]): string[][] {
  const conflicting = new Set(conflicts.map((c) => c.column))
  const typesOf = new Map<string, Map<string, string>>()
  for (const c of columns) {
    if (!conflicting.has(c.column)) continue
    const m = typesOf.get(c.file) ?? new Map<string, string>()
    typesOf.set(c.file, m.set(c.column, c.type))
  }
  const groups = new Map<string, string[]>()
  for (const f of [...files].sort((a, b) => rankOf(a) - rankOf(b))) {
    const signature = [...conflicting].map((c) => typesOf.get(f)?.get(c) ?? '').join('\u0000')
    groups.set(signature, [...(groups.get(signature) ?? []), f])
  }
  return [...groups.values()]
}

/**
 * The engine as createBucketViews should see it in the pane: a table whose files disagree on a column's type is read
 * one type at a time (its files registered again per group, its read plan saying so), or refused with why where that
 * cannot be done; view failures explained.
 */
export function guardForWasm(engine: SqlEngine & { query(sql: string): Promise<Record<string, unknown>[]> }): SqlEngine {
  const keys = new Map<string, string>()
  const plans = new Map<string, ReadPlan>()
  const columnsByGlob = new Map<string, readonly string[]>()
  // A view left from an earlier listing would read the new files through its glob (and 0.9.1 fail on them):
  // a refused table has no view at all.
  const viewsOf = (table: string): string[] => {
    const [schema = '', name = ''] = table.split('.')
    return [`${quoteIdent(schema)}.${quoteIdent(name)}`, quoteIdent(name), quoteIdent(`${name}__versions`)]
  }
  const drop = async (views: readonly string[]): Promise<void> => {
    for (const v of views) await engine.query(`DROP VIEW IF EXISTS ${v}`).catch(() => [])
  }
  return {
    async register(files) {
      await engine.register(files)
      for (const f of files) keys.set(f.name, f.key)
      const first = files[0]
      if (!first) return
      // Names are `ee/<schema>/<table>/<tag>-<rank>.parquet`, one folder per table (see logical-table-sql.ts):
      // one glob reads exactly this table's files, and the footers read here are the ones the view reads next.
      const dir = first.name.slice(0, first.name.lastIndexOf('/') + 1)
      plans.delete(dir)
      columnsByGlob.delete(globOf(dir))
      const table = dir.split('/').filter(Boolean).slice(-2).join('.')
      const rows = (await engine.query(`SELECT * FROM parquet_schema(${quoteLiteral(`${dir}*.parquet`)})`)) as unknown as SchemaRow[]
      const columns = leafColumns(rows)
      const conflicts = typeConflicts(columns)
      if (conflicts.length === 0) {
        // Every footer was just read: the views take the columns from here instead of a DESCRIBE reading them again.
        const top = topLevelColumns(rows)
        if (top) columnsByGlob.set(globOf(dir), top)
        return
      }
      const keyOf = (n: string): string => keys.get(n) ?? n
      // Read apart, each group is one type per column; the rank of a row comes from its file's name (logical-table-sql.ts),
      // which read_parquet gives only where no column of the files is named like its own.
      const own = new Set(columns.map((c) => c.column.split('.')[0]))
      if (own.has('filename') || own.has('file_row_number')) {
        await drop(viewsOf(table))
        throw new Error(typeConflictMessage(table, conflicts, keyOf))
      }
      const byName = new Map(files.map((f) => [f.name, f]))
      const groups = typeGroups(columns, conflicts, [...byName.keys()])
      await engine.register(
        groups.flatMap((g, i) => g.map((name) => ({ ...(byName.get(name) as (typeof files)[number]), name: `${groupDir(dir, i)}${name.slice(dir.length)}` })))
      )
      plans.set(dir, { globs: groups.map((_, i) => globOf(groupDir(dir, i))), note: typeGroupsNote(table, conflicts, keyOf) })
    },
    readPlan: (base) => plans.get(base) ?? null,
    columnsOf: (glob) => columnsByGlob.get(glob) ?? null,
    query: (sql) => engine.query(sql)
  }
}
