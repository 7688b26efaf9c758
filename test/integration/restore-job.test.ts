// The bulk restore against the S3 test server (s3rver, whose RestoreObject finishes after a delay): a connection
// with archived history plans the restore (count, bytes, dates, the tier's usual delay), starts it, sees it in
// progress; a new Workspace on the same data folder resumes watching it; once done, the listing and the mirror take
// the file in and the logical table equals the same table over all files (native DuckDB on the raw files).
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { refreshBucketIndex } from '../../src/main/bucket/bucket-index'
import { LocalFolderProvider } from '../../src/main/bucket/local-provider'
import { MemorySecretStore } from '../../src/main/connections/secret-store'
import { openBucketEngine } from '../../src/main/engine/open-bucket-engine'
import { fileStoreFor } from '../../src/main/store/connection-files'
import { Workspace } from '../../src/main/workspace/workspace'
import type { RestoreStatusView } from '../../src/shared/api/views'
import { buildInventory } from '../../src/shared/inventory'
import { GCS_NO_RESTORE } from '../../src/shared/restore-plan'
import { type Demo, readDemo } from '../helpers/demo'
import { S3_TEST_KEYS, type S3Server, startS3Server } from '../helpers/s3-server'
import { copyTree } from '../helpers/copy-tree'

const BUCKET = 'restore-bucket'
const TABLE = 'datamart_claudia.claudia_messages'
// Which version of each message the table shows (the folder it came from), and how many rows: the rules' outcome.
const OUTCOME_SQL = `SELECT count(*) AS n, md5(string_agg(message_id || '@' || etl_date || '@' || coalesce(etl_hour, '-'), ',' ORDER BY message_id)) AS h FROM datamart_claudia.claudia_messages`

let demo: Demo
let s3: S3Server
let work: string
let now: number
let secrets: MemorySecretStore
let connectionId: string
const previousDelay = process.env['S3RVER_RESTORE_DELAY_MS']
/** The S3 test server's restore delay (it reads it at each request): held for an hour, or over now. */
const RESTORE_HELD = '3600000'
const RESTORE_NOW = '0'

beforeAll(async () => {
  demo = await readDemo({ days: 8 })
  now = Date.parse(demo.expected.now)
  s3 = await startS3Server()
  await s3.seed(BUCKET, demo.bucketDir)
  work = await mkdtemp(join(tmpdir(), 'ee-restore-'))
  secrets = new MemorySecretStore()
  // A restore stays in progress (for an hour) until a test lets the server finish it (RESTORE_NOW): it is seen in
  // progress across two workspaces however slow the machine, and ends when told, not after a wait. Checks every 100 ms.
  process.env['S3RVER_RESTORE_DELAY_MS'] = RESTORE_HELD
}, 300_000)
afterAll(async () => {
  if (previousDelay === undefined) delete process.env['S3RVER_RESTORE_DELAY_MS']
  else process.env['S3RVER_RESTORE_DELAY_MS'] = previousDelay
  await s3?.close()
  await demo?.cleanup()
  await rm(work, { recursive: true, force: true })
})

const workspace = (): Workspace =>
  new Workspace({ dataDir: join(work, 'data'), secrets, clock: () => now, autoRefresh: false, exportDir: join(work, 'exports'), restore: { intervalMs: 100 } })

async function until<T>(what: string, get: () => Promise<T>, ok: (v: T) => boolean, ms = 60_000): Promise<T> {
  const end = Date.now() + ms
  for (;;) {
    const v = await get()
    if (ok(v)) return v
    if (Date.now() > end) throw new Error(`${what}: still ${JSON.stringify(v)}`)
    await new Promise((r) => setTimeout(r, 50))
  }
}

let exported = 0
/** One row of a query, answered by the workspace's own engine (main's native DuckDB on the mirror) through an export. */
async function ask(w: Workspace, sql: string): Promise<string> {
  const path = join(work, 'exports', `q${++exported}.csv`)
  const job = await w.exportStart({ sql, format: 'csv', path, overwrite: false, asOf: null })
  const end = await until(
    'export',
    async () => w.exportStatus({ id: job.id }),
    (j) => j.state !== 'running'
  )
  if (end.error) throw new Error(end.error)
  return (await readFile(path, 'utf8')).trim().split('\n')[1] as string
}

/** The same query on the raw files with nothing archived: what the table holds once everything is readable. */
async function overAllFiles(sql: string): Promise<string> {
  const bucket = join(work, 'all-readable')
  await copyTree(demo.bucketDir, bucket)
  await writeFile(join(bucket, '.export-explorer', 'storage-classes.json'), '{}')
  const provider = new LocalFolderProvider(bucket)
  const { index } = await refreshBucketIndex(provider, null, { now })
  const be = await openBucketEngine(
    fileStoreFor(provider, join(work, 'ref-data'), 'ref'),
    buildInventory(index.objects.values(), { now }),
    index.objects,
    join(work, 'ref-engine'),
    { now }
  )
  try {
    const r = await be.engine.selectAll(sql)
    return r.rows[0]?.map(String).join(',') as string
  } finally {
    await be.engine.close()
  }
}

describe('bulk restore against S3 (s3rver)', () => {
  let before: string

  it("plans the restore of a table with archived history: count, bytes, dates and the tier's usual delay", async () => {
    const w = workspace()
    try {
      ;({ id: connectionId } = await w.connectionSave({
        connection: {
          name: 'Restore S3',
          provider: 's3',
          bucket: BUCKET,
          prefix: '',
          endpoint: s3.endpoint,
          region: 'us-east-1',
          auth: { kind: 'static', accessKeyId: S3_TEST_KEYS.accessKeyId }
        } as never,
        secretAccessKey: S3_TEST_KEYS.secretAccessKey
      }))
      await w.connectionOpen({ id: connectionId })
      await w.running
      const planted = demo.expected.faults.find((f) => f.kind === 'archived')!
      const plan = await w.restorePlan({ table: TABLE, tier: 'Bulk', days: 3 })
      expect(plan.provider).toBe('s3')
      expect(plan.count).toBe(1)
      expect(plan.sample).toEqual([planted.key])
      expect(plan.bytes).toBeGreaterThan(0)
      expect(plan.dates).toEqual([/etl_date=([^/]+)/.exec(planted.key)?.[1]])
      expect(plan.problem).toBeNull()
      expect(plan.summary).toContain('5–12 hours')
      expect(plan.summary).toContain('3 days')
      // A full table reads no archived file: nothing to restore, and it says so.
      const none = await w.restorePlan({ table: 'datamart_claudia.claudia_csat', tier: 'Standard', days: 1 })
      expect([none.count, none.problem]).toEqual([0, expect.stringContaining('Nothing to restore')])
      await expect(w.restoreStart({ table: 'datamart_claudia.claudia_csat', tier: 'Standard', days: 1 })).rejects.toThrow(/Nothing to restore/)
      expect((await w.restoreStatus()).job).toBeNull()
      before = await ask(w, OUTCOME_SQL)
    } finally {
      await w.dispose()
    }
  }, 180_000)

  it('starts it, shows it in progress, resumes watching in a new Workspace on the same data folder, and completes the table', async () => {
    const w1 = workspace()
    const events: RestoreStatusView[] = []
    let w2: Workspace | null = null
    try {
      await w1.connectionOpen({ id: connectionId })
      await w1.running
      w1.events.on((e) => {
        if (e.name === 'restoreProgress') events.push(e.payload)
      })
      const started = await w1.restoreStart({ table: TABLE, tier: 'Standard', days: 2 })
      expect(started.job).toMatchObject({
        table: TABLE,
        tier: 'Standard',
        days: 2,
        total: 1,
        state: 'running',
        endedAt: null,
        startedAt: new Date(now).toISOString()
      })
      // A second restore while this one runs is refused, with what runs.
      await expect(w1.restoreStart({ table: null, tier: 'Bulk', days: 1 })).rejects.toThrow(/already running .*0 of 1 restored/)
      const progress = await until(
        'in progress',
        () => w1.restoreStatus(),
        (s) => s.job?.counts.in_progress === 1
      )
      expect(progress.job?.checkedAt).not.toBeNull()
      // Each pass is pushed once it is saved.
      await until(
        'pushed',
        async () => events.some((e) => e.job?.counts.in_progress === 1),
        (v) => v
      )
      const saved = JSON.parse(await readFile(join(work, 'data', 'restore', `${connectionId}.json`), 'utf8')) as { keys: { state: string }[]; tier: string }
      expect([saved.tier, saved.keys.map((k) => k.state)]).toEqual(['Standard', ['in_progress']])
      await w1.dispose()

      // The app is opened again: the restore is still there and is watched to its end.
      w2 = workspace()
      await w2.connectionOpen({ id: connectionId })
      const resumed = await w2.restoreStatus()
      expect(resumed.job).toMatchObject({ tier: 'Standard', total: 1, state: 'running', endedAt: null })
      // S3 finishes the restore.
      process.env['S3RVER_RESTORE_DELAY_MS'] = RESTORE_NOW
      const done = await until(
        'done',
        () => (w2 as Workspace).restoreStatus(),
        (s) => s.job?.state === 'done'
      )
      expect(done.job?.counts).toMatchObject({ done: 1, failed: 0, in_progress: 0, requested: 0, waiting: 0 })
      // Nothing is left to restore, and the table equals the table over all files.
      expect((await w2.restorePlan({ table: TABLE, tier: 'Standard', days: 1 })).count).toBe(0)
      const after = await ask(w2, OUTCOME_SQL)
      const reference = await overAllFiles(OUTCOME_SQL)
      expect(after).toBe(reference)
      expect(before).not.toBe(reference)
      await w2.dispose()

      // Days later the restored copy has expired: the mirror holds the file, so the table stays whole and nothing
      // needs restoring again.
      const expiry = Date.parse(
        (JSON.parse(await readFile(join(work, 'data', 'restore', `${connectionId}.json`), 'utf8')) as { keys: { expiry: string }[] }).keys[0]!.expiry
      )
      now = expiry + 86_400_000
      w2 = workspace()
      await w2.connectionOpen({ id: connectionId })
      await w2.running
      expect((await w2.restorePlan({ table: TABLE, tier: 'Standard', days: 1 })).count).toBe(0)
      expect(await ask(w2, OUTCOME_SQL)).toBe(reference)
    } finally {
      await w1.dispose()
      await w2?.dispose()
    }
  }, 240_000)

  it('says plainly that GCS archive classes need no restore, and that a local folder cannot restore', async () => {
    const w = workspace()
    try {
      // Nothing is listed for this: the answer depends on the kind of connection alone (no server behind it).
      const { id: gcs } = await w.connectionSave({
        connection: { name: 'GCS', provider: 'gcs', bucket: 'b', prefix: '', endpoint: 'http://127.0.0.1:9', auth: { kind: 'none' } } as never
      })
      await w.connectionOpen({ id: gcs })
      expect(await w.restoreStatus()).toEqual({ provider: 'gcs', job: null, note: GCS_NO_RESTORE })
      await expect(w.restoreStart({ table: null, tier: 'Standard', days: 1 })).rejects.toThrow(GCS_NO_RESTORE)
      const { id: local } = await w.connectionSave({ connection: { name: 'Folder', provider: 'local', path: demo.bucketDir } as never })
      await w.connectionOpen({ id: local })
      await w.running
      // The folder's archived file is left out and counted, but it can only be restored in the source bucket.
      const plan = await w.restorePlan({ table: TABLE, tier: 'Standard', days: 1 })
      expect([plan.provider, plan.count, plan.note]).toEqual(['local', 1, expect.stringContaining('restore them in the source bucket')])
      await expect(w.restoreStart({ table: TABLE, tier: 'Standard', days: 1 })).rejects.toThrow(/A local folder cannot restore/)
    } finally {
      await w.dispose()
    }
  }, 180_000)
})
