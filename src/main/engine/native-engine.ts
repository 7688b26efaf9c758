// Main's query engine: native DuckDB 1.5 (@duckdb/node-api), locked down from the moment it opens. Two DuckDB
// instances over the same views: the user's SQL (one SELECT, see user-statement.ts) runs on one that may reach only
// the folders of the views' files and its own temp folder; the engine's own writes (exports of an already checked
// SELECT, the mirror's compaction) run on the other, which may also write its scratch folder. Nothing is installed.
import { randomUUID } from 'node:crypto'
import { mkdir, rm, stat, symlink } from 'node:fs/promises'
import { dirname, join, relative, resolve, sep } from 'node:path'
import type { DuckDBConnection, DuckDBInstance, DuckDBType, DuckDBValue } from '@duckdb/node-api'
import { duckdb } from './duckdb-api'
import { quoteIdent, quoteLiteral } from '../../shared/sql-quote'
import { EngineError, StatementRefused } from './engine-error'
import { engineMemoryLimits, type EngineMemoryLimits } from './engine-memory-limits'
import { EXPORT_NOT_EXPLAIN, prepareUserStatement } from './user-statement'
import { errorMessage } from '../../shared/error-message'

export interface QueryColumns {
  readonly names: readonly string[]
  readonly types: readonly DuckDBType[]
}

export interface QueryProgress {
  /** 0–100, or -1 where DuckDB cannot tell. */
  readonly percent: number
  readonly rowsProcessed: number
  /** Exports: bytes of the file written so far. DuckDB's progress stays at 0 or -1 for most COPYs of the logical
   * tables (a window, a join), so this is what moves while an export runs. */
  readonly bytesWritten?: number
}

export interface RunOptions {
  readonly signal?: AbortSignal
  readonly onProgress?: (p: QueryProgress) => void
}

export interface NativeEngineOptions {
  /** The engine's own folder, made anew: links to the files it may read, scratch for exports, DuckDB's temp files. */
  readonly workDir: string
  /** Folders the links point into (the file store, a local bucket folder, the mirror): DuckDB checks a link's target. */
  readonly readableRoots: readonly string[]
  /** Memory and spill limits of each instance (default: engineMemoryLimits()). */
  readonly limits?: EngineMemoryLimits
}

/** One DuckDB instance and the connection that runs trusted SQL (the views) on it. */
interface Side {
  readonly instance: DuckDBInstance
  readonly conn: DuckDBConnection
}

/** Opens one instance whose files are limited to `allowed` (and DuckDB's temp folder, which it always allows). */
async function openSide(allowed: readonly string[], tempDir: string, limits: EngineMemoryLimits): Promise<Side> {
  await mkdir(tempDir, { recursive: true, mode: 0o700 })
  // httpfs and friends cannot be fetched offline, and nothing may be fetched: no extension is installed or loaded.
  // DuckDB's default temp folder is `.tmp` in the working directory, which it then allows reading: ours instead.
  const instance = await duckdb.DuckDBInstance.create(':memory:', {
    autoinstall_known_extensions: 'false',
    autoload_known_extensions: 'false',
    allow_community_extensions: 'false',
    temp_directory: tempDir,
    memory_limit: `${limits.memoryBytes}B`,
    max_temp_directory_size: `${limits.tempBytes}B`,
    // DuckDB keeps the bytes of every external file it reads in its buffer pool by default. Ours are local files (the
    // OS caches them already), and a mirror build reads tens of thousands once each: the cache only took memory, and
    // freeing it made closing a build's engine block the main thread for seconds (0.6 s → 0.1 s for 8,000 files).
    enable_external_file_cache: 'false'
  })
  const conn = await instance.connect()
  try {
    // Instants leave the engine in UTC, whatever the machine's zone (ICU is built in; as an open option it is
    // refused before ICU is loaded).
    await conn.run("SET GLOBAL TimeZone = 'UTC'")
    // Once external access is off it cannot be turned on again, nor the allowed folders changed, while the
    // database runs. The configuration is not locked as a whole, because each connection turns its progress
    // bar on (a per-session option); the user's SQL cannot SET anything (one SELECT).
    const dirs = allowed.map((d) => (d.endsWith(sep) ? d : d + sep))
    await conn.run(`SET allowed_directories = [${dirs.map(quoteLiteral).join(', ')}]`)
    await conn.run('SET enable_external_access = false')
  } catch (e) {
    conn.closeSync()
    instance.closeSync()
    throw e
  }
  return { instance, conn }
}

export class NativeEngine {
  private readonly keysByPath = new Map<string, string>()
  private readonly open = new Set<DuckDBConnection>()
  /** Calls in flight (exec, execRows, and those on connections of their own). */
  private running = 0
  private closed = false
  /** The views' SQL the engine's own instance has yet to run: it runs them before its first write (an export), not
   * at open, since creating the views binds them and reads every file's footer (about 2 s for the demo bucket). */
  private readonly ownBacklog: string[] = []
  private ownCaughtUp: Promise<void> = Promise.resolve()

  private constructor(
    /** Where the user's SQL runs: reads the views' files, writes nothing but its own temp files. */
    private readonly queries: Side,
    /** The engine's own writes (exports, compaction): trusted SQL only, and COPYs we compose. */
    private readonly own: Side,
    readonly version: string,
    readonly linksDir: string,
    readonly scratchDir: string,
    private readonly workDir: string
  ) {}

  static async open(opts: NativeEngineOptions): Promise<NativeEngine> {
    const workDir = resolve(opts.workDir)
    const linksDir = join(workDir, 'files')
    const scratchDir = join(workDir, 'scratch')
    const limits = opts.limits ?? engineMemoryLimits()
    await rm(workDir, { recursive: true, force: true })
    await mkdir(linksDir, { recursive: true, mode: 0o700 })
    await mkdir(scratchDir, { recursive: true, mode: 0o700 })
    // Both at once (each start is DuckDB's own work off the main thread): a warm query's start waits for one, not two.
    const sides = await Promise.allSettled([
      openSide([linksDir, ...opts.readableRoots], join(workDir, 'temp', 'queries'), limits),
      openSide([linksDir, scratchDir, ...opts.readableRoots], join(workDir, 'temp', 'own'), limits)
    ])
    const [queries, own] = sides.map((x) => (x.status === 'fulfilled' ? x.value : null))
    if (!queries || !own) {
      for (const side of [queries, own]) {
        side?.conn.closeSync()
        side?.instance.closeSync()
      }
      throw (sides.find((x) => x.status === 'rejected') as PromiseRejectedResult).reason
    }
    const version = String((await queries.conn.runAndReadAll('SELECT version()')).getRows()[0]?.[0] ?? '')
    return new NativeEngine(queries, own, version, linksDir, scratchDir, workDir)
  }

  /** Where the views name their files: `<fileBase><schema>/<table>/<name>.parquet`. */
  get fileBase(): string {
    return `${this.linksDir}${sep}ee${sep}`.split(sep).join('/')
  }

  /** Makes files readable under the names the views use (links into the file store). */
  async link(files: readonly { readonly name: string; readonly key: string; readonly path: string }[]): Promise<void> {
    for (const f of files) {
      const at = resolve(f.name)
      const rel = relative(this.linksDir, at)
      if (rel.startsWith('..') || rel === '' || resolve(this.linksDir, rel) !== at)
        throw new Error(`A view named a file outside the engine's folder: ${f.name}`)
      await mkdir(dirname(at), { recursive: true, mode: 0o700 })
      await symlink(f.path, at).catch((e: NodeJS.ErrnoException) => {
        if (e.code !== 'EEXIST') throw e
      })
      this.keysByPath.set(f.name, f.key)
    }
  }

  /** Engine messages name files by their link; users know them by bucket key. */
  withKeys(message: string): string {
    let out = message
    for (const [name, key] of this.keysByPath) if (out.includes(name)) out = out.split(name).join(key)
    return out.split(`${this.linksDir}/`).join('')
  }

  /** Trusted SQL (the views): run as is, for both instances (the user's queries and the exports read the same views). */
  async exec(sql: string): Promise<void> {
    this.assertOpen()
    await this.counted(async () => {
      try {
        await this.queries.conn.run(sql)
        this.ownBacklog.push(sql)
      } catch (e) {
        throw new Error(this.withKeys(errorMessage(e)))
      }
    })
  }

  /** Counts the calls in flight: closing waits for them to unwind only when there are some. */
  private async counted<T>(work: () => Promise<T>): Promise<T> {
    this.running++
    try {
      return await work()
    } finally {
      this.running--
    }
  }

  /** Brings the engine's own instance up to the views (in order, once, whoever asks first). */
  private catchUpOwn(): Promise<void> {
    const todo = this.ownBacklog.splice(0)
    if (todo.length > 0)
      this.ownCaughtUp = this.ownCaughtUp.then(async () => {
        for (const sql of todo) await this.own.conn.run(sql)
      })
    return this.ownCaughtUp
  }

  /** Trusted SQL (the mirror's builder, which writes its scratch) whose rows are wanted: on the engine's own instance. */
  async execRows(sql: string): Promise<DuckDBValue[][]> {
    this.assertOpen()
    return this.counted(async () => {
      try {
        await this.catchUpOwn()
        return (await this.own.conn.runAndReadAll(sql)).getRows()
      } catch (e) {
        throw new Error(this.withKeys(errorMessage(e)))
      }
    })
  }

  /**
   * The user's SQL: one SELECT (or EXPLAIN of one), decided by DuckDB's parser (user-statement.ts), on a connection
   * of its own to the instance that writes nothing (so queries and exports run side by side, each can be
   * interrupted, and nothing the statement makes outlives it). Rows are handed over chunk by chunk; the next chunk
   * is fetched once onRows' promise has settled, so a slow writer slows the query instead of filling memory.
   */
  async select(
    sql: string,
    onRows: (columns: QueryColumns, rows: DuckDBValue[][]) => void | Promise<void>,
    opts: RunOptions & { readonly asText?: boolean } = {}
  ): Promise<QueryColumns> {
    return this.withConnection(this.queries, opts, async (conn) => {
      const statement = await prepareUserStatement(conn, sql)
      let prepared = statement.prepared
      if (opts.asText && statement.kind === 'select') {
        // As text: every value exactly as DuckDB itself casts it to VARCHAR (what its CSV writer prints too).
        // Where it cannot be wrapped, its values are shown as they come.
        const wrapped = await conn.prepare(`SELECT CAST(COLUMNS(*) AS VARCHAR) FROM (\n${statement.sql}\n)`).catch(() => null)
        if (wrapped?.statementType === duckdb.StatementType.SELECT) prepared = wrapped
      }
      const result = await prepared.stream()
      const columns: QueryColumns = { names: result.deduplicatedColumnNames(), types: result.columnTypes() }
      for (;;) {
        opts.signal?.throwIfAborted()
        const chunk = await result.fetchChunk()
        if (!chunk || chunk.rowCount === 0) break
        await onRows(columns, chunk.getRows())
      }
      return columns
    })
  }

  /** The user's SQL, every row collected (for small results: tests, previews). */
  async selectAll(sql: string, opts: RunOptions & { readonly asText?: boolean } = {}): Promise<{ columns: QueryColumns; rows: DuckDBValue[][] }> {
    const rows: DuckDBValue[][] = []
    const columns = await this.select(sql, (_c, r) => void rows.push(...r), opts)
    return { columns, rows }
  }

  /** Writes the user's query to a new file in the scratch folder with DuckDB's own COPY; answers its path and rows. */
  async copyToScratch(sql: string, format: 'csv' | 'parquet', opts: RunOptions = {}): Promise<{ path: string; rows: number }> {
    // A fresh name every time, never reused (an engine may hand back an earlier file written under a name).
    const path = join(this.scratchDir, `${randomUUID()}.${format}`)
    // The size of the file being written, read beside DuckDB's own progress (a stat every 250 ms).
    let written = 0
    const onProgress = opts.onProgress
    const sizes = onProgress
      ? setInterval(
          () =>
            void stat(path).then(
              (s) => (written = s.size),
              // Nothing lost: DuckDB has not made the file yet; the next tick looks again.
              () => {}
            ),
          250
        )
      : null
    const withBytes: RunOptions = onProgress ? { ...opts, onProgress: (p) => onProgress({ ...p, bytesWritten: written }) } : opts
    try {
      return await this.copyTo(sql, format, path, withBytes)
    } finally {
      if (sizes) clearInterval(sizes)
    }
  }

  private async copyTo(sql: string, format: 'csv' | 'parquet', path: string, opts: RunOptions): Promise<{ path: string; rows: number }> {
    // Checked where the user's SQL runs; the COPY around it is ours, on the instance that may write the scratch.
    const checked = await this.withConnection(this.queries, opts.signal ? { signal: opts.signal } : {}, async (conn) => {
      const statement = await prepareUserStatement(conn, sql)
      if (statement.kind !== 'select') throw new StatementRefused(EXPORT_NOT_EXPLAIN)
      const p = statement.prepared
      // DuckDB writes HUGEINT to Parquet as DOUBLE, which rounds past 2^53 (sum() of integers is a HUGEINT):
      // write it as DECIMAL(38,0) instead, exact (a value beyond 38 digits fails loudly rather than rounding).
      const wide = [...Array(p.columnCount).keys()].filter((i) => [duckdb.DuckDBTypeId.HUGEINT, duckdb.DuckDBTypeId.UHUGEINT].includes(p.columnTypeId(i)))
      return { sql: statement.sql, wide: wide.map((i) => quoteIdent(p.columnName(i))) }
    })
    const body =
      format === 'parquet' && checked.wide.length > 0
        ? `SELECT * REPLACE (${checked.wide.map((c) => `CAST(${c} AS DECIMAL(38,0)) AS ${c}`).join(', ')}) FROM (\n${checked.sql}\n)`
        : checked.sql
    const options = format === 'csv' ? 'FORMAT csv, HEADER true' : 'FORMAT parquet'
    return this.withConnection(this.own, opts, async (conn) => {
      await this.catchUpOwn()
      const copy = await conn.extractStatements(`COPY (\n${body}\n) TO ${quoteLiteral(path)} (${options})`)
      const prepared = copy.count === 1 ? await copy.prepare(0) : null
      if (prepared?.statementType !== duckdb.StatementType.COPY)
        throw new StatementRefused('This query cannot be exported as it is written; write it as one SELECT.')
      try {
        const r = await prepared.runAndReadAll()
        return { path, rows: Number(r.getRows()[0]?.[0] ?? 0) }
      } catch (e) {
        await rm(path, { force: true })
        throw e
      }
    })
  }

  private async withConnection<T>(side: Side, opts: RunOptions, work: (conn: DuckDBConnection) => Promise<T>): Promise<T> {
    this.assertOpen()
    return this.counted(() => this.onConnection(side, opts, work))
  }

  private async onConnection<T>(side: Side, opts: RunOptions, work: (conn: DuckDBConnection) => Promise<T>): Promise<T> {
    const conn = await side.instance.connect()
    if (opts.onProgress) {
      // DuckDB tracks progress only with the progress bar on (never printed: stdout is the CLI's output).
      await conn.run('SET enable_progress_bar = true')
      await conn.run('SET enable_progress_bar_print = false')
    }
    this.open.add(conn)
    const interrupt = (): void => conn.interrupt()
    opts.signal?.addEventListener('abort', interrupt, { once: true })
    const timer = opts.onProgress
      ? setInterval(() => {
          const p = conn.progress
          opts.onProgress?.({ percent: p.percentage, rowsProcessed: Number(p.rows_processed) })
        }, 250)
      : null
    try {
      opts.signal?.throwIfAborted()
      return await work(conn)
    } catch (e) {
      if (this.closed) throw new EngineError('The query engine was closed (the connection changed or the app is closing); run the query again.')
      if (opts.signal?.aborted) throw new EngineError('The query was cancelled.')
      if (e instanceof EngineError) throw e
      const message = this.withKeys(errorMessage(e))
      const locked = /^Permission Error/.test(message)
        ? " (SQL here reads the bucket's tables only: files elsewhere on this computer cannot be read or written from SQL)"
        : ''
      throw new EngineError(`${message}${locked}`)
    } finally {
      if (timer) clearInterval(timer)
      opts.signal?.removeEventListener('abort', interrupt)
      this.open.delete(conn)
      conn.closeSync()
    }
  }

  private assertOpen(): void {
    if (this.closed) throw new EngineError('The query engine was closed; run the query again.')
  }

  /** Interrupts what is running (each pending call rejects), then frees the engine and its folder. */
  async close(): Promise<void> {
    if (this.closed) return
    this.closed = true
    // Let interrupted calls unwind before the instance goes (nothing to wait for when no call is in flight: a CLI
    // query's close waited 20 ms for nothing).
    if (this.running > 0) {
      for (const c of this.open) c.interrupt()
      await new Promise((r) => setTimeout(r, 20))
    }
    for (const side of [this.queries, this.own]) {
      side.conn.closeSync()
      side.instance.closeSync()
    }
    await rm(this.workDir, { recursive: true, force: true })
  }
}
