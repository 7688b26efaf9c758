// The incremental export's rules: which folders are new since a cursor, the bucket seen through some folders, the
// cursor after a run, the watch's hours, and a damaged cursor read as none.
import { describe, expect, it } from 'vitest'
import { CATALOG } from '../../src/shared/catalog'
import {
  cursorAfter,
  cursorMismatch,
  decodeCursor,
  defaultCursorName,
  foldersByHour,
  hourFileStem,
  incrementalPlan,
  inventoryWith
} from '../../src/shared/incremental-export'
import { buildInventory, readyPartsFolders } from '../../src/shared/inventory'
import { obj, readyFolder } from '../helpers/listing'

const HOUR = 3_600_000
const T0 = Date.parse('2026-11-10T03:00:00Z')
const messages = CATALOG.find((t) => t.table === 'claudia_messages')!
const conversation = CATALOG.find((t) => t.table === 'claudia_conversation')!
const mp = (h: number): string => `v2/datamart_claudia/claudia_messages/etl_date=2026-11-10/etl_hour=${String(3 + h).padStart(2, '0')}/`
const cp = (h: number): string => `v2/datamart_claudia/claudia_conversation/snapshot_date=2026-11-10/snapshot_hour=${String(3 + h).padStart(2, '0')}/`
/** The new folders' prefixes of a parts table's plan. */
const freshOf = (p: ReturnType<typeof incrementalPlan>): string[] => (p.mode === 'parts' ? p.fresh.map((f) => f.ref.prefix) : [])
const manifest = obj('v2/_manifests/snapshot_date=2026-11-03/snapshot_hour=03/manifest.json')

/** A v2 bucket with `n` hours of claudia_messages and claudia_conversation, plus the v1 history of messages. */
function bucket(n: number) {
  const objects = [manifest, ...readyFolder('v1/datamart_claudia/claudia_messages/etl_date=__initial__/', T0 - 30 * 24 * HOUR)]
  for (let h = 0; h < n; h++) objects.push(...readyFolder(mp(h), T0 + h * HOUR), ...readyFolder(cp(h), T0 + h * HOUR))
  return buildInventory(objects)
}

describe('folders new since a cursor', () => {
  it('the first run takes every ready folder; the next only those it has not exported, in delivery order', () => {
    const first = incrementalPlan(bucket(3), messages, null)
    expect(first.mode === 'parts' && first.first && first.fresh.length).toBe(4)
    const cursor = cursorAfter(null, first, messages, null, T0)
    const again = incrementalPlan(bucket(3), messages, cursor)
    expect(again.mode === 'parts' && again.fresh.length).toBe(0)
    const later = incrementalPlan(bucket(6), messages, cursor)
    if (later.mode !== 'parts') throw new Error('parts')
    expect(later.first).toBe(false)
    expect(later.fresh.map((f) => f.ref.prefix)).toEqual([mp(3), mp(4), mp(5)])
    expect(later.exported).toHaveLength(4)
  })

  it('a folder without _SUCCESS is not new until it is ready; an hour that lands late is new when it does', () => {
    const cursor = cursorAfter(null, incrementalPlan(bucket(2), messages, null), messages, null, T0)
    const inFlight = buildInventory([...bucket(2).objects, obj(`${mp(2)}part-0.parquet`)])
    expect(freshOf(incrementalPlan(inFlight, messages, cursor))).toEqual([])
    // Hour 4 landed before hour 3: both are new, whatever the order they came in.
    const skipped = buildInventory([...bucket(2).objects, ...readyFolder(mp(3), T0 + 3 * HOUR)])
    const c2 = cursorAfter(cursor, incrementalPlan(skipped, messages, cursor), messages, null, T0)
    const late = buildInventory([...skipped.objects, ...readyFolder(mp(2), T0 + 4 * HOUR)])
    expect(freshOf(incrementalPlan(late, messages, c2))).toEqual([mp(2)])
  })

  it('a full table: the latest ready copy when newer than the one exported last, else nothing', () => {
    const first = incrementalPlan(bucket(2), conversation, null)
    expect(first.mode === 'full' && first.copy?.ref.prefix).toBe(cp(1))
    const cursor = cursorAfter(null, first, conversation, null, T0)
    expect(cursor.folders).toEqual([cp(1)])
    const none = incrementalPlan(bucket(2), conversation, cursor)
    expect(none.mode === 'full' && none.copy).toBeNull()
    expect(cursorAfter(cursor, none, conversation, null, T0).folders).toEqual([cp(1)])
    const newer = incrementalPlan(bucket(5), conversation, cursor)
    expect(newer.mode === 'full' && newer.copy?.ref.prefix).toBe(cp(4))
  })
})

describe('the bucket seen through some folders', () => {
  it('keeps only those folders of the table, every other object (the version, other tables) as it is', () => {
    const inv = bucket(4)
    const keep = readyPartsFolders(inv, messages).slice(-2)
    const seen = inventoryWith(inv, messages, keep)
    expect(readyPartsFolders(seen, messages).map((f) => f.ref.prefix)).toEqual([mp(2), mp(3)])
    expect(seen.version).toBe('v2')
    expect(incrementalPlan(seen, conversation, null)).toMatchObject({ copy: { ref: { prefix: cp(3) } } })
  })
})

describe('cursors', () => {
  it('the default identity is the table and the filter, never the output file', () => {
    expect(defaultCursorName(messages, null)).not.toBe(defaultCursorName(messages, 'tokens > 3'))
    expect(defaultCursorName(messages, null)).not.toBe(defaultCursorName(conversation, null))
  })

  it('a named cursor of another table or filter is refused, with what it follows', () => {
    const c = cursorAfter(null, incrementalPlan(bucket(1), messages, null), messages, 'tokens > 3', T0)
    expect(cursorMismatch(c, messages, 'tokens > 3', 'n')).toBeNull()
    expect(cursorMismatch(c, messages, null, 'n')).toMatch(/"n" follows datamart_claudia.claudia_messages where tokens > 3/)
    expect(cursorMismatch(c, conversation, 'tokens > 3', 'n')).toMatch(/not datamart_claudia.claudia_conversation/)
  })

  it('what is not a cursor is a problem (the file then counts as damaged), never a cursor', () => {
    expect(decodeCursor({ table: 'x', where: null, folders: ['a/'], movedAt: 'now' }).problems).toEqual([])
    for (const bad of [{}, { table: 'x', where: 3, folders: [], movedAt: '' }, { table: 'x', where: null, folders: ['no-slash'], movedAt: '' }, 'text']) {
      const d = decodeCursor(bad)
      expect(d.cursor).toBeNull()
      expect(d.problems).toHaveLength(1)
    }
  })
})

describe("a watch's hours", () => {
  it('groups new folders by delivery hour, oldest first, named <date>T<hour>', () => {
    const plan = incrementalPlan(bucket(3), messages, null)
    const groups = foldersByHour(plan.mode === 'parts' ? plan.fresh : [])
    expect(groups.map((g) => hourFileStem(g.hour))).toEqual(['initial', '2026-11-10T03', '2026-11-10T04', '2026-11-10T05'])
  })
})
