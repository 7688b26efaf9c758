// `watch`: follows the feed headless. A full check at each hour's due time and when the due hour's markers land
// (found by listing only their prefixes), the incidents compared with the last check, and each change told once to
// every target (webhooks, a command); what was told is kept in a state file so a restart repeats nothing.
import { join } from 'node:path'
import type { TimelineView } from '../../shared/api/views'
import { encodeCells } from '../../shared/api/cell-encoding'
import { CATALOG } from '../../shared/catalog'
import { countText } from '../../shared/counts'
import { deliveryHeadline, type DeliveryHeadline } from '../../shared/delivery-headline'
import { deliveryInstant } from '../../shared/delivery-order'
import { errorMessage } from '../../shared/error-message'
import { awaitedMarkers, nextCheck } from '../../shared/follow/check-schedule'
import { type IncidentChange, type KnownIncident, incidentChanges, pendingFor, rememberTold } from '../../shared/follow/incident-changes'
import { type IncidentPayload, incidentPayload } from '../../shared/follow/incident-payload'
import { incidentsOf } from '../../shared/incidents'
import { latestReady, readyPartsFolders } from '../../shared/inventory'
import { analyzeTimeline, type Finding } from '../../shared/timeline'
import { type Target, commandTarget, targetHash, webhookTarget } from '../../main/follow/follow-targets'
import { pollMarkers } from '../../main/follow/marker-poll'
import { type RefreshedBucket, findingInputs } from '../../main/bucket/refresh-pipeline'
import { SavedStateFile, type SavedStateFormat } from '../../main/files/saved-state-file'
import { type DerivedRun, refreshRun, stateDir } from '../bucket-run'
import type { WatchRequest } from '../cli-request'

/** What a target was told and what it still has to be told. */
interface TargetState {
  readonly pending: IncidentChange[]
  readonly told: string[]
}

interface WatchState {
  /** The incidents as of the last check (null before the first). */
  readonly known: Record<string, KnownIncident> | null
  /** By target: a hash of the webhook URL or the command (a webhook URL is a secret: never in the file). */
  readonly targets: Record<string, TargetState>
}

const STATE_FORMAT: SavedStateFormat<WatchState> = {
  empty: () => ({ known: null, targets: {} }),
  decode(parsed) {
    const p = parsed as Partial<WatchState> | null
    if (!p || typeof p !== 'object' || typeof p.targets !== 'object' || p.targets === null || (p.known !== null && typeof p.known !== 'object'))
      return { value: { known: null, targets: {} }, problems: ['it is not a watch state (known, targets)'] }
    return { value: { known: p.known ?? null, targets: p.targets }, problems: [] }
  },
  encode: (v) => `${JSON.stringify(v)}\n`
}

const hash = targetHash

/** The incidents and headline of a refreshed bucket, with doctor's range and exit code. */
function evaluate(run: DerivedRun, refreshed: RefreshedBucket, now: number): { view: TimelineView; headline: DeliveryHeadline; code: number } {
  const { since } = run.request
  const sinceDate = new Date(since).toISOString().slice(0, 10)
  const tl = analyzeTimeline(refreshed.inventory, refreshed.manifests, {
    now,
    from: since,
    to: now,
    ...findingInputs(refreshed),
    ...(run.monitors ? { monitors: run.monitors } : {})
  })
  // doctor's range: what a table leaves out now is said whatever --since.
  const standing = (f: Finding): boolean => f.resolved === null && (f.kind === 'archived' || f.kind === 'corrupt_file')
  const findings = tl.findings.filter((f) => f.date === null || f.date === '__initial__' || f.date >= sinceDate || standing(f))
  const names = CATALOG.map((t) => t.table)
  const view: TimelineView = {
    tables: CATALOG.map((t) => ({ schema: t.schema, table: t.table })),
    hours: tl.hours.map((h) => ({ start: new Date(h.start).toISOString(), era: h.era, manifest: h.manifest, cells: encodeCells(names, h.cells) })),
    findings
  }
  const inv = refreshed.inventory
  const tables = CATALOG.map((t) => {
    const f = t.mode === 'full' ? latestReady(inv, t, { unreadable: refreshed.unreadable }) : (readyPartsFolders(inv, t).at(-1) ?? null)
    const at = f ? deliveryInstant(f.ref) : null
    return { newest: at === null ? null : new Date(at).toISOString() }
  })
  const headline = deliveryHeadline({ now: new Date(now).toISOString(), tables }, view)
  const openErrors = findings.some((f) => f.resolved === null && f.severity === 'error')
  return { view, headline, code: refreshed.listingProblems.length > 0 ? 2 : openErrors ? 1 : 0 }
}

export interface WatchHooks {
  /**
   * Called after each check (the first included) with its listing and instant, and a way to tell every target a
   * payload once (failures said on stderr): where `--export-dir` plugs in (watch-export.ts).
   */
  readonly onCheck?: (refreshed: RefreshedBucket, now: number, tell: (p: IncidentPayload) => Promise<void>, signal: AbortSignal) => Promise<void>
}

const clock = (t: number): string => new Date(t).toISOString().slice(11, 16)
const stamp = (t: number): string => `${new Date(t).toISOString().slice(0, 16).replace('T', ' ')} UTC`

export async function watchCommand(run: DerivedRun, hooks: WatchHooks = {}): Promise<number> {
  const { request, provider } = run
  const opts = request.watch as WatchRequest
  const fixedNow = request.flags.now !== undefined ? request.now : null
  const nowOf = (): number => fixedNow ?? Date.now()
  const targets = [...opts.webhooks.map((u) => webhookTarget(u)), ...(opts.exec ? [commandTarget(opts.exec)] : [])]
  const file = new SavedStateFile<WatchState>(
    join(
      stateDir(),
      `watch-${hash(
        `${run.id}|${targets
          .map((t) => t.key)
          .sort()
          .join('|')}`
      )}.json`
    ),
    STATE_FORMAT
  )
  const read = await file.read()
  for (const p of read.problems) process.stderr.write(`export-explorer: state file ${file.path}: ${p}\n`)

  const stop = new AbortController()
  const onSignal = (): void => stop.abort()
  process.once('SIGTERM', onSignal)
  process.once('SIGINT', onSignal)

  let refreshed = run.refreshed
  let noticesSaid = 0
  let code = 0
  try {
    for (let first = true; ; first = false) {
      const now = nowOf()
      if (!first) {
        try {
          refreshed = await refreshRun(provider, run.id, request, now, { signal: stop.signal })
        } catch (e) {
          if (stop.signal.aborted) break
          process.stderr.write(`export-explorer: could not check ${provider.location}: ${errorMessage(e)}\n`)
          code = 2
        }
      }
      const { view, headline, code: evaluated } = evaluate(run, refreshed, now)
      code = evaluated
      const told = await tell(file, targets, incidentsOf(view), { location: provider.location, headline }, stop.signal)
      // Said once: the file's notices accumulate over the process.
      for (const p of file.problems().slice(noticesSaid)) process.stderr.write(`export-explorer: state file ${file.path}: ${p}\n`)
      noticesSaid = file.problems().length
      // An export that fails (a listing, a download, the mirror) is said and tried again at the next check.
      if (hooks.onCheck)
        await hooks
          .onCheck(refreshed, now, (p) => tellOnce(targets, p, stop.signal), stop.signal)
          .catch(
            (e: unknown) =>
              void (stop.signal.aborted || process.stderr.write(`export-explorer: the export failed: ${errorMessage(e)}; tried again at the next check\n`))
          )
      if (opts.once || stop.signal.aborted) {
        process.stderr.write(`checked ${stamp(now)}: ${countText(told, 'change')} told\n`)
        break
      }
      // Until the next due time, poll only the due hour's marker prefixes; a full check once they land (or at the due time).
      const next = await waitForNextCheck(run, refreshed, opts.pollMs, nowOf, stop.signal, (at) =>
        process.stderr.write(`checked ${stamp(now)}: ${countText(told, 'change')} told; next check ${clock(at)}\n`)
      )
      if (!next) break
    }
  } finally {
    process.off('SIGTERM', onSignal)
    process.off('SIGINT', onSignal)
  }
  return code === 2 ? 2 : code
}

/** Tells every target one payload (an exported file), once; a target that fails is said on stderr. */
async function tellOnce(targets: readonly Target[], p: IncidentPayload, signal: AbortSignal): Promise<void> {
  for (const t of targets) await t.send(p, signal).catch((e: unknown) => void process.stderr.write(`export-explorer: ${errorMessage(e)}\n`))
}

/** Sleeps until the next check is due; true when it is, false when the watch was stopped. */
async function waitForNextCheck(
  run: DerivedRun,
  refreshed: RefreshedBucket,
  pollMs: number,
  nowOf: () => number,
  signal: AbortSignal,
  say: (at: number) => void
): Promise<boolean> {
  const missing = (keys: readonly string[], have: (k: string) => boolean): string[] => keys.filter((k) => !have(k))
  let plan = nextCheck(nowOf(), { awaiting: true, pollMs })
  let awaiting = awaitedMarkers(plan.hour, (k) => refreshed.objects.has(k))
  plan = nextCheck(nowOf(), { awaiting: awaiting.length > 0, pollMs })
  say(plan.at)
  for (let round = 0; ; round++) {
    if (!(await sleepUntil(plan.at, nowOf, signal))) return false
    if (plan.kind === 'full') return true
    // A poll: a few of the due hour's prefixes; a marker that landed makes the next check a full one.
    const now = nowOf()
    let seen: ReadonlySet<string> = new Set()
    try {
      seen = (await pollMarkers(run.provider, awaiting, round, now, signal)).seen
    } catch (e) {
      if (signal.aborted) return false
      process.stderr.write(`export-explorer: could not poll ${run.provider.location}: ${errorMessage(e)}\n`)
    }
    const still = missing(awaiting, (k) => seen.has(k))
    if (still.length < awaiting.length) return true
    awaiting = still
    plan = nextCheck(now, { awaiting: true, pollMs })
  }
}

/** Resolves true at `at` (by the clock; a fixed --now polls every interval), false as soon as `signal` aborts. */
function sleepUntil(at: number, nowOf: () => number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false)
  const wait = Math.max(0, Math.min(at - nowOf(), 2 ** 31 - 1))
  return new Promise((resolve) => {
    const done = (ok: boolean): void => {
      clearTimeout(timer)
      signal.removeEventListener('abort', onAbort)
      resolve(ok)
    }
    const onAbort = (): void => done(false)
    const timer = setTimeout(() => done(true), wait)
    signal.addEventListener('abort', onAbort, { once: true })
  })
}

/**
 * Compares the incidents with the last check, queues the changes for each target and tells them, saving after each
 * one told (so a restart repeats nothing); a target that fails is said on stderr and keeps its queue. How many told.
 */
async function tell(
  file: SavedStateFile<WatchState>,
  targets: readonly Target[],
  incidents: ReturnType<typeof incidentsOf>,
  where: { location: string; headline: DeliveryHeadline },
  signal: AbortSignal
): Promise<number> {
  const state = await file.update((s) => {
    const { changes, known } = incidentChanges(s.known, incidents)
    const next: Record<string, TargetState> = {}
    for (const t of targets) {
      const was = s.targets[t.key] ?? { pending: [], told: [] }
      next[t.key] = { told: was.told, pending: pendingFor(was.pending, new Set(was.told), changes) }
    }
    return { known, targets: next }
  })
  let told = 0
  for (const t of targets) {
    for (const c of state.targets[t.key]?.pending ?? []) {
      if (signal.aborted) return told
      try {
        await t.send(incidentPayload(c, where), signal)
      } catch (e) {
        if (signal.aborted) return told
        process.stderr.write(`export-explorer: ${errorMessage(e)}; the watch goes on and tells it again at the next check\n`)
        break
      }
      told++
      await file.update((s) => {
        const was = s.targets[t.key] ?? { pending: [], told: [] }
        return {
          ...s,
          targets: {
            ...s.targets,
            [t.key]: { told: rememberTold(was.told, c.fingerprint), pending: was.pending.filter((p) => p.fingerprint !== c.fingerprint) }
          }
        }
      })
    }
  }
  return told
}
