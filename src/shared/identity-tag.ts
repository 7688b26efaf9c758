// A short, stable name for an identity (an object's key and version, a segment's folders): FNV-1a (53-bit) in
// base 36. Names that must never stand for two different things are built from it.
import type { ListedObject } from './listing'

/** One version of one object: its key and ETag (or size and time where a provider gives no ETag). */
export function objectIdentity(o: Pick<ListedObject, 'key' | 'etag' | 'size' | 'lastModified'>): string {
  return `${o.key}\u0000${o.etag ?? `${o.size}/${o.lastModified}`}`
}

export function identityTag(s: string): string {
  let h1 = 0x811c9dc5
  let h2 = 0x01000193
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    h1 = Math.imul(h1 ^ c, 16777619)
    h2 = Math.imul(h2 ^ c, 2246822519)
  }
  return ((h2 >>> 0) * 2097152 + ((h1 >>> 0) & 0x1fffff)).toString(36)
}
