import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { folderPrefix, manifestKey, parseKey, parseKeyInFull } from '../../src/shared/bucket-key'

describe('parseKey: the layout', () => {
  it('reads a v2 full-table file with its date and hour as strings', () => {
    const r = parseKey('v2/datamart_claudia/claudia_conversation/snapshot_date=2026-11-03/snapshot_hour=03/part-0.parquet')
    expect(r).toMatchObject({
      kind: 'data',
      file: 'part-0.parquet',
      folder: {
        version: 'v2',
        schema: 'datamart_claudia',
        table: 'claudia_conversation',
        mode: 'full',
        partition: { kind: 'snapshot', date: '2026-11-03', hour: '03' },
        prefix: 'v2/datamart_claudia/claudia_conversation/snapshot_date=2026-11-03/snapshot_hour=03/'
      }
    })
  })

  it('reads v1 daily folders, __initial__ and v2 hourly parts folders', () => {
    expect(parseKey('v1/datamart_claudia/claudia_conversation/snapshot_date=2026-10-30/_SUCCESS')).toMatchObject({
      kind: 'marker',
      folder: { version: 'v1', partition: { kind: 'snapshot', date: '2026-10-30', hour: null } }
    })
    expect(parseKey('v1/datamart_claudia/claudia_messages/etl_date=__initial__/a.parquet')).toMatchObject({
      kind: 'data',
      folder: { partition: { kind: 'etl', date: '__initial__', hour: null, initial: true } }
    })
    expect(parseKey('v1/datamart_claudia/claudia_messages/etl_date=2026-11-02/a.parquet')).toMatchObject({
      kind: 'data',
      folder: { partition: { kind: 'etl', date: '2026-11-02', hour: null, initial: false } }
    })
    expect(parseKey('v2/datamart_cloudchat_saas/cloud_chat_messages/etl_date=2026-11-03/etl_hour=23/_SUCCESS')).toMatchObject({
      kind: 'marker',
      folder: { mode: 'parts', partition: { date: '2026-11-03', hour: '23' } }
    })
  })

  it('reads manifest keys of both versions', () => {
    expect(parseKey('v2/_manifests/snapshot_date=2026-11-03/snapshot_hour=03/manifest.json')).toEqual({
      kind: 'manifest',
      key: 'v2/_manifests/snapshot_date=2026-11-03/snapshot_hour=03/manifest.json',
      version: 'v2',
      date: '2026-11-03',
      hour: '03'
    })
    expect(parseKey('v1/_manifests/snapshot_date=2026-11-02/manifest.json')).toMatchObject({ kind: 'manifest', version: 'v1', hour: null })
    expect(parseKey('v2/_manifests/snapshot_date=2026-11-03/manifest.json').kind).toBe('unrecognized')
    expect(parseKey('v2/_manifests/snapshot_date=2026-11-03/snapshot_hour=03/other.json').kind).toBe('unrecognized')
  })

  it('ignores, and says so, files that are neither Parquet nor _SUCCESS', () => {
    const r = parseKey('v2/datamart_claudia/claudia_csat/snapshot_date=2026-11-03/snapshot_hour=03/part-0.parquet.crc')
    expect(r.kind).toBe('ignored')
    if (r.kind === 'ignored') expect(r.reason).toMatch(/not a Parquet file/)
  })

  it('never reads names starting with _ or . (Spark and Hive readers skip them), and says so', () => {
    const folder = 'v2/datamart_claudia/claudia_messages/etl_date=2026-11-03/etl_hour=03/'
    for (const name of ['_tmp.parquet', '.part-0.parquet', '_SUCCESS.crc', '.DS_Store']) {
      const r = parseKey(`${folder}${name}`)
      expect(r.kind, name).toBe('ignored')
      if (r.kind === 'ignored') expect(r.reason).toMatch(/starts with "[_.]"/)
    }
    expect(parseKey(`${folder}_SUCCESS`).kind).toBe('marker')
    expect(parseKey(`${folder}part_0.parquet`).kind).toBe('data')
  })

  it('keeps tables the catalog does not know, flagged as unknown', () => {
    const r = parseKey('v2/datamart_claudia/claudia_new_table/snapshot_date=2026-11-03/snapshot_hour=03/x.parquet')
    expect(r).toMatchObject({ kind: 'data', folder: { catalog: undefined, mode: 'full' } })
  })

  it('treats folder placeholders as directories, not objects', () => {
    expect(parseKey('v2/datamart_claudia/').kind).toBe('directory')
  })

  it.each([
    ['v3/datamart_claudia/claudia_csat/snapshot_date=2026-11-03/snapshot_hour=03/a.parquet', /outside v1\/ and v2\//],
    ['v2/datamart_claudia/claudia_messages/etl_date=__initial__/a.parquet', /only in v1/],
    ['v2/datamart_claudia/claudia_csat/snapshot_date=2026-02-30/snapshot_hour=03/a.parquet', /not a date/],
    ['v2/datamart_claudia/claudia_csat/snapshot_date=2026-11-03/snapshot_hour=24/a.parquet', /not an hour/],
    ['v2/datamart_claudia/claudia_csat/snapshot_date=2026-11-03/snapshot_hour=3/a.parquet', /not an hour/],
    ['v2/datamart_claudia/claudia_csat/snapshot_date=2026-11-03/a.parquet', /needs snapshot_hour/],
    ['v2/datamart_claudia/claudia_messages/snapshot_date=2026-11-03/snapshot_hour=03/a.parquet', /delivered in parts/],
    ['v2/datamart_claudia/claudia_csat/etl_date=2026-11-03/etl_hour=03/a.parquet', /delivered in full/],
    ['v2/datamart_claudia/claudia_csat/snapshot_date=2026-11-03/snapshot_hour=03/sub/a.parquet', /nested deeper/],
    ['v2/datamart_claudia//claudia_csat/snapshot_date=2026-11-03/snapshot_hour=03/a.parquet', /empty path segment/],
    ['v2/datamart_claudia/claudia_csat/snapshot_date=2026-11-03/snapshot_hour=03/a\u0000.parquet', /control characters/],
    ['v2/datamart_claudia/claudia_csat/date=2026-11-03/a.parquet', /not a snapshot_date= or etl_date=/],
    ['README.md', /outside v1\/ and v2\//]
  ])('reports %s as unrecognised, with the reason', (key, reason) => {
    const r = parseKey(key)
    expect(r.kind).toBe('unrecognized')
    if (r.kind === 'unrecognized') expect(r.reason).toMatch(reason)
  })

  it('never throws, whatever the key', () => {
    const segment = fc.oneof(
      fc.constantFrom(
        'v1',
        'v2',
        '_manifests',
        'datamart_claudia',
        'claudia_messages',
        'etl_date=__initial__',
        'snapshot_date=2026-11-03',
        'snapshot_hour=07',
        'etl_hour=00',
        '_SUCCESS',
        'a.parquet',
        ''
      ),
      fc.string()
    )
    fc.assert(
      fc.property(fc.array(segment, { maxLength: 8 }), (segs) => {
        const r = parseKey(segs.join('/'))
        expect(['data', 'marker', 'ignored', 'manifest', 'directory', 'unrecognized']).toContain(r.kind)
      }),
      { numRuns: 2000 }
    )
  })

  it('gives a key the same answer whatever key came before it (a folder is parsed once, then reused)', () => {
    const folder = 'v2/datamart_claudia/claudia_messages/etl_date=2026-11-03/etl_hour=07/'
    const file = fc.oneof(fc.constantFrom('_SUCCESS', 'a.parquet', '.crc', 'x.csv', 'sub/a.parquet', 'a\u0000.parquet', ''), fc.string())
    const key = fc.oneof(
      file.map((f) => folder + f),
      file.map((f) => `v2/datamart_claudia/claudia_conversation/etl_date=2026-11-03/etl_hour=07/${f}`),
      fc.string()
    )
    fc.assert(
      fc.property(fc.array(key, { minLength: 1, maxLength: 6 }), (keys) => {
        const inSequence = keys.map((k) => parseKey(k))
        // Each key again, right after a key of a folder none of them is in (nothing to reuse).
        const elsewhere = 'v1/s/t/etl_date=2020-01-01/a.parquet'
        expect(parseKey(elsewhere).kind).toBe('data')
        const alone = keys.map((k) => (parseKey(elsewhere), parseKey(k)))
        expect(inSequence).toEqual(alone)
      }),
      { numRuns: 1000 }
    )
  })

  it('reads a folder of the same table from its partition alone only where the full parse gives the same', () => {
    // A key of each kind of folder, then keys near it one after the other: the same table's prefix, their partition
    // mostly right, sometimes broken in a known way or anyhow (so most keys break it in one or two places). Each is
    // parsed as a listing gives it, after the keys before it, and held to the full parse (which remembers nothing).
    const before = fc.constantFrom(
      'v2/datamart_claudia/claudia_messages/etl_date=2026-11-03/etl_hour=07/a.parquet',
      'v2/datamart_claudia/claudia_csat/snapshot_date=2026-11-03/snapshot_hour=07/_SUCCESS',
      'v1/datamart_claudia/claudia_messages/etl_date=2026-11-03/a.parquet',
      'v1/datamart_claudia/claudia_csat/snapshot_date=2026-11-03/a.parquet',
      'v2/datamart_claudia/claudia_conversation/snapshot_date=2026-11-03/snapshot_hour=07/a.parquet',
      'v2/some_schema/unknown_table/snapshot_date=2026-11-03/snapshot_hour=07/a.parquet',
      'v1/datamart_claudia/claudia_messages/etl_date=__initial__/a.parquet'
    )
    const part = (right: string[], broken: string[]): fc.Arbitrary<string> =>
      fc.oneof(
        { weight: 12, arbitrary: fc.constantFrom(...right) },
        { weight: 3, arbitrary: fc.constantFrom(...broken) },
        { weight: 1, arbitrary: fc.string({ maxLength: 4 }) }
      )
    // Each a key near the folder given.
    const near = fc
      .tuple(
        // Another table: a name as long, or one that starts with the last one's (the shortcut must not read either).
        part(['same'], ['as long', 'longer']),
        part(['etl', 'snapshot'], ['date', 'etl_', 'Etl']),
        part(['2026-11-04', '2026-12-31'], ['2026-02-30', '2026-1-03', '2026-11-03\u0000', '', '__initial__', '2026-11-033']),
        part(['/'], ['', 'x/', '_']),
        fc.option(
          fc.tuple(
            part(['etl', 'snapshot'], ['x', '', 'Etl', 'Snapshot']),
            part(['00', '08', '23'], ['24', '3', '7\n', '', '0a', '071']),
            part(['/'], ['', 'x/', '-'])
          ),
          {
            freq: 2
          }
        ),
        part(['a.parquet', '_SUCCESS'], ['.crc', 'x.csv', 'sub/a.parquet', 'a\u007f.parquet', '', 'b/'])
      )
      .map(([same, kind, date, afterDate, hour, file]) => (b: string): string => {
        const own = b.split('/').slice(0, 3).join('/')
        const table = same === 'same' ? own : same === 'longer' ? `${own}_feedback` : own.replace(/.$/, (c) => (c === 'x' ? 'y' : 'x'))
        return `${table}/${kind}_date=${date}${afterDate}${hour ? `${hour[0]}_hour=${hour[1]}${hour[2]}` : ''}${file}`
      })
    fc.assert(
      fc.property(before, fc.array(near, { minLength: 1, maxLength: 6 }), (b, nears) => {
        parseKey(b)
        for (const k of nears.map((keyNear) => keyNear(b))) expect(parseKey(k)).toEqual(parseKeyInFull(k))
      }),
      { numRuns: 3000 }
    )
  })

  it('builds the keys it parses', () => {
    const t = { schema: 'datamart_claudia', table: 'claudia_messages', mode: 'parts' as const }
    expect(parseKey(`${folderPrefix(t, 'v2', '2026-11-05', '09')}x.parquet`)).toMatchObject({
      kind: 'data',
      folder: { partition: { date: '2026-11-05', hour: '09' } }
    })
    expect(parseKey(manifestKey('v2', '2026-11-05', '09'))).toMatchObject({ kind: 'manifest', date: '2026-11-05', hour: '09' })
    expect(parseKey(manifestKey('v1', '2026-11-01', null))).toMatchObject({ kind: 'manifest', version: 'v1', hour: null })
  })
})
