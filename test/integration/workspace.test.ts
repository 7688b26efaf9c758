// The workspace behind both transports: the demo connection opens on first use, a refresh can be cancelled
// and loses nothing, the automatic refresh starts after the hour's 40-minute mark and not before, saved
// connections survive a restart, and a connection that cannot be opened leaves the open one in place.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { dispatch } from '../../src/main/api-handlers'
import { MemorySecretStore } from '../../src/main/connections/secret-store'
import { Workspace } from '../../src/main/workspace'
import { type Demo, generateDemo } from '../helpers/demo'

let demo: Demo
let work: string

beforeAll(async () => {
  demo = await generateDemo({ days: 8 })
  work = await mkdtemp(join(tmpdir(), 'ee-ws-'))
}, 120_000)
afterAll(async () => {
  await demo?.cleanup()
  if (work) await rm(work, { recursive: true, force: true })
})

describe('Workspace', () => {
  it('opens the demo first, refreshes, cancels without losing what is shown, and refreshes itself after :40', async () => {
    let clock = Date.UTC(2026, 10, 20, 10, 5)
    const w = new Workspace({ dataDir: join(work, 'a'), secrets: new MemorySecretStore(), demo: { bucketDir: demo.bucketDir, now: Date.parse(demo.expected.now) }, clock: () => clock })
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
    w.dispose()
  })

  it('keeps saved connections across restarts; a connection that cannot open leaves the open one', async () => {
    const secrets = new MemorySecretStore()
    const opts = { dataDir: join(work, 'b'), secrets, demo: { bucketDir: demo.bucketDir, now: Date.parse(demo.expected.now) }, autoRefresh: false }
    const w = new Workspace(opts)
    const saved = await w.connectionSave({ connection: { name: 'copy', provider: 'local', path: demo.bucketDir } as never })
    const k = await w.connectionSave({ connection: { name: 'keys', provider: 's3', bucket: 'b', prefix: '', endpoint: 'http://127.0.0.1:9', auth: { kind: 'static', accessKeyId: 'AK' } } as never, secretAccessKey: 'sekret' })
    expect(await secrets.get(`s3-secret-${k.id}`)).toBe('sekret')
    await w.connectionOpen({ id: saved.id })
    w.dispose()
    const again = new Workspace(opts)
    const view = await again.connections()
    expect(view.connections.map((c) => c.name)).toEqual(['Demo bucket (built in)', 'copy', 'keys'])
    await again.connectionOpen({ id: saved.id })
    await again.running
    // Its secret removed from the store: opening it fails with what to do, and the open connection stays.
    await secrets.delete(`s3-secret-${k.id}`)
    const r = await dispatch(again, 'connectionOpen', { id: k.id })
    expect(r.ok).toBe(false)
    if (!r.ok) expect(r.error).toMatch(/secret key .* not saved.*enter the secret key again/i)
    expect((await again.connections()).active).toBe(saved.id)
    await again.connectionDelete({ id: k.id })
    expect((await again.connections()).connections.map((c) => c.name)).toEqual(['Demo bucket (built in)', 'copy'])
    again.dispose()
  })
})
