// What the command line asks for, checked before anything heavy loads: the usage text, the flags and their words
// when they are wrong (exit 2). Pure: `--help` and a wrong flag answer without loading an SDK or DuckDB.
import { parseArgs } from 'node:util'
import { CATALOG, type CatalogTable } from '../shared/catalog'
import { instantOf, isValidDate, parseInstant } from '../shared/dates'
import { type ExportFormat, formatOfName, nameFormatMismatch } from '../shared/export-format'
import { DEFAULT_POLL_MS } from '../shared/follow/check-schedule'
import { quoteIdent } from '../shared/sql-quote'
import type { ConnectionConfig } from '../shared/connection-config'
import { engineMismatch, warehouseLocation } from '../shared/warehouse-ddl/warehouse-ddl'
import { connectionFromUrl } from './bucket-url'

export const DUCKDB_VERSION_NOTE = '1.5'
const HOUR = 3_600_000

export const USAGE = `usage: export-explorer <command> --bucket <url> [options]
  <url>: s3://bucket[/prefix] | gs://bucket[/prefix] | a local folder path
  S3: --profile NAME --region R --endpoint URL (path-style);  GCS: --key-file F --endpoint URL
  --now ISO-8601   evaluate as of that instant (default: the clock)
  --json           machine-readable output on stdout, nothing else on stdout
  --no-cache       list everything again instead of refreshing the saved index
  --timeout SECONDS  how long a request may stay silent before it fails, naming the object (default 30)
  --thresholds FILE  the volume monitor's thresholds (timeline, doctor, watch): JSON {"all": {...}, "tables": {"<table>":
                   {...}}} of minHistory, madFactor, minRelativeBand, countNoise, maxRatio, days, trailing, youngRatio
commands:
  status                        version (v1|v2) and, per table, its latest ready partition or folders
  timeline [--from D] [--to D]  per hour: manifest state and each table's cell state (default: last 48 hours)
  doctor [--since D]            findings (default: the last 7 days), each open or resolved (and how); exit 0 no open
                                error, 1 open errors, 2 could not check (no such folder, not an export, listing failed)
                                --json: {ok, now, since, version, summary, listing, findings: [{kind, severity, status,
                                resolved, date, hour, table, key, message}]}; could not check: {ok: false, could_not_check}
  export (--table T [--where "SQL predicate"] | --sql "SQL") --out FILE [--format csv|parquet] [--force] [--as-of ISO]
                                --since-last [--cursor NAME] (with --table): only the rows of the folders delivered since
                                the last run of that cursor (default: bucket, table and filter); the first run: everything
  query "SQL" [--format table|csv|json] [--as-of ISO]   runs SQL over the views: <schema>.<table>, <table>,
                                <table>__versions (parts tables); as of an hour, the views hold what was delivered by then
  ddl --engine athena|bigquery [--table T] [--database D] [--json]   Athena / Glue (S3) or BigQuery (GCS) definitions
                                of every table (or T): external tables per prefix and views with the same rules, notes
                                on what SQL cannot know; the location comes from --bucket (a local folder: a placeholder)
  watch [--webhook URL]... [--exec CMD] [--once] [--since D] [--poll SECONDS]   follows the feed: checks at each hour's
                                due time (:40) and, while its markers have not landed, polls their prefixes (default every
                                60 s); tells each target once per incident opened, changed or resolved (webhook: POST JSON
                                with a Slack "text"; exec: the JSON on stdin and EE_* variables); what was told is kept in
                                a state file; --once: one check, then doctor's exit code; else until SIGTERM/SIGINT
                                --export-dir DIR --table T [--format csv|parquet]: one file per new delivery hour,
                                DIR/<table>/<date>T<hour>.csv, told to the targets (file, rows)
query and export run native DuckDB ${DUCKDB_VERSION_NOTE} over local copies of the objects (downloaded once, kept in the cache
folder); one SELECT (WITH, FROM, DESCRIBE, SHOW, SUMMARIZE; EXPLAIN of a SELECT, not EXPLAIN ANALYZE), anything else
exits 2; SQL changes nothing and reads nothing else on the machine.
values: table and csv print each value as DuckDB casts it to VARCHAR (csv is DuckDB's own COPY ... (FORMAT csv),
  the same bytes as an exported file); instants in UTC; BLOBs with \\xNN escapes for bytes that are not printable.
  json: integers and decimals are numbers where a JSON reader gets exactly the value back, strings otherwise
  (HUGEINT beyond 2^53, long DECIMALs); NaN and ±Infinity are the strings "NaN", "Infinity", "-Infinity"; LIST
  and ARRAY are arrays, STRUCT and MAP objects; every other type is the string DuckDB casts it to.`

/** A request the tool will not carry out as written: its words, then the usage, exit 2. */
export class UsageError extends Error {}

export const COMMANDS = ['status', 'timeline', 'doctor', 'query', 'export', 'ddl', 'watch'] as const
export type CommandName = (typeof COMMANDS)[number]
export type OutputFormat = 'table' | 'csv' | 'json' | ExportFormat

const OPTIONS = {
  bucket: { type: 'string' },
  profile: { type: 'string' },
  region: { type: 'string' },
  endpoint: { type: 'string' },
  'key-file': { type: 'string' },
  now: { type: 'string' },
  json: { type: 'boolean' },
  'no-cache': { type: 'boolean' },
  from: { type: 'string' },
  to: { type: 'string' },
  since: { type: 'string' },
  format: { type: 'string' },
  table: { type: 'string' },
  where: { type: 'string' },
  sql: { type: 'string' },
  out: { type: 'string' },
  force: { type: 'boolean' },
  'as-of': { type: 'string' },
  engine: { type: 'string' },
  database: { type: 'string' },
  webhook: { type: 'string', multiple: true },
  exec: { type: 'string' },
  once: { type: 'boolean' },
  poll: { type: 'string' },
  timeout: { type: 'string' },
  thresholds: { type: 'string' },
  'since-last': { type: 'boolean' },
  cursor: { type: 'string' },
  'export-dir': { type: 'string' },
  help: { type: 'boolean', short: 'h' }
} as const

export type CliFlags = ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>>['values']

/** A command to run on a bucket, every flag checked. */
export interface CliRequest {
  readonly command: CommandName
  readonly flags: CliFlags
  /** The connection --bucket and the credential flags name. */
  readonly conn: ConnectionConfig
  /** The evaluation instant (--now, else the clock). */
  readonly now: number
  /** query and export: the statement (export --table builds it). */
  readonly sql: string | undefined
  readonly format: OutputFormat
  readonly asOf: number | undefined
  /** timeline and doctor: the first hour they judge; the others: `now`. */
  readonly since: number
  readonly until: number
  /** watch: where to tell, and how often to poll for the due hour's markers. */
  readonly watch?: WatchRequest
  /** --timeout: the idle timeout of every request (ms); the providers' default when absent. */
  readonly idleMs?: number
  /** export --since-last: the cursor's explicit name (--cursor), null for the default (bucket, table, filter). */
  readonly sinceLast?: { readonly cursor: string | null; readonly table: CatalogTable; readonly where: string | null }
}

export interface WatchRequest {
  readonly webhooks: readonly string[]
  readonly exec: string | null
  readonly once: boolean
  readonly pollMs: number
  /** --export-dir: one file per new delivery hour of a table. */
  readonly export: { readonly dir: string; readonly table: CatalogTable; readonly format: ExportFormat } | null
}

function catalogTable(name: string): CatalogTable {
  const t = CATALOG.find((c) => c.table === name || `${c.schema}.${c.table}` === name)
  if (!t) throw new UsageError(`--table ${name} is not a table of the catalog`)
  return t
}

function watchRequest(values: CliFlags): WatchRequest {
  const webhooks = values.webhook ?? []
  for (const w of webhooks) {
    let url: URL | null = null
    try {
      url = new URL(w)
    } catch {
      url = null
    }
    if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) throw new UsageError(`--webhook must be an http(s) URL, not "${w.slice(0, 40)}"`)
  }
  const exportDir = values['export-dir']
  if (webhooks.length === 0 && values.exec === undefined && exportDir === undefined)
    throw new UsageError('watch needs a target: --webhook URL (repeatable), --exec CMD or --export-dir DIR --table T')
  if (exportDir !== undefined && values.table === undefined) throw new UsageError('watch --export-dir needs --table T (the table to export)')
  if (exportDir === undefined && values.table !== undefined) throw new UsageError('watch --table goes with --export-dir DIR')
  const format = values.format ?? 'csv'
  if (exportDir !== undefined && format !== 'csv' && format !== 'parquet') throw new UsageError(`--format is csv or parquet, not "${format}"`)
  if (values.exec !== undefined && values.exec.trim() === '') throw new UsageError('--exec needs a command')
  const poll = values.poll === undefined ? DEFAULT_POLL_MS / 1000 : Number(values.poll)
  if (!Number.isFinite(poll) || poll < 1 || poll > 3600) throw new UsageError(`--poll is a number of seconds from 1 to 3600, not "${values.poll}"`)
  return {
    webhooks,
    exec: values.exec ?? null,
    once: values.once === true,
    pollMs: Math.round(poll * 1000),
    export: exportDir === undefined ? null : { dir: exportDir, table: catalogTable(values.table as string), format: format as ExportFormat }
  }
}

export type ParsedCommandLine = { readonly help: true; readonly exitCode: 0 | 2 } | ({ readonly help: false } & CliRequest)

function dayStart(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined
  if (!isValidDate(value)) throw new UsageError(`--${flag} must be a date YYYY-MM-DD, not "${value}"`)
  return instantOf(value)
}

/** The command line as a request, or the usage (`--help`, no command); throws UsageError for what cannot run. */
export function parseCommandLine(argv: readonly string[], clock: () => number = Date.now): ParsedCommandLine {
  const { values, positionals } = parseArgs({ args: [...argv], allowPositionals: true, options: OPTIONS })
  const name = positionals[0]
  if (values.help || !name) return { help: true, exitCode: name || values.help ? 0 : 2 }
  if (!(COMMANDS as readonly string[]).includes(name)) throw new UsageError(`unknown command "${name}"`)
  const command = name as CommandName
  if (command === 'ddl' && values.engine !== 'athena' && values.engine !== 'bigquery')
    throw new UsageError('ddl needs --engine athena (an S3 bucket) or --engine bigquery (a GCS bucket)')
  let sql = command === 'query' ? positionals[1] : undefined
  if (command === 'query' && !sql) throw new UsageError('query needs the SQL to run, in quotes')
  if (command === 'export') {
    if (!values.out) throw new UsageError('export needs --out FILE')
    if ((values.table === undefined) === (values.sql === undefined)) throw new UsageError('export needs either --table T or --sql "SQL"')
    if (values['since-last'] && values.table === undefined)
      throw new UsageError('export --since-last needs --table T (an incremental export follows one table)')
    if (values['since-last'] && values['as-of'] !== undefined)
      throw new UsageError('export --since-last exports what arrived since the last run; leave --as-of out')
    if (values.table !== undefined) {
      const t = catalogTable(values.table)
      sql = `SELECT * FROM ${quoteIdent(t.schema)}.${quoteIdent(t.table)}${values.where ? ` WHERE ${values.where}` : ''}`
    } else sql = values.sql
  }
  // An export's format follows its file's name unless --format says it (and then the name must agree).
  if (values.cursor !== undefined && !values['since-last']) throw new UsageError('--cursor NAME goes with export --since-last')
  if (values.cursor !== undefined && values.cursor.trim() === '') throw new UsageError('--cursor needs a name')
  const format =
    values.format ??
    (command === 'export'
      ? (formatOfName(values.out as string) ?? 'csv')
      : command === 'watch' && values['export-dir'] !== undefined
        ? 'csv'
        : values.json
          ? 'json'
          : 'table')
  const formats = command === 'export' || (command === 'watch' && values['export-dir'] !== undefined) ? ['csv', 'parquet'] : ['table', 'csv', 'json']
  if (!formats.includes(format)) throw new UsageError(`--format is ${formats.join(', ')}, not "${format}"`)
  const misnamed = command === 'export' ? nameFormatMismatch(values.out as string, format as ExportFormat) : null
  if (misnamed) throw new UsageError(misnamed)
  const asOf = values['as-of'] !== undefined ? parseInstant(values['as-of']) : undefined
  if (asOf !== undefined && Number.isNaN(asOf)) throw new UsageError(`--as-of must be an ISO-8601 instant, not "${values['as-of']}"`)
  if (!values.bucket) throw new UsageError('--bucket is required')
  const now = values.now !== undefined ? parseInstant(values.now) : clock()
  if (Number.isNaN(now)) throw new UsageError(`--now must be an ISO-8601 instant such as 2026-11-13T02:50:00Z, not "${values.now}"`)
  // The timeline and doctor judge a range of hours (doctor: the last 7 days; timeline: the last 48 hours).
  const since =
    command === 'doctor' || command === 'watch'
      ? (dayStart('since', values.since) ?? Math.floor((now - 7 * 24 * HOUR) / HOUR) * HOUR)
      : command === 'timeline'
        ? (dayStart('from', values.from) ?? Math.floor(now / HOUR) * HOUR - 47 * HOUR)
        : now
  const until = command === 'timeline' && values.to !== undefined ? (dayStart('to', values.to) as number) + 23 * HOUR : now
  const conn = connectionFromUrl(values.bucket, {
    ...(values.profile ? { profile: values.profile } : {}),
    ...(values.region ? { region: values.region } : {}),
    ...(values.endpoint ? { endpoint: values.endpoint } : {}),
    ...(values['key-file'] ? { keyFile: values['key-file'] } : {})
  })
  const mismatch = command === 'ddl' ? engineMismatch(values.engine as 'athena' | 'bigquery', warehouseLocation(conn), true) : null
  if (mismatch) throw new UsageError(mismatch)
  const watch = command === 'watch' ? watchRequest(values) : undefined
  const timeout = values.timeout === undefined ? undefined : Number(values.timeout)
  if (timeout !== undefined && (!Number.isFinite(timeout) || timeout < 1 || timeout > 600))
    throw new UsageError(`--timeout is a number of seconds from 1 to 600, not "${values.timeout}"`)
  return {
    help: false,
    command,
    flags: values,
    conn,
    now,
    sql,
    format: format as OutputFormat,
    asOf,
    since,
    until,
    ...(watch ? { watch } : {}),
    ...(command === 'export' && values['since-last']
      ? { sinceLast: { cursor: values.cursor ?? null, table: catalogTable(values.table as string), where: values.where ?? null } }
      : {}),
    ...(timeout !== undefined ? { idleMs: Math.round(timeout * 1000) } : {})
  }
}
