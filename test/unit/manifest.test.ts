import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { parseManifest } from '../../src/shared/manifest'

const at = { version: 'v2' as const, date: '2026-11-03', hour: '03' }

// The example of DESIGN.md, as the vendor writes it.
const example = {
  snapshot_date: '2026-11-03',
  snapshot_hour: '03',
  complete: false,
  tables_delivered: [
    {
      schema: 'datamart_claudia',
      table: 'claudia_conversation',
      mode: 'full',
      path: 'v2/datamart_claudia/claudia_conversation/snapshot_date=2026-11-03/snapshot_hour=03/',
      format: 'parquet',
      files: 2,
      rows: 18250
    },
    {
      schema: 'datamart_claudia',
      table: 'claudia_messages',
      mode: 'parts',
      path: 'v2/datamart_claudia/claudia_messages/etl_date=2026-11-03/etl_hour=03/',
      format: 'parquet',
      files: 1,
      rows: 912,
      delivered_through: '2026-11-03T02:59:58Z'
    }
  ],
  tables_missing: ['datamart_cloudchat_saas.cloud_chat_tags'],
  tables_pending: ['datamart_cloudchat_saas.cloud_chat_messages']
}

describe('parseManifest', () => {
  it('reads the vendor example', () => {
    const r = parseManifest(JSON.stringify(example), at)
    expect(r.state).toBe('incomplete')
    expect(r.warnings).toEqual([])
    expect(r.manifest?.snapshotHour).toBe('03')
    expect(r.manifest?.delivered.map((e) => e.name)).toEqual(['datamart_claudia.claudia_conversation', 'datamart_claudia.claudia_messages'])
    expect(r.manifest?.delivered[1]).toMatchObject({ files: 1, rows: 912, deliveredThrough: '2026-11-03T02:59:58Z', known: true })
    expect(r.manifest?.missing.map((e) => e.name)).toEqual(['datamart_cloudchat_saas.cloud_chat_tags'])
    expect(r.manifest?.pending.map((e) => e.name)).toEqual(['datamart_cloudchat_saas.cloud_chat_messages'])
  })

  it('accepts bare table names and keeps unknown fields', () => {
    const r = parseManifest(
      JSON.stringify({
        ...example,
        complete: true,
        tables_missing: [],
        tables_pending: [],
        tables_delivered: ['claudia_csat', { table: 'cloud_chat_tags', owner: 'ops' }],
        region: 'sa-east-1'
      }),
      at
    )
    expect(r.state).toBe('complete')
    expect(r.manifest?.delivered.map((e) => e.name)).toEqual(['datamart_claudia.claudia_csat', 'datamart_cloudchat_saas.cloud_chat_tags'])
    expect(r.manifest?.delivered[1]?.extra).toEqual({ owner: 'ops' })
    expect(r.manifest?.extra).toEqual({ region: 'sa-east-1' })
  })

  it('turns text that is not JSON into a malformed manifest, not an exception', () => {
    const r = parseManifest('{"snapshot_date": "2026-11-03", "tables_deliv', at)
    expect(r.state).toBe('malformed')
    expect(r.warnings[0]).toMatch(/not valid JSON/)
    expect(parseManifest('[1,2]', at).state).toBe('malformed')
  })

  it('warns about each odd field and keeps going', () => {
    const r = parseManifest(
      JSON.stringify({
        snapshot_date: '2026-11-04',
        snapshot_hour: 3,
        complete: 'yes',
        tables_delivered: [42, { schema: 'x' }, 'no_such_table', { table: 'claudia_messages', files: -1, delivered_through: 'yesterday' }],
        tables_missing: 'claudia_csat'
      }),
      at
    )
    const w = r.warnings.join('\n')
    expect(w).toMatch(/snapshot_date is 2026-11-04 but the manifest sits under snapshot_date=2026-11-03/)
    expect(w).toMatch(/snapshot_hour is the number 3/)
    expect(w).toMatch(/complete: expected true or false/)
    expect(w).toMatch(/tables_delivered\[0\]: expected a table name or an object/)
    expect(w).toMatch(/tables_delivered\[1\]: no "table"/)
    expect(w).toMatch(/"no_such_table" is not a table of the catalog/)
    expect(w).toMatch(/files: expected a whole number/)
    expect(w).toMatch(/delivered_through: "yesterday" is not an ISO-8601 instant/)
    expect(w).toMatch(/tables_missing: expected a list/)
    // `complete` unreadable: the (empty) lists decide.
    expect(r.state).toBe('complete')
  })

  it('flags contradictions between complete and the lists, and tables listed twice', () => {
    const r = parseManifest(JSON.stringify({ ...example, complete: true, tables_delivered: [...example.tables_delivered, 'cloud_chat_tags'] }), at)
    expect(r.warnings.join('\n')).toMatch(/complete is true, yet tables are listed as missing or pending/)
    expect(r.warnings.join('\n')).toMatch(/cloud_chat_tags is listed in both tables_delivered and tables_missing/)
  })

  it('a manifest that contradicts itself is incomplete, and each contradiction is named with its table', () => {
    const r = parseManifest(
      JSON.stringify({ ...example, complete: true, tables_pending: ['datamart_claudia.claudia_csat', 'datamart_cloudchat_saas.cloud_chat_messages'] }),
      at
    )
    // complete: true, yet a table is missing: the lists decide, the hour is not complete.
    expect(r.state).toBe('incomplete')
    expect(r.issues.filter((i) => i.kind === 'contradiction').map((i) => i.table)).toEqual(['claudia_csat', null])
    expect(r.issues.find((i) => i.table === 'claudia_csat')?.message).toMatch(/tables_pending lists datamart_claudia.claudia_csat, which is delivered in full/)
    const twice = parseManifest(JSON.stringify({ ...example, tables_delivered: [...example.tables_delivered, 'cloud_chat_tags'] }), at)
    expect(twice.issues).toEqual([
      { kind: 'contradiction', table: 'cloud_chat_tags', message: expect.stringMatching(/listed in both tables_delivered and tables_missing/) }
    ])
    const hour = parseManifest(JSON.stringify({ ...example, snapshot_hour: '04', tables_delivered: [...example.tables_delivered, 'nope'] }), at)
    expect(hour.issues.map((i) => i.kind)).toEqual(['contradiction', 'format'])
    expect(hour.warnings).toEqual(hour.issues.map((i) => i.message))
    expect(parseManifest(JSON.stringify({ ...example, complete: false, tables_missing: [], tables_pending: [] }), at).state).toBe('incomplete')
  })

  it('reads a v1 daily manifest, which has no hour', () => {
    const r = parseManifest(JSON.stringify({ snapshot_date: '2026-11-02', complete: true, tables_delivered: ['claudia_messages'], tables_missing: [] }), {
      version: 'v1',
      date: '2026-11-02',
      hour: null
    })
    expect(r).toMatchObject({ state: 'complete', warnings: [] })
    expect(r.manifest?.snapshotHour).toBeNull()
  })

  it('never throws, on any JSON or any text', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => void parseManifest(JSON.stringify(v), at)),
      { numRuns: 500 }
    )
    fc.assert(
      fc.property(fc.string(), (s) => void parseManifest(s, at)),
      { numRuns: 500 }
    )
    const entry = fc.oneof(
      fc.string(),
      fc.record(
        { schema: fc.oneof(fc.string(), fc.integer()), table: fc.oneof(fc.constantFrom('claudia_messages', 'x'), fc.integer()), files: fc.jsonValue() },
        { requiredKeys: [] }
      ),
      fc.jsonValue()
    )
    fc.assert(
      fc.property(
        fc.record(
          {
            snapshot_date: fc.jsonValue(),
            snapshot_hour: fc.jsonValue(),
            complete: fc.jsonValue(),
            tables_delivered: fc.array(entry),
            tables_missing: fc.oneof(fc.array(entry), fc.jsonValue()),
            tables_pending: fc.array(entry)
          },
          { requiredKeys: [] }
        ),
        (m) => {
          const r = parseManifest(JSON.stringify(m), at)
          expect(['complete', 'incomplete', 'malformed']).toContain(r.state)
        }
      ),
      { numRuns: 500 }
    )
  })
})
