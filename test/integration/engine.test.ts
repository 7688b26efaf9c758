// The query engine (DuckDB-WASM 1.28 in a worker, reading through the block cache) over a generated bucket,
// from a local folder and from the S3 server: every logical table equals the generator's truth.
import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CATALOG } from '../../src/shared/catalog'
import { refreshBucketIndex } from '../../src/main/bucket/bucket-index'
import type { BucketProvider } from '../../src/main/bucket/bucket-provider'
import { LocalFolderProvider } from '../../src/main/bucket/local-provider'
import { S3Provider } from '../../src/main/bucket/s3-provider'
import { type BucketEngine, openBucketEngine } from '../../src/main/engine/open-bucket-engine'
import { buildInventory } from '../../src/shared/inventory'
import { quoteIdent, quoteLiteral } from '../../src/shared/sql-quote'
import { type Demo, generateDemo } from '../helpers/demo'
import { S3_TEST_KEYS, type S3Server, startS3Server } from '../helpers/s3-server'

let demo: Demo
let s3: S3Server
let work: string

beforeAll(async () => {
  demo = await generateDemo({ days: 8 })
  s3 = await startS3Server()
  // The planted GLACIER object would (rightly) stop claudia_messages; these tests read every table.
  await writeFile(join(demo.bucketDir, '.export-explorer', 'storage-classes.json'), '{}')
  await s3.seed('engine', demo.bucketDir)
  work = await mkdtemp(join(tmpdir(), 'ee-engine-'))
}, 300_000)
afterAll(async () => {
  await s3?.close()
  await demo?.cleanup()
  await rm(work, { recursive: true, force: true })
})

const progress: { done: number; total: number; table: string }[][] = []

async function open(provider: BucketProvider, name: string, asOf?: number): Promise<BucketEngine> {
  const { index } = await refreshBucketIndex(provider, null, { now: Date.parse(demo.expected.now) })
  const events: { done: number; total: number; table: string }[] = []
  progress.push(events)
  return openBucketEngine(provider, buildInventory(index.objects.values()), index.objects, join(work, name), { ...(asOf !== undefined ? { asOf } : {}), onProgress: (p) => events.push(p) })
}

const targets: [string, () => BucketProvider][] = [
  ['local folder', () => new LocalFolderProvider(demo.bucketDir)],
  ['S3 server', () => new S3Provider({ bucket: 'engine', endpoint: s3.endpoint, region: 'us-east-1', credentials: { kind: 'static', ...S3_TEST_KEYS } })]
]

describe.each(targets)('engine on %s', (name, make) => {
  let be: BucketEngine
  beforeAll(async () => {
    be = await open(make(), name.replace(/\W/g, '-'))
  }, 300_000)
  afterAll(async () => {
    await be?.engine.close()
  })

  it('creates every view, and every logical table equals the truth', async () => {
    expect(be.views.problems).toEqual([])
    // Opening reported its progress table by table, in catalog order, ending complete.
    const events = progress[0]!
    expect(events.map((e) => e.done)).toEqual([...Array(CATALOG.length + 1).keys()])
    expect(events.slice(0, -1).map((e) => e.table)).toEqual(CATALOG.map((t) => `${t.schema}.${t.table}`))
    for (const [table, e] of Object.entries(demo.expected.tables)) {
      const { rows } = await be.engine.query(`SELECT count(*)::INTEGER AS n FROM ${quoteIdent(table)}`)
      expect([table, rows[0]?.[0]]).toEqual([table, e.rows])
    }
    const schemaQualified = await be.engine.query('SELECT count(*)::INTEGER FROM datamart_claudia.claudia_messages')
    expect(schemaQualified.rows[0]?.[0]).toBe(demo.expected.tables['claudia_messages']!.rows)
  })

  it('keeps the newest version of the tracked rows, and shows every version with its origin', async () => {
    for (const nv of demo.expected.newest_values) {
      const { rows } = await be.engine.query(`SELECT ${quoteIdent(nv.column)} FROM ${quoteIdent(nv.table)} WHERE ${quoteIdent(nv.key_column)} = ${quoteLiteral(nv.key)}`)
      expect([nv.key, rows]).toEqual([nv.key, [[nv.value]]])
    }
    const { rows } = await be.engine.query(`SELECT count(*)::INTEGER, count(DISTINCT _prefix)::INTEGER, count(*) FILTER (WHERE _etl_date = '__initial__')::INTEGER > 0 FROM claudia_messages__versions`)
    expect(rows[0]).toEqual([demo.expected.tables['claudia_messages']!.versions, demo.expected.tables['claudia_messages']!.ready_folders, true])
  })

  it('cancels a running query and keeps working', async () => {
    const running = be.engine.query('SELECT count(*) FROM range(3000000000) a, range(10) b WHERE a.range % 7 = b.range')
    await new Promise((r) => setTimeout(r, 300))
    be.engine.cancel()
    await expect(running).rejects.toThrow(/interrupt/i)
    expect((await be.engine.query('SELECT 2 * 21')).rows).toEqual([[42]])
  })

  it('reports bad SQL and keeps working', async () => {
    await expect(be.engine.query('SELEC 1')).rejects.toThrow(/syntax error/i)
    await expect(be.engine.query('SELECT * FROM no_such_table')).rejects.toThrow(/no_such_table/)
    expect((await be.engine.query('SELECT 41 + 1')).rows).toEqual([[42]])
  })
})

describe('engine details', () => {
  it('as of an hour, the views hold only what was delivered by then', async () => {
    const pending = demo.expected.planted_hours['missingAndPending']!
    const asOf = Date.parse(`${pending.date}T${pending.hour}:00:00Z`)
    const be = await open(new LocalFolderProvider(demo.bucketDir), 'as-of', asOf)
    try {
      const { rows } = await be.engine.query(`SELECT max(_etl_date || ' ' || _etl_hour) FROM claudia_messages__versions WHERE _etl_hour IS NOT NULL`)
      expect(rows[0]?.[0]).toBe(`${pending.date} ${pending.hour}`)
      const latest = await be.engine.query(`SELECT count(*)::INTEGER FROM claudia_csat`)
      expect(latest.rows[0]?.[0]).toBeLessThan(demo.expected.tables['claudia_csat']!.rows)
    } finally {
      await be.engine.close()
    }
  })

  it('names the object when a Parquet file is corrupt, and the other tables still work', async () => {
    const copy = join(work, 'corrupt-bucket')
    await cp(demo.bucketDir, copy, { recursive: true })
    const bad = demo.expected.latest_ready['cloud_chat_tags']!.prefix + 'part-00000.parquet'
    await writeFile(join(copy, bad), 'PAR1 this is not parquet PAR1')
    const be = await open(new LocalFolderProvider(copy), 'corrupt')
    try {
      const problem = be.views.problems.find((p) => p.table === 'datamart_cloudchat_saas.cloud_chat_tags')
      expect(problem?.message).toContain(bad)
      expect((await be.engine.query('SELECT count(*)::INTEGER FROM claudia_csat')).rows[0]?.[0]).toBe(demo.expected.tables['claudia_csat']!.rows)
    } finally {
      await be.engine.close()
    }
  })
})
