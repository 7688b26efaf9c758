// The part every bucket command shares: open the connection, check it can be judged (could not check: exit 2), and
// refresh the saved index (listing, manifests of the range, the files' frames) through the app's refresh pipeline.
import { createHash } from 'node:crypto'
import { homedir } from 'node:os'
import { join } from 'node:path'
import type { IndexProgress } from '../main/bucket/bucket-index'
import type { BucketProvider } from '../main/bucket/bucket-provider'
import {
  type BucketRefreshOptions,
  type RefreshedBucket,
  type RefreshedListing,
  deriveBucket,
  refreshBucket,
  refreshListing
} from '../main/bucket/refresh-pipeline'
import { configAbove, testConnection } from '../main/connections/connection-verdict'
import { openConnection } from '../main/connections/open-connection'
import { MemorySecretStore } from '../main/connections/secret-store'
import { type Progress, progress } from './progress-line'
import type { CliRequest } from './cli-request'
import { readThresholdsFile } from './thresholds-file'
import type { MonitorConfig } from '../shared/delivery-monitors'
import type { EarlyEngine } from './commands/engine-commands'

/** Where the CLI keeps what it can download again (listings, files, the mirror). */
export function cacheDir(): string {
  return process.env['EXPORT_EXPLORER_CACHE'] ?? join(process.env['XDG_CACHE_HOME'] ?? join(homedir(), '.cache'), 'export-explorer')
}

/** Where the CLI keeps what it cannot rebuild (what `watch` told, export cursors): beside the cache when
 * EXPORT_EXPLORER_CACHE names one (so a test or a job keeps everything in one folder), else XDG's state folder. */
export function stateDir(): string {
  const cache = process.env['EXPORT_EXPLORER_CACHE']
  if (cache) return join(cache, 'state')
  return join(process.env['XDG_STATE_HOME'] ?? join(homedir(), '.local', 'state'), 'export-explorer')
}

/** An opened, refreshed bucket and what the commands need of it. */
export interface BucketRun {
  readonly request: CliRequest
  readonly provider: BucketProvider
  /** The cache's name for this bucket (connection and endpoint). */
  readonly id: string
  /** The saved listing, refreshed. */
  readonly listing: RefreshedListing
  /** The rest of the refresh (inventory, frame check, manifests of the range), derived once, when first asked: a query
   * whose saved views still hold needs none of it (src/main/engine/saved-views.ts). */
  derive(): Promise<RefreshedBucket>
  readonly show: Progress
  /** --thresholds: the volume monitor's thresholds (the defaults without). */
  readonly monitors?: MonitorConfig
  /** DuckDB, started before the refresh for a command that opens it (engine-commands.ts). */
  readonly early?: EarlyEngine
}

/** A run whose refresh was derived: what the report commands and watch read. */
export type DerivedRun = Omit<BucketRun, 'derive'> & { readonly refreshed: RefreshedBucket }

export async function derivedRun(run: BucketRun): Promise<DerivedRun> {
  return { ...run, refreshed: await run.derive() }
}

export interface OpenRunOptions {
  /** Called once the bucket is opened, before its refresh: what to start meanwhile (closed here if the refresh fails). */
  readonly startEngine?: (provider: BucketProvider, id: string) => EarlyEngine
  /** Derive the rest of the refresh only when the command asks for it (engine commands); else before returning. */
  readonly deriveLater?: boolean
}

/** The bucket opened and refreshed, or the exit code when it could not be checked (said on stderr, and as JSON with --json). */
export async function openBucketRun(request: CliRequest, opts: OpenRunOptions = {}): Promise<BucketRun | number> {
  const { flags: values, command, now, conn } = request
  const thresholds = values.thresholds === undefined ? null : await readThresholdsFile(values.thresholds)
  if (thresholds && !thresholds.ok) {
    process.stderr.write(`export-explorer: ${thresholds.message}. Fix the file or leave --thresholds out for the defaults.\n`)
    return 2
  }
  const secrets = new MemorySecretStore()
  const open = { ...(request.idleMs !== undefined ? { timeouts: { idleMs: request.idleMs } } : {}) }
  const provider = await openConnection(conn, secrets, open)
  // Could not check is not "missing": a folder that is not there or not an export, or a refused listing, exits 2 with
  // what to fix, before any hour is judged (the app's connection test, with its look one level around). Queries and
  // exports run on whatever the folder holds (SQL needs no table).
  const judges = command === 'status' || command === 'timeline' || command === 'doctor' || command === 'watch'
  const verdict = !judges
    ? null
    : await testConnection(provider, {
        config: conn,
        openAbove: async () => {
          const above = configAbove(conn)
          return above ? openConnection(above, secrets, open) : null
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
  const early = opts.startEngine?.(provider, id)
  let listing: RefreshedListing
  let derived: Promise<RefreshedBucket> | undefined
  const refresh = refreshOptions(request, now, { show })
  const derive = (): Promise<RefreshedBucket> => {
    derived ??= deriveBucket(listing, provider, cacheDir(), id, refresh).finally(() => show.done())
    return derived
  }
  try {
    listing = await refreshListing(provider, cacheDir(), id, refresh)
    show.done()
    const firstProblem = listing.listingProblems[0]
    if (firstProblem && listing.objects.size === 0) throw firstProblem.error
    if (!opts.deriveLater) await derive()
  } catch (e) {
    await early?.dispose()
    throw e
  }
  for (const p of listing.listingProblems) process.stderr.write(`warning: could not list ${p.prefix}: ${p.error.userMessage}\n`)
  return {
    request,
    provider,
    id,
    listing,
    derive,
    show,
    ...(thresholds?.ok ? { monitors: thresholds.config } : {}),
    ...(early ? { early } : {})
  }
}

/** The saved index refreshed as of `now` (watch refreshes again at each check, with the clock's time). */
export async function refreshRun(
  provider: BucketProvider,
  id: string,
  request: CliRequest,
  now: number,
  opts: { readonly show?: Progress; readonly signal?: AbortSignal } = {}
): Promise<RefreshedBucket> {
  return refreshBucket(provider, cacheDir(), id, refreshOptions(request, now, opts))
}

/** What a command's refresh reads, as of `now`. */
function refreshOptions(request: CliRequest, now: number, opts: { readonly show?: Progress; readonly signal?: AbortSignal }): BucketRefreshOptions {
  const { flags: values, command, since } = request
  const { show } = opts
  // The timeline, doctor and watch read the manifests of their range; every command checks the files' frames (an unreadable
  // copy is a state of its own on the timeline, a finding in doctor, left out by the tables).
  const ranged = command === 'timeline' || command === 'doctor' || command === 'watch'
  const sinceDate = new Date(since).toISOString().slice(0, 10)
  return {
    now,
    full: values['no-cache'] === true,
    ...(opts.signal ? { signal: opts.signal } : {}),
    ...(show
      ? {
          onListing: (p: IndexProgress) => show(`listing ${p.prefixesDone}/${p.prefixesTotal} prefixes, ${p.objects} objects`),
          onFrames: (p: { checked: number; total: number }) => show(`checking ${p.checked}/${p.total} Parquet files`)
        }
      : {}),
    manifests: ranged ? (key) => (/snapshot_date=(\d{4}-\d{2}-\d{2})/.exec(key)?.[1] ?? '') >= sinceDate : false,
    frames: true
  }
}
