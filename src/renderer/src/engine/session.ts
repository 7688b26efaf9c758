// The renderer's query session: one DuckDB-WASM engine reading the open connection through the byte server,
// the bucket's views built by the shared code (the same as the CLI's), rebuilt when the connection, the
// listing or the "as of" hour changes. Each table's views are a piece of work of their own: a statement waits
// only for the tables it names, which go ahead of the others still opening (for completion and the Tables list).
// Work runs one piece at a time; results are materialized in a temporary table and read back a page at a time
// (result-set.ts), so the renderer holds only the pages on screen. A table this engine cannot read is a problem of
// its own (wasm-readable-files.ts), never the end of the others.
// Cancel interrupts the running statement; when DuckDB-WASM's interrupt does not land within a second (an
// operation that runs in one call of its worker), the worker is terminated and a new engine opens the same
// views ("as of" included) from the same source, while later work waits for it instead of failing.
// One instance per window, given to the store (store/query-port.ts), which hears its events.
import type { EngineSource } from '../../../shared/api/views'
import { type ViewsResult, createBucketViews } from '../../../shared/bucket-views'
import { CATALOG, type CatalogTable, qualifiedName } from '../../../shared/catalog'
import { type Inventory, buildInventory } from '../../../shared/inventory'
import type { ListedObject } from '../../../shared/listing'
import type { BrowserEngine } from './wasm-engine'
import { type ResultSet, runQueryOn } from './result-set'
import { guardForWasm } from './wasm-readable-files'
import { errorMessage } from '../../../shared/error-message'
import type { QueryPort } from '../store/query-port'

export interface ViewsState extends ViewsResult {
  readonly source: EngineSource
}

/** Progress of opening the views (each reads its files' Parquet footers the first time), for the UI. */
export type ViewsProgress = { readonly done: number; readonly total: number; readonly table: string; readonly files: number }

/** What the session tells its owner: views opening, and a restart of the engine (why, and how it ended). */
export type SessionEvent =
  | { readonly kind: 'progress'; readonly progress: ViewsProgress | null }
  | { readonly kind: 'restarting'; readonly reason: RestartReason }
  | { readonly kind: 'restarted'; readonly reason: RestartReason }
  | { readonly kind: 'restart_failed'; readonly reason: RestartReason; readonly message: string }

/** `cancel`: the interrupt did not stop the query; `invalidated`: DuckDB-WASM refuses to go on after an internal error. */
export type RestartReason = 'cancel' | 'invalidated'

export interface Column {
  readonly name: string
  readonly type: string
}

export interface SessionDeps {
  /** The open connection's files and byte-server address (main's `engineSource` call). */
  readonly source: (asOf: string | null) => Promise<EngineSource>
  /** Starts an engine in a new worker; `urlOf` gives the byte-server URL of a bucket key. */
  readonly start: (urlOf: (key: string) => string) => Promise<BrowserEngine>
  /** How long Cancel waits for the interrupt before it terminates the worker (ms). */
  readonly cancelGraceMs?: number
  /** What warmUp runs once the engine is up (WARM_UP_SQL by default; null: nothing, which the bench compares against). */
  readonly warmUpSql?: string | null
}

/** How a Cancel ended: nothing was running, the interrupt stopped it, or the engine was restarted to stop it. */
export type CancelOutcome = 'idle' | 'interrupted' | 'restarted'

/** The error a statement stopped by Cancel rejects with (the interrupt's own, or this one after a restart). */
export class CancelledError extends Error {}

/** Whose work a job is (the SQL pane's, say), so that Cancel stops that work and no one else's. */
export type Owner = string

interface Job {
  readonly owner: Owner | undefined
  readonly fn: (e: BrowserEngine) => Promise<unknown>
  readonly resolve: (v: unknown) => void
  readonly reject: (e: unknown) => void
  /** Views no statement waits for yet (every table's, for completion and the Tables list): any other work goes first. */
  background: boolean
}

interface Running {
  readonly owner: Owner | undefined
  /** The engine it runs on, once it has started there (it may first wait for a restart). */
  readonly engine: BrowserEngine | null
  readonly done: Promise<unknown>
  readonly kill: (e: Error) => void
  /** Killed: it must not start on the next engine. */
  readonly dead: boolean
}

/** One table's views being opened: `job` is its queued work (a statement naming the table takes it out of the background). */
interface TableBuild {
  readonly table: CatalogTable
  readonly result: Promise<ViewsResult>
  readonly job: Job | null
}

/** The views of one listing ("as of" included): each table's build, asked for by the first statement that needs it. */
interface OpenViews {
  readonly version: string
  readonly asOf: string | null
  readonly source: EngineSource
  readonly builds: Map<string, TableBuild>
  /** The inventory and objects every build reads, made once (a year's listing is some 80,000 objects). */
  readonly input: () => { readonly inventory: Inventory; readonly objects: ReadonlyMap<string, ListedObject>; readonly files: number }
  /** Builds ended, for the progress line. */
  ended: number
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms))

/**
 * What a warmed-up engine runs before the first statement (~0.2 s on 2 cores): a hash anti-join and a count, the shape of
 * every parts table's view (its rows NOT EXISTS in its superseded list), so that the browser has optimized that code.
 * It reads no file.
 */
export const WARM_UP_SQL = 'SELECT count(*) FROM range(300000) r WHERE NOT EXISTS (SELECT 1 FROM range(0, 300000, 10) s WHERE s.range = r.range)'

/** An engine and the byte-server address its files' URLs start with (null: started ahead, the first views set it). */
interface StartedEngine {
  base: string | null
  readonly engine: Promise<BrowserEngine>
}

export class QuerySession implements QueryPort {
  private readonly listeners = new Set<(e: SessionEvent) => void>()
  private engine: StartedEngine | null = null
  private views: OpenViews | null = null
  private readonly jobs: Job[] = []
  private running: Running | null = null
  /** Work starts only once this settles: a restarted engine and its views (resolved when none is under way). */
  private gate: Promise<void> = Promise.resolve()

  private engines = 0

  constructor(private readonly deps: SessionDeps) {}

  /** Which engine work runs on now (it changes when one is started anew): results of an earlier one are gone. */
  get generation(): number {
    return this.engines
  }

  /** Listens to what the session says (views opening, restarts); returns the unsubscribe. */
  subscribe(listener: (e: SessionEvent) => void): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  private emit(e: SessionEvent): void {
    for (const l of this.listeners) l(e)
  }

  /** Runs engine work one piece at a time (pages, counts and queries share one connection). */
  private serial<T>(fn: (e: BrowserEngine) => Promise<T>, owner?: Owner): Promise<T> {
    return this.enqueue(fn, owner).promise
  }

  /** Queues engine work, and gives the job (its place in the queue) with its outcome. */
  private enqueue<T>(fn: (e: BrowserEngine) => Promise<T>, owner?: Owner, background = false): { promise: Promise<T>; job: Job } {
    let job: Job | null = null
    const promise = new Promise<T>((resolve, reject) => {
      job = { owner, fn, resolve: resolve as (v: unknown) => void, reject, background }
    })
    this.jobs.push(job as unknown as Job)
    this.pump()
    return { promise, job: job as unknown as Job }
  }

  private pump(): void {
    if (this.running) return
    const first = this.jobs.findIndex((j) => !j.background)
    const job = first >= 0 ? this.jobs.splice(first, 1)[0] : this.jobs.shift()
    if (!job) return
    let reject: (e: Error) => void = () => {}
    const killed = new Promise<never>((_, rej) => {
      reject = rej
    })
    const started: { engine: BrowserEngine | null; dead: boolean } = { engine: null, dead: false }
    const work = (async () => {
      await this.gate
      const e = await this.current()
      if (started.dead) return undefined
      started.engine = e
      return job.fn(e)
    })()
    const running: Running = {
      owner: job.owner,
      get engine() {
        return started.engine
      },
      get dead() {
        return started.dead
      },
      kill: (e) => {
        started.dead = true
        reject(e)
      },
      done: Promise.race([work, killed])
    }
    this.running = running
    running.done.then(job.resolve, job.reject).finally(() => {
      if (this.running === running) this.running = null
      this.pump()
    })
  }

  /** Starts an engine whose files' URLs are those of `base` (null: set by the first views). */
  private startEngine(base: string | null): StartedEngine {
    let started: StartedEngine | null = null
    const engine = this.deps.start((key) => (started?.base ?? '') + encodeURIComponent(key))
    started = { base, engine }
    return started
  }

  /**
   * Starts the engine before a query needs it (app.tsx says when): its start, about 1.4 s of which
   * most is compiling DuckDB-WASM, is then not the first answer's. The first views take it for their connection.
   * Once started, and if no work has asked for it yet, it runs WARM_UP_SQL in the background: the browser first
   * runs DuckDB-WASM's code unoptimized, and a year's first count took ~0.3 s more than the next one. Then, if no
   * views were asked for meanwhile, it prepares those of the latest listing (the inventory of its objects: ~0.1 s for
   * a year of one table), which the first statement takes if the listing is still the same. The first call resolves
   * when that is done (or was not needed), later ones at once; never rejects.
   */
  warmUp(): Promise<void> {
    if (this.engine) return Promise.resolve()
    this.engines++
    const warm = this.startEngine(null)
    this.engine = warm
    return warm.engine.then(
      async () => {
        const sql = this.deps.warmUpSql === undefined ? WARM_UP_SQL : this.deps.warmUpSql
        if (this.engine !== warm || this.running || this.jobs.length > 0) return
        if (sql !== null) await this.enqueue((e) => e.query(sql), undefined, true).promise.catch(() => {})
        const source = await this.deps.source(null).catch(() => null)
        if (!source || this.views || this.engine !== warm) return
        this.views = this.newViews(source, null)
        this.views.input()
      },
      () => {
        // One that failed to start is forgotten: the first views start another (and say why, if it fails again).
        if (this.engine === warm && warm.base === null) this.engine = null
      }
    )
  }

  private engineFor(base: string): Promise<BrowserEngine> {
    if (this.engine?.base === null) this.engine.base = base
    if (this.engine?.base !== base) {
      const old = this.engine
      this.engines++
      this.engine = this.startEngine(base)
      this.replaceViews(null, 'Stopped: another connection was opened.')
      // Another connection: the old engine ends at once, and a statement still running there with it (left
      // running, it would hold the queue for good).
      if (old)
        void old.engine.then(
          (e) => {
            if (this.running?.engine === e) this.running.kill(new CancelledError('Stopped: another connection was opened.'))
            e.terminate()
          },
          () => {}
        )
    }
    return this.engine.engine
  }

  private current(): Promise<BrowserEngine> {
    if (!this.engine) return Promise.reject(new Error('The query engine is not started: open a table or run a query first.'))
    return this.engine.engine
  }

  /**
   * The views of the open connection ("as of" an hour, or latest), each table's built once per listing. With `tables`
   * (those a statement names), only theirs, which go ahead of the tables still waiting; without, every table's.
   */
  async ensureViews(asOf: string | null, tables?: readonly CatalogTable[]): Promise<ViewsState> {
    const source = await this.deps.source(asOf)
    // A restart under way reopens these views: wait for it rather than build them a second time.
    await this.gate
    const e = this.engineFor(source.base)
    e.catch(() => {})
    if (this.views?.version !== source.version) this.replaceViews(this.newViews(source, asOf))
    const views = this.views as OpenViews
    const wanted = tables ?? CATALOG
    // Named by a statement: work it waits for, ahead of the views opening in the background (and of nothing else).
    const builds = wanted.map((t) => views.builds.get(qualifiedName(t)) ?? this.queueBuild(views, t, !tables))
    if (tables) for (const b of builds) if (b.job) b.job.background = false
    const results = await Promise.all(builds.map((b) => b.result))
    return {
      created: results.flatMap((r) => r.created),
      problems: results.flatMap((r) => r.problems),
      notes: results.flatMap((r) => r.notes),
      reads: results.flatMap((r) => r.reads),
      source: views.source
    }
  }

  private newViews(source: EngineSource, asOf: string | null): OpenViews {
    let input: ReturnType<OpenViews['input']> | null = null
    return {
      version: source.version,
      asOf,
      source,
      builds: new Map(),
      ended: 0,
      input: () =>
        (input ??= {
          inventory: buildInventory(source.objects),
          objects: new Map(source.objects.map((o) => [o.key, o])),
          files: source.objects.filter((o) => o.key.endsWith('.parquet')).length
        })
    }
  }

  /**
   * Makes `next` the views work reads. The old views' builds still waiting in the queue are handed over: they open the
   * same tables in `next` (whoever awaits them gets those), or, with no next views, fail saying `why`.
   */
  private replaceViews(next: OpenViews | null, why = 'Stopped: the query session was closed.'): void {
    const old = this.views
    this.views = next
    if (!old) return
    for (const b of old.builds.values()) {
      const at = b.job ? this.jobs.indexOf(b.job) : -1
      if (!b.job || at < 0) continue
      this.jobs.splice(at, 1)
      if (next) b.job.resolve((next.builds.get(qualifiedName(b.table)) ?? this.queueBuild(next, b.table, b.job.background)).result)
      else b.job.reject(new CancelledError(why))
    }
  }

  /** Queues the build of one table's views in `views`; in the `background`, it waits for any other work. */
  private queueBuild(views: OpenViews, t: CatalogTable, background = false): TableBuild {
    const { promise, job } = this.enqueue((e) => this.buildOn(e, views, t), undefined, background)
    return this.keepBuild(views, t, promise, job)
  }

  /** Records a table's build in `views`, under way or queued (`job`). */
  private keepBuild(views: OpenViews, t: CatalogTable, result: Promise<ViewsResult>, job: Job | null): TableBuild {
    const key = qualifiedName(t)
    const b: TableBuild = { table: t, result, job }
    views.builds.set(key, b)
    // One that failed (the engine went away) is built again when next asked for.
    result.catch(() => {
      if (views.builds.get(key) === b) views.builds.delete(key)
    })
    return b
  }

  /** Opens one table's views of `views` in engine `e`, saying which while it does. */
  private async buildOn(e: BrowserEngine, views: OpenViews, t: CatalogTable): Promise<ViewsResult> {
    const { inventory, objects, files } = views.input()
    const asOf = views.asOf
    try {
      // Parquet metadata cached by file name across queries (names never stand for two objects: see
      // logical-table-sql.ts); without it, every query of a year of hours would read every footer again.
      await e.query('SET enable_object_cache = true')
      this.emit({ kind: 'progress', progress: { done: views.ended, total: views.builds.size, table: qualifiedName(t), files } })
      return await createBucketViews(guardForWasm(e), inventory, objects, {
        now: views.source.now,
        tables: [t],
        ...(asOf ? { asOf: Date.parse(asOf) } : {}),
        // Parts tables from the compacted mirror: few files (one request each in 0.9.1) and one type per column.
        ...(views.source.mirror.length > 0 ? { mirror: { segments: views.source.mirror, superseded: views.source.superseded } } : {})
      })
    } finally {
      views.ended++
      if (views.ended >= views.builds.size) this.emit({ kind: 'progress', progress: null })
    }
  }

  /** Runs one statement; `owner` names whose work it is, for cancel(). */
  async query(sql: string, owner?: Owner): Promise<Record<string, unknown>[]> {
    let ran: BrowserEngine | null = null
    return this.serial((e) => {
      ran = e
      return e.query(sql)
    }, owner).catch((err: unknown) => {
      throw ran ? this.restartIfInvalidated(ran, err as Error) : err
    })
  }

  // After an INTERNAL error DuckDB-WASM 0.9.1 refuses every later statement ("database has been invalidated"):
  // start a new engine on the same views at once, and say so.
  private restartIfInvalidated(e: BrowserEngine, err: Error): Error {
    if (!/^(INTERNAL|FATAL) Error/m.test(err.message)) return err
    void this.engine?.engine.then((x) => {
      if (x === e) this.restart('invalidated')
    })
    return new Error(
      `${err.message}\n\nThe query pane's engine (DuckDB-WASM 0.9.1) cannot continue after this internal error: it has been restarted. Run the query again; the tables open again first.`
    )
  }

  /**
   * Stops the work of `owner` (or, without one, whatever runs now): its waiting statements are dropped, and the
   * running one gets the engine's interrupt, and when that has not ended it within the grace period, a new engine
   * (the statement then rejects with CancelledError). Resolves as soon as the statement has stopped; the restart
   * goes on behind the gate, and its end is an event.
   */
  async cancel(owner?: Owner): Promise<CancelOutcome> {
    let dropped = 0
    if (owner !== undefined) {
      for (const job of [...this.jobs]) {
        if (job.owner !== owner) continue
        this.jobs.splice(this.jobs.indexOf(job), 1)
        job.reject(new CancelledError('Cancelled before it started.'))
        dropped++
      }
    }
    const r = this.running
    if (!r || (owner !== undefined && r.owner !== owner)) return dropped ? 'interrupted' : 'idle'
    if (!r.engine) {
      // Still waiting for the engine (a restart): nothing to interrupt.
      r.kill(new CancelledError('Cancelled before it started.'))
      return 'interrupted'
    }
    // Not awaited: the worker answers only once it is free, which is the very thing in question.
    r.engine.cancel().catch(() => {})
    const stopped = await Promise.race([
      r.done.then(
        () => true,
        () => true
      ),
      sleep(this.deps.cancelGraceMs ?? 1000).then(() => false)
    ])
    if (stopped || this.running !== r) return 'interrupted'
    this.restart('cancel')
    r.kill(new CancelledError('Cancelled: the query engine was restarted to stop the query.'))
    return 'restarted'
  }

  /** Terminates the worker and opens the same views ("as of" included) from the same source in a new one. */
  private restart(reason: RestartReason): void {
    const old = this.engine
    const views = this.views
    if (!old) return
    this.engine = null
    void old.engine.then(
      (e) => e.terminate(),
      () => {}
    )
    this.emit({ kind: 'restarting', reason })
    this.engines++
    const rebuilt = (async () => {
      this.engine = this.startEngine(old.base)
      const e = await this.engine.engine
      if (!views) return
      // The tables opened (or opening) on the old engine open again on the new one, here, before any other work;
      // those still waiting in the queue stay there, handed over to the new views.
      const again = this.newViews(views.source, views.asOf)
      const opened = [...views.builds.values()].filter((b) => !b.job || !this.jobs.includes(b.job))
      this.replaceViews(again)
      for (const b of opened) {
        const result = this.buildOn(e, again, b.table)
        this.keepBuild(again, b.table, result, null)
        await result
      }
    })()
    const gate = rebuilt.then(
      () => this.emit({ kind: 'restarted', reason }),
      (err: unknown) => {
        this.emit({ kind: 'restart_failed', reason, message: errorMessage(err) })
      }
    )
    this.gate = gate
    void gate.then(() => {
      if (this.gate === gate) this.gate = Promise.resolve()
    })
  }

  /** Runs a statement in the pane's engine and materializes its rows (see result-set.ts). */
  runQuery(userSql: string, owner?: Owner): Promise<ResultSet> {
    return runQueryOn((sql) => this.query(sql, owner), userSql)
  }

  /** Ends the engine (the store's owner going away). */
  async close(): Promise<void> {
    const old = this.engine
    this.engine = null
    this.replaceViews(null)
    if (old)
      await old.engine.then(
        (e) => e.close(),
        () => {}
      )
  }
}
