// Identity tags name the mirror's segments and the engine's files: the same text must give the same tag, whether it
// is hashed whole or in pieces (a warm start hashes a year's segments without building their text).
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { IdentityHasher, identityTag, objectIdentity } from '../../src/shared/identity-tag'

describe('identity tags', () => {
  it('are the same for text given in pieces as for the pieces joined', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'binary' }), { maxLength: 12 }), (pieces) => {
        const h = new IdentityHasher()
        for (const p of pieces) h.add(p)
        expect(h.tag()).toBe(identityTag(pieces.join('')))
      }),
      { numRuns: 500 }
    )
  })

  it("add an object's identity: its key and ETag, or its size and time without one", () => {
    const withEtag = {
      key: 'v2/a/b/etl_date=2026-11-03/etl_hour=03/part-0.parquet',
      etag: '"9b2cf535f27731c974343645a3985328"',
      size: 7,
      lastModified: '2026-11-03T03:10:00.000Z'
    }
    const without = { key: withEtag.key, size: 7, lastModified: withEtag.lastModified }
    for (const o of [withEtag, without]) expect(new IdentityHasher().add('|').addObject(o).tag()).toBe(identityTag(`|${objectIdentity(o)}`))
    expect(identityTag(objectIdentity(withEtag))).not.toBe(identityTag(objectIdentity(without)))
  })

  it('differ for different text', () => {
    expect(identityTag('a|b')).not.toBe(identityTag('a|c'))
    expect(identityTag('')).toBe(new IdentityHasher().tag())
  })
})
