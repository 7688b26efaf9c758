// The workspace's exports and hour inspector, the two cases that need the machine alone: a cancelled export must end
// within 2 s on the wall clock, and the inspector plants a corrupt Parquet file in the shared demo bucket in place
// (any file reading that bucket beside it would see it). Exports run in the background with progress, a cancelled
// one leaves no file, a desktop export writes only the path chosen in the dialog; the inspector gives each file's
// rows from its footer and names a corrupt one without failing the rest. The rest of the workspace: workspace.test.ts.
import { existsSync } from 'node:fs'
import { mkdtemp, readFile, readdir, rm, stat, utimes, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { dispatch } from '../../src/main/api-handlers'
import { MemorySecretStore } from '../../src/main/connections/secret-store'
import { Workspace } from '../../src/main/workspace/workspace'
import type { HourDetail } from '../../src/shared/api/views'
import { type Demo, readDemo } from '../helpers/demo'

let demo: Demo
let work: string

beforeAll(async () => {
  demo = await readDemo({ days: 8 })
  work = await mkdtemp(join(tmpdir(), 'ee-ws-alone-'))
}, 120_000)
afterAll(async () => {
  await demo?.cleanup()
  if (work) await rm(work, { recursive: true, force: true })
})

describe('Workspace', () => {
  it('exports in the background with progress; a cancelled export leaves no file; a desktop export needs the chosen path', async () => {
    const dataDir = join(work, 'c')
    const out = join(work, 'exports')
    const w = new Workspace({
      dataDir,
      secrets: new MemorySecretStore(),
      demo: { bucketDir: demo.bucketDir, now: Date.parse(demo.expected.now) },
      autoRefresh: false,
      exportDir: out
    })
    const done = await w.exportStart({
      sql: 'SELECT tenant_id, count(*) AS n FROM cloud_chat_messages GROUP BY 1 ORDER BY 1',
      format: 'csv',
      path: join(out, 'ok.csv'),
      overwrite: false,
      asOf: null
    })
    let job = done
    while (job.state === 'running') job = await new Promise((r) => setTimeout(() => r(w.exportStatus({ id: done.id })), 50))
    expect(job.error).toBeNull()
    const text = await readFile(join(out, 'ok.csv'), 'utf8')
    // DuckDB's own COPY writes the file (header, then one line per row).
    expect(text.split('\n')[0]).toBe('tenant_id,n')
    expect(text.split('\n').filter(Boolean).length - 1).toBe(job.rows)
    expect(job.bytes).toBe(Buffer.byteLength(text))
    // The job records what the file holds: the connection it opened (none was open) and "latest".
    const demoId = (await w.connections()).active
    expect(demoId).not.toBeNull()
    expect(done.connection).toBeNull()
    expect(job).toMatchObject({ connection: demoId, asOf: null })
    // An export "as of" an hour carries that hour and the open connection from its start.
    const hour = `${demo.expected.now.slice(0, 11)}00:00:00Z`
    const past = await w.exportStart({ sql: 'SELECT 1 AS one', format: 'csv', path: join(out, 'past.csv'), overwrite: false, asOf: hour })
    expect(past).toMatchObject({ connection: demoId, asOf: hour })
    let pastJob = past
    while (pastJob.state === 'running') pastJob = await new Promise((r) => setTimeout(() => r(w.exportStatus({ id: past.id })), 50))
    expect(pastJob).toMatchObject({ state: 'done', connection: demoId, asOf: hour })

    const big = await w.exportStart({
      sql: 'SELECT range AS i, md5(range::VARCHAR) AS h FROM range(20000000)',
      format: 'csv',
      path: join(out, 'big.csv'),
      overwrite: false,
      asOf: null
    })
    // Cancel while DuckDB is writing it: the job shows the bytes written so far (DuckDB's own progress does not move here).
    for (let i = 0; i < 200 && w.exportStatus({ id: big.id }).bytes === 0; i++) await new Promise((r) => setTimeout(r, 50))
    const writing = w.exportStatus({ id: big.id })
    expect(writing.state).toBe('running')
    expect(writing.bytes).toBeGreaterThan(0)
    const t0 = Date.now()
    w.exportCancel({ id: big.id })
    while (w.exportStatus({ id: big.id }).state === 'running') await new Promise((r) => setTimeout(r, 50))
    expect(w.exportStatus({ id: big.id })).toMatchObject({
      state: 'cancelled',
      error: expect.stringMatching(/cancelled: no file was written/) as unknown as string
    })
    expect(Date.now() - t0).toBeLessThan(2000)
    expect(existsSync(join(out, 'big.csv'))).toBe(false)
    expect((await readdir(out)).filter((f) => f.includes('partial'))).toEqual([])
    await w.dispose()

    // With a native save dialog, only the path the user chose there may be written.
    const chosen = join(out, 'chosen.csv')
    const desk = new Workspace({
      dataDir,
      secrets: new MemorySecretStore(),
      demo: { bucketDir: demo.bucketDir, now: Date.parse(demo.expected.now) },
      autoRefresh: false,
      platform: { downloadsDir: out, chooseSavePath: async () => chosen, showInFolder: () => {} }
    })
    await expect(desk.exportStart({ sql: 'SELECT 1', format: 'csv', path: join(out, 'sneaky.csv'), overwrite: false, asOf: null })).rejects.toThrow(
      /Choose where to save/
    )
    expect((await desk.chooseSavePath({ defaultName: 'x.csv', format: 'csv' })).path).toBe(chosen)
    const j = await desk.exportStart({ sql: 'SELECT 1 AS one', format: 'csv', path: chosen, overwrite: false, asOf: null })
    let s = j
    while (s.state === 'running') s = await new Promise((r) => setTimeout(() => r(desk.exportStatus({ id: j.id })), 50))
    expect(s.state).toBe('done')
    expect(await readFile(chosen, 'utf8')).toBe('one\n1\n')
    await desk.dispose()
  }, 120_000)

  it("the hour inspector gives each file's rows from its Parquet footer, and names a corrupt one without failing the rest", async () => {
    const h = demo.expected.planted_hours['lateHour']!
    const prefix = `v2/datamart_claudia/claudia_csat/snapshot_date=${h.date}/snapshot_hour=${h.hour}/`
    const file = join(demo.bucketDir, prefix, 'part-00000.parquet')
    const good = await readFile(file)
    const written = (await stat(file)).mtime
    await writeFile(file, Buffer.concat([Buffer.from('not parquet at all'), Buffer.alloc(good.length - 18)]))
    // As the vendor wrote it: an object written after the evaluation instant would not exist yet.
    await utimes(file, written, written)
    try {
      const w = new Workspace({
        dataDir: join(work, 'd'),
        secrets: new MemorySecretStore(),
        demo: { bucketDir: demo.bucketDir, now: Date.parse(demo.expected.now) },
        autoRefresh: false
      })
      const r = await dispatch(w, 'hour', { start: `${h.date}T${h.hour}:00:00Z` })
      expect(r.ok).toBe(true)
      const detail = (r as { result: HourDetail }).result
      const csat = detail.tables.find((t) => t.table === 'claudia_csat')!
      expect(csat.files[0]?.rows).toBeNull()
      expect(csat.files[0]?.rowsError).toMatch(/not a readable Parquet file/)
      const contents = detail.tables.find((t) => t.table === 'claudia_contents')!
      expect(contents.files[0]?.rows).toBeGreaterThan(0)
      await w.dispose()
    } finally {
      await writeFile(file, good)
      await utimes(file, written, written)
    }
  })
})
