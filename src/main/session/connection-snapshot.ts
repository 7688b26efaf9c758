// What the app shows, computed once per refresh from the connected bucket: overview and timeline. Plain
// Node: the Electron shell and the web host both call it.
import { randomUUID } from 'node:crypto'
import { isDeepStrictEqual } from 'node:util'
import type { HourDetail, HourTable, Overview, TableVolumeView, TimelineAnswer, TimelineView, VolumePointView } from '../../shared/api/views'
import type { MonitorConfig, VolumePoint } from '../../shared/delivery-monitors'
import { TIMELINE_MAX_HOURS } from '../../shared/api/calls'
import { encodeCells } from '../../shared/api/cell-encoding'
import { folderPrefix } from '../../shared/bucket-key'
import { type UnlistedPrefix, copyReadNote } from '../../shared/bucket-views'
import { dateOf, hourOf } from '../../shared/dates'
import { type ParsedManifest, parseManifest } from '../../shared/manifest'
import { CATALOG } from '../../shared/catalog'
import { deliveryInstant } from '../../shared/delivery-order'
import { type Inventory, isReady, latestReady, readyPartsFolders } from '../../shared/inventory'
import { type ListedObject, isArchived } from '../../shared/listing'
import { HOUR_MS, switchInProgress } from '../../shared/schedule'
import { type Finding, type Timeline, type ManifestText, analyzeTimeline, expectedVersion } from '../../shared/timeline'
import { BucketError, bucketError } from '../bucket/bucket-errors'
import { abortable, shareSignal } from '../bucket/bounded-wait'
import type { IndexProgress } from '../bucket/bucket-index'
import type { BucketProvider } from '../bucket/bucket-provider'
import { findingInputs, refreshBucket } from '../bucket/refresh-pipeline'
import { type BlockCache, connectionBlockCache } from '../byte-server/block-cache'
import { connectionObjectReader, fileStoreFor } from '../store/connection-files'
import type { FileStore } from '../store/file-store'
import type { RangeReader } from '../store/parquet-frame-check'
import { readParquetFooter } from '../store/parquet-footer'
import { errorMessage } from '../../shared/error-message'

export interface ConnectionSnapshotOptions {
  readonly provider: BucketProvider
  readonly connectionId: string
  readonly dataDir: string
  /** Evaluate as of this instant instead of the clock (the demo bucket's own "now"). */
  readonly now?: () => number
  /** The connection's monitor thresholds, read at each analysis (the defaults without). */
  readonly monitors?: () => Promise<MonitorConfig>
}

export class ConnectionSnapshot {
  private inventory: Inventory | null = null
  private manifests: ReadonlyMap<string, ManifestText> = new Map()
  private objectMap: ReadonlyMap<string, ListedObject> = new Map()
  /** Data files the logical tables need that are not readable Parquet (their frame), as of the last refresh. */
  private unreadable: ReadonlySet<string> = new Set()
  private unreadableWhy: ReadonlyMap<string, string> = new Map()
  /** Increases with each successful refresh. */
  generation = 0
  private timelineCache: Timeline | null = null
  /** The name of each analysis' list of findings (TimelineView.findingsOf): the last analysis' again when it found the
   * same, so a renderer holding them gets none again. Kept with the analysis, never read apart from it. */
  private readonly findingsNames = new WeakMap<Timeline, string>()
  /** What the last refresh analysed (its instant and the footers' facts): analysed again when the thresholds change. */
  private analysed: { readonly now: number; readonly inputs: ReturnType<typeof findingInputs> } | null = null
  private problems: readonly string[] = []
  /** Prefixes the last refresh could not list, and why (a table they cover has no view, and says so). */
  private unlisted: readonly UnlistedPrefix[] = []
  private inflight: { readonly promise: Promise<void>; readonly signal: AbortSignal } | null = null
  /** Aborted by close(): ends whatever this snapshot still waits for (a refresh, footer reads). */
  private readonly lifetime = new AbortController()
  private readonly parsedManifests = new Map<string, { readonly text: ManifestText | undefined; readonly parsed: ParsedManifest }>()
  private readonly footers: BlockCache
  private readonly store: FileStore
  /** The hour inspector's row counts read the footers as the refresh's frame check read them (the same copies). */
  private readonly read: RangeReader

  constructor(private readonly opts: ConnectionSnapshotOptions) {
    this.footers = connectionBlockCache(opts.dataDir, opts.connectionId, opts.provider)
    this.store = fileStoreFor(opts.provider, opts.dataDir, opts.connectionId)
    this.read = connectionObjectReader(this.footers, this.store)
    // Every footer read of the hour inspector (an hour's files at once) waits on this one signal.
    shareSignal(this.lifetime.signal)
  }

  get connectionId(): string {
    return this.opts.connectionId
  }

  now(): number {
    return this.opts.now ? this.opts.now() : Date.now()
  }

  /** Lists the bucket (incrementally after the first time), reads new manifests, analyzes. What was shown is
   * kept until a refresh succeeds: a failed or cancelled refresh loses nothing. One runs at a time; a caller
   * that joins it leaves when its own signal aborts. A cancelled refresh rejects at once (what it still waits
   * for unwinds behind it and is never used) and is not joined by the next one. */
  refresh(opts: { full?: boolean; signal?: AbortSignal; onProgress?: (p: IndexProgress) => void } = {}): Promise<void> {
    const cancelled = (): BucketError => bucketError('cancelled', '', 'Refresh cancelled')
    if (this.inflight && !this.inflight.signal.aborted) return abortable(this.inflight.promise, opts.signal, cancelled)
    const signal = opts.signal ? AbortSignal.any([opts.signal, this.lifetime.signal]) : this.lifetime.signal
    const check = (): void => {
      if (signal.aborted) throw cancelled()
    }
    const run = async (): Promise<void> => {
      const now = this.now()
      const r = await refreshBucket(this.opts.provider, this.opts.dataDir, this.opts.connectionId, {
        now,
        ...(opts.full ? { full: true } : {}),
        signal,
        ...(opts.onProgress ? { onListing: opts.onProgress } : {}),
        footers: this.footers,
        store: this.store
      })
      check()
      const analysed = { now, inputs: findingInputs(r) }
      const timeline = await this.analyze(r.inventory, r.manifests, analysed)
      check()
      // All of it at once: nothing reads a new listing beside an old analysis.
      this.unreadable = r.unreadable
      this.unreadableWhy = r.unreadableWhy
      this.inventory = r.inventory
      this.manifests = r.manifests
      this.objectMap = r.objects
      this.generation++
      this.analysed = analysed
      this.keepTimeline(timeline)
      this.problems = r.problems
      this.unlisted = r.unlisted
    }
    const entry = { promise: abortable(run(), signal, cancelled), signal }
    this.inflight = entry
    entry.promise
      .finally(() => {
        if (this.inflight === entry) this.inflight = null
      })
      // Nothing lost: this copy only clears inflight; the promise itself is returned and its caller sees the failure.
      .catch(() => {})
    return entry.promise
  }

  private async analyze(
    inventory: Inventory,
    manifests: ReadonlyMap<string, ManifestText>,
    a: { readonly now: number; readonly inputs: ReturnType<typeof findingInputs> }
  ): Promise<Timeline> {
    const monitors = await this.opts.monitors?.()
    return analyzeTimeline(inventory, manifests, { now: a.now, parsedCache: this.parsedManifests, ...a.inputs, ...(monitors ? { monitors } : {}) })
  }

  /** The last refresh's bucket analysed again (the monitor thresholds changed); nothing is listed or read. */
  async reanalyze(): Promise<void> {
    await this.inflight?.promise.catch(() => undefined)
    if (!this.inventory || !this.analysed) return
    this.keepTimeline(await this.analyze(this.inventory, this.manifests, this.analysed))
  }

  /** A new analysis, its findings named anew unless they are the ones the last analysis found. */
  private keepTimeline(timeline: Timeline): void {
    const last = this.timelineCache
    if (last !== null && sameFindings(last.findings, timeline.findings)) this.findingsNames.set(timeline, this.findingsName(last))
    this.timelineCache = timeline
  }

  /** An analysis' findings' name. A UUID, not a counter: a page that outlives its web host never takes another
   * process's list for its own. */
  private findingsName(timeline: Timeline): string {
    let name = this.findingsNames.get(timeline)
    if (name === undefined) this.findingsNames.set(timeline, (name = randomUUID()))
    return name
  }

  /** Ends what the snapshot waits for: its refresh and footer reads reject as cancelled. */
  close(): void {
    this.lifetime.abort()
  }

  /** The listed object of a key (what the byte server may serve). */
  object(key: string): ListedObject | undefined {
    return this.objectMap.get(key)
  }

  get provider(): BucketProvider {
    return this.opts.provider
  }

  /** The index and listing as of the last refresh, for an engine. */
  async snapshot(): Promise<{
    inventory: Inventory
    objects: ReadonlyMap<string, ListedObject>
    generation: number
    unreadable: ReadonlySet<string>
    unlisted: readonly UnlistedPrefix[]
  }> {
    const { inventory } = await this.ready()
    return { inventory, objects: this.objectMap, generation: this.generation, unreadable: this.unreadable, unlisted: this.unlisted }
  }

  get loaded(): boolean {
    return this.timelineCache !== null
  }

  private async ready(): Promise<{ inventory: Inventory; timeline: Timeline }> {
    if (!this.inventory || !this.timelineCache) await this.refresh()
    return { inventory: this.inventory as Inventory, timeline: this.timelineCache as Timeline }
  }

  /** Rows of a Parquet file from its footer (read as the frame check reads it, parsed by the bounded reader), or why not. */
  private async footerRows(o: ListedObject): Promise<{ rows: number | null; rowsError?: string }> {
    if (!o.key.endsWith('.parquet') || o.size < 12) return { rows: null }
    if (isArchived(o, this.now())) return { rows: null, rowsError: `archived (${o.storageClass}): restore it to read its footer` }
    try {
      const r = await readParquetFooter(o.size, (start, end, sig) => this.read(o, start, end, sig), {
        signal: this.lifetime.signal
      })
      return r.ok ? { rows: r.footer.rows } : { rows: null, rowsError: `not a readable Parquet file: ${r.why}` }
    } catch (e) {
      const why = e instanceof BucketError ? e.userMessage : `its footer could not be read (${errorMessage(e)})`
      return { rows: null, rowsError: why }
    }
  }

  async overview(): Promise<Overview> {
    const { inventory, timeline } = await this.ready()
    const iso = (t: number | null): string | null => (t === null ? null : new Date(t).toISOString())
    const tables = CATALOG.map((t) => {
      const f = t.mode === 'full' ? latestReady(inventory, t, { unreadable: this.unreadable }) : (readyPartsFolders(inventory, t).at(-1) ?? null)
      const folders =
        t.mode === 'parts'
          ? readyPartsFolders(inventory, t).length
          : [...inventory.folders.values()].filter(
              (x) => x.ref.schema === t.schema && x.ref.table === t.table && isReady(x) && x.ref.version === inventory.version
            ).length
      const { note, restorable } = copyReadNote(inventory, t, { unreadable: this.unreadable, now: this.now() })
      return {
        schema: t.schema,
        table: t.table,
        mode: t.mode,
        newest: f ? iso(deliveryInstant(f.ref)) : null,
        newestPrefix: f?.ref.prefix ?? null,
        folders,
        note,
        restorable
      }
    })
    const complete = [...timeline.hours].reverse().find((h) => h.manifest === 'complete')
    const findings = { error: 0, warning: 0, info: 0 }
    for (const f of timeline.findings) findings[f.severity]++
    return {
      connectionId: this.opts.connectionId,
      location: this.opts.provider.location,
      version: inventory.version,
      switching: switchInProgress(inventory.version, this.now()),
      now: new Date(this.now()).toISOString(),
      lastCompleteHour: complete ? new Date(complete.start).toISOString() : null,
      tables,
      findings,
      problems: this.problems
    }
  }

  async hour(args: { start: string }): Promise<HourDetail> {
    const { inventory, timeline } = await this.ready()
    const t = Date.parse(args.start)
    const h = timeline.hours.find((x) => x.start === t)
    if (!h) return { start: args.start, era: 'v2', manifest: null, tables: [], findings: [] }
    const version = expectedVersion(h.era) ?? 'v2'
    const raw = h.manifestKey ? this.manifests.get(h.manifestKey) : undefined
    const parsed = typeof raw === 'string' && h.manifestKey ? parseManifest(raw, { version, date: h.date, hour: version === 'v1' ? null : h.hour }) : null
    const tables = await Promise.all(
      CATALOG.map(async (c): Promise<HourTable> => {
        const prefix = folderPrefix(c, version, dateOf(t), version === 'v1' ? null : hourOf(t))
        const f = inventory.folders.get(prefix)
        const through = parsed?.manifest?.delivered.find((e) => e.name === `${c.schema}.${c.table}`)?.deliveredThrough ?? null
        return {
          schema: c.schema,
          table: c.table,
          state: h.cells[c.table] ?? 'no_delivery',
          prefix,
          files: f
            ? await Promise.all(
                [...f.dataFiles, ...f.ignored].map(async (o) => ({
                  key: o.key,
                  size: o.size,
                  lastModified: o.lastModified,
                  storageClass: o.storageClass ?? null,
                  ...(await this.footerRows(o))
                }))
              )
            : [],
          success: f?.marker?.lastModified ?? null,
          deliveredThrough: through,
          volume: volumeView(timeline.volumes.get(c.table)?.find((p) => p.key === prefix))
        }
      })
    )
    return {
      start: args.start,
      era: h.era,
      manifest:
        h.manifest === null
          ? null
          : {
              key: h.manifestKey,
              state: h.manifest,
              warnings: h.manifestWarnings,
              raw: typeof raw === 'string' ? raw : null,
              parsed: parsed?.manifest ?? null
            },
      tables,
      findings: timeline.findings.filter((f) => f.date === h.date && f.hour === h.hour)
    }
  }

  /** A table's deliveries of the last fromHours beside their usual band; an unknown table has none. */
  async tableVolume(args: { table: string; fromHours: number }): Promise<TableVolumeView> {
    const { timeline } = await this.ready()
    const from = this.rangeStart(args.fromHours)
    const c = CATALOG.find((t) => `${t.schema}.${t.table}` === args.table)
    const [schema = '', table = ''] = args.table.split('.')
    const points = c ? (timeline.volumes.get(c.table) ?? []).filter((p) => p.instant >= from) : []
    return { schema, table, points: points.map((p) => volumeView(p) as VolumePointView) }
  }

  /** The first hour of a range of the last `hours` hours (the hour holding now included), capped at the service's. */
  private rangeStart(hours: number): number {
    const last = Math.floor(this.now() / HOUR_MS) * HOUR_MS
    return last - Math.max(1, Math.min(TIMELINE_MAX_HOURS, hours)) * HOUR_MS + HOUR_MS
  }

  async timeline(args: { fromHours: number }): Promise<TimelineView & { readonly findingsOf: string }> {
    const { timeline } = await this.ready()
    const from = this.rangeStart(args.fromHours)
    const hours = timeline.hours.filter((h) => h.start >= from)
    const names = CATALOG.map((t) => t.table)
    return {
      tables: CATALOG.map((t) => ({ schema: t.schema, table: t.table })),
      hours: hours.map((h) => ({ start: new Date(h.start).toISOString(), era: h.era, manifest: h.manifest, cells: encodeCells(names, h.cells) })),
      // Every finding of the export (the list jumps to its hour, widening the range if need be).
      findings: timeline.findings,
      findingsOf: this.findingsName(timeline)
    }
  }

  /** The timeline call's answer: without the findings when the caller holds this list already (a year of them is
   * megabytes of JSON, the most of what a year's timeline took to cross and parse). */
  async timelineAnswer(args: { fromHours: number; findingsOf?: string | undefined }): Promise<TimelineAnswer> {
    const view = await this.timeline(args)
    return args.findingsOf === view.findingsOf ? { ...view, findings: null } : view
  }
}

/** Whether two analyses found the same findings, in the same order (every field, however many a finding gets). */
export function sameFindings(a: readonly Finding[], b: readonly Finding[]): boolean {
  return a.length === b.length && a.every((x, i) => isDeepStrictEqual(x, b[i]))
}

/** A delivery's volume as the API sends it. */
function volumeView(p: VolumePoint | undefined): VolumePointView | null {
  if (!p) return null
  return {
    start: new Date(p.instant).toISOString(),
    key: p.key,
    rows: p.rows,
    bytes: p.bytes,
    rowsBand: p.rowsBand,
    bytesBand: p.bytesBand,
    anomalous: p.anomalous
  }
}
