// A short, stable name for an identity (an object's key and version, a segment's folders): FNV-1a (53-bit) in
// base 36. Names that must never stand for two different things are built from it.
import type { ListedObject } from './listing'

/** One version of one object: its key and ETag (or size and time where a provider gives no ETag). */
export function objectIdentity(o: Pick<ListedObject, 'key' | 'etag' | 'size' | 'lastModified'>): string {
  return `${o.key}\u0000${o.etag ?? `${o.size}/${o.lastModified}`}`
}

/**
 * identityTag of text given in pieces: the same tag as of the pieces joined, without building the joined text (a
 * year's segments describe 17,500 objects at every warm start, issue 23).
 */
export class IdentityHasher {
  private h1 = 0x811c9dc5
  private h2 = 0x01000193

  add(s: string): this {
    let h1 = this.h1
    let h2 = this.h2
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i)
      h1 = Math.imul(h1 ^ c, 16777619)
      h2 = Math.imul(h2 ^ c, 2246822519)
    }
    this.h1 = h1
    this.h2 = h2
    return this
  }

  /** Adds objectIdentity(o). */
  addObject(o: Pick<ListedObject, 'key' | 'etag' | 'size' | 'lastModified'>): this {
    return this.add(o.key)
      .add('\u0000')
      .add(o.etag ?? `${o.size}/${o.lastModified}`)
  }

  tag(): string {
    return ((this.h2 >>> 0) * 2097152 + ((this.h1 >>> 0) & 0x1fffff)).toString(36)
  }
}

export function identityTag(s: string): string {
  return new IdentityHasher().add(s).tag()
}
