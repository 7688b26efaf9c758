// Corrupt and zero-byte Parquet files (issue 12 item 10) through main's engine, from a local folder and from the
// S3 server: a full table whose newest copy holds a file cut short and a zero-byte file reads its previous readable
// copy; a parts folder is read without its bad files; the views' notes and the CLI's stderr say exactly which.
import { execFile } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { refreshBucketIndex } from '../../src/main/bucket/bucket-index'
import type { BucketProvider } from '../../src/main/bucket/bucket-provider'
import { LocalFolderProvider } from '../../src/main/bucket/local-provider'
import { S3Provider } from '../../src/main/bucket/s3-provider'
import { openBucketEngine } from '../../src/main/engine/open-bucket-engine'
import { fileStoreFor } from '../../src/main/store/connection-files'
import { qualifiedName } from '../../src/shared/catalog'
import { buildInventory } from '../../src/shared/inventory'
import { openDb } from '../helpers/duckdb'
import { S3_TEST_KEYS, type S3Server, startS3Server } from '../helpers/s3-server'
import { BAD, CSAT, MSGS, NOW, csat03, csat04, writeUnreadableBucket } from '../helpers/unreadable-bucket'
import { CLI_COMMAND } from '../helpers/cli'

const run = promisify(execFile)
let work: string
let root: string
let s3: S3Server

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'ee-unreadable-engine-'))
  root = join(work, 'bucket')
  const db = await openDb()
  await writeUnreadableBucket(root, db)
  db.close()
  s3 = await startS3Server()
  await s3.seed('unreadable', root)
}, 120_000)
afterAll(async () => {
  await s3?.close()
  await rm(work, { recursive: true, force: true })
})

const targets: [string, () => BucketProvider][] = [
  ['local folder', () => new LocalFolderProvider(root)],
  ['S3 server', () => new S3Provider({ bucket: 'unreadable', endpoint: s3.endpoint, region: 'us-east-1', credentials: { kind: 'static', ...S3_TEST_KEYS } })]
]

describe.each(targets)('the engine on the %s', (name, make) => {
  it('reads the previous readable copy of the full table and the parts folder without its bad files, and says so', async () => {
    const provider = make()
    const { index } = await refreshBucketIndex(provider, null, { now: NOW })
    const id = name.replace(/\W/g, '-')
    const be = await openBucketEngine(
      fileStoreFor(provider, join(work, 'data'), id),
      buildInventory(index.objects.values(), { now: NOW }),
      index.objects,
      join(work, 'engine', id),
      { now: NOW }
    )
    try {
      expect(be.views.created).toEqual(expect.arrayContaining([qualifiedName(CSAT), qualifiedName(MSGS)]))
      expect((await be.engine.selectAll('SELECT DISTINCT tag FROM claudia_csat')).rows).toEqual([['h03']])
      expect((await be.engine.selectAll('SELECT message_id, content FROM claudia_messages ORDER BY 1')).rows).toEqual([
        ['m1', 'h03'],
        ['m2', 'h03'],
        ['m3', 'h04']
      ])
      const notes = be.views.notes.map((n) => n.message)
      expect(notes).toContainEqual(
        expect.stringContaining(
          `its newest ready copy ${csat04} holds files that are not readable Parquet (${BAD[0]}, ${BAD[1]}); the previous readable ready copy ${csat03} is read instead`
        )
      )
      expect(notes).toContainEqual(
        expect.stringContaining(
          `2 files are not readable Parquet and are left out: ${BAD[2]}, ${BAD[3]}; their rows are not in the table, and a message_id whose newest version is in them`
        )
      )
      expect(be.views.problems.filter((p) => p.table === qualifiedName(CSAT) || p.table === qualifiedName(MSGS))).toEqual([])
    } finally {
      await be.engine.close()
    }
    // Opened again: nothing is downloaded, the files found not to be Parquet either (the store remembers them by ETag).
    const downloads: number[] = []
    const again = await openBucketEngine(
      fileStoreFor(provider, join(work, 'data'), id),
      buildInventory(index.objects.values(), { now: NOW }),
      index.objects,
      join(work, 'engine', `${id}-again`),
      {
        now: NOW,
        onDownload: (p) => downloads.push(p.filesTotal)
      }
    )
    try {
      expect(downloads.at(-1)).toBe(0)
      expect(again.views.notes.map((n) => n.table)).toEqual(expect.arrayContaining([qualifiedName(CSAT), qualifiedName(MSGS)]))
    } finally {
      await again.engine.close()
    }
  }, 120_000)
})

describe('the CLI', () => {
  it("query gives the rules' rows and says on stderr what it left out", async () => {
    let r: { stdout: string; stderr: string }
    try {
      r = await run(
        process.execPath,
        [
          ...CLI_COMMAND,
          'query',
          // Both tables named: the engine opens (and notes) only the views a statement names.
          'SELECT tag, count(*) AS n FROM claudia_csat WHERE (SELECT count(*) FROM claudia_messages) >= 0 GROUP BY 1',
          '--format',
          'csv',
          '--bucket',
          root,
          '--now',
          new Date(NOW).toISOString()
        ],
        { env: { ...process.env, EXPORT_EXPLORER_CACHE: join(work, 'cli-cache') } }
      )
    } catch (e) {
      throw new Error(`query failed: ${(e as { stderr: string }).stderr}`)
    }
    expect(r.stdout).toBe('tag,n\nh03,3\n')
    expect(r.stderr).toContain(`note: datamart_claudia.claudia_csat: its newest ready copy ${csat04} holds files that are not readable Parquet`)
    expect(r.stderr).toContain(`note: datamart_claudia.claudia_messages: 2 files are not readable Parquet and are left out: ${BAD[2]}, ${BAD[3]}`)
  }, 60_000)
})
