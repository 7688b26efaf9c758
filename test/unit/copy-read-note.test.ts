// Which copy a table reads and why, said once for the app's Tables and the CLI's status: an unreadable newest
// copy passed over, archived files to restore, nothing to say for an ordinary table.
import { describe, expect, it } from 'vitest'
import { folderPrefix } from '../../src/shared/bucket-key'
import { copyReadNote } from '../../src/shared/bucket-views'
import { CATALOG } from '../../src/shared/catalog'
import { buildInventory } from '../../src/shared/inventory'
import { readyFolder } from '../helpers/listing'

const T = Date.UTC(2026, 10, 20, 10)
const HOUR = 3_600_000
const d = (t: number): string => new Date(t).toISOString().slice(0, 10)
const h = (t: number): string => new Date(t).toISOString().slice(11, 13)
const FULL = CATALOG.find((c) => c.table === 'claudia_csat')!
const PARTS = CATALOG.find((c) => c.table === 'claudia_messages')!
const v2Marker = { key: 'v2/_manifests/snapshot_date=2026-11-20/snapshot_hour=10/manifest.json', size: 10, lastModified: new Date(T).toISOString() }

describe('copyReadNote', () => {
  it('says nothing of an ordinary table; names the copy read instead of an unreadable newest one', () => {
    const objects = [
      ...readyFolder(folderPrefix(FULL, 'v2', d(T), h(T)), T),
      ...readyFolder(folderPrefix(FULL, 'v2', d(T + HOUR), h(T + HOUR)), T + HOUR),
      v2Marker
    ]
    const inv = buildInventory(objects)
    expect(copyReadNote(inv, FULL, { now: T + 2 * HOUR })).toEqual({ note: null, restorable: false })
    const bad = `${folderPrefix(FULL, 'v2', d(T + HOUR), h(T + HOUR))}part-00000.parquet`
    const r = copyReadNote(inv, FULL, { now: T + 2 * HOUR, unreadable: new Set([bad]) })
    expect(r.restorable).toBe(false)
    expect(r.note).toContain(`the previous readable ready copy ${folderPrefix(FULL, 'v2', d(T), h(T))} is read instead`)
  })

  it('offers a restore where archived files leave a parts table incomplete', () => {
    const prefix = folderPrefix(PARTS, 'v2', d(T), h(T))
    const objects = readyFolder(prefix, T).map((o) => (o.key.endsWith('.parquet') ? { ...o, storageClass: 'GLACIER', size: 2_000_000 } : o))
    const r = copyReadNote(buildInventory([...objects, v2Marker]), PARTS, { now: T + HOUR })
    expect(r).toEqual({ note: '1 archived file (2.0 MB) cannot be read until restored: restore it to complete the table', restorable: true })
  })
})
