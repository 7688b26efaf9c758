// The workspace behind both transports: the demo connection opens on first use, a refresh can be cancelled
// and loses nothing, the automatic refresh starts after the hour's 40-minute mark and not before, the due hour's
// manifest polled (one listing) until it lands and then refreshed, saved connections survive a restart, and a
// connection that cannot be opened leaves the open one in place. (Exports and the hour inspector: workspace-alone.)
import { existsSync } from 'node:fs'
import { mkdtemp, readdir, rename, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { dispatch } from '../../src/main/api-handlers'
import { MemorySecretStore } from '../../src/main/connections/secret-store'
import { Workspace } from '../../src/main/workspace/workspace'
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
})
