#!/usr/bin/env node
// export-explorer: the delivery rules from a terminal or a scheduled job, over the same core and services
// as the app. status | timeline | doctor (exit 0: no open error, 1: some, 2: could not check).
import { createHash } from 'node:crypto'
import { once } from 'node:events'
import { createReadStream } from 'node:fs'
import { rm, stat } from 'node:fs/promises'
import { DuckDBTypeId } from '@duckdb/node-api'
import { homedir } from 'node:os'
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { CATALOG } from '../shared/catalog'
import { instantOf, isValidDate, parseInstant } from '../shared/dates'
import { copyReadNote, missingViewReason } from '../shared/bucket-views'
import { latestReady, readyPartsFolders } from '../shared/inventory'
import { analyzeTimeline, type Finding } from '../shared/timeline'
import { BucketError } from '../main/bucket/bucket-errors'
import { refreshBucket } from '../main/bucket/refresh-pipeline'
import { MemorySecretStore } from '../main/connections/secret-store'
import { openConnection } from '../main/connections/open-connection'
import { type BucketEngine, fileStoreFor, openBucketEngine } from '../main/engine/open-bucket-engine'
import { toJsonValue } from '../main/engine/json-values'
import { Mirror } from '../main/mirror/mirror'
import type { NativeEngine, QueryProgress } from '../main/engine/native-engine'
import { StatementRefused } from '../main/engine/engine-error'
import { ExportError, exportQuery } from '../main/export/export-to-file'
import { frameCacheFile } from '../main/store/parquet-frame-check'
import { quoteIdent } from '../shared/sql-quote'
import { logicalTableColumns } from '../main/engine/logical-table-columns'
import { engineMismatch, warehouseDdl, warehouseLocation } from '../shared/warehouse-ddl/warehouse-ddl'
import { connectionFromUrl } from './bucket-url'
import { configAbove, testConnection } from '../main/connections/connection-verdict'
import { resolutionWords } from '../shared/incidents'
import { type ExportFormat, formatOfName, nameFormatMismatch } from '../shared/export-format'
import { countText } from '../shared/counts'
import { errorMessage } from '../shared/error-message'

const DUCKDB_VERSION_NOTE = '1.5'
const HOUR = 3_600_000
const TABLE_ROWS = 1000
const USAGE = `usage: export-explorer <command> --bucket <url> [options]
  <url>: s3://bucket[/prefix] | gs://bucket[/prefix] | a local folder path
  S3: --profile NAME --region R --endpoint URL (path-style);  GCS: --key-file F --endpoint URL
  --now ISO-8601   evaluate as of that instant (default: the clock)
  --json           machine-readable output on stdout, nothing else on stdout
  --no-cache       list everything again instead of refreshing the saved index
commands:
  status                        version (v1|v2) and, per table, its latest ready partition or folders
  timeline [--from D] [--to D]  per hour: manifest state and each table's cell state (default: last 48 hours)
  doctor [--since D]            findings (default: the last 7 days), each open or resolved (and how); exit 0 no open
                                error, 1 open errors, 2 could not check (no such folder, not an export, listing failed)
                                --json: {ok, now, since, version, summary, listing, findings: [{kind, severity, status,
                                resolved, date, hour, table, key, message}]}; could not check: {ok: false, could_not_check}
  export (--table T [--where "SQL predicate"] | --sql "SQL") --out FILE [--format csv|parquet] [--force] [--as-of ISO]
  query "SQL" [--format table|csv|json] [--as-of ISO]   runs SQL over the views: <schema>.<table>, <table>,
                                <table>__versions (parts tables); as of an hour, the views hold what was delivered by then
  ddl --engine athena|bigquery [--table T] [--database D] [--json]   Athena / Glue (S3) or BigQuery (GCS) definitions
                                of every table (or T): external tables per prefix and views with the same rules, notes
                                on what SQL cannot know; the location comes from --bucket (a local folder: a placeholder)
query and export run native DuckDB ${DUCKDB_VERSION_NOTE} over local copies of the objects (downloaded once, kept in the cache
folder); one SELECT (WITH, FROM, DESCRIBE, SHOW, SUMMARIZE; EXPLAIN of a SELECT, not EXPLAIN ANALYZE), anything else
exits 2; SQL changes nothing and reads nothing else on the machine.
values: table and csv print each value as DuckDB casts it to VARCHAR (csv is DuckDB's own COPY ... (FORMAT csv),
  the same bytes as an exported file); instants in UTC; BLOBs with \\xNN escapes for bytes that are not printable.
  json: integers and decimals are numbers where a JSON reader gets exactly the value back, strings otherwise
  (HUGEINT beyond 2^53, long DECIMALs); NaN and ±Infinity are the strings "NaN", "Infinity", "-Infinity"; LIST
  and ARRAY are arrays, STRUCT and MAP objects; every other type is the string DuckDB casts it to.`

class UsageError extends Error {}

function cacheDir(): string {
  return process.env['EXPORT_EXPLORER_CACHE'] ?? join(process.env['XDG_CACHE_HOME'] ?? join(homedir(), '.cache'), 'export-explorer')
}

function progress(enabled: boolean): ((text: string) => void) & { done(): void } {
  const tty = enabled && process.stderr.isTTY
  const f = ((text: string) => {
    if (tty) process.stderr.write(`\r${text.padEnd(70)}`)
  }) as ((text: string) => void) & { done(): void }
  f.done = () => {
    if (tty) process.stderr.write(`\r${''.padEnd(70)}\r`)
  }
  return f
}

/** A table without a view (archived objects, unlisted files, no ready copy) is said why, rather than "does not exist". */
function explain(e: unknown, problems: readonly { table: string; message: string }[]): string {
  const message = errorMessage(e)
  return missingViewReason(message, problems) ?? message
}

function dayStart(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined
  if (!isValidDate(value)) throw new UsageError(`--${flag} must be a date YYYY-MM-DD, not "${value}"`)
  return instantOf(value)
}

const megabytes = (n: number): string => `${(n / 1e6).toFixed(1)} MB`

async function writeOut(chunk: string | Uint8Array): Promise<void> {
  if (!process.stdout.write(chunk)) await once(process.stdout, 'drain')
}

/** CSV as native DuckDB's COPY writes it (the same bytes as an exported file), streamed to stdout. */
async function writeCsv(engine: NativeEngine, sql: string, signal: AbortSignal): Promise<void> {
  const { path } = await engine.copyToScratch(sql, 'csv', { signal })
  try {
    for await (const chunk of createReadStream(path)) await writeOut(chunk as Buffer)
  } finally {
    await rm(path, { force: true })
  }
}

/** One JSON array of row objects, written as rows arrive (values: see json-values.ts and --help). */
async function writeJson(engine: NativeEngine, sql: string, signal: AbortSignal): Promise<void> {
  let first = true
  await engine.select(
    sql,
    async (columns, rows) => {
      const isFloat = columns.types.map((t) => t.typeId === DuckDBTypeId.FLOAT)
      for (const r of rows) {
        const obj = Object.fromEntries(columns.names.map((c, i) => [c, toJsonValue(r[i] ?? null, isFloat[i])]))
        await writeOut(`${first ? '[' : ','}\n${JSON.stringify(obj)}`)
        first = false
      }
    },
    { signal }
  )
  await writeOut(first ? '[]\n' : '\n]\n')
}

/** An aligned table of the first 1,000 rows, each value as DuckDB casts it to VARCHAR. */
async function writeTable(engine: NativeEngine, sql: string, signal: AbortSignal): Promise<void> {
  const shown: (string | null)[][] = []
  let more = false
  const columns = await engine.select(
    sql,
    (_columns, rows) => {
      for (const r of rows) {
        if (shown.length < TABLE_ROWS) shown.push(r.map((v) => (v === null ? null : String(v))))
        else more = true
      }
    },
    { signal, asText: true }
  )
  const cell = (v: string | null): string => (v === null ? 'NULL' : v)
  const widths = columns.names.map((c, i) => Math.min(40, Math.max(c.length, ...shown.map((r) => cell(r[i] ?? null).length))))
  await writeOut(`${columns.names.map((c, i) => c.padEnd(widths[i] as number)).join('  ')}\n`)
  for (const r of shown)
    await writeOut(
      `${columns.names
        .map((_, i) =>
          cell(r[i] ?? null)
            .slice(0, 40)
            .padEnd(widths[i] as number)
        )
        .join('  ')}\n`
    )
  if (more) process.stderr.write(`(the first ${TABLE_ROWS} rows; --format csv or json gives them all)\n`)
}

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
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
      help: { type: 'boolean', short: 'h' }
    }
  })
  const command = positionals[0]
  if (values.help || !command) {
    process.stdout.write(`${USAGE}\n`)
    return command || values.help ? 0 : 2
  }
  if (!['status', 'timeline', 'doctor', 'query', 'export', 'ddl'].includes(command)) throw new UsageError(`unknown command "${command}"`)
  if (command === 'ddl' && values.engine !== 'athena' && values.engine !== 'bigquery')
    throw new UsageError('ddl needs --engine athena (an S3 bucket) or --engine bigquery (a GCS bucket)')
  let sql = command === 'query' ? positionals[1] : undefined
  if (command === 'query' && !sql) throw new UsageError('query needs the SQL to run, in quotes')
  if (command === 'export') {
    if (!values.out) throw new UsageError('export needs --out FILE')
    if ((values.table === undefined) === (values.sql === undefined)) throw new UsageError('export needs either --table T or --sql "SQL"')
    if (values.table !== undefined) {
      const t = CATALOG.find((c) => c.table === values.table || `${c.schema}.${c.table}` === values.table)
      if (!t) throw new UsageError(`--table ${values.table} is not a table of the catalog`)
      sql = `SELECT * FROM ${quoteIdent(t.schema)}.${quoteIdent(t.table)}${values.where ? ` WHERE ${values.where}` : ''}`
    } else sql = values.sql
  }
  // An export's format follows its file's name unless --format says it (and then the name must agree).
  const format = values.format ?? (command === 'export' ? (formatOfName(values.out as string) ?? 'csv') : values.json ? 'json' : 'table')
  const formats = command === 'export' ? ['csv', 'parquet'] : ['table', 'csv', 'json']
  if (!formats.includes(format)) throw new UsageError(`--format is ${formats.join(', ')}, not "${format}"`)
  const misnamed = command === 'export' ? nameFormatMismatch(values.out as string, format as ExportFormat) : null
  if (misnamed) throw new UsageError(misnamed)
  const asOf = values['as-of'] !== undefined ? parseInstant(values['as-of']) : undefined
  if (asOf !== undefined && Number.isNaN(asOf)) throw new UsageError(`--as-of must be an ISO-8601 instant, not "${values['as-of']}"`)
  if (!values.bucket) throw new UsageError('--bucket is required')
  const now = values.now !== undefined ? parseInstant(values.now) : Date.now()
  if (Number.isNaN(now)) throw new UsageError(`--now must be an ISO-8601 instant such as 2026-11-13T02:50:00Z, not "${values.now}"`)

  const conn = connectionFromUrl(values.bucket, {
    ...(values.profile ? { profile: values.profile } : {}),
    ...(values.region ? { region: values.region } : {}),
    ...(values.endpoint ? { endpoint: values.endpoint } : {}),
    ...(values['key-file'] ? { keyFile: values['key-file'] } : {})
  })
  const location = warehouseLocation(conn)
  const mismatch = command === 'ddl' ? engineMismatch(values.engine as 'athena' | 'bigquery', location, true) : null
  if (mismatch) throw new UsageError(mismatch)
  const secrets = new MemorySecretStore()
  const provider = await openConnection(conn, secrets)
  // Could not check is not "missing": a folder that is not there or not an export, or a refused listing, exits 2 with
  // what to fix, before any hour is judged (the app's connection test, with its look one level around). Queries and
  // exports run on whatever the folder holds (SQL needs no table).
  const judges = command === 'status' || command === 'timeline' || command === 'doctor'
  const verdict = !judges
    ? null
    : await testConnection(provider, {
        config: conn,
        openAbove: async () => {
          const above = configAbove(conn)
          return above ? openConnection(above, secrets) : null
        }
      })
  if (verdict && !verdict.ok) {
    // A provider's failure in its own words (they name the endpoint and the request); else the verdict's.
    const message = verdict.error ? verdict.error.userMessage : verdict.message
    const fix = verdict.useInstead.length > 0 ? ` Use instead: ${verdict.useInstead.join(', ')}.` : ''
    if (values.json)
      process.stdout.write(
        `${JSON.stringify({ ok: false, could_not_check: { location: provider.location, message, use_instead: verdict.useInstead, detail: verdict.detail } })}\n`
      )
    process.stderr.write(`export-explorer: could not check ${provider.location}: ${message}${fix}\n`)
    return 2
  }
  const show = progress(!values.json)
  const id = createHash('sha256')
    .update(`${conn.id}|${values.endpoint ?? ''}`)
    .digest('hex')
    .slice(0, 32)
  // The timeline and doctor read the manifests of their range; every command checks the files' frames (an unreadable
  // copy is a state of its own on the timeline, a finding in doctor, left out by the tables).
  const ranged = command === 'timeline' || command === 'doctor'
  const since = !ranged
    ? now
    : command === 'doctor'
      ? (dayStart('since', values.since) ?? Math.floor((now - 7 * 24 * HOUR) / HOUR) * HOUR)
      : (dayStart('from', values.from) ?? Math.floor(now / HOUR) * HOUR - 47 * HOUR)
  const until = command === 'timeline' && values.to !== undefined ? (dayStart('to', values.to) as number) + 23 * HOUR : now
  const sinceDate = new Date(since).toISOString().slice(0, 10)
  const refreshed = await refreshBucket(provider, cacheDir(), id, {
    now,
    full: values['no-cache'] === true,
    onListing: (p) => show(`listing ${p.prefixesDone}/${p.prefixesTotal} prefixes, ${p.objects} objects`),
    onFrames: (p) => show(`checking ${p.checked}/${p.total} Parquet files`),
    manifests: ranged ? (key) => (/snapshot_date=(\d{4}-\d{2}-\d{2})/.exec(key)?.[1] ?? '') >= sinceDate : false,
    frames: true
  })
  show.done()
  const firstProblem = refreshed.listingProblems[0]
  if (firstProblem && refreshed.objects.size === 0) throw firstProblem.error
  for (const p of refreshed.listingProblems) process.stderr.write(`warning: could not list ${p.prefix}: ${p.error.userMessage}\n`)
  const { inventory } = refreshed
  // Files the views need that are not readable Parquet, remembered with what the mirror's builds found.
  const framesFile = frameCacheFile(cacheDir(), id)

  /** Native DuckDB over the local file store, with the bucket's views (objects are downloaded once). */
  const openEngine = async (): Promise<BucketEngine & { readonly unreadable: Set<string> }> => {
    // Files found unreadable never reach the engine (a hostile footer would cost native DuckDB gigabytes).
    const unreadable = new Set(refreshed.unreadable)
    show('opening the tables…')
    const store = fileStoreFor(provider, cacheDir(), id)
    // The parts tables' history compacted once into the cache (only new hours are added later): few files to read.
    const mirror = new Mirror(join(cacheDir(), 'mirror', id), store, { unreadableFile: framesFile })
    const built = await mirror.refresh(inventory, now, { onProgress: (p) => show(`compacting ${p.table} (${p.segments}/${p.segmentsTotal})`) })
    for (const p of built.problems)
      process.stderr.write(`warning: the local mirror could not compact ${p.table} ${p.period} (its raw files are read instead): ${p.message}\n`)
    for (const u of built.unreadable) unreadable.add(u.key)
    const opened = await openBucketEngine(store, inventory, refreshed.objects, join(cacheDir(), 'engine', `${id}-${process.pid}`), {
      now,
      mirror,
      unreadable,
      unlisted: refreshed.unlisted,
      ...(asOf !== undefined ? { asOf } : {}),
      onDownload: (p) => show(`downloading ${p.files}/${p.filesTotal} files, ${megabytes(p.bytes)} of ${megabytes(p.bytesTotal)}`)
    })
    show.done()
    return { ...opened, unreadable }
  }
  const interrupted = (): AbortController => {
    const ac = new AbortController()
    process.once('SIGINT', () => ac.abort())
    process.once('SIGTERM', () => ac.abort())
    return ac
  }

  if (command === 'export') {
    const { engine, views } = await openEngine()
    for (const n of views.notes) process.stderr.write(`note: ${n.message}\n`)
    const ac = interrupted()
    const target = resolve(values.out as string)
    try {
      // DuckDB's own progress moves for few COPYs of the logical tables: the bytes written always do.
      const progressText = (p: QueryProgress): string =>
        `exporting… ${megabytes(p.bytesWritten ?? 0)} written${p.percent > 0 ? `, ${Math.round(p.percent)}%` : ''}${p.rowsProcessed > 0 ? `, ${p.rowsProcessed} rows read` : ''}`
      const { rows } = await exportQuery(engine, sql as string, target, {
        format: format as ExportFormat,
        overwrite: values.force === true,
        signal: ac.signal,
        onProgress: (p) => show(progressText(p))
      })
      show.done()
      // What the file holds: which bucket, and as of which instant (or everything delivered so far).
      const held = `${values.bucket as string}, ${asOf !== undefined ? `as of ${new Date(asOf).toISOString()}` : 'latest'}`
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

  if (command === 'ddl') {
    // The columns come from the logical tables themselves (native DuckDB), the rest from the listing and the core.
    const opened = await openEngine()
    const unreadable = opened.unreadable
    try {
      const columns = await logicalTableColumns(opened, fileStoreFor(provider, cacheDir(), id), inventory, { now, unreadable })
      const r = warehouseDdl({
        engine: values.engine as 'athena' | 'bigquery',
        location,
        database: values.database ?? null,
        table: values.table ?? null,
        inventory,
        columns,
        now,
        unreadable
      })
      if (!r.ok) throw new UsageError(r.message)
      await writeOut(values.json ? `${JSON.stringify({ text: r.text, notes: r.notes })}\n` : r.text)
      return 0
    } finally {
      await opened.engine.close()
    }
  }

  if (command === 'query') {
    const { engine, views } = await openEngine()
    for (const p of views.problems) process.stderr.write(`warning: no view for ${p.table}: ${p.message}\n`)
    for (const n of views.notes) process.stderr.write(`note: ${n.message}\n`)
    const ac = interrupted()
    try {
      if (format === 'csv') await writeCsv(engine, sql as string, ac.signal)
      else if (format === 'json') await writeJson(engine, sql as string, ac.signal)
      else await writeTable(engine, sql as string, ac.signal)
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

  if (command === 'status') {
    const unreadable = refreshed.unreadable
    const tables = CATALOG.map((t) => {
      // Which copy it reads and why (an unreadable copy passed over, archived files, v1 until v2 is ready): the app's words.
      const { note } = copyReadNote(inventory, t, { unreadable, now })
      if (t.mode === 'full') {
        const f = latestReady(inventory, t, { unreadable })
        return {
          schema: t.schema,
          table: t.table,
          mode: t.mode,
          latest_ready: f ? { prefix: f.ref.prefix, snapshot_date: f.ref.partition.date, snapshot_hour: f.ref.partition.hour } : null,
          ready_folders: null,
          newest_folder: null,
          note
        }
      }
      const folders = readyPartsFolders(inventory, t)
      const n = folders.at(-1)
      return {
        schema: t.schema,
        table: t.table,
        mode: t.mode,
        latest_ready: null,
        ready_folders: folders.length,
        newest_folder: n ? { prefix: n.ref.prefix, etl_date: n.ref.partition.date, etl_hour: n.ref.partition.hour } : null,
        note
      }
    })
    if (values.json) process.stdout.write(`${JSON.stringify({ version: inventory.version, tables })}\n`)
    else {
      process.stdout.write(`${provider.location}: on ${inventory.version}\n`)
      for (const t of tables) {
        const what =
          t.mode === 'full'
            ? t.latest_ready
              ? `latest ready ${t.latest_ready.snapshot_date}${t.latest_ready.snapshot_hour ? ` ${t.latest_ready.snapshot_hour}:00` : ''}`
              : 'no ready copy'
            : `${t.ready_folders} ready folders, newest ${t.newest_folder ? `${t.newest_folder.etl_date}${t.newest_folder.etl_hour ? ` ${t.newest_folder.etl_hour}:00` : ''}` : '-'}`
        process.stdout.write(`  ${`${t.schema}.${t.table}`.padEnd(64)} ${t.mode.padEnd(5)} ${what}${t.note ? ` (${t.note})` : ''}\n`)
      }
    }
    return refreshed.listingProblems.length > 0 ? 2 : 0
  }

  const tl = analyzeTimeline(inventory, refreshed.manifests, {
    now,
    from: since,
    to: until,
    unreadable: refreshed.unreadable,
    unreadableWhy: refreshed.unreadableWhy
  })

  if (command === 'timeline') {
    const hours = tl.hours.map((h) => ({ date: h.date, hour: h.hour, manifest: h.manifest, cells: h.cells }))
    if (values.json) process.stdout.write(`${JSON.stringify({ hours })}\n`)
    else {
      for (const h of tl.hours) {
        const counts = new Map<string, string[]>()
        for (const [table, state] of Object.entries(h.cells)) counts.set(state, [...(counts.get(state) ?? []), table])
        const parts = [...counts].map(([state, tables]) => (tables.length > 3 ? `${state}×${tables.length}` : `${state}: ${tables.join(', ')}`))
        process.stdout.write(`${h.date} ${h.hour}:00 UTC  ${(h.manifest ?? '-').padEnd(10)} ${parts.join('; ')}\n`)
      }
    }
    return refreshed.listingProblems.length > 0 ? 2 : 0
  }

  // doctor
  // What a table leaves out now (archived or unreadable files) is said whatever --since: the table is incomplete today.
  const standing = (f: Finding): boolean => f.resolved === null && (f.kind === 'archived' || f.kind === 'corrupt_file')
  const findings = tl.findings.filter((f: Finding) => f.date === null || f.date === '__initial__' || f.date >= sinceDate || standing(f))
  const open = findings.filter((f) => f.resolved === null)
  const count = (list: readonly Finding[]) => ({
    error: list.filter((f) => f.severity === 'error').length,
    warning: list.filter((f) => f.severity === 'warning').length,
    info: list.filter((f) => f.severity === 'info').length
  })
  const summary = { findings: findings.length, open: count(open), resolved: findings.length - open.length }
  const listing = {
    ok: refreshed.listingProblems.length === 0,
    problems: refreshed.listingProblems.map((p) => ({ prefix: p.prefix, message: p.error.userMessage }))
  }
  if (values.json) {
    const iso = (t: number): string => new Date(t).toISOString()
    process.stdout.write(
      `${JSON.stringify({
        ok: summary.open.error === 0 && listing.ok,
        now: iso(now),
        since: iso(since),
        version: inventory.version,
        summary,
        listing,
        findings: findings.map(({ kind, severity, date, hour, table, key, message, resolved }) => ({
          kind,
          severity,
          status: resolved === null ? 'open' : 'resolved',
          resolved: resolved === null ? null : { how: resolved.how, ...('at' in resolved ? { at: iso(resolved.at) } : {}), words: resolutionWords(resolved) },
          date,
          hour,
          table,
          key,
          message
        }))
      })}\n`
    )
  } else {
    for (const f of findings)
      process.stdout.write(
        `${f.severity.toUpperCase().padEnd(7)} ${f.kind.padEnd(22)} ${f.date ?? ''} ${f.hour ? `${f.hour}:00` : ''} ${f.table ?? ''}${f.resolved ? `  (resolved: ${resolutionWords(f.resolved)})` : ''}\n        ${f.message}\n`
      )
    process.stdout.write(
      `${countText(findings.length, 'finding')} since ${sinceDate}: ${countText(summary.open.error, 'open error')}, ${countText(summary.open.warning, 'open warning')}, ${summary.resolved} resolved\n`
    )
  }
  if (!listing.ok) return 2
  return summary.open.error > 0 ? 1 : 0
}

/** Exits once stdout has been written out (a pipe is written asynchronously). */
function exit(code: number): void {
  process.stdout.write('', () => process.exit(code))
}

main(process.argv.slice(2)).then(
  (code) => exit(code),
  (e: unknown) => {
    if (e instanceof UsageError || (e as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      process.stderr.write(`export-explorer: ${errorMessage(e)}\n${USAGE}\n`)
      exit(2)
      return
    }
    process.stderr.write(`export-explorer: ${e instanceof BucketError ? e.userMessage : errorMessage(e)}\n`)
    exit(2)
  }
)
