// The deliveries view's state: the overview, the timeline of the chosen range, the axis zone, the focused
// cell (by its hour, not its column: a refresh or another range moves the columns, not the focus), the hour
// open in the inspector, the findings filter, the menu's zoom commands, and the rows per delivery of the table the
// Tables view shows (its volume chart). Its actions own the calls.
import type { HourDetail, MonitorThresholdsView, Overview, TableVolumeView, TimelineAnswer, TimelineView } from '../../../shared/api/views'
import type { MonitorThresholds } from '../../../shared/delivery-monitors'
import { type Finding, type Severity, findingHour } from '../../../shared/timeline'
import type { StateCreator } from 'zustand/vanilla'
import { errorMessage } from '../../../shared/error-message'
import type { AxisZone } from '../common/time'
import type { AppState, StoreDeps } from './app-store'

/** The ranges the timeline offers, in hours back from the evaluation instant. */
export const TIMELINE_RANGES = [
  [48, '2 days'],
  [7 * 24, '7 days'],
  [30 * 24, '30 days'],
  [91 * 24, '3 months'],
  [366 * 24, '1 year']
] as const

/** The timeline the view shows, with the name of its findings list (what the next call says it holds). */
export type HeldTimeline = TimelineView & Pick<TimelineAnswer, 'findingsOf'>

export interface FocusedCell {
  readonly start: string
  readonly table: number
}

export interface DeliveriesSlice {
  readonly overview: Overview | null
  readonly timeline: HeldTimeline | null
  readonly rangeHours: number
  readonly zone: AxisZone
  readonly focused: FocusedCell | null
  readonly inspected: HourDetail | null
  readonly severities: Readonly<Record<Severity, boolean>>
  /** Bumped by the menu's zoom commands (n counts them, dir says which way). */
  readonly zoomCommand: { readonly n: number; readonly dir: 1 | -1 }
  /** A finding whose hour is outside the range: jumped to once the wider range has loaded. */
  readonly pendingJump: Finding | null
  /** The rows per delivery of one table over the timeline's range (null until asked, or when the ask failed). */
  readonly volume: TableVolumeView | null
  readonly volumeError: string | null
  /** The open connection's monitor thresholds (null until loaded). */
  readonly monitorThresholds: MonitorThresholdsView | null
  reloadDeliveries(): Promise<void>
  loadMonitorThresholds(): Promise<void>
  /** Saves a table's thresholds (catalog name; null thresholds: the defaults), then shows the findings judged again. */
  setMonitorThresholds(table: string, thresholds: Partial<MonitorThresholds> | null): Promise<void>
  /** Loads `volume` for a table (schema.table) over the range; an answer for a table or range left since is dropped. */
  loadVolume(table: string): Promise<void>
  clearDeliveries(): void
  setRange(hours: number): Promise<void>
  setZone(zone: AxisZone): void
  setFocused(cell: FocusedCell | null): void
  inspect(start: string): Promise<void>
  closeInspector(): void
  /** Widens the range if the hour is older than it, focuses the cell, opens the inspector. */
  jumpTo(finding: Finding): Promise<void>
  setSeverity(severity: Severity, shown: boolean): void
  zoom(dir: 1 | -1): void
}

export const createDeliveriesSlice =
  (deps: StoreDeps): StateCreator<AppState, [], [], DeliveriesSlice> =>
  (set, get) => {
    const { api } = deps
    /** The range's timeline. The findings held are not sent again while main's analysis found the same (findingsOf):
     * a year of them is megabytes, most of what a year's timeline took to cross and parse. */
    const fetchTimeline = async (hours: number): Promise<HeldTimeline> => {
      const held = get().timeline
      const answer = await api.call('timeline', { fromHours: hours, ...(held ? { findingsOf: held.findingsOf } : {}) })
      const now = get().timeline
      const findings = answer.findings ?? (now?.findingsOf === answer.findingsOf ? now.findings : null)
      if (findings !== null) return { ...answer, findings }
      // The list this call named was replaced while it was out: ask again, for the findings too.
      const whole = await api.call('timeline', { fromHours: hours })
      if (whole.findings === null) throw new Error('timeline: main sent no findings to a call that holds none')
      return { ...whole, findings: whole.findings }
    }
    const loadTimeline = async (): Promise<void> => {
      const hours = get().rangeHours
      try {
        const timeline = await fetchTimeline(hours)
        // An answer for a range the user has left since is dropped.
        if (get().rangeHours !== hours) return
        set({ timeline })
        const active = get().connections?.active
        if (active) get().followIncidents(active, timeline)
        const pending = get().pendingJump
        if (pending && timeline.hours.some((h) => Date.parse(h.start) === findingHour(pending))) {
          set({ pendingJump: null })
          await get().jumpTo(pending)
        }
      } catch (e) {
        get().fail(e)
      }
    }
    return {
      overview: null,
      timeline: null,
      rangeHours: 7 * 24,
      zone: 'utc',
      focused: null,
      inspected: null,
      severities: { error: true, warning: true, info: false },
      zoomCommand: { n: 0, dir: 1 },
      pendingJump: null,
      volume: null,
      volumeError: null,
      monitorThresholds: null,
      loadMonitorThresholds: async () => {
        try {
          set({ monitorThresholds: await api.call('monitorThresholds', {}) })
        } catch (e) {
          get().fail(e)
        }
      },
      setMonitorThresholds: async (table, thresholds) => {
        try {
          set({ monitorThresholds: await api.call('monitorSetThresholds', { table, thresholds }) })
        } catch (e) {
          get().fail(e)
          return
        }
        // The timeline, its findings and the chart, judged again (a new timeline reloads the chart).
        await get().reloadDeliveries()
      },
      loadVolume: async (table) => {
        const hours = get().rangeHours
        const stale = (): boolean => get().rangeHours !== hours || `${get().selectedTable.schema}.${get().selectedTable.table}` !== table
        try {
          const volume = await api.call('tableVolume', { table, fromHours: hours })
          if (!stale()) set({ volume, volumeError: null })
        } catch (e) {
          if (!stale()) set({ volume: null, volumeError: errorMessage(e) })
        }
      },
      reloadDeliveries: async () => {
        set({ error: null })
        const overview = api.call('overview', {}).then(
          async (o) => {
            set({ overview: o })
            // Another connection (or the first): its notification setting.
            if (get().follow?.connectionId !== o.connectionId) await get().loadFollow()
            // The overview may have opened the first connection: the list says which is open now.
            await get().loadConnections()
          },
          (e: unknown) => get().fail(e)
        )
        await Promise.all([overview, loadTimeline()])
      },
      clearDeliveries: () =>
        set({ overview: null, timeline: null, inspected: null, focused: null, pendingJump: null, volume: null, volumeError: null, monitorThresholds: null }),
      setRange: async (hours) => {
        set({ rangeHours: hours })
        await loadTimeline()
      },
      setZone: (zone) => set({ zone }),
      setFocused: (cell) => set({ focused: cell }),
      inspect: async (start) => {
        if (!start) return
        try {
          const detail = await api.call('hour', { start })
          set({ inspected: detail })
        } catch (e) {
          get().fail(e)
        }
      },
      closeInspector: () => set({ inspected: null }),
      jumpTo: async (f) => {
        const t = findingHour(f)
        const { timeline, overview, rangeHours } = get()
        if (t === null || !timeline) return
        const idx = timeline.hours.findIndex((h) => Date.parse(h.start) === t)
        if (idx < 0) {
          const needed = TIMELINE_RANGES.find(([h]) => Date.parse(overview?.now ?? '') - t < h * 3_600_000)
          if (needed && needed[0] !== rangeHours) {
            set({ pendingJump: f })
            await get().setRange(needed[0])
          }
          return
        }
        const start = timeline.hours[idx]?.start ?? ''
        const table = Math.max(
          0,
          timeline.tables.findIndex((x) => x.table === f.table)
        )
        set({ focused: { start, table } })
        await get().inspect(start)
      },
      setSeverity: (severity, shown) => set((s) => ({ severities: { ...s.severities, [severity]: shown } })),
      zoom: (dir) => set((s) => ({ zoomCommand: { n: s.zoomCommand.n + 1, dir } }))
    }
  }
