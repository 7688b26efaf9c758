// Main's query engine: native DuckDB 1.5 (@duckdb/node-api), locked down from the moment it opens. It reads
// only the files of its own folder (links to the file store's whole copies, registered by the views) and writes
// only its scratch folder (external access off, for good); the user's SQL runs as one read-only statement;
// nothing is installed or loaded.
import { randomUUID } from 'node:crypto'
import { mkdir, rm, stat, symlink } from 'node:fs/promises'
import { dirname, join, relative, resolve, sep } from 'node:path'
import {
  type DuckDBConnection,
  type DuckDBInstance,
  type DuckDBType,
  DuckDBTypeId,
  type DuckDBValue,
  DuckDBInstance as Instance,
  StatementType
} from '@duckdb/node-api'
import { quoteIdent, quoteLiteral } from '../../shared/sql-quote'

/** A failure the user caused or can act on (a refused statement, a cancelled query), said plainly. */
export class EngineError extends Error {}

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

/** Statements the user may run: they read and never change anything. */
const READ_ONLY = new Set<StatementType>([StatementType.SELECT, StatementType.EXPLAIN])

export interface NativeEngineOptions {
  /** The engine's own folder, made anew: links to the files it may read, and scratch for exports. */
  readonly workDir: string
  /** Folders the links point into (the file store, or a local bucket folder): reads resolve there. */
  readonly readableRoots: readonly string[]
}

export class NativeEngine {
  private readonly keysByPath = new Map<string, string>()
  private readonly open = new Set<DuckDBConnection>()
  private closed = false

  private constructor(
    private readonly instance: DuckDBInstance,
    /** For the views (trusted SQL): one connection, statements one after another. */
    private readonly conn: DuckDBConnection,
    readonly version: string,
    readonly linksDir: string,
    readonly scratchDir: string,
    private readonly workDir: string
  ) {}

  static async open(opts: NativeEngineOptions): Promise<NativeEngine> {
    const workDir = resolve(opts.workDir)
    const linksDir = join(workDir, 'files')
    const scratchDir = join(workDir, 'scratch')
    await rm(workDir, { recursive: true, force: true })
    await mkdir(linksDir, { recursive: true, mode: 0o700 })
    await mkdir(scratchDir, { recursive: true, mode: 0o700 })
    const allowed = [linksDir, scratchDir, ...opts.readableRoots].map((d) => (d.endsWith(sep) ? d : d + sep))
    // httpfs and friends cannot be fetched offline, and nothing may be fetched: no extension is installed or
    // loaded, external access is limited to our folders, and the configuration is locked before any user SQL.
    const instance = await Instance.create(':memory:', {
      autoinstall_known_extensions: 'false',
      autoload_known_extensions: 'false',
      allow_community_extensions: 'false'
    })
    const conn = await instance.connect()
    // Instants leave the engine in UTC, whatever the machine's zone (ICU is built in; as an open option it is
    // refused before ICU is loaded).
    await conn.run("SET GLOBAL TimeZone = 'UTC'")
    // Once external access is off it cannot be turned on again, nor the allowed folders changed, while the
    // database runs. The configuration is not locked as a whole, because each connection turns its progress
    // bar on (a per-session option); the user's SQL cannot SET anything (one read-only statement).
    await conn.run(`SET allowed_directories = [${allowed.map(quoteLiteral).join(', ')}]`)
    await conn.run('SET enable_external_access = false')
    const version = String((await conn.runAndReadAll('SELECT version()')).getRows()[0]?.[0] ?? '')
    return new NativeEngine(instance, conn, version, linksDir, scratchDir, workDir)
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

  /** Trusted SQL (the views): run as is. */
  async exec(sql: string): Promise<void> {
    this.assertOpen()
    try {
      await this.conn.run(sql)
    } catch (e) {
      throw new Error(this.withKeys((e as Error).message))
    }
  }

  /** Trusted SQL (the mirror's builder) whose rows are wanted. */
  async execRows(sql: string): Promise<DuckDBValue[][]> {
    this.assertOpen()
    try {
      return (await this.conn.runAndReadAll(sql)).getRows()
    } catch (e) {
      throw new Error(this.withKeys((e as Error).message))
    }
  }

  /**
   * The user's SQL: exactly one read-only statement, on a connection of its own (so queries and exports run
   * side by side and each can be interrupted). Rows are handed over chunk by chunk; the next chunk is fetched
   * once onRows' promise has settled, so a slow writer slows the query instead of filling memory.
   */
  async select(
    sql: string,
    onRows: (columns: QueryColumns, rows: DuckDBValue[][]) => void | Promise<void>,
    opts: RunOptions & { readonly asText?: boolean } = {}
  ): Promise<QueryColumns> {
    return this.withConnection(opts, async (conn) => {
      let prepared = await this.prepareReadOnly(conn, sql)
      if (opts.asText && prepared.statementType === StatementType.SELECT) {
        // As text: every value exactly as DuckDB itself casts it to VARCHAR (what its CSV writer prints too).
        // PRAGMA, SHOW and the like cannot be wrapped; their values are already plain.
        prepared = await conn.prepare(`SELECT CAST(COLUMNS(*) AS VARCHAR) FROM (\n${sql}\n)`).catch(() => prepared)
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
    return this.withConnection(opts, async (conn) => {
      const prepared = await this.prepareReadOnly(conn, sql)
      // DuckDB writes HUGEINT to Parquet as DOUBLE, which rounds past 2^53 (sum() of integers is a HUGEINT):
      // write it as DECIMAL(38,0) instead, exact (a value beyond 38 digits fails loudly rather than rounding).
      const wide = [...Array(prepared.columnCount).keys()].filter((i) => [DuckDBTypeId.HUGEINT, DuckDBTypeId.UHUGEINT].includes(prepared.columnTypeId(i)))
      const body =
        format === 'parquet' && wide.length > 0
          ? `SELECT * REPLACE (${wide.map((i) => `CAST(${quoteIdent(prepared.columnName(i))} AS DECIMAL(38,0)) AS ${quoteIdent(prepared.columnName(i))}`).join(', ')}) FROM (\n${sql}\n)`
          : sql
      const options = format === 'csv' ? 'FORMAT csv, HEADER true' : 'FORMAT parquet'
      try {
        const r = await conn.runAndReadAll(`COPY (\n${body}\n) TO ${quoteLiteral(path)} (${options})`)
        return { path, rows: Number(r.getRows()[0]?.[0] ?? 0) }
      } catch (e) {
        await rm(path, { force: true })
        throw e
      }
    })
  }

  private async prepareReadOnly(conn: DuckDBConnection, sql: string): Promise<Awaited<ReturnType<DuckDBConnection['prepare']>>> {
    const statements = await conn.extractStatements(sql)
    if (statements.count === 0) throw new EngineError('There is no statement to run.')
    if (statements.count > 1) throw new EngineError(`Run one statement at a time: this text holds ${statements.count}.`)
    const prepared = await statements.prepare(0)
    if (!READ_ONLY.has(prepared.statementType)) {
      const kind = StatementType[prepared.statementType] ?? 'this'
      throw new EngineError(
        `Only queries that read run here (SELECT, WITH …, FROM …): a ${kind} statement is refused. Exports are written by Export, not by COPY.`
      )
    }
    return prepared
  }

  private async withConnection<T>(opts: RunOptions, work: (conn: DuckDBConnection) => Promise<T>): Promise<T> {
    this.assertOpen()
    const conn = await this.instance.connect()
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
      const message = this.withKeys((e as Error).message)
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
    for (const c of this.open) c.interrupt()
    // Let interrupted calls unwind before the instance goes.
    await new Promise((r) => setTimeout(r, 20))
    this.conn.closeSync()
    this.instance.closeSync()
    await rm(this.workDir, { recursive: true, force: true })
  }
}
