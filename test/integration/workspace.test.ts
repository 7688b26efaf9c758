// The workspace behind both transports: the demo connection opens on first use, a refresh can be cancelled
// and loses nothing, the automatic refresh starts after the hour's 40-minute mark and not before, the due hour's
// manifest polled (one listing) until it lands and then refreshed, saved connections survive a restart, and a
// connection that cannot be opened leaves the open one in place.
import { existsSync } from 'node:fs'
import { mkdtemp, readFile, readdir, rename, rm, stat, utimes, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { dispatch } from '../../src/main/api-handlers'
import { MemorySecretStore } from '../../src/main/connections/secret-store'
import { Workspace } from '../../src/main/workspace/workspace'
import type { HourDetail } from '../../src/shared/api/views'
import { type Demo, generateDemo, readDemo } from '../helpers/demo'

let demo: Demo
let work: string

beforeAll(async () => {
  demo = await readDemo({ days: 8 })
  work = await mkdtemp(join(tmpdir(), 'ee-ws-'))
}, 120_000)
afterAll(async () => {
  await demo?.cleanup()
  if (work) await rm(work, { recursive: true, force: true })
})

describe('Workspace', () => {
  it('opens the demo first, refreshes, cancels without losing what is shown, and refreshes itself after :40', async () => {
    let clock = Date.UTC(2026, 10, 20, 10, 5)
    const w = new Workspace({
      dataDir: join(work, 'a'),
      secrets: new MemorySecretStore(),
      demo: { bucketDir: demo.bucketDir, now: Date.parse(demo.expected.now) },
      clock: () => clock
    })
    const overview = await dispatch(w, 'overview', {})
    expect(overview.ok).toBe(true)
    expect((await w.connections()).active).toBe('demo')
    await w.running
    const g0 = w.refreshStatus().generation
    expect(w.refreshStatus().lastRefreshed).not.toBeNull()

    await w.refresh({ full: true })
    w.refreshCancel()
    await w.running
    const s = w.refreshStatus()
    expect(s.running).toBe(false)
    expect(s.lastError).toMatch(/cancelled/)
    expect(s.generation).toBe(g0)
    const after = await dispatch(w, 'overview', {})
    expect(after).toEqual(overview)

    await w.refresh({ full: false })
    await w.running
    const g1 = w.refreshStatus().generation
    expect(g1).toBe(g0 + 1)
    expect(w.refreshStatus().nextAuto).toBe(new Date(Date.UTC(2026, 10, 20, 10, 40)).toISOString())
    clock = Date.UTC(2026, 10, 20, 10, 39)
    expect(await w.autoRefreshTick()).toBe(false)
    expect(w.refreshStatus().generation).toBe(g1)
    clock = Date.UTC(2026, 10, 20, 10, 41)
    expect(await w.autoRefreshTick()).toBe(true)
    await w.running
    expect(w.refreshStatus().generation).toBe(g1 + 1)
    expect(w.refreshStatus().nextAuto).toBe(new Date(Date.UTC(2026, 10, 20, 11, 40)).toISOString())
    await w.dispose()
  })

  it("polls the due hour's manifest every minute until it lands, then refreshes; nothing between polls", async () => {
    // The demo's due hour (its own instant) without its manifest: taken aside in a copy of its own, its time kept.
    const own = await generateDemo({ days: 8 })
    const now = Date.parse(own.expected.now)
    const hour = new Date(Math.floor((now - 40 * 60_000) / 3_600_000) * 3_600_000).toISOString()
    const folder = join(own.bucketDir, `v2/_manifests/snapshot_date=${hour.slice(0, 10)}/snapshot_hour=${hour.slice(11, 13)}`)
    const aside = join(work, 'manifest-aside')
    await rename(folder, aside)
    try {
      let clock = Date.UTC(2026, 10, 20, 10, 5)
      const w = new Workspace({
        dataDir: join(work, 'poll'),
        secrets: new MemorySecretStore(),
        demo: { bucketDir: own.bucketDir, now },
        clock: () => clock
      })
      await dispatch(w, 'overview', {})
      await w.running
      const g = w.refreshStatus().generation
      expect(w.refreshStatus().nextAuto).toBe(new Date(Date.UTC(2026, 10, 20, 10, 6)).toISOString())
      clock = Date.UTC(2026, 10, 20, 10, 5, 30)
      expect(await w.autoRefreshTick()).toBe(false)
      clock = Date.UTC(2026, 10, 20, 10, 6)
      // A poll: not landed, no refresh, the next poll a minute on.
      expect(await w.autoRefreshTick()).toBe(false)
      expect(w.refreshStatus()).toMatchObject({ generation: g, running: false, nextAuto: new Date(Date.UTC(2026, 10, 20, 10, 7)).toISOString() })
      await rename(aside, folder)
      clock = Date.UTC(2026, 10, 20, 10, 7)
      expect(await w.autoRefreshTick()).toBe(true)
      await w.running
      expect(w.refreshStatus().generation).toBe(g + 1)
      // Landed and read: the next check is the next due time.
      expect(w.refreshStatus().nextAuto).toBe(new Date(Date.UTC(2026, 10, 20, 10, 40)).toISOString())
      await w.dispose()
    } finally {
      await own.cleanup()
    }
  })

  it('dispose during the mirror build stops it and resolves only when nothing more is written under the data folder', async () => {
    const dataDir = join(work, 'dispose')
    const w = new Workspace({
      dataDir,
      secrets: new MemorySecretStore(),
      demo: { bucketDir: demo.bucketDir, now: Date.parse(demo.expected.now) },
      autoRefresh: false
    })
    await dispatch(w, 'overview', {})
    await w.running
    // The first refresh started the mirror's build in the background; it is under way now.
    const mirrorDir = join(dataDir, 'mirror', 'demo')
    const deadline = Date.now() + 20_000
    while (!existsSync(mirrorDir) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10))
    expect(existsSync(mirrorDir)).toBe(true)
    await w.dispose()
    const tree = async (): Promise<string[]> => (await readdir(dataDir, { recursive: true })).map(String).sort()
    const atDispose = await tree()
    expect(atDispose.filter((f) => f.includes('.build-'))).toEqual([])
    await new Promise((r) => setTimeout(r, 1500))
    expect(await tree()).toEqual(atDispose)
  })

  it('keeps saved connections across restarts; a connection that cannot open leaves the open one', async () => {
    const secrets = new MemorySecretStore()
    const opts = { dataDir: join(work, 'b'), secrets, demo: { bucketDir: demo.bucketDir, now: Date.parse(demo.expected.now) }, autoRefresh: false }
    const w = new Workspace(opts)
    const saved = await w.connectionSave({ connection: { name: 'copy', provider: 'local', path: demo.bucketDir } as never })
    const k = await w.connectionSave({
      connection: {
        name: 'keys',
        provider: 's3',
        bucket: 'b',
        prefix: '',
        endpoint: 'http://127.0.0.1:9',
        auth: { kind: 'static', accessKeyId: 'AK' }
      } as never,
      secretAccessKey: 'sekret'
    })
    expect(await secrets.get(`s3-secret-${k.id}`)).toBe('sekret')
    await w.connectionOpen({ id: saved.id })
    await w.dispose()
    const again = new Workspace(opts)
    const view = await again.connections()
    expect(view.connections.map((c) => c.name)).toEqual(['Demo bucket (built in)', 'copy', 'keys'])
    await again.connectionOpen({ id: saved.id })
    await again.running
    // Its secret removed from the store: opening it fails with what to do, and the open connection stays.
    await secrets.delete(`s3-secret-${k.id}`)
    const r = await dispatch(again, 'connectionOpen', { id: k.id })
    expect(r.ok).toBe(false)
    if (!r.ok) expect('refused' in r ? r.refused.message : r.error).toMatch(/secret key .* not saved.*enter the secret key again/i)
    expect((await again.connections()).active).toBe(saved.id)
    await again.connectionDelete({ id: k.id })
    expect((await again.connections()).connections.map((c) => c.name)).toEqual(['Demo bucket (built in)', 'copy'])
    await again.dispose()
  })

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
