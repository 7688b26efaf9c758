// The restore plan: which archived files a table (or every table) needs, their bytes and delivery dates, and the
// tier's usual delay per archive class, in the words the user reads before starting; and the calls' argument checks.
import { describe, expect, it } from 'vitest'
import { validateArgs } from '../../src/shared/api/validate-args'
import { buildInventory } from '../../src/shared/inventory'
import { type ListedObject, isArchived } from '../../src/shared/listing'
import { mirroredKeys } from '../../src/shared/mirror-plan'
import { formatBytes } from '../../src/shared/counts'
import { GCS_NO_RESTORE, planRestore } from '../../src/shared/restore-plan'

const NOW = Date.parse('2026-11-20T12:00:00Z')
const day = 86_400_000
const at = (iso: string): string => new Date(iso).toISOString()
const MSGS = 'v1/datamart_claudia/claudia_messages'

function folder(prefix: string, files: Record<string, Partial<ListedObject>>, ready = true): ListedObject[] {
  const out: ListedObject[] = Object.entries(files).map(([name, o]) => ({
    key: `${prefix}/${name}`,
    size: 1000,
    lastModified: at('2026-05-01T08:00:00Z'),
    ...o
  }))
  if (ready) out.push({ key: `${prefix}/_SUCCESS`, size: 0, lastModified: at('2026-05-01T08:10:00Z'), storageClass: 'GLACIER' })
  return out
}

const objects: ListedObject[] = [
  ...folder(`${MSGS}/etl_date=__initial__`, {
    'part-00000.parquet': { storageClass: 'GLACIER', size: 5000 },
    'part-00001.parquet': { storageClass: 'GLACIER', size: 3000 }
  }),
  ...folder(`${MSGS}/etl_date=2026-05-03`, { 'part-00000.parquet': { storageClass: 'DEEP_ARCHIVE', size: 2_000_000 } }),
  // Restored, not expired: readable, nothing to do.
  ...folder(`${MSGS}/etl_date=2026-05-04`, {
    'part-00000.parquet': { storageClass: 'GLACIER', restore: { ongoing: false, expiry: new Date(NOW + day).toISOString() } }
  }),
  // Restored, but the copy expired: archived again.
  ...folder(`${MSGS}/etl_date=2026-05-05`, {
    'part-00000.parquet': { storageClass: 'GLACIER', restore: { ongoing: false, expiry: new Date(NOW - day).toISOString() } }
  }),
  // A restore under way: still archived.
  ...folder(`${MSGS}/etl_date=2026-05-06`, { 'part-00000.parquet': { storageClass: 'GLACIER', restore: { ongoing: true } } }),
  // Not ready: no logical table reads it, so it is never restored.
  ...folder(`${MSGS}/etl_date=2026-05-07`, { 'part-00000.parquet': { storageClass: 'GLACIER' } }, false),
  ...folder(`${MSGS}/etl_date=2026-05-08`, { 'part-00000.parquet': { storageClass: 'STANDARD' } }),
  ...folder('v1/datamart_claudia/claudia_prompt_revision/etl_date=2026-05-03', { 'part-00000.parquet': { storageClass: 'GLACIER', size: 700 } }),
  // GCS classes are read directly.
  ...folder('v1/datamart_cloudchat_saas/cloud_chat_messages/etl_date=2026-05-03', { 'part-00000.parquet': { storageClass: 'COLDLINE', size: 400 } })
]
const inventory = buildInventory(objects, { now: NOW })

describe('the restore plan', () => {
  it("counts the archived files one table's view needs, in delivery order, with bytes and dates", () => {
    const plan = planRestore(inventory, NOW, { table: 'datamart_claudia.claudia_messages', tier: 'Standard', days: 7 })
    expect(plan.files.map((f) => f.key)).toEqual([
      `${MSGS}/etl_date=__initial__/part-00000.parquet`,
      `${MSGS}/etl_date=__initial__/part-00001.parquet`,
      `${MSGS}/etl_date=2026-05-03/part-00000.parquet`,
      `${MSGS}/etl_date=2026-05-05/part-00000.parquet`,
      `${MSGS}/etl_date=2026-05-06/part-00000.parquet`
    ])
    expect([plan.count, plan.bytes]).toEqual([5, 5000 + 3000 + 2_000_000 + 1000 + 1000])
    expect(plan.dates).toEqual(['__initial__', '2026-05-03', '2026-05-05', '2026-05-06'])
    expect(plan.classes).toEqual([
      { storageClass: 'GLACIER', name: 'Glacier Flexible Retrieval', count: 4, bytes: 10_000, delay: '3–5 hours' },
      { storageClass: 'DEEP_ARCHIVE', name: 'Glacier Deep Archive', count: 1, bytes: 2_000_000, delay: 'within 12 hours' }
    ])
    expect(plan.problem).toBeNull()
    expect(plan.summary).toBe(
      'Restores 5 archived files (2.0 MB) that datamart_claudia.claudia_messages needs, delivered __initial__, 2026-05-03, 2026-05-05, 2026-05-06. ' +
        'Standard retrieval usually takes 3–5 hours for 4 files in Glacier Flexible Retrieval; within 12 hours for 1 file in Glacier Deep Archive. ' +
        "S3 keeps each restored copy readable for 7 days; the app copies the parts tables' files into its local mirror as soon as they are restored, so they never need restoring again."
    )
  })

  it('gives each tier its usual delay, and refuses Expedited for Deep Archive, saying what to choose', () => {
    const bulk = planRestore(inventory, NOW, { table: 'datamart_claudia.claudia_messages', tier: 'Bulk', days: 1 })
    expect(bulk.classes.map((c) => c.delay)).toEqual(['5–12 hours', 'within 48 hours'])
    const fast = planRestore(inventory, NOW, { table: 'datamart_claudia.claudia_messages', tier: 'Expedited', days: 1 })
    expect(fast.classes.map((c) => c.delay)).toEqual(['1–5 minutes', null])
    expect(fast.problem).toBe(
      '1 file is in Glacier Deep Archive, which has no Expedited retrieval: choose Standard (within 12 hours) or Bulk (within 48 hours).'
    )
    const glacierOnly = planRestore(inventory, NOW, { table: 'datamart_claudia.claudia_prompt_revision', tier: 'Expedited', days: 1 })
    expect([glacierOnly.count, glacierOnly.problem, glacierOnly.summary]).toEqual([
      1,
      null,
      expect.stringContaining('Expedited retrieval usually takes 1–5 minutes for 1 file in Glacier Flexible Retrieval')
    ])
  })

  it('covers every table at once, and counts the GCS classes apart: read directly, never restored', () => {
    const all = planRestore(inventory, NOW, { table: null, tier: 'Standard', days: 2 })
    expect(all.count).toBe(6)
    expect(new Set(all.files.map((f) => f.table))).toEqual(new Set(['datamart_claudia.claudia_messages', 'datamart_claudia.claudia_prompt_revision']))
    expect(all.readDirectly).toEqual({ count: 1, bytes: 400 })
    expect(all.summary).toContain('that any table needs')
    expect(GCS_NO_RESTORE).toMatch(/need no restore \(retrieval fees may apply\)/)
  })

  it('says when there is nothing to restore or the table is unknown, and the days out of range', () => {
    const none = planRestore(inventory, NOW, { table: 'datamart_cloudchat_saas.cloud_chat_messages', tier: 'Standard', days: 2 })
    expect([none.count, none.problem]).toEqual([0, 'Nothing to restore: no file datamart_cloudchat_saas.cloud_chat_messages reads is archived.'])
    expect(planRestore(inventory, NOW, { table: 'x.y', tier: 'Standard', days: 2 }).problem).toMatch(/not a table of the catalog/)
    expect(planRestore(inventory, NOW, { table: null, tier: 'Standard', days: 0 }).problem).toMatch(/from 1 to 365 days/)
  })

  it('counts a finished, unexpired restore as readable, as every rule asking isArchived does', () => {
    const o = (restore?: ListedObject['restore'], storageClass = 'GLACIER'): ListedObject => ({
      key: 'k',
      size: 1,
      lastModified: at('2026-05-01T00:00:00Z'),
      storageClass,
      ...(restore ? { restore } : {})
    })
    expect(isArchived(o(), NOW)).toBe(true)
    expect(isArchived(o({ ongoing: true }), NOW)).toBe(true)
    expect(isArchived(o({ ongoing: false, expiry: new Date(NOW + 1).toISOString() }), NOW)).toBe(false)
    expect(isArchived(o({ ongoing: false, expiry: new Date(NOW).toISOString() }), NOW)).toBe(true)
    expect(isArchived(o(undefined, 'ARCHIVE'), NOW)).toBe(false)
  })

  it('never asks again for a file the local mirror holds (restored once and mirrored, even once its copy expired)', () => {
    const held = mirroredKeys(inventory, [
      {
        table: 'datamart_claudia.claudia_messages',
        period: 'v1-2026-05',
        identity: 'x',
        file: 'f',
        rows: 1,
        bytes: 1,
        columns: [],
        types: {},
        columnSets: [],
        folders: [
          { prefix: `${MSGS}/etl_date=2026-05-05/`, order: 1, readyAt: 0, columnSet: 0, leftOut: [] },
          {
            prefix: `${MSGS}/etl_date=2026-05-03/`,
            order: 1,
            readyAt: 0,
            columnSet: 0,
            leftOut: [{ key: `${MSGS}/etl_date=2026-05-03/part-00000.parquet`, size: 1, storageClass: 'DEEP_ARCHIVE', reason: 'archived' }]
          }
        ]
      }
    ])
    expect([...held]).toEqual([`${MSGS}/etl_date=2026-05-05/part-00000.parquet`])
    const plan = planRestore(inventory, NOW, { table: 'datamart_claudia.claudia_messages', tier: 'Standard', days: 7 }, held)
    expect(plan.files.map((f) => f.key)).not.toContain(`${MSGS}/etl_date=2026-05-05/part-00000.parquet`)
    expect(plan.count).toBe(4)
  })

  it('writes sizes as the notes do', () => {
    expect([formatBytes(999), formatBytes(12_345), formatBytes(2_000_000), formatBytes(3.21e9)]).toEqual(['999 B', '12.3 KB', '2.0 MB', '3.2 GB'])
  })
})

describe('the restore calls check their arguments', () => {
  it('accepts a table or null, a tier and whole days; refuses the rest with why', () => {
    expect(validateArgs('restorePlan', { table: 'datamart_claudia.claudia_messages', tier: 'Bulk', days: 30 }).ok).toBe(true)
    expect(validateArgs('restoreStart', { table: null, tier: 'Expedited', days: 1 }).ok).toBe(true)
    expect(validateArgs('restoreStatus', {}).ok).toBe(true)
    const reason = (args: unknown): string | undefined => {
      const r = validateArgs('restoreStart', args)
      return r.ok ? undefined : r.reason
    }
    expect(reason({ table: "x'; DROP", tier: 'Bulk', days: 1 })).toMatch(/table must be null/)
    expect(reason({ table: null, tier: 'Fast', days: 1 })).toMatch(/tier must be one of Expedited, Standard, Bulk/)
    expect(reason({ table: null, tier: 'Bulk', days: 1.5 })).toMatch(/days must be a whole number from 1 to 365/)
    expect(reason({ table: null, tier: 'Bulk', days: 1, keys: ['a'] })).toMatch(/unexpected argument keys/)
    expect(validateArgs('restoreStatus', { x: 1 }).ok).toBe(false)
  })
})
