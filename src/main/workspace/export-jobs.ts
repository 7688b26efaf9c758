// Exports: a query's result written to a file in the background (progress pushed, cancel), where one may write (the
// save dialog's grants, or the export folder), and "show in folder" for a file one wrote.
import { randomUUID } from 'node:crypto'
import { lstat, mkdir, stat } from 'node:fs/promises'
import { homedir } from 'node:os'
import { dirname, join } from 'node:path'
import type { ArgsOf } from '../../shared/api/calls'
import type { ExportJob } from '../../shared/api/views'
import { missingViewReason } from '../../shared/bucket-views'
import { errorMessage } from '../../shared/error-message'
import type { BucketEngine } from '../engine/open-bucket-engine'
import { checkExportPath } from '../export/export-folder'
import { exportQuery } from '../export/export-to-file'
import { StatementParser } from '../engine/statement-parser'
import type { MoveStage } from '../export/guarded-move'
import type { MainEvents } from '../main-events'
import { userMessage } from './user-message'
import { refusal } from '../../shared/refusal'

/** What only a desktop shell can do: a native save dialog and "show in folder". */
export interface ExportPlatform {
  chooseSavePath(defaultName: string, format: 'csv' | 'parquet'): Promise<string | null>
  showInFolder(path: string): void
  readonly downloadsDir: string
}

export interface ExportJobsOptions {
  readonly events: MainEvents
  readonly platform?: ExportPlatform
  /** Without a platform (the web host): the only folder an export may write in (default ~/Downloads). */
  readonly exportDir?: string
  /** Tests only: runs at each stage of an export's guarded move, to swap a folder for a link at exactly that moment. */
  readonly exportStage?: (stage: MoveStage) => Promise<void>
}

const exists = (path: string): Promise<boolean> =>
  lstat(path).then(
    () => true,
    () => false
  )

export class ExportJobs {
  /** Judges an export's SQL when it is asked for (a refusal), before any engine is open. */
  private readonly statements = new StatementParser()
  private readonly exports = new Map<string, { job: ExportJob; abort: AbortController }>()
  /** Paths the user chose in the save dialog: the only ones an export may write when a dialog exists. */
  private readonly grantedPaths = new Set<string>()

  constructor(private readonly opts: ExportJobsOptions) {}

  private exportFolder(): string {
    return this.opts.exportDir ?? this.opts.platform?.downloadsDir ?? join(homedir(), 'Downloads')
  }

  /** True while an export runs (it reads main's engine and the mirror). */
  get running(): boolean {
    return [...this.exports.values()].some((e) => e.job.state === 'running')
  }

  defaults(): { directory: string; dialog: boolean } {
    return { directory: this.exportFolder(), dialog: this.opts.platform !== undefined }
  }

  async chooseSavePath(args: { defaultName: string; format: 'csv' | 'parquet' }): Promise<{ path: string | null }> {
    if (!this.opts.platform) return { path: null }
    const path = await this.opts.platform.chooseSavePath(args.defaultName, args.format)
    if (path) this.grantedPaths.add(path)
    return { path }
  }

  /** Starts writing a query's result to a file in the background, on the engine `engineFor` gives (of the connection it
   * names); the job reports rows, the outcome, and which connection and "as of" the file holds. `connection` is the one
   * open now (null: none yet, engineFor opens one). */
  async start(
    args: ArgsOf<'exportStart'>,
    connection: string | null,
    engineFor: (asOf: string | null) => Promise<{ readonly connection: string; readonly engine: BucketEngine }>
  ): Promise<ExportJob> {
    // With a native save dialog, only a path the user chose there may be written (a renderer cannot pick one).
    if (this.opts.platform && !this.grantedPaths.has(args.path)) throw refusal('path_not_allowed', 'Choose where to save the file first.')
    // Without one (the web host, which any typed path reaches), only a plain file in the export folder.
    const allowed = this.opts.platform ? null : await checkExportPath(this.exportFolder(), args.path)
    if (allowed && !allowed.ok) throw refusal('path_not_allowed', allowed.reason)
    // Said now, as a refusal, not by the job once it ran (export-to-file checks again when it writes).
    await this.statements.checkExport(args.sql)
    if (!args.overwrite && (await exists(args.path))) throw refusal('name_taken', `${args.path} already exists; choose another name or ask to replace it.`)
    const id = randomUUID()
    const abort = new AbortController()
    const entry = {
      job: {
        id,
        path: args.path,
        format: args.format,
        state: 'running',
        startedAt: new Date().toISOString(),
        endedAt: null,
        rows: 0,
        percent: null,
        bytes: 0,
        error: null,
        connection,
        asOf: args.asOf
      } as ExportJob,
      abort
    }
    this.exports.set(id, entry)
    const update = (patch: Partial<ExportJob>): void => {
      entry.job = { ...entry.job, ...patch }
      if (entry.job.state === 'running') this.opts.events.emitThrottled('exportProgress', entry.job, id)
      else this.opts.events.emit('exportProgress', entry.job, id)
    }
    void (async () => {
      try {
        // A path the user chose in the save dialog may name a new folder; a checked one never does (no folder tree).
        if (!allowed) await mkdir(dirname(args.path), { recursive: true })
        const opened = await engineFor(args.asOf)
        if (opened.connection !== entry.job.connection) update({ connection: opened.connection })
        const { engine, views } = opened.engine
        const r = await exportQuery(engine, args.sql, args.path, {
          format: args.format,
          overwrite: args.overwrite,
          signal: abort.signal,
          onProgress: (p) => update({ rows: p.rowsProcessed, percent: p.percent > 0 ? p.percent : null, bytes: p.bytesWritten ?? 0 }),
          ...(allowed ? { guard: { within: this.exportFolder(), ...(this.opts.exportStage ? { onStage: this.opts.exportStage } : {}) } } : {})
        }).catch((e: unknown) => {
          // A table without a view: why (its files could not be listed, archived, no ready copy), not "does not exist".
          const why = missingViewReason(errorMessage(e), views.problems)
          throw why ? new Error(why) : e
        })
        update({ state: 'done', endedAt: new Date().toISOString(), rows: r.rows, percent: 100, bytes: (await stat(args.path)).size })
      } catch (e) {
        update({
          state: abort.signal.aborted ? 'cancelled' : 'failed',
          endedAt: new Date().toISOString(),
          error: abort.signal.aborted ? 'Export cancelled: no file was written.' : `Export failed: ${userMessage(e)} No file was written.`
        })
      }
    })()
    return entry.job
  }

  status(args: { id: string }): ExportJob {
    const e = this.exports.get(args.id)
    if (!e) throw refusal('not_found', `No export ${args.id}.`)
    return e.job
  }

  cancel(args: { id: string }): ExportJob {
    const e = this.exports.get(args.id)
    if (!e) throw refusal('not_found', `No export ${args.id}.`)
    e.abort.abort()
    return e.job
  }

  showInFolder(args: { path: string }): { shown: boolean } {
    // Only a file this app wrote: an export that finished (a renderer cannot have any path revealed or opened).
    if (![...this.exports.values()].some((e) => e.job.state === 'done' && e.job.path === args.path))
      throw refusal('path_not_allowed', `Show in folder works only for a file an export of this session wrote; ${args.path} is not one.`)
    if (!this.opts.platform) return { shown: false }
    this.opts.platform.showInFolder(args.path)
    return { shown: true }
  }

  /** Cancels every running export. */
  /** Cancels every running export and closes the statement parser (the workspace is disposed). */
  close(): Promise<void> {
    for (const e of this.exports.values()) e.abort.abort()
    return this.statements.close()
  }
}
