// Identity tags name the mirror's segments and the engine's files: the same text must give the same tag, whether it
// is hashed whole or in pieces (a warm start hashes a year's segments without building their text).
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { IdentityHasher, identityTag, objectIdentity } from '../../src/shared/identity-tag'
import { buildInventory } from '../../src/shared/inventory'
import type { ListedObject } from '../../src/shared/listing'
import { type SegmentFolder, folderIdentity, planTableSegments } from '../../src/shared/mirror-plan'

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

  it("name a mirror segment by its folders' lines, as segments built by earlier versions were named (else a year is compacted again)", () => {
    const objects: ListedObject[] = [
      { key: 'v2/_manifests/snapshot_date=2026-11-03/snapshot_hour=03/manifest.json', size: 1, lastModified: '2026-11-03T03:00:00.000Z' }
    ]
    for (let h = 0; h < 60; h++) {
      const at = new Date(Date.UTC(2026, 10, 3, 3) + h * 3_600_000).toISOString()
      const dir = `v2/datamart_claudia/claudia_messages/etl_date=${at.slice(0, 10)}/etl_hour=${at.slice(11, 13)}/`
      objects.push({ key: `${dir}_SUCCESS`, size: 0, lastModified: at, ...(h % 3 ? { etag: `"m${h}"` } : {}) })
      for (let f = 0; f < h % 4; f++)
        objects.push({
          key: `${dir}part-${f}.parquet`,
          size: 10 + f,
          lastModified: at,
          ...(h % 2 ? { etag: `"e${h}-${f}"` } : {}),
          // An archived file is left out of its folder's rows, and named in its line.
          ...(h % 7 === 0 && f === 0 ? { storageClass: 'GLACIER' } : {})
        })
    }
    const line = (f: SegmentFolder): string =>
      `${f.folder.ref.prefix}|${objectIdentity(f.folder.marker as ListedObject)}|${f.files.map((x) => objectIdentity(x.object)).join('|')}|${f.leftOut.map(objectIdentity).join('|')}`
    const plans = planTableSegments(buildInventory(objects), { schema: 'datamart_claudia', table: 'claudia_messages' }, Date.UTC(2026, 10, 5, 12))
    expect(plans.length).toBeGreaterThan(1)
    expect(plans.some((p) => p.folders.some((f) => f.leftOut.length > 0))).toBe(true)
    for (const p of plans) {
      expect(p.identity).toBe(identityTag(p.folders.map(line).join('\n')))
      for (const f of p.folders) expect(folderIdentity(f)).toBe(identityTag(line(f)))
    }
  })
})
