// What the app shows, computed once per refresh from the connected bucket: overview and timeline. Plain
// Node: the Electron shell and the web host both call it.
import { join } from 'node:path'
import type { HourDetail, Overview, TimelineView } from '../shared/api-contract'
import { folderPrefix } from '../shared/bucket-key'
import { dateOf, hourOf } from '../shared/dates'
import { parseManifest } from '../shared/manifest'
import { CATALOG } from '../shared/catalog'
import { deliveryInstant } from '../shared/delivery-order'
import { type Inventory, buildInventory, latestReady, readyPartsFolders } from '../shared/inventory'
import { HOUR_MS } from '../shared/schedule'
import { type Timeline, type ManifestText, analyzeTimeline, expectedVersion } from '../shared/timeline'
import type { BucketProvider } from './bucket/bucket-provider'
import { readManifests } from './bucket/manifest-reader'
import { refreshConnectionIndex } from './bucket/refresh-connection'

export interface AppServiceOptions {
  readonly provider: BucketProvider
  readonly connectionId: string
  readonly dataDir: string
  /** Evaluate as of this instant instead of the clock (the demo bucket's own "now"). */
  readonly now?: () => number
}

export class AppService {
  private inventory: Inventory | null = null
  private manifests: ReadonlyMap<string, ManifestText> = new Map()
  private timelineCache: Timeline | null = null

  constructor(private readonly opts: AppServiceOptions) {}

  private now(): number {
    return this.opts.now ? this.opts.now() : Date.now()
  }

  async refresh(): Promise<void> {
    const r = await refreshConnectionIndex(this.opts.dataDir, this.opts.connectionId, this.opts.provider, { now: this.now() })
    this.inventory = buildInventory(r.index.objects.values())
    this.manifests = await readManifests(this.opts.provider, this.inventory, { cacheFile: join(this.opts.dataDir, 'manifests', `${this.opts.connectionId}.json`) })
    this.timelineCache = analyzeTimeline(this.inventory, this.manifests, { now: this.now() })
  }

  private async ready(): Promise<{ inventory: Inventory; timeline: Timeline }> {
    if (!this.inventory || !this.timelineCache) await this.refresh()
    return { inventory: this.inventory as Inventory, timeline: this.timelineCache as Timeline }
  }

  async overview(): Promise<Overview> {
    const { inventory, timeline } = await this.ready()
    const iso = (t: number | null): string | null => (t === null ? null : new Date(t).toISOString())
    const tables = CATALOG.map((t) => {
      const f = t.mode === 'full' ? latestReady(inventory, t) : (readyPartsFolders(inventory, t).at(-1) ?? null)
      return { schema: t.schema, table: t.table, mode: t.mode, newest: f ? iso(deliveryInstant(f.ref)) : null, newestPrefix: f?.ref.prefix ?? null }
    })
    const complete = [...timeline.hours].reverse().find((h) => h.manifest === 'complete')
    const findings = { error: 0, warning: 0, info: 0 }
    for (const f of timeline.findings) findings[f.severity]++
    return { location: this.opts.provider.location, version: inventory.version, now: new Date(this.now()).toISOString(), lastCompleteHour: complete ? new Date(complete.start).toISOString() : null, tables, findings }
  }

  async hour(args: { start: string }): Promise<HourDetail> {
    const { inventory, timeline } = await this.ready()
    const t = Date.parse(args.start)
    const h = timeline.hours.find((x) => x.start === t)
    if (!h) return { start: args.start, era: 'v2', manifest: null, tables: [], findings: [] }
    const version = expectedVersion(h.era) ?? 'v2'
    const raw = h.manifestKey ? this.manifests.get(h.manifestKey) : undefined
    const parsed = typeof raw === 'string' && h.manifestKey ? parseManifest(raw, { version, date: h.date, hour: version === 'v1' ? null : h.hour }) : null
    const tables = CATALOG.map((c) => {
      const prefix = folderPrefix(c, version, dateOf(t), version === 'v1' ? null : hourOf(t))
      const f = inventory.folders.get(prefix)
      const through = parsed?.manifest?.delivered.find((e) => e.name === `${c.schema}.${c.table}`)?.deliveredThrough ?? null
      return {
        schema: c.schema,
        table: c.table,
        state: h.cells[c.table] ?? 'no_delivery',
        prefix,
        files: f ? [...f.dataFiles, ...f.ignored].map((o) => ({ key: o.key, size: o.size, lastModified: o.lastModified, storageClass: o.storageClass ?? null })) : [],
        success: f?.marker?.lastModified ?? null,
        deliveredThrough: through
      }
    })
    return {
      start: args.start,
      era: h.era,
      manifest: h.manifest === null ? null : { key: h.manifestKey, state: h.manifest, warnings: h.manifestWarnings, raw: typeof raw === 'string' ? raw : null },
      tables,
      findings: timeline.findings.filter((f) => f.date === h.date && f.hour === h.hour)
    }
  }

  async timeline(args: { fromHours: number }): Promise<TimelineView> {
    const { timeline } = await this.ready()
    const last = Math.floor(this.now() / HOUR_MS) * HOUR_MS
    const from = last - Math.max(1, Math.min(24 * 400, args.fromHours)) * HOUR_MS + HOUR_MS
    const hours = timeline.hours.filter((h) => h.start >= from)
    const since = hours[0]?.date ?? '9999'
    return {
      tables: CATALOG.map((t) => ({ schema: t.schema, table: t.table })),
      hours: hours.map((h) => ({ start: new Date(h.start).toISOString(), era: h.era, manifest: h.manifest, cells: h.cells })),
      // Findings of the hours shown, and those that belong to no hour ("__initial__" sorts after every date).
      findings: timeline.findings.filter((f) => f.date === null || f.date >= since)
    }
  }
}
