// The typed contract between the renderer and main: one entry per call, the same over Electron IPC and
// over the web host's HTTP. Plain data only; never a credential.
import type { Version } from './bucket-key'
import type { CellState, Finding, ManifestState, Severity } from './timeline'

export interface TableStatus {
  readonly schema: string
  readonly table: string
  readonly mode: 'full' | 'parts'
  /** Latest ready copy (full) or newest ready folder (parts): its delivery hour, UTC ISO. */
  readonly newest: string | null
  readonly newestPrefix: string | null
}

export interface Overview {
  readonly location: string
  readonly version: Version
  /** Evaluation instant (UTC ISO). */
  readonly now: string
  /** The newest hour whose manifest is complete. */
  readonly lastCompleteHour: string | null
  readonly tables: readonly TableStatus[]
  readonly findings: Readonly<Record<Severity, number>>
}

export interface TimelineHourView {
  readonly start: string
  readonly era: 'v1' | 'gap' | 'v2'
  readonly manifest: ManifestState | null
  readonly cells: Readonly<Record<string, CellState>>
}

export interface TimelineView {
  readonly tables: readonly { readonly schema: string; readonly table: string }[]
  readonly hours: readonly TimelineHourView[]
  readonly findings: readonly Finding[]
}

export interface HourTable {
  readonly schema: string
  readonly table: string
  readonly state: CellState
  /** The folder this hour's delivery uses (whether or not it exists). */
  readonly prefix: string
  readonly files: readonly { readonly key: string; readonly size: number; readonly lastModified: string; readonly storageClass: string | null }[]
  /** When _SUCCESS was written, or null when there is none. */
  readonly success: string | null
  /** From the manifest, for a parts table. */
  readonly deliveredThrough: string | null
}

export interface HourDetail {
  readonly start: string
  readonly era: 'v1' | 'gap' | 'v2'
  readonly manifest: { readonly key: string | null; readonly state: ManifestState | null; readonly warnings: readonly string[]; readonly raw: string | null } | null
  readonly tables: readonly HourTable[]
  readonly findings: readonly Finding[]
}

/** Each call: its arguments and its result. */
export interface ApiContract {
  overview: { args: Record<string, never>; result: Overview }
  timeline: { args: { fromHours: number }; result: TimelineView }
  hour: { args: { start: string }; result: HourDetail }
}

export type ApiName = keyof ApiContract

/** Checks a call's arguments as they arrive from a renderer (never trusted); returns them or the reason. */
export function validateArgs<N extends ApiName>(name: N, args: unknown): { ok: true; args: ApiContract[N]['args'] } | { ok: false; reason: string } {
  const obj = typeof args === 'object' && args !== null && !Array.isArray(args) ? (args as Record<string, unknown>) : null
  if (!obj) return { ok: false, reason: 'arguments must be an object' }
  if (name === 'overview') return Object.keys(obj).length === 0 ? { ok: true, args: {} as ApiContract[N]['args'] } : { ok: false, reason: 'overview takes no arguments' }
  if (name === 'hour') {
    const start = obj['start']
    return typeof start === 'string' && /^\d{4}-\d{2}-\d{2}T\d{2}:00:00(\.000)?Z$/.test(start) ? { ok: true, args: { start } as ApiContract[N]['args'] } : { ok: false, reason: 'start must be an hour, YYYY-MM-DDTHH:00:00Z' }
  }
  const h = obj['fromHours']
  if (typeof h !== 'number' || !Number.isInteger(h) || h < 1 || h > 24 * 400) return { ok: false, reason: 'fromHours must be a whole number of hours from 1 to 9600' }
  return { ok: true, args: { fromHours: h } as ApiContract[N]['args'] }
}

export const API_NAMES: readonly ApiName[] = ['overview', 'timeline', 'hour']
