// How the mirror brings a keyed table's superseded list up to its segments: kept for the same rows, added to when
// only later folders came, made anew when a folder changed, went, or came late; and a list only fits the exact rows.
import { describe, expect, it } from 'vitest'
import type { MirroredSegment } from '../../src/shared/mirror-plan'
import { MAX_LIST_PARTS, type SupersededList, planSuperseded, rowsDigest, supersededFor, supersededSql } from '../../src/shared/mirror-superseded'

const TABLE = 'datamart_claudia.claudia_messages'
function segment(identity: string, folders: { order: number; identity?: string; leftOut?: string[] }[]): MirroredSegment {
  return {
    table: TABLE,
    period: identity,
    identity,
    file: `segments/${TABLE}/${identity}.parquet`,
    rows: 10,
    bytes: 100,
    columns: ['message_id'],
    types: { message_id: 'VARCHAR' },
    columnSets: [['message_id']],
    folders: folders.map((f) => ({
      prefix: `p${f.order}/`,
      order: f.order,
      readyAt: 0,
      columnSet: 0,
      leftOut: (f.leftOut ?? []).map((key) => ({ key, size: 1, storageClass: null })),
      ...(f.identity ? { identity: f.identity } : {})
    }))
  }
}
const listOf = (segments: MirroredSegment[]): SupersededList => ({
  table: TABLE,
  parts: [{ file: `superseded/${TABLE}/x.parquet`, rows: 1, bytes: 1 }],
  newest: Math.max(...segments.flatMap((s) => s.folders.map((f) => f.order))),
  digest: rowsDigest(segments)
})

describe('superseded lists', () => {
  const day = [
    segment('day', [
      { order: 1, identity: 'a' },
      { order: 2, identity: 'b' }
    ])
  ]
  const list = listOf(day)

  it('keeps a list for the same folders, even when they moved to another segment (hours into a day)', () => {
    const regrouped = [segment('h1', [{ order: 1, identity: 'a' }]), segment('h2', [{ order: 2, identity: 'b' }])]
    expect(planSuperseded(regrouped, list).kind).toBe('keep')
    expect(supersededFor(TABLE, regrouped, [list])).toBe(list)
  })

  it('adds to it when only later folders came: a file of the new versions beside its own, folded at MAX_LIST_PARTS', () => {
    const plan = planSuperseded([...day, segment('h3', [{ order: 3, identity: 'c' }])], list)
    expect(plan).toMatchObject({ kind: 'append', after: 2, newest: 3, fold: false })
    const sql = supersededSql({ keyColumn: 'message_id' }, plan, ['/m/a.parquet', '/m/b.parquet'], ['/m/list.parquet'])!
    // The new file holds the new versions only (the list's own rows stay in its file).
    expect(sql).not.toContain('/m/list.parquet')
    expect(sql).toContain('__ee_order <= 2')
    // The new versions are read from the segments holding the later folders only; the older versions from every segment.
    const newer = supersededSql({ keyColumn: 'message_id' }, plan, ['/m/a.parquet', '/m/h3.parquet'], ['/m/list.parquet'], ['/m/h3.parquet'])!
    const rows = (paths: string[]): string => `read_parquet([${paths.map((p) => `'${p}'`).join(', ')}], union_by_name = true, hive_partitioning = false)`
    expect(newer).toContain(`FROM ${rows(['/m/a.parquet', '/m/h3.parquet'])} WHERE __ee_order <= 2`)
    expect(newer.split(`FROM ${rows(['/m/h3.parquet'])} WHERE`)).toHaveLength(3)
    expect(newer).not.toContain(`FROM ${rows(['/m/a.parquet', '/m/h3.parquet'])} WHERE "message_id" IS NOT NULL`)
    // A list of MAX_LIST_PARTS files: its files and the new versions are written as one.
    const full: SupersededList = {
      ...list,
      parts: Array.from({ length: MAX_LIST_PARTS }, (_, i) => ({ file: `superseded/${TABLE}/p${i}.parquet`, rows: 1, bytes: 1 }))
    }
    const fold = planSuperseded([...day, segment('h3', [{ order: 3, identity: 'c' }])], full)
    expect(fold).toMatchObject({ kind: 'append', fold: true })
    const folded = supersededSql({ keyColumn: 'message_id' }, fold, ['/m/a.parquet'], ['/m/p0.parquet', '/m/p1.parquet'])!
    expect(folded).toContain("FROM read_parquet(['/m/p0.parquet', '/m/p1.parquet']) UNION ")
  })

  it('makes it anew when a folder came late, changed, lost a file to the archive, or went', () => {
    expect(planSuperseded([...day, segment('h0', [{ order: 0, identity: 'z' }])], list).kind).toBe('full')
    expect(
      planSuperseded(
        [
          segment('day', [
            { order: 1, identity: 'a2' },
            { order: 2, identity: 'b' }
          ])
        ],
        list
      ).kind
    ).toBe('full')
    expect(
      planSuperseded(
        [
          segment('day', [
            { order: 1, identity: 'a', leftOut: ['k.parquet'] },
            { order: 2, identity: 'b' }
          ])
        ],
        list
      ).kind
    ).toBe('full')
    expect(planSuperseded([segment('day', [{ order: 2, identity: 'b' }])], list).kind).toBe('full')
    // A later folder came, and an older one changed meanwhile: the older versions the list names are not those any more.
    const changedAndLater = [
      segment('day', [
        { order: 1, identity: 'a2' },
        { order: 2, identity: 'b' }
      ]),
      segment('h3', [{ order: 3, identity: 'c' }])
    ]
    expect(planSuperseded(changedAndLater, list).kind).toBe('full')
    expect(planSuperseded(day, null).kind).toBe('full')
  })

  it('adds only where the folders up to its newest are its own: not when its newest went, even with a later one', () => {
    // The day's digest up to its newest folder is the list's; one bound earlier it is not.
    expect(rowsDigest([...day, segment('h3', [{ order: 3, identity: 'c' }])], 2)).toBe(list.digest)
    expect(rowsDigest(day, 1)).not.toBe(list.digest)
    const newestGone = [segment('day', [{ order: 1, identity: 'a' }]), segment('h3', [{ order: 3, identity: 'c' }])]
    expect(planSuperseded(newestGone, list)).toMatchObject({ kind: 'full', newest: 3 })
  })

  it('names the rows up to a bound as it names those rows alone, whichever it is asked first', () => {
    // Segments in any grouping and order; each digest asked of fresh objects (nothing remembered) and then of the same
    // ones in both orders (the whole digest first, or the bounded one).
    const folders = [1, 2, 3, 5, 8, 13].map((order) => ({ order, identity: `f${order}`, ...(order === 5 ? { leftOut: ['x.parquet'] } : {}) }))
    const grouped = (): MirroredSegment[] => [segment('late', folders.slice(3)), segment('early', folders.slice(0, 3))]
    for (const bound of [0, 1, 3, 4, 8, 13, 20]) {
      const upToBound = folders.filter((f) => f.order <= bound)
      const alone = rowsDigest([segment('early', upToBound)])
      const wholeFirst = grouped()
      const whole = rowsDigest(wholeFirst)
      expect(rowsDigest(wholeFirst, bound)).toBe(alone)
      const boundFirst = grouped()
      expect(rowsDigest(boundFirst, bound)).toBe(alone)
      expect(rowsDigest(boundFirst)).toBe(whole)
      // A list of the folders up to 3 is added to when the bound names the same folders (3, or 4: none came between).
      const list3 = { ...listOf([segment('early', folders.slice(0, 3))]), newest: bound }
      expect(planSuperseded(grouped(), list3).kind).toBe(bound === 3 || bound === 4 ? 'append' : 'full')
    }
  })

  it('fits only the exact rows it was made from', () => {
    expect(supersededFor(TABLE, [segment('day', [{ order: 1, identity: 'a' }])], [list])).toBeNull()
    expect(supersededFor('datamart_claudia.claudia_prompt_revision', day, [list])).toBeNull()
    // A segment built before folders had identities stands for its folders by its own identity.
    const old = [segment('old', [{ order: 1 }])]
    expect(supersededFor(TABLE, old, [listOf(old)])).not.toBeNull()
    expect(supersededFor(TABLE, [segment('rebuilt', [{ order: 1 }])], [listOf(old)])).toBeNull()
  })
})
