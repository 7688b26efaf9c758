// The follow slice in Node (zustand/vanilla) on a real Workspace over the generated demo bucket, through the same
// dispatch the web host and IPC use, with a notifier that keeps what the desktop would show: the setting saved with
// the connection (and read back by another workspace); the first load is the baseline; a copy that goes missing
// between two refreshes is told once, and its return as resolved; the open errors counted.
import { mkdtemp, rename, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MemorySecretStore } from '../../src/main/connections/secret-store'
import { Workspace } from '../../src/main/workspace/workspace'
import type { DesktopNotification } from '../../src/renderer/src/follow/desktop-notifications'
import { createAppStore, type AppStore } from '../../src/renderer/src/store/app-store'
import type { DesktopNotifier } from '../../src/renderer/src/store/follow-slice'
import { type Demo, generateDemo } from '../helpers/demo'
import { until, workspacePort } from '../helpers/workspace-port'
import { newestReadyFolder } from '../helpers/local-bucket'

let demo: Demo
let work: string
let workspace: Workspace
let store: AppStore
const shown: DesktopNotification[] = []
const desktop: DesktopNotifier = { permission: () => 'granted', request: async () => 'granted', show: (n) => void shown.push(n) }

const open = (): Workspace =>
  new Workspace({
    dataDir: join(work, 'data'),
    secrets: new MemorySecretStore(),
    demo: { bucketDir: demo.bucketDir, now: Date.parse(demo.expected.now) },
    autoRefresh: false
  })

beforeAll(async () => {
  demo = await generateDemo({ days: 8 })
  work = await mkdtemp(join(tmpdir(), 'ee-follow-slice-'))
  workspace = open()
  store = createAppStore({ api: workspacePort(workspace), notifier: desktop })
}, 120_000)
afterAll(async () => {
  await workspace?.dispose()
  await demo?.cleanup()
  if (work) await rm(work, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 })
})

/** A refresh to its end, and the deliveries it reloads. */
async function refreshed(): Promise<void> {
  const before = store.getState().shownGeneration
  await store.getState().refresh(true)
  await until(() => store.getState().shownGeneration > before && store.getState().timeline !== null && !store.getState().refreshStatus?.running, 180_000)
  await store.getState().reloadDeliveries()
}

describe('the follow slice', () => {
  it('keeps the setting with the connection, baselines, tells a missing copy once and its return', async () => {
    const off = store.getState().followEvents()
    try {
      await store.getState().reloadDeliveries()
      await until(() => store.getState().follow !== null && store.getState().timeline !== null, 180_000)
      await workspace.running
      await store.getState().reloadDeliveries()
      expect(store.getState().follow).toMatchObject({ connectionId: 'demo', notify: 'errors', targets: [] })
      await store.getState().setNotify('all')
      expect(store.getState().follow?.notify).toBe('all')
      const other = open()
      expect(await other.followSettings()).toMatchObject({ connectionId: 'demo', notify: 'all' })
      await other.dispose()
      // The baseline: what was open is counted, not told.
      expect(shown).toEqual([])
      const openBefore = store.getState().openErrors

      // The newest ready copy's folder taken aside (renamed: its files keep their times): that hour's copy is missing.
      const { tableDir, folder } = await newestReadyFolder(demo.bucketDir, 'v2/datamart_claudia/claudia_csat')
      await rename(join(tableDir, folder), join(work, 'aside'))
      await refreshed()
      const [, date, hour] = /snapshot_date=(\d{4}-\d{2}-\d{2})\/snapshot_hour=(\d{2})/.exec(folder) ?? []
      const missing = shown.filter((n) => n.title.startsWith(`${date} ${hour}:00 UTC: `) && n.body.includes('claudia_csat'))
      expect(missing, JSON.stringify(shown)).toHaveLength(1)
      expect(store.getState().told[0]).toMatchObject({ title: missing[0]!.title, shown: true })
      const told = shown.length
      await refreshed()
      expect(shown).toHaveLength(told)

      await rename(join(work, 'aside'), join(tableDir, folder))
      await refreshed()
      const back = shown.slice(told)
      expect(
        back.some((n) => n.title.startsWith(`${date} ${hour}:00 UTC: `) && /Resolved/.test(`${n.title} ${n.body}`) && n.body.includes('claudia_csat')),
        JSON.stringify(back)
      ).toBe(true)
      expect(store.getState().openErrors).toBe(openBefore)
    } finally {
      off()
    }
  })
})
