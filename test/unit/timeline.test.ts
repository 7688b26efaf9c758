// Cell states, manifest states and findings at their boundaries (40 minutes, 3 hours, 6 hours, 7 days).
import { describe, expect, it } from 'vitest'
import { folderPrefix, manifestKey } from '../../src/shared/bucket-key'
import { CATALOG, qualifiedName } from '../../src/shared/catalog'
import { buildInventory } from '../../src/shared/inventory'
import type { ListedObject } from '../../src/shared/listing'
import { FIRST_V2_DELIVERY, LAST_V1_DELIVERY } from '../../src/shared/schedule'
import { type ManifestText, analyzeTimeline } from '../../src/shared/timeline'
import { obj, readyFolder } from '../helpers/listing'

const MIN = 60_000
const HOUR = 60 * MIN
const DAY = 24 * HOUR
const d = (t: number): string => new Date(t).toISOString().slice(0, 10)
const h = (t: number): string => new Date(t).toISOString().slice(11, 13)
const T = Date.UTC(2026, 10, 20, 10) // an ordinary v2 hour
const TABLE = CATALOG.find((c) => c.table === 'claudia_csat')!
const PARTS = CATALOG.find((c) => c.table === 'cloud_chat_messages')!

interface HourSpec {
  /** Tables left out of the folders. */
  skip?: string[]
  /** Tables whose folder has no _SUCCESS. */
  noMarker?: string[]
  markerMinutes?: number
  manifest?: 'none' | Record<string, unknown> | string
}

function manifestBody(at: number, missing: string[] = [], pending: string[] = [], over: Record<string, unknown> = {}): Record<string, unknown> {
  const absent = new Set([...missing, ...pending])
  return {
    snapshot_date: d(at),
    snapshot_hour: h(at),
    complete: absent.size === 0,
    tables_delivered: CATALOG.filter((c) => !absent.has(c.table)).map((c) => ({
      schema: c.schema,
      table: c.table,
      path: folderPrefix(c, 'v2', d(at), h(at)),
      files: 1,
      ...(c.mode === 'parts' ? { delivered_through: new Date(at - 2000).toISOString() } : {})
    })),
    tables_missing: CATALOG.filter((c) => missing.includes(c.table)).map(qualifiedName),
    tables_pending: CATALOG.filter((c) => pending.includes(c.table)).map(qualifiedName),
    ...over
  }
}

function hour(at: number, spec: HourSpec = {}): { objects: ListedObject[]; texts: [string, ManifestText][] } {
  const objects: ListedObject[] = []
  for (const c of CATALOG) {
    if (spec.skip?.includes(c.table)) continue
    const files = readyFolder(folderPrefix(c, 'v2', d(at), h(at)), at, spec.markerMinutes ?? 20)
    objects.push(...(spec.noMarker?.includes(c.table) ? files.slice(0, 1) : files))
  }
  const texts: [string, ManifestText][] = []
  if (spec.manifest !== 'none') {
    const key = manifestKey('v2', d(at), h(at))
    objects.push(obj(key))
    const m = spec.manifest ?? manifestBody(at, spec.skip)
    texts.push([key, typeof m === 'string' ? m : JSON.stringify(m)])
  }
  return { objects, texts }
}

function analyze(hours: ReturnType<typeof hour>[], now: number, range: { from?: number; to?: number; unreadable?: ReadonlySet<string> } = {}) {
  const inv = buildInventory(hours.flatMap((x) => x.objects))
  return analyzeTimeline(inv, new Map(hours.flatMap((x) => x.texts)), {
    now,
    from: range.from ?? T,
    to: range.to,
    ...(range.unreadable ? { unreadable: range.unreadable } : {})
  })
}

const cell = (tl: ReturnType<typeof analyze>, at: number, table: string): string | undefined => tl.hours.find((x) => x.start === at)?.cells[table]
const kinds = (tl: ReturnType<typeof analyze>): string[] => tl.findings.map((f) => `${f.kind}:${f.table ?? '-'}`)

describe('cell states', () => {
  it('ready when _SUCCESS came within 40 minutes; late after', () => {
    expect(cell(analyze([hour(T, { markerMinutes: 40 })], T + 2 * HOUR), T, TABLE.table)).toBe('ready')
    const late = analyze([hour(T, { markerMinutes: 41 })], T + 2 * HOUR)
    expect(cell(late, T, TABLE.table)).toBe('late')
    const f = late.findings.find((x) => x.kind === 'late' && x.table === TABLE.table)
    expect(f).toMatchObject({ severity: 'warning', key: `${folderPrefix(TABLE, 'v2', d(T), h(T))}_SUCCESS` })
    expect(f?.message).toMatch(/41 min after the hour began/)
  })

  it('not_due before the 40-minute mark, missing after it', () => {
    const empty = { objects: [], texts: [] }
    expect(cell(analyze([empty], T + 39 * MIN), T, TABLE.table)).toBe('not_due')
    const tl = analyze([empty], T + 41 * MIN)
    expect(cell(tl, T, TABLE.table)).toBe('missing')
    expect(tl.hours[0]?.manifest).toBe('absent')
    expect(kinds(tl)).toContain('manifest_absent:-')
    expect(tl.findings.filter((x) => x.kind === 'missing')).toHaveLength(CATALOG.length)
  })

  it('in_flight without _SUCCESS for under 3 hours, failed from 3 hours on', () => {
    // No manifest yet: the folder alone decides (a manifest listing it missing would decide instead).
    const x = hour(T, { noMarker: [TABLE.table], manifest: 'none' })
    expect(cell(analyze([x], T + 3 * HOUR - 1), T, TABLE.table)).toBe('in_flight')
    const tl = analyze([x], T + 3 * HOUR)
    expect(cell(tl, T, TABLE.table)).toBe('failed')
    expect(tl.findings.find((f) => f.kind === 'failed')).toMatchObject({ table: TABLE.table, severity: 'error', key: folderPrefix(TABLE, 'v2', d(T), h(T)) })
  })

  it('pending when the manifest says so; reported when not caught up within 6 hours', () => {
    const first = hour(T, { skip: [PARTS.table], manifest: manifestBody(T, [], [PARTS.table]) })
    // Caught up 6 hours later: fine.
    const at6 = T + 6 * HOUR
    const ok = analyze([first, hour(at6)], at6 + HOUR, { to: T })
    expect(cell(ok, T, PARTS.table)).toBe('pending')
    expect(kinds(ok)).toEqual([])
    // Only 7 hours later: reported.
    const at7 = T + 7 * HOUR
    const slow = analyze([first, hour(at7)], at7 + HOUR, { to: T })
    expect(kinds(slow)).toEqual([`pending_not_caught_up:${PARTS.table}`])
    // Not caught up and 6 hours not yet passed: nothing to report yet.
    expect(kinds(analyze([first], T + 6 * HOUR - 1, { to: T }))).toEqual([])
    expect(kinds(analyze([first], T + 6 * HOUR, { to: T }))).toEqual([`pending_not_caught_up:${PARTS.table}`])
  })

  it('missing when the manifest lists it missing: the manifest confirms, never explains away', () => {
    const tl = analyze([hour(T, { skip: [TABLE.table], manifest: manifestBody(T, [TABLE.table]) })], T + HOUR)
    expect(cell(tl, T, TABLE.table)).toBe('missing')
    expect(tl.hours[0]?.manifest).toBe('incomplete')
    expect(tl.findings.find((f) => f.kind === 'missing')?.message).toMatch(/lists it in tables_missing/)
  })

  it('pruned only for a full table older than 7 days with a later copy that day', () => {
    const early = Date.UTC(2026, 10, 20, 5)
    const last = Date.UTC(2026, 10, 20, 23)
    // The manifest lists it delivered; retention removed it later.
    const hours = [hour(early, { skip: [TABLE.table], manifest: manifestBody(early) }), hour(last)]
    const now8days = last + 8 * DAY
    expect(cell(analyze(hours, now8days, { from: early, to: early }), early, TABLE.table)).toBe('pruned')
    // A parts table is never pruned.
    const parts = analyze([hour(early, { skip: [PARTS.table], manifest: manifestBody(early) }), hour(last)], now8days, { from: early, to: early })
    expect(cell(parts, early, PARTS.table)).toBe('missing')
    // Within 7 days the same gap is missing.
    expect(cell(analyze(hours, early + 6 * DAY, { from: early, to: early }), early, TABLE.table)).toBe('missing')
    // The last hour of the day has no later copy: missing, even when old.
    const noLater = analyze([hour(last, { skip: [TABLE.table], manifest: manifestBody(last) })], now8days, { from: last, to: last })
    expect(cell(noLater, last, TABLE.table)).toBe('missing')
  })

  it('no_delivery for v1 hours other than 07:00 and for the switch gap', () => {
    const tl = analyze([], FIRST_V2_DELIVERY + 2 * HOUR, { from: LAST_V1_DELIVERY - HOUR })
    expect(cell(tl, LAST_V1_DELIVERY - HOUR, TABLE.table)).toBe('no_delivery')
    expect(cell(tl, LAST_V1_DELIVERY, TABLE.table)).toBe('missing')
    for (let t = LAST_V1_DELIVERY + HOUR; t < FIRST_V2_DELIVERY; t += HOUR) expect(cell(tl, t, TABLE.table)).toBe('no_delivery')
    expect(cell(tl, FIRST_V2_DELIVERY, TABLE.table)).toBe('missing')
    expect(tl.hours.find((x) => x.start === LAST_V1_DELIVERY + HOUR)).toMatchObject({ era: 'gap', manifest: null })
  })
})

describe('manifest findings', () => {
  it('malformed manifest: reported, and the folders still decide the cells', () => {
    const tl = analyze([hour(T, { manifest: '{"snapshot_date": "2026-' })], T + HOUR)
    expect(tl.hours[0]?.manifest).toBe('malformed')
    expect(kinds(tl)).toEqual(['manifest_malformed:-'])
    expect(cell(tl, T, TABLE.table)).toBe('ready')
  })

  it('mismatch when the manifest disagrees with the folders', () => {
    const body = manifestBody(T, [TABLE.table])
    const tl = analyze([hour(T, { manifest: body })], T + HOUR)
    expect(tl.findings.find((f) => f.kind === 'manifest_mismatch')?.message).toMatch(/lists datamart_claudia.claudia_csat as not delivered, yet .* is ready/)
    const files = manifestBody(T)
    ;(files['tables_delivered'] as Record<string, unknown>[])[0]!['files'] = 3
    expect(analyze([hour(T, { manifest: files })], T + HOUR).findings.find((f) => f.kind === 'manifest_mismatch')?.message).toMatch(
      /says .* has 3 files, but .* holds 1 Parquet file\./
    )
    const silent = manifestBody(T)
    silent['tables_delivered'] = (silent['tables_delivered'] as { table: string }[]).filter((e) => e.table !== TABLE.table)
    expect(kinds(analyze([hour(T, { manifest: silent })], T + HOUR))).toEqual([`manifest_mismatch:${TABLE.table}`])
  })

  it('delivered_through more than 2 hours behind its hour', () => {
    const lagging = (minutes: number) => {
      const body = manifestBody(T)
      for (const e of body['tables_delivered'] as Record<string, unknown>[])
        if (e['table'] === PARTS.table) e['delivered_through'] = new Date(T - minutes * MIN).toISOString()
      return kinds(analyze([hour(T, { manifest: body })], T + HOUR))
    }
    expect(lagging(120)).toEqual([])
    expect(lagging(121)).toEqual([`delivered_through_lag:${PARTS.table}`])
  })
})

describe('messages a person reads', () => {
  it('say durations in days, hours and minutes, and times without ISO punctuation', () => {
    // An hour without a manifest and a folder without _SUCCESS, seen 9,650 minutes later: "6 days 16 h".
    const tl = analyze([hour(T, { manifest: 'none', noMarker: [TABLE.table] })], T + 9650 * MIN)
    const absent = tl.findings.find((f) => f.kind === 'manifest_absent')?.message
    expect(absent).toMatch(/No manifest at .*, 6 days 16 h after the hour began\./)
    expect(tl.findings.find((f) => f.kind === 'failed')?.message).toMatch(/has no _SUCCESS 6 days 16 h after its hour began/)
    const body = manifestBody(T)
    for (const e of body['tables_delivered'] as Record<string, unknown>[])
      if (e['table'] === PARTS.table) e['delivered_through'] = new Date(T - 200 * MIN).toISOString()
    const lag = analyze([hour(T, { manifest: body })], T + HOUR).findings.find((f) => f.kind === 'delivered_through_lag')?.message
    expect(lag).toContain(
      `delivered only through ${new Date(T - 200 * MIN).toISOString().slice(0, 19).replace('T', ' ')} UTC, 3 h 20 min before its hour began`
    )
    for (const f of [...tl.findings, ...analyze([hour(T, { manifest: body })], T + HOUR).findings]) {
      expect(f.message).not.toMatch(/\d+ minutes|\d+ hours|\(s\)|\d{4}-\d\d-\d\dT\d/)
    }
  })
})

describe('objects and keys', () => {
  it('archived files of a logical table are reported until a restore finishes', () => {
    const x = hour(T)
    const key = `${folderPrefix(TABLE, 'v2', d(T), h(T))}part-00000.parquet`
    const withClass = (extra: Partial<ListedObject>) => ({ ...x, objects: x.objects.map((o) => (o.key === key ? { ...o, ...extra } : o)) })
    expect(kinds(analyze([withClass({ storageClass: 'GLACIER' })], T + HOUR))).toEqual([`archived:${TABLE.table}`])
    expect(kinds(analyze([withClass({ storageClass: 'DEEP_ARCHIVE', restore: { ongoing: true } })], T + HOUR))).toEqual([`archived:${TABLE.table}`])
    expect(kinds(analyze([withClass({ storageClass: 'GLACIER', restore: { ongoing: false, expiry: new Date(T + DAY).toISOString() } })], T + HOUR))).toEqual([])
    expect(kinds(analyze([withClass({ storageClass: 'GLACIER_IR' })], T + HOUR))).toEqual([])
    // An archived copy that is no longer the latest is not needed by the logical table.
    expect(kinds(analyze([withClass({ storageClass: 'GLACIER' }), hour(T + HOUR)], T + 2 * HOUR))).toEqual([])
  })

  it('keys that break the layout and stray files are listed, not hidden', () => {
    const x = hour(T)
    x.objects.push(
      obj('v2/datamart_claudia/claudia_csat/snapshot_date=2026-11-20/snapshot_hour=7/part.parquet'),
      obj(`${folderPrefix(TABLE, 'v2', d(T), h(T))}notes.txt`)
    )
    const tl = analyze([x], T + HOUR)
    const ignored = tl.findings.filter((f) => f.kind === 'ignored_key')
    expect(ignored.map((f) => f.key).sort()).toEqual([
      `${folderPrefix(TABLE, 'v2', d(T), h(T))}notes.txt`,
      'v2/datamart_claudia/claudia_csat/snapshot_date=2026-11-20/snapshot_hour=7/part.parquet'
    ])
    expect(ignored.every((f) => f.severity === 'info')).toBe(true)
    expect(ignored.find((f) => f.key.endsWith('part.parquet'))?.message).toMatch(/not an hour/)
  })

  it('a v1 folder dated after the switch is off schedule', () => {
    const at = Date.UTC(2026, 10, 5, 7)
    const tl = analyze([{ objects: readyFolder(folderPrefix(TABLE, 'v1', d(at), null), at), texts: [] }], at + HOUR, { from: at, to: at })
    expect(kinds(tl)).toContain(`off_schedule:${TABLE.table}`)
  })
})

describe('the rules to the letter', () => {
  it('--now T: a _SUCCESS written after T does not exist yet (no "late" from the future, no catching up from the future)', () => {
    const now = T + 39 * MIN + 59_000
    // _SUCCESS at 10:55, after now: at 10:39:59 the folder is still in flight, not late.
    const x = hour(T)
    const marker = `${folderPrefix(TABLE, 'v2', d(T), h(T))}_SUCCESS`
    x.objects = x.objects.map((o) => (o.key === marker ? { ...o, lastModified: new Date(T + 55 * MIN).toISOString() } : o))
    const tl = analyze([x], now)
    expect(cell(tl, T, TABLE.table)).toBe('in_flight')
    expect(kinds(tl)).toEqual([])
    // Pending at T, caught up at T+8h, evaluated at T+7h: not caught up yet, and the finding says so.
    const first = hour(T, { skip: [PARTS.table], manifest: manifestBody(T, [], [PARTS.table]) })
    const at8 = T + 8 * HOUR
    const early = analyze([first, hour(at8)], T + 7 * HOUR, { to: T })
    expect(early.findings.find((f) => f.kind === 'pending_not_caught_up')?.message).toMatch(/no later hour has delivered it yet/)
  })

  it("nothing is due before the export's first delivery hour", () => {
    const firstHour = Date.UTC(2026, 10, 20, 14)
    const tl = analyze([hour(firstHour)], firstHour + HOUR, { from: Date.UTC(2026, 10, 20, 0) })
    expect(tl.hours[0]?.start).toBe(Date.UTC(2026, 10, 20, 0))
    for (let t = Date.UTC(2026, 10, 20, 0); t < firstHour; t += HOUR) {
      expect(cell(tl, t, TABLE.table)).toBe('no_delivery')
      expect(tl.hours.find((x) => x.start === t)?.manifest).toBeNull()
    }
    expect(cell(tl, firstHour, TABLE.table)).toBe('ready')
    expect(kinds(tl)).toEqual([])
  })

  it('every manifest warning is a finding with the hour and the manifest key', () => {
    const key = manifestKey('v2', d(T), h(T))
    const body = manifestBody(T, [PARTS.table])
    body['complete'] = true
    ;(body['tables_pending'] as string[]).push(qualifiedName(TABLE))
    ;(body['tables_delivered'] as unknown[]).push('datamart_claudia.claudia_experimental')
    const tl = analyze([hour(T, { skip: [PARTS.table], manifest: body })], T + HOUR)
    const mine = tl.findings.filter((f) => f.kind === 'manifest_contradiction' || f.kind === 'manifest_warning')
    expect(mine.map((f) => [f.kind, f.severity, f.date, f.hour, f.table, f.key])).toEqual([
      ['manifest_contradiction', 'warning', d(T), h(T), null, key],
      ['manifest_warning', 'warning', d(T), h(T), null, key],
      ['manifest_contradiction', 'warning', d(T), h(T), TABLE.table, key],
      ['manifest_contradiction', 'warning', d(T), h(T), TABLE.table, key]
    ])
    expect(mine.map((f) => f.message).join('\n')).toMatch(
      /complete is true.*\n.*claudia_experimental" is not a table of the catalog.*\n.*tables_pending lists .*claudia_csat, which is delivered in full.*\n.*listed in both tables_delivered and tables_pending/
    )
    expect(tl.hours[0]?.manifest).toBe('incomplete')
    // The full table it lists both delivered and pending is ready: its folder is read, the manifest is wrong.
    expect(cell(tl, T, TABLE.table)).toBe('ready')
  })

  it('a table the manifest lists delivered while its folder is absent is a manifest_mismatch beside the missing cell', () => {
    const tl = analyze([hour(T, { skip: [TABLE.table], manifest: manifestBody(T) })], T + HOUR)
    expect(cell(tl, T, TABLE.table)).toBe('missing')
    expect(kinds(tl).sort()).toEqual([`manifest_mismatch:${TABLE.table}`, `missing:${TABLE.table}`])
    expect(tl.findings.find((f) => f.kind === 'manifest_mismatch')).toMatchObject({
      key: manifestKey('v2', d(T), h(T)),
      message: expect.stringMatching(/lists .*claudia_csat as delivered, but .* does not exist/)
    })
  })

  it("the manifest's word beats a folder in flight, and the finding names the partial folder", () => {
    const prefix = folderPrefix(TABLE, 'v2', d(T), h(T))
    const x = hour(T, { noMarker: [TABLE.table], manifest: manifestBody(T, [TABLE.table]) })
    const tl = analyze([x], T + 50 * MIN)
    expect(cell(tl, T, TABLE.table)).toBe('missing')
    const f = tl.findings.find((y) => y.kind === 'missing')
    expect(f).toMatchObject({ table: TABLE.table, key: prefix })
    expect(f?.message).toMatch(/has no _SUCCESS/)
    // A parts table the manifest lists pending: pending, whatever its partial folder.
    const p = hour(T, { noMarker: [PARTS.table], manifest: manifestBody(T, [], [PARTS.table]) })
    expect(cell(analyze([p], T + 50 * MIN), T, PARTS.table)).toBe('pending')
    // Without a manifest, the folder alone decides: in flight.
    expect(cell(analyze([hour(T, { noMarker: [TABLE.table], manifest: 'none' })], T + 50 * MIN), T, TABLE.table)).toBe('in_flight')
  })

  it('a ready full copy without a Parquet file is a finding (empty_copy)', () => {
    const x = hour(T)
    const prefix = folderPrefix(TABLE, 'v2', d(T), h(T))
    x.objects = x.objects.filter((o) => o.key !== `${prefix}part-00000.parquet`)
    const body = manifestBody(T)
    for (const e of body['tables_delivered'] as Record<string, unknown>[]) if (e['table'] === TABLE.table) e['files'] = 0
    x.texts = [[manifestKey('v2', d(T), h(T)), JSON.stringify(body)]]
    const tl = analyze([x], T + HOUR)
    expect(cell(tl, T, TABLE.table)).toBe('empty')
    expect(tl.findings.map((f) => [f.kind, f.severity, f.key])).toEqual([['empty_copy', 'warning', prefix]])
    // A parts folder without a file is an hour in which nothing arrived: no finding.
    const y = hour(T)
    y.objects = y.objects.filter((o) => o.key !== `${folderPrefix(PARTS, 'v2', d(T), h(T))}part-00000.parquet`)
    const pb = manifestBody(T)
    for (const e of pb['tables_delivered'] as Record<string, unknown>[]) if (e['table'] === PARTS.table) e['files'] = 0
    y.texts = [[manifestKey('v2', d(T), h(T)), JSON.stringify(pb)]]
    expect(kinds(analyze([y], T + HOUR))).toEqual([])
  })
})

describe('one verdict per copy, resolved from the whole history', () => {
  const fileOf = (c: typeof TABLE, at: number): string => `${folderPrefix(c, 'v2', d(at), h(at))}part-00000.parquet`
  const finding = (tl: ReturnType<typeof analyze>, kind: string, at: number, table: string | null = TABLE.table) =>
    tl.findings.find((f) => f.kind === kind && f.table === table && f.date === d(at) && f.hour === h(at))

  it('a ready folder says what a reader gets: unreadable, then archived, then empty, then late', () => {
    const late = hour(T, { markerMinutes: 50 })
    const archive = (x: ReturnType<typeof hour>) => ({
      ...x,
      objects: x.objects.map((o) => (o.key === fileOf(TABLE, T) ? { ...o, storageClass: 'GLACIER' } : o))
    })
    const now = T + 2 * HOUR
    expect(cell(analyze([late], now), T, TABLE.table)).toBe('late')
    expect(cell(analyze([archive(late)], now), T, TABLE.table)).toBe('archived')
    expect(cell(analyze([archive(late)], now, { unreadable: new Set([fileOf(TABLE, T)]) }), T, TABLE.table)).toBe('unreadable')
    // A parts table's unreadable file is left out: its cell says so too.
    expect(cell(analyze([hour(T)], now, { unreadable: new Set([fileOf(PARTS, T)]) }), T, PARTS.table)).toBe('unreadable')
    const noFile = { ...late, objects: late.objects.filter((o) => o.key !== fileOf(TABLE, T)) }
    expect(cell(analyze([noFile], now), T, TABLE.table)).toBe('empty')
    // Still a delivered folder for the manifest's check: no "lists it delivered, but it does not exist".
    expect(kinds(analyze([archive(late)], now)).filter((k) => k.startsWith('manifest_mismatch'))).toEqual([])
  })

  it("a full table's missing hour is superseded by the next copy it reads, whatever the window shows", () => {
    const hours = [hour(T, { skip: [TABLE.table] }), hour(T + HOUR), hour(T + 2 * HOUR)]
    const unreadable = new Set([fileOf(TABLE, T + HOUR)])
    const now = T + 3 * HOUR
    // The next hour's copy cannot be read: the one after it is the copy the table reads instead.
    expect(finding(analyze(hours, now, { unreadable }), 'missing', T)?.resolved).toEqual({ how: 'superseded', at: T + 2 * HOUR })
    expect(finding(analyze(hours, now, { unreadable, from: T - 3 * DAY }), 'missing', T)?.resolved).toEqual({ how: 'superseded', at: T + 2 * HOUR })
    expect(finding(analyze(hours, now), 'missing', T)?.resolved).toEqual({ how: 'superseded', at: T + HOUR })
    // The newest hour missing: nothing supersedes it yet.
    expect(finding(analyze([hour(T), hour(T + HOUR, { skip: [TABLE.table] })], T + 2 * HOUR), 'missing', T + HOUR)?.resolved).toBeNull()
    // An unreadable copy the table no longer needs (a later one is read) is no finding.
    expect(finding(analyze(hours, now, { unreadable }), 'corrupt_file', T + HOUR)).toBeUndefined()
  })

  it('what a table leaves out now is said whatever the range: an archived file of a month ago', () => {
    const x = hour(T)
    const key = fileOf(PARTS, T)
    const archived = { ...x, objects: x.objects.map((o) => (o.key === key ? { ...o, storageClass: 'GLACIER' } : o)) }
    const tl = analyze([archived, hour(T + 30 * DAY)], T + 30 * DAY + HOUR, { from: T + 30 * DAY })
    expect(tl.findings.filter((f) => f.kind === 'archived').map((f) => [f.key, f.date, f.resolved])).toEqual([[key, d(T), null]])
    expect(tl.findings.find((f) => f.kind === 'archived')?.message).toMatch(/lacks the rows of that file until then\. Restore it \(Tables → Restore…/)
  })

  it("a parts table's missing hour is caught up only by a later delivery whose delivered_through reaches it", () => {
    const missing = hour(T, { skip: [PARTS.table], manifest: manifestBody(T, [PARTS.table]) })
    const lagging = (at: number, through: number) => {
      const body = manifestBody(at)
      for (const e of body['tables_delivered'] as Record<string, unknown>[])
        if (e['table'] === PARTS.table) e['delivered_through'] = new Date(through).toISOString()
      return hour(at, { manifest: body })
    }
    const now = T + 3 * HOUR
    // The next delivery stops before the missing hour: its rows are not in.
    expect(finding(analyze([missing, lagging(T + HOUR, T - HOUR)], now), 'missing', T, PARTS.table)?.resolved).toBeNull()
    expect(finding(analyze([missing, lagging(T + HOUR, T - HOUR), lagging(T + 2 * HOUR, T + HOUR)], now), 'missing', T, PARTS.table)?.resolved).toEqual({
      how: 'caught_up',
      at: T + 2 * HOUR
    })
    // Without a manifest to say so, nothing says its rows came: open.
    expect(finding(analyze([missing, { ...hour(T + HOUR, { manifest: 'none' }) }], now), 'missing', T, PARTS.table)?.resolved).toBeNull()
  })

  it('nothing for 6 hours or more is one feed_stopped, open while it lasts and resolved when deliveries resume', () => {
    const now = T + 8 * HOUR
    const stopped = analyze([hour(T)], now)
    expect(kinds(stopped)).toEqual(['feed_stopped:-'])
    const f = stopped.findings[0]
    expect(f).toMatchObject({ severity: 'error', date: d(T + HOUR), hour: h(T + HOUR), resolved: null })
    expect(f?.message).toContain(`after the delivery of ${d(T)} ${h(T)}:00 UTC`)
    expect(f?.message).toContain('7 delivery hours')
    // The cells still say missing: the timeline shows each hour as it is.
    expect(cell(stopped, T + 4 * HOUR, TABLE.table)).toBe('missing')
    const resumed = analyze([hour(T), hour(T + 8 * HOUR)], now + HOUR)
    expect(resumed.findings.find((x) => x.kind === 'feed_stopped')?.resolved).toEqual({ how: 'resumed', at: T + 8 * HOUR })
    expect(kinds(resumed).filter((k) => k.startsWith('missing'))).toEqual([])
    // Five silent hours are not a stopped feed: each table and hour is its own finding.
    const short = analyze([hour(T), hour(T + 6 * HOUR)], T + 6 * HOUR + 50 * MIN)
    expect(kinds(short)).not.toContain('feed_stopped:-')
    expect(short.findings.filter((x) => x.kind === 'missing')).toHaveLength(5 * CATALOG.length)
  })
})
