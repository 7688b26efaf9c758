// The rule for files that are not readable Parquet (issue 12 item 10): a full table's copy holding one is passed
// over for the previous readable ready copy; a parts folder is read without it; each is a corrupt_file finding.
import { describe, expect, it } from 'vitest'
import { unreadableNote, objectsForViews } from '../../src/shared/bucket-views'
import { folderPrefix } from '../../src/shared/bucket-key'
import { CATALOG, type CatalogTable } from '../../src/shared/catalog'
import { buildInventory, foldersForLogicalTable, latestReady, readyPartsFolders, unreadableLeftOut } from '../../src/shared/inventory'
import type { ListedObject } from '../../src/shared/listing'
import { analyzeTimeline } from '../../src/shared/timeline'
import { obj } from '../helpers/listing'

const MIN = 60_000
const HOUR = 60 * MIN
const d = (t: number): string => new Date(t).toISOString().slice(0, 10)
const h = (t: number): string => new Date(t).toISOString().slice(11, 13)
const iso = (t: number): string => new Date(t).toISOString()
const table = (name: string): CatalogTable => CATALOG.find((t) => t.table === name) as CatalogTable
const CSAT = table('claudia_csat')
const MSGS = table('claudia_messages')
const T = Date.UTC(2026, 10, 20, 10)

/** A ready v2 folder of a table at an hour, with the named Parquet files. */
function folder(t: CatalogTable, at: number, files: string[]): ListedObject[] {
  const prefix = folderPrefix(t, 'v2', d(at), h(at))
  return [...files.map((f) => obj(`${prefix}${f}`, iso(at + 10 * MIN))), obj(`${prefix}_SUCCESS`, iso(at + 20 * MIN))]
}
const key = (t: CatalogTable, at: number, file: string): string => `${folderPrefix(t, 'v2', d(at), h(at))}${file}`
const manifests = (ats: number[]): ListedObject[] =>
  ats.map((at) => obj(`v2/_manifests/snapshot_date=${d(at)}/snapshot_hour=${h(at)}/manifest.json`, iso(at + 25 * MIN)))

describe('a full table whose newest ready copy holds an unreadable file', () => {
  const objects = [
    ...manifests([T - 2 * HOUR]),
    ...folder(CSAT, T - 2 * HOUR, ['a.parquet']),
    ...folder(CSAT, T - HOUR, ['a.parquet', 'b.parquet']),
    ...folder(CSAT, T, ['a.parquet'])
  ]
  const inv = buildInventory(objects)

  it('reads the previous readable ready copy, and says which copies it passed over and why', () => {
    const unreadable = new Set([key(CSAT, T, 'a.parquet')])
    expect(latestReady(inv, CSAT)?.ref.prefix).toBe(folderPrefix(CSAT, 'v2', d(T), h(T)))
    expect(latestReady(inv, CSAT, { unreadable })?.ref.prefix).toBe(folderPrefix(CSAT, 'v2', d(T - HOUR), h(T - HOUR)))
    expect(unreadableLeftOut(inv, CSAT, { unreadable }).copies.map((c) => [c.folder.ref.prefix, c.files.map((o) => o.key)])).toEqual([
      [folderPrefix(CSAT, 'v2', d(T), h(T)), [key(CSAT, T, 'a.parquet')]]
    ])
    expect(unreadableNote(inv, CSAT, { unreadable })).toBe(
      `datamart_claudia.claudia_csat: its newest ready copy ${folderPrefix(CSAT, 'v2', d(T), h(T))} holds a file that is not readable Parquet (${key(CSAT, T, 'a.parquet')}); ` +
        `the previous readable ready copy ${folderPrefix(CSAT, 'v2', d(T - HOUR), h(T - HOUR))} is read instead. Ask the vendor to deliver it again.`
    )
    // What another engine is given to rebuild the views holds no file of the copy passed over.
    expect(objectsForViews(inv, { unreadable }).some((o) => o.key.startsWith(folderPrefix(CSAT, 'v2', d(T), h(T))))).toBe(false)
  })

  it('passes over every newer copy holding one, down to the newest readable (one bad file of two is enough)', () => {
    const unreadable = new Set([key(CSAT, T, 'a.parquet'), key(CSAT, T - HOUR, 'b.parquet')])
    expect(foldersForLogicalTable(inv, CSAT, { unreadable }).map((f) => f.ref.prefix)).toEqual([folderPrefix(CSAT, 'v2', d(T - 2 * HOUR), h(T - 2 * HOUR))])
    expect(unreadableLeftOut(inv, CSAT, { unreadable }).copies.map((c) => c.folder.ref.partition.hour)).toEqual([h(T), h(T - HOUR)])
    expect(unreadableNote(inv, CSAT, { unreadable })).toMatch(/its 2 newest ready copies \(the newest .*snapshot_hour=10\/\) hold files/)
  })

  it('with no readable ready copy has no view, and says so rather than "no folder holds _SUCCESS"', () => {
    const unreadable = new Set([key(CSAT, T, 'a.parquet'), key(CSAT, T - HOUR, 'a.parquet'), key(CSAT, T - 2 * HOUR, 'a.parquet')])
    expect(foldersForLogicalTable(inv, CSAT, { unreadable })).toEqual([])
    expect(unreadableNote(inv, CSAT, { unreadable })).toMatch(/its 3 newest ready copies .* no ready copy is readable, so it has no view/)
  })

  it('an unreadable file in an older copy changes nothing: the newest copy is read and nothing is said', () => {
    const unreadable = new Set([key(CSAT, T - HOUR, 'b.parquet')])
    expect(latestReady(inv, CSAT, { unreadable })?.ref.partition.hour).toBe(h(T))
    expect(unreadableNote(inv, CSAT, { unreadable })).toBeNull()
  })
})

describe('a parts table with an unreadable file', () => {
  const objects = [...manifests([T - HOUR]), ...folder(MSGS, T - HOUR, ['a.parquet']), ...folder(MSGS, T, ['a.parquet', 'b.parquet'])]
  const inv = buildInventory(objects)
  const unreadable = new Set([key(MSGS, T, 'a.parquet')])

  it('reads its folder without that file, and names exactly that file', () => {
    expect(readyPartsFolders(inv, MSGS, { unreadable }).map((f) => f.dataFiles.map((o) => o.key))).toEqual([
      [key(MSGS, T - HOUR, 'a.parquet')],
      [key(MSGS, T, 'b.parquet')]
    ])
    expect(unreadableLeftOut(inv, MSGS, { unreadable }).files.map((o) => o.key)).toEqual([key(MSGS, T, 'a.parquet')])
    expect(unreadableNote(inv, MSGS, { unreadable })).toBe(
      `datamart_claudia.claudia_messages: 1 file is not readable Parquet and is left out: ${key(MSGS, T, 'a.parquet')}; its rows are not in the table, ` +
        'and a message_id whose newest version is in it shows an older version or none. Ask the vendor to deliver it again.'
    )
    // The folder is still read (its other file), so the folder's marker stays among the views' objects.
    expect(objectsForViews(inv, { unreadable }).map((o) => o.key)).toContain(key(MSGS, T, 'b.parquet'))
    expect(objectsForViews(inv, { unreadable }).map((o) => o.key)).not.toContain(key(MSGS, T, 'a.parquet'))
  })
})

describe('corrupt_file findings', () => {
  const objects = [
    ...manifests([T - HOUR]),
    ...folder(CSAT, T - HOUR, ['a.parquet']),
    ...folder(CSAT, T, ['a.parquet']),
    ...folder(MSGS, T, ['a.parquet', 'b.parquet'])
  ]
  const inv = buildInventory(objects)

  it('one per unreadable file a logical table needs (error, its hour, table and key), none without the set', () => {
    const unreadable = new Set([key(CSAT, T, 'a.parquet'), key(MSGS, T, 'b.parquet')])
    const tl = analyzeTimeline(inv, new Map(), { now: T + 2 * HOUR, from: T - HOUR, unreadable })
    const corrupt = tl.findings.filter((f) => f.kind === 'corrupt_file')
    expect(corrupt.map((f) => [f.severity, f.date, f.hour, f.table, f.key])).toEqual([
      ['error', d(T), h(T), CSAT.table, key(CSAT, T, 'a.parquet')],
      ['error', d(T), h(T), MSGS.table, key(MSGS, T, 'b.parquet')]
    ])
    expect(corrupt[0]?.message).toMatch(/is not a readable Parquet file .* the previous readable ready copy .*snapshot_hour=09\/ is read instead/)
    // Each names its own file and what its table does without it, not the table's whole list (a year of them was 38 MB).
    expect(corrupt[1]?.message).toBe(
      `${key(MSGS, T, 'b.parquet')} is not a readable Parquet file (cut short, or its footer or pages are damaged). datamart_claudia.claudia_messages ` +
        `leaves it out: its rows are not in the table, and a message_id whose newest version is in it shows an older version or none. Ask the vendor to deliver it again.`
    )
    expect(analyzeTimeline(inv, new Map(), { now: T + 2 * HOUR, from: T - HOUR }).findings.some((f) => f.kind === 'corrupt_file')).toBe(false)
  })

  it('an unreadable file no logical table reads (an older full copy) is no finding', () => {
    const tl = analyzeTimeline(inv, new Map(), { now: T + 2 * HOUR, from: T - HOUR, unreadable: new Set([key(CSAT, T - HOUR, 'a.parquet')]) })
    expect(tl.findings.filter((f) => f.kind === 'corrupt_file')).toEqual([])
  })
})
