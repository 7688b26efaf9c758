// Builds listings for unit tests: keys with object times, as a provider would report them.
import type { ListedObject } from '../../src/shared/listing'

export function obj(key: string, lastModified = '2026-11-03T03:20:00Z', extra: Partial<ListedObject> = {}): ListedObject {
  return { key, size: 100, lastModified, ...extra }
}

const iso = (t: number): string => new Date(t).toISOString()

/** A ready folder: one Parquet file and _SUCCESS written `minutes` after `hourStart`. */
export function readyFolder(prefix: string, hourStart: number, minutes = 20): ListedObject[] {
  return [obj(`${prefix}part-00000.parquet`, iso(hourStart + (minutes - 2) * 60_000)), obj(`${prefix}_SUCCESS`, iso(hourStart + minutes * 60_000))]
}

export function shuffle<T>(items: readonly T[], seed: number): T[] {
  const out = [...items]
  let s = seed >>> 0
  for (let i = out.length - 1; i > 0; i--) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0
    const j = s % (i + 1)
    ;[out[i], out[j]] = [out[j] as T, out[i] as T]
  }
  return out
}
