// Decides what of the user's SQL main's engine runs, with DuckDB's own parser and never by matching text: one
// SELECT (DESCRIBE, SHOW, SUMMARIZE, FROM …, VALUES, WITH … parse as SELECTs), or EXPLAIN of one, never ANALYZE.
import type { DuckDBConnection, DuckDBPreparedStatement } from '@duckdb/node-api'
import { duckdb } from './duckdb-api'

const { StatementType } = duckdb
import { StatementRefused } from './engine-error'

/** What a refusal says first: what may run here. */
export const READS_ONLY = 'Only queries that read run here (SELECT, WITH …, FROM …, DESCRIBE, SHOW, SUMMARIZE, or EXPLAIN of a SELECT)'

const ANALYZE_REFUSED = 'EXPLAIN ANALYZE runs its statement and is refused; EXPLAIN of a SELECT is fine (it shows the plan without running it).'

/**
 * Table functions a SELECT may call: they read (files only inside the engine's allowed folders) or describe.
 * Everything else is refused, because a SELECT can call a table function that changes the engine for good:
 * `enable_logging(storage = 'file', …)` left every later query failing and aborted the process at exit, in 1.5.
 */
const TABLE_FUNCTIONS = new Set([
  'range',
  'generate_series',
  'unnest',
  'repeat',
  'repeat_row',
  'read_parquet',
  'parquet_scan',
  'parquet_metadata',
  'parquet_schema',
  'parquet_file_metadata',
  'parquet_kv_metadata',
  'parquet_full_metadata',
  'parquet_bloom_probe',
  'read_csv',
  'read_csv_auto',
  'sniff_csv',
  'read_json',
  'read_json_auto',
  'read_json_objects',
  'read_json_objects_auto',
  'read_ndjson',
  'read_ndjson_auto',
  'read_ndjson_objects',
  'read_text',
  'read_blob',
  'glob',
  'json_each',
  'json_tree',
  'summary',
  'histogram',
  'histogram_values',
  'query_table',
  'duckdb_columns',
  'duckdb_constraints',
  'duckdb_databases',
  'duckdb_dependencies',
  'duckdb_extensions',
  'duckdb_functions',
  'duckdb_indexes',
  'duckdb_keywords',
  'duckdb_memory',
  'duckdb_optimizers',
  'duckdb_schemas',
  'duckdb_sequences',
  'duckdb_settings',
  'duckdb_tables',
  'duckdb_temporary_files',
  'duckdb_types',
  'duckdb_variables',
  'duckdb_views',
  'pragma_collations',
  'pragma_database_size',
  'pragma_platform',
  'pragma_show',
  'pragma_storage_info',
  'pragma_table_info',
  'pragma_user_agent',
  'pragma_version',
  'icu_calendar_names',
  'pg_timezone_names',
  'test_all_types',
  'sql_auto_complete'
])

/**
 * Functions refused wherever they are named: they change the engine (logging, profiling, the parser, a
 * checkpoint), run SQL text this check cannot see (query, json_execute_serialized_sql), dereference pointers
 * (arrow_scan) or write (write_log).
 */
const REFUSED_FUNCTIONS = new Set([
  'enable_logging',
  'disable_logging',
  'truncate_duckdb_logs',
  'enable_profiling',
  'disable_profiling',
  'enable_peg_parser',
  'disable_peg_parser',
  'check_peg_parser',
  'checkpoint',
  'force_checkpoint',
  'arrow_scan',
  'arrow_scan_dumb',
  'json_execute_serialized_sql',
  'query',
  'read_duckdb',
  'write_log'
])

/** EXPLAIN's output formats in DuckDB 1.5 (`EXPLAIN (FORMAT json) SELECT …`). */
const EXPLAIN_FORMATS = new Set(['text', 'json', 'html', 'graphviz', 'yaml'])

export interface UserStatement {
  readonly kind: 'select' | 'explain'
  /** The text that runs: the user's own SELECT, or an EXPLAIN we composed around their SELECT. */
  readonly sql: string
  readonly prepared: DuckDBPreparedStatement
}

/**
 * The user's SQL as one statement this engine runs, prepared on `conn`, or a StatementRefused that says what to do.
 * Nothing is bound (prepared) before the parser has said it is a SELECT calling only the functions above.
 */
export async function prepareUserStatement(conn: DuckDBConnection, text: string): Promise<UserStatement> {
  // Without its closing semicolons, so that it can be wrapped (COPY, casts); what runs is what was checked.
  const sql = text.replace(/[\s;]+$/, '')
  await oneStatement(conn, sql)
  const tree = await selectTree(conn, sql)
  if (tree !== null) return { kind: 'select', sql, prepared: await preparedSelect(conn, sql, tree) }
  const explain = explainParts(sql)
  if (explain === null) throw new StatementRefused(`${READS_ONLY}: ${statementWord(sql, 0)} is refused. Exports are written by Export, not by COPY.`)
  await oneStatement(conn, explain.statement)
  const inner = await selectTree(conn, explain.statement)
  if (inner === null) throw new StatementRefused(`EXPLAIN shows the plan of a SELECT here; EXPLAIN of ${statementWord(explain.statement, 0)} is refused.`)
  await preparedSelect(conn, explain.statement, inner)
  // Composed by us: a plain EXPLAIN of a statement DuckDB parsed as one SELECT, whatever the user's words were.
  const composed = `EXPLAIN ${explain.format ? `(FORMAT ${explain.format}) ` : ''}${explain.statement}`
  const statements = await oneStatement(conn, composed)
  const prepared = await statements.prepare(0)
  if (prepared.statementType !== StatementType.EXPLAIN) throw new StatementRefused(`${READS_ONLY}: this EXPLAIN is refused.`)
  return { kind: 'explain', sql: composed, prepared }
}

/**
 * Refuses, before any engine is open, what the parser alone tells is not one SELECT an export writes (more than one
 * statement, COPY, EXPLAIN, a function that changes the engine): the API answers it as a refusal instead of starting
 * a job that fails. Nothing is bound or read; where it runs, the statement is judged again by prepareUserStatement.
 */
export async function checkExportStatement(conn: DuckDBConnection, text: string): Promise<void> {
  const sql = text.replace(/[\s;]+$/, '')
  await oneStatement(conn, sql)
  const tree = await selectTree(conn, sql)
  if (tree !== null) return refuseFunctions(tree)
  if (explainParts(sql) === null) throw new StatementRefused(`${READS_ONLY}: ${statementWord(sql, 0)} is refused. Exports are written by Export, not by COPY.`)
  throw new StatementRefused(EXPORT_NOT_EXPLAIN)
}

/** An export of an EXPLAIN: refused where the export is asked for, and where it runs. */
export const EXPORT_NOT_EXPLAIN = 'An export writes the rows of a SELECT; EXPLAIN shows a plan: run it as a query instead.'

async function oneStatement(conn: DuckDBConnection, sql: string): Promise<Awaited<ReturnType<DuckDBConnection['extractStatements']>>> {
  const statements = await conn.extractStatements(sql)
  if (statements.count === 0) throw new StatementRefused('There is no statement to run.')
  if (statements.count > 1) throw new StatementRefused(`Run one statement at a time: this text holds ${statements.count}.`)
  return statements
}

/** DuckDB's parse tree of a SELECT (json_serialize_sql parses only, and serializes only SELECTs), or null. */
async function selectTree(conn: DuckDBConnection, sql: string): Promise<unknown> {
  const serialize = await conn.prepare('SELECT json_serialize_sql($1::VARCHAR)')
  serialize.bindVarchar(1, sql)
  const out = JSON.parse(String((await serialize.runAndReadAll()).getRows()[0]?.[0] ?? '{"error":true}')) as {
    error: boolean
    statements?: unknown[]
  }
  return out.error || out.statements?.length !== 1 ? null : out.statements
}

function refuseFunctions(tree: unknown): void {
  const called = { tables: new Set<string>(), all: new Set<string>() }
  functionsCalled(tree, called)
  const refused = [...called.all].filter((f) => REFUSED_FUNCTIONS.has(f)).concat([...called.tables].filter((f) => !TABLE_FUNCTIONS.has(f)))
  if (refused.length > 0)
    throw new StatementRefused(
      `${[...new Set(refused)].map((f) => `${f}()`).join(', ')} cannot be called here: SQL here reads the bucket's tables and changes nothing in the engine. Call another function, or read a table.`
    )
}

async function preparedSelect(conn: DuckDBConnection, sql: string, tree: unknown): Promise<DuckDBPreparedStatement> {
  refuseFunctions(tree)
  const prepared = await (await oneStatement(conn, sql)).prepare(0)
  if (prepared.statementType !== StatementType.SELECT)
    throw new StatementRefused(`${READS_ONLY}: a ${StatementType[prepared.statementType] ?? 'other'} statement is refused.`)
  return prepared
}

/** Every function named in a parse tree (lower case, as DuckDB looks them up), and those called as table functions. */
function functionsCalled(node: unknown, out: { tables: Set<string>; all: Set<string> }): void {
  if (Array.isArray(node)) {
    for (const n of node) functionsCalled(n, out)
    return
  }
  if (node === null || typeof node !== 'object') return
  const o = node as Record<string, unknown>
  if (typeof o.function_name === 'string') out.all.add(o.function_name.toLowerCase())
  if (o.type === 'TABLE_FUNCTION') {
    const name = (o.function as { function_name?: unknown } | null)?.function_name
    // A table function that is not a plain call by name is not one we know.
    out.tables.add(typeof name === 'string' ? name.toLowerCase() : '(unnamed)')
  }
  for (const v of Object.values(o)) functionsCalled(v, out)
}

/**
 * The parts of `EXPLAIN [(FORMAT f)] <statement>`: only the leading keyword (after whitespace and comments) and a
 * FORMAT option are taken off; the statement itself is then judged by DuckDB's parser. Null when the text does not
 * start with EXPLAIN; refused when it is EXPLAIN ANALYZE or carries other options.
 */
function explainParts(sql: string): { format: string | null; statement: string } | null {
  let i = skipSpace(sql, 0)
  if (wordAt(sql, i).toLowerCase() !== 'explain') return null
  i = skipSpace(sql, i + 'explain'.length)
  if (/^analy[sz]e$/i.test(wordAt(sql, i))) throw new StatementRefused(ANALYZE_REFUSED)
  if (sql[i] !== '(') return { format: null, statement: sql.slice(i) }
  i = skipSpace(sql, i + 1)
  const option = wordAt(sql, i)
  if (/^analy[sz]e$/i.test(option)) throw new StatementRefused(ANALYZE_REFUSED)
  const refused = new StatementRefused(
    `EXPLAIN takes one option here, (FORMAT ${[...EXPLAIN_FORMATS].join(' | ')}); ${ANALYZE_REFUSED.replace(/^EXPLAIN ANALYZE/, 'ANALYZE')}`
  )
  if (option.toLowerCase() !== 'format') throw refused
  i = skipSpace(sql, i + option.length)
  const format = wordAt(sql, i).toLowerCase()
  if (!EXPLAIN_FORMATS.has(format)) throw refused
  i = skipSpace(sql, i + format.length)
  if (sql[i] !== ')') throw refused
  return { format, statement: sql.slice(i + 1) }
}

/** The index past whitespace and comments from i, as DuckDB's lexer reads them (line comments to the end of the line, block comments nested). */
function skipSpace(s: string, from: number): number {
  let i = from
  for (;;) {
    while (i < s.length && /\s/.test(s[i] as string)) i++
    if (s.startsWith('--', i)) {
      const eol = s.indexOf('\n', i)
      i = eol < 0 ? s.length : eol + 1
    } else if (s.startsWith('/*', i)) {
      let depth = 0
      do {
        if (s.startsWith('/*', i)) {
          depth++
          i += 2
        } else if (s.startsWith('*/', i)) {
          depth--
          i += 2
        } else i++
      } while (depth > 0 && i < s.length)
    } else return i
  }
}

function wordAt(s: string, i: number): string {
  return /^[A-Za-z_][A-Za-z0-9_]*/.exec(s.slice(i, i + 64))?.[0] ?? ''
}

/** For the words of a refusal only (the decision is the parser's): the statement's first keyword. */
function statementWord(sql: string, from: number): string {
  const w = wordAt(sql, skipSpace(sql, from)).toUpperCase()
  return w ? `a ${w} statement` : 'this statement'
}
