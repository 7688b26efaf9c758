// Attack (of a network, not a person): an export on an S3 endpoint that accepts connections and never answers
// waited, then said "Table … does not exist", as if the vendor had never delivered it. Now the export fails
// saying the listing timed out, naming the bucket and the endpoint and what to check; so does the CLI.
import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MemorySecretStore } from '../../src/main/connections/secret-store'
import type { PushedEvent } from '../../src/main/main-events'
import { Workspace } from '../../src/main/workspace/workspace'
import type { ExportJob } from '../../src/shared/api/views'
import { runCli } from '../helpers/cli'
import { type HungServer, startHungServer } from '../helpers/hung-server'
import { S3_TEST_KEYS } from '../helpers/s3-server'

let hung: HungServer
let work: string
beforeAll(async () => {
  hung = await startHungServer('silent')
  work = await mkdtemp(join(tmpdir(), 'ee-dead-endpoint-'))
})
afterAll(async () => {
  await hung?.close()
  await rm(work, { recursive: true, force: true })
})

/** The export job's last state, from the workspace's events (no polling). */
function finished(w: Workspace, id: string): Promise<ExportJob> {
  return new Promise((resolve) => {
    const off = w.events.on((e: PushedEvent) => {
      const job = e.payload as ExportJob
      if (e.name === 'exportProgress' && job.id === id && job.state !== 'running') {
        off()
        resolve(job)
      }
    })
  })
}

describe('an S3 endpoint that never answers', () => {
  it('an export says the listing timed out, naming the bucket and the endpoint, never "does not exist"', async () => {
    const exportDir = join(work, 'exports')
    const w = new Workspace({
      dataDir: join(work, 'data'),
      secrets: new MemorySecretStore(),
      autoRefresh: false,
      exportDir,
      openOptions: { timeouts: { connectMs: 1000, idleMs: 1000 } }
    })
    try {
      const { id } = await w.connectionSave({
        connection: {
          name: 'dead',
          provider: 's3',
          bucket: 'export-bucket',
          prefix: 'exports/acme/',
          region: 'us-east-1',
          endpoint: hung.endpoint,
          auth: { kind: 'static', accessKeyId: S3_TEST_KEYS.accessKeyId }
        } as never,
        secretAccessKey: S3_TEST_KEYS.secretAccessKey
      })
      await w.connectionOpen({ id })
      await w.running.catch(() => {})
      const path = join(exportDir, 'messages.csv')
      await mkdir(exportDir, { recursive: true })
      const job = await w.exportStart({ sql: 'SELECT * FROM claudia_messages', format: 'csv', path, overwrite: false, asOf: null })
      const end = job.state === 'running' ? await finished(w, job.id) : job
      expect(end.state).toBe('failed')
      expect(end.error).not.toMatch(/does not exist/)
      expect(end.error).toMatch(/Listing s3:\/\/export-bucket\/exports\/acme\/ at http:\/\/127\.0\.0\.1:\d+ timed out\. The server sent nothing for 1 s/)
      expect(end.error).toContain(hung.endpoint)
      expect(end.error).toMatch(/check the network connection.*endpoint/)
      expect(await readdir(exportDir)).toEqual([])
    } finally {
      await w.dispose()
    }
  }, 120_000)

  it('the CLI says the listing timed out, naming the endpoint (after its --timeout of silence), and writes nothing', async () => {
    const out = join(work, 'cli-out.csv')
    const env = { AWS_ACCESS_KEY_ID: S3_TEST_KEYS.accessKeyId, AWS_SECRET_ACCESS_KEY: S3_TEST_KEYS.secretAccessKey }
    const args = ['export', '--bucket', 's3://export-bucket/exports/acme', '--endpoint', hung.endpoint, '--region', 'us-east-1', '--timeout', '2']
    const r = await runCli([...args, '--sql', 'SELECT * FROM claudia_messages', '--out', out], join(work, 'cli-cache'), env)
    expect(r.code).toBe(2)
    expect(r.stderr).not.toMatch(/does not exist/)
    expect(r.stderr).toContain(`Listing s3://export-bucket/exports/acme/ at ${hung.endpoint} timed out. The server sent nothing for 2 s`)
    await expect(readdir(work)).resolves.not.toContain('cli-out.csv')
  }, 180_000)
})
