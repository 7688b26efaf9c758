// `export-explorer ddl` (issue 15) against real servers: the S3 test server gives Athena definitions whose locations
// are the bucket URL's, the GCS emulator BigQuery's; every table of the generated bucket has its statements.
import { cp, mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CATALOG } from '../../src/shared/catalog'
import { type CliRun, runCli } from '../helpers/cli'
import { type Demo, generateDemo } from '../helpers/demo'
import { type GcsServer, startGcsServer } from '../helpers/gcs-server'
import { S3_TEST_KEYS, type S3Server, startS3Server } from '../helpers/s3-server'

let demo: Demo
let s3: S3Server
let gcs: GcsServer
let cache: string
let small: string

beforeAll(async () => {
  demo = await generateDemo({ days: 8 })
  s3 = await startS3Server()
  await s3.seed('ddl-bucket', demo.bucketDir, 'export/')
  // The emulator uploads one object at a time: one table and the manifests are enough to tell the version and location.
  small = await mkdtemp(join(tmpdir(), 'ee-ddl-small-'))
  for (const version of ['v1', 'v2'])
    await cp(join(demo.bucketDir, version, 'datamart_claudia', 'claudia_csat'), join(small, version, 'datamart_claudia', 'claudia_csat'), {
      recursive: true,
      preserveTimestamps: true
    })
  const firstManifest = (await readdir(join(demo.bucketDir, 'v2', '_manifests'))).sort()[0] as string
  await cp(join(demo.bucketDir, 'v2', '_manifests', firstManifest), join(small, 'v2', '_manifests', firstManifest), {
    recursive: true,
    preserveTimestamps: true
  })
  gcs = await startGcsServer()
  await gcs.seed('ddl-gcs', small, 'exports/acme/')
  cache = await mkdtemp(join(tmpdir(), 'ee-ddl-cache-'))
}, 300_000)
afterAll(async () => {
  await s3?.close()
  await gcs?.close()
  await demo?.cleanup()
  for (const d of [cache, small]) if (d) await rm(d, { recursive: true, force: true })
})

const cli = (args: string[], env: Record<string, string> = {}): Promise<CliRun> => runCli(args, cache, env)

const s3Env = { AWS_ACCESS_KEY_ID: S3_TEST_KEYS.accessKeyId, AWS_SECRET_ACCESS_KEY: S3_TEST_KEYS.secretAccessKey, AWS_REGION: 'us-east-1' }

describe('export-explorer ddl', () => {
  it('on S3: Athena definitions of every table, located under the bucket URL, with the notes (the archived claudia_messages file too)', async () => {
    const r = await cli(['ddl', '--engine', 'athena', '--bucket', 's3://ddl-bucket/export', '--endpoint', s3.endpoint, '--now', demo.expected.now], s3Env)
    expect(r.code, r.stderr).toBe(0)
    for (const t of CATALOG) {
      expect(r.stdout).toContain(`CREATE EXTERNAL TABLE IF NOT EXISTS \`${t.schema}\`.\`${t.table}_v2\``)
      expect(r.stdout).toContain(`LOCATION 's3://ddl-bucket/export/v2/${t.schema}/${t.table}/'`)
      expect(r.stdout).toContain(`CREATE OR REPLACE VIEW "${t.schema}"."${t.table}" AS`)
    }
    // claudia_messages has no view in the app (a GLACIER object): its columns come from its readable files.
    expect(r.stdout).toMatch(/`message_id` string,\n {2}`conversation_id` string/)
    expect(r.stdout).toMatch(/datamart_claudia\.claudia_messages: 1 object\(s\) are in an archive storage class \(v1\/datamart_claudia\/claudia_messages\//)
    expect(r.stdout).toContain('PARTITIONED BY (`etl_date` string, `etl_hour` string)')
  }, 240_000)

  it('refuses the engine that cannot read the bucket, and a missing --engine, before listing anything, saying which to use', async () => {
    // Nothing answers on port 9: a listing would fail on the network, not on the engine.
    const wrong = await cli(
      ['ddl', '--engine', 'bigquery', '--bucket', 's3://ddl-bucket/export', '--endpoint', 'http://127.0.0.1:9', '--now', demo.expected.now],
      { ...s3Env, AWS_MAX_ATTEMPTS: '1' }
    )
    expect(wrong.code).toBe(2)
    expect(wrong.stderr).toMatch(
      /BigQuery reads Cloud Storage, and this export is at s3:\/\/ddl-bucket\/export: generate the Athena \(--engine athena\) definitions instead/
    )
    expect(wrong.stdout).toBe('')
    const none = await cli(['ddl', '--bucket', 's3://ddl-bucket/export', '--endpoint', 'http://127.0.0.1:9'], { ...s3Env, AWS_MAX_ATTEMPTS: '1' })
    expect(none.code).toBe(2)
    expect(none.stderr).toMatch(/ddl needs --engine athena \(an S3 bucket\) or --engine bigquery \(a GCS bucket\)/)
  }, 240_000)

  it('on GCS: BigQuery definitions of one table into one dataset, as JSON (text and notes)', async () => {
    const r = await cli([
      'ddl',
      '--engine',
      'bigquery',
      '--bucket',
      'gs://ddl-gcs/exports/acme',
      '--endpoint',
      gcs.endpoint,
      '--table',
      'claudia_csat',
      '--database',
      'vendor',
      '--json',
      '--now',
      demo.expected.now
    ])
    expect(r.code, r.stderr).toBe(0)
    const out = JSON.parse(r.stdout) as { text: string; notes: string[] }
    expect(out.text).toContain('CREATE OR REPLACE EXTERNAL TABLE `vendor.claudia_csat_v2`')
    expect(out.text).toContain("uris = ['gs://ddl-gcs/exports/acme/v2/datamart_claudia/claudia_csat/*.parquet']")
    expect(out.text).toContain("hive_partition_uri_prefix = 'gs://ddl-gcs/exports/acme/v2/datamart_claudia/claudia_csat'")
    expect(out.text).toContain('CREATE OR REPLACE VIEW `vendor.claudia_csat` AS')
    expect(out.text).not.toContain('claudia_messages')
    expect(out.notes.some((n) => /no row position/.test(n))).toBe(true)
  }, 240_000)
})
