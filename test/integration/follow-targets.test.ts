// The app's follow targets in Node, on a real Workspace over the generated demo bucket, through the store's actions
// and the same dispatch the web host and IPC use: a webhook receiver on 127.0.0.1, a command that appends its stdin
// to a file, and a dead webhook. "Send a test" reaches each with its answer; after a baseline refresh, a copy that
// goes missing is told once to each live target; the dead one is retried, then shows a clear problem while the app
// goes on; a restarted app repeats nothing; the webhook's URL is never in an answer, an event or a file.
import { existsSync } from 'node:fs'
import { mkdtemp, readdir, readFile, rename, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MemorySecretStore } from '../../src/main/connections/secret-store'
import type { PushedEvent } from '../../src/main/main-events'
import { Workspace } from '../../src/main/workspace/workspace'
import { payloadProblem } from '../../src/shared/api/check-answer'
import { createAppStore } from '../../src/renderer/src/store/app-store'
import type { IncidentPayload } from '../../src/shared/follow/incident-payload'
import { type Demo, generateDemo } from '../helpers/demo'
import { RECEIVER_TOKEN, type WebhookReceiver, closedPort, startWebhookReceiver } from '../helpers/webhook-receiver'
import { workspacePort } from '../helpers/workspace-port'
import { newestReadyFolder } from '../helpers/local-bucket'

let demo: Demo
let work: string
let hook: WebhookReceiver
// One secret store for both runs of the app (the keychain outlives the app).
const secrets = new MemorySecretStore()
const events: PushedEvent[] = []

const open = (): Workspace => {
  const w = new Workspace({
    dataDir: join(work, 'data'),
    secrets,
    demo: { bucketDir: demo.bucketDir, now: Date.parse(demo.expected.now) },
    autoRefresh: false,
    webhook: { retries: 2, minTimeoutMs: 5 }
  })
  w.events.on((e) => events.push(e))
  return w
}

beforeAll(async () => {
  demo = await generateDemo({ days: 8 })
  work = await mkdtemp(join(tmpdir(), 'ee-follow-targets-'))
  hook = await startWebhookReceiver()
}, 120_000)
afterAll(async () => {
  await hook?.close()
  await demo?.cleanup()
  if (work) await rm(work, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 })
})

/** A full refresh (a renamed folder is seen) to its end, and the targets told what it found. */
async function refreshed(w: Workspace): Promise<void> {
  await w.refresh({ full: true })
  await w.running
  await w.telling
  expect(w.refreshStatus().lastError).toBeNull()
}

const lines = async (file: string): Promise<IncidentPayload[]> =>
  existsSync(file)
    ? (await readFile(file, 'utf8'))
        .trim()
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as IncidentPayload)
    : []

describe('the follow targets of the app', () => {
  it('tests each target, tells a missing copy once per target, says a dead webhook and repeats nothing after a restart', async () => {
    const out = join(work, 'told.jsonl')
    const deadUrl = `http://127.0.0.1:${await closedPort()}/hooks/dead?token=${RECEIVER_TOKEN}`
    const { tableDir, folder } = await newestReadyFolder(demo.bucketDir, 'v2/datamart_claudia/claudia_csat')
    let w = open()
    const store = createAppStore({ api: workspacePort(w) })
    const off = store.getState().followEvents()
    try {
      await store.getState().loadFollow()
      await w.running
      expect(await store.getState().addFollowTarget('webhook', 'file:///etc/passwd')).toBe(false)
      expect(store.getState().followTargetError).toMatch(/A webhook is an http or https URL, not file:/)
      expect(await store.getState().addFollowTarget('webhook', hook.url)).toBe(true)
      expect(await store.getState().addFollowTarget('command', `cat >> '${out}'`)).toBe(true)
      expect(await store.getState().addFollowTarget('webhook', deadUrl)).toBe(true)
      const [live, command, dead] = store.getState().follow!.targets
      expect(live).toMatchObject({ kind: 'webhook', name: new URL(hook.url).origin + '/hooks/T000', deliveries: [], problem: null })
      expect(command).toMatchObject({ kind: 'command', name: `cat >> '${out}'` })

      // "Send a test": marked as one, answered, listed.
      await store.getState().testFollowTarget(live!.id)
      expect(hook.bodies).toHaveLength(1)
      expect(hook.bodies[0]).toMatchObject({ test: true, kind: 'test', text: expect.stringMatching(/^\[TEST\] /) })
      await store.getState().testFollowTarget(command!.id)
      expect((await lines(out)).map((b) => b.test)).toEqual([true])
      const shown = (id: string) => store.getState().follow!.targets.find((t) => t.id === id)!
      expect(shown(live!.id).deliveries[0]).toMatchObject({ test: true, ok: true, answer: 'HTTP 200' })
      expect(shown(command!.id).deliveries[0]).toMatchObject({ test: true, ok: true, answer: 'exit code 0' })
      await store.getState().testFollowTarget(dead!.id)
      expect(shown(dead!.id).deliveries[0]).toMatchObject({ test: true, ok: false })
      expect(shown(dead!.id).deliveries[0]!.answer).toMatch(
        /the webhook http:\/\/127\.0\.0\.1:\d+\/hooks\/dead could not be told after 3 attempts: ECONNREFUSED/
      )

      // The baseline: what was open when the targets were added is not news.
      await refreshed(w)
      expect(hook.bodies).toHaveLength(1)

      // The newest ready copy's folder taken aside (renamed: its files keep their times): that hour's copy is missing.
      await rename(join(tableDir, folder), join(work, 'aside'))
      await refreshed(w)
      const told = hook.bodies.slice(1)
      const missing = told.filter((b) => b.kind === 'missing' && b.tables.includes('claudia_csat') && b.status === 'open')
      expect(missing, JSON.stringify(told)).toHaveLength(1)
      expect(new Set(told.map((b) => b.fingerprint)).size).toBe(told.length)
      expect((await lines(out)).slice(1).map((b) => b.fingerprint)).toEqual(told.map((b) => b.fingerprint))
      // Pushed to the panel: each delivery with its answer; the dead webhook's problem, its changes kept.
      expect(shown(live!.id).deliveries[0]).toMatchObject({ test: false, ok: true, answer: 'HTTP 200' })
      expect(shown(live!.id).deliveries.some((d) => d.summary === missing[0]!.summary)).toBe(true)
      expect(shown(dead!.id).problem).toMatch(/could not be told after 3 attempts: ECONNREFUSED\. It is told again after the next refresh\./)
      expect(shown(dead!.id).pending).toBe(told.length)
      expect(shown(live!.id).problem).toBeNull()
      // The app goes on: the next refresh, the overview.
      expect((await w.sessionOrOpenFirst()).snapshot.loaded).toBe(true)
    } finally {
      off()
      await w.dispose()
    }

    // A restart, the folder back meanwhile: its return is told once after the restart, nothing told before is
    // repeated, and the dead webhook, tried again, still says why and owes the return too.
    await rename(join(work, 'aside'), join(tableDir, folder))
    const before = hook.bodies.length
    const commandBefore = (await lines(out)).length
    w = open()
    try {
      await w.followSettings()
      await w.running
      await w.telling
      await refreshed(w)
      const back = hook.bodies.slice(before)
      // The copy back: the manifest agrees again (resolved), and the hour's missing tables no longer hold it.
      expect(
        back.filter((b) => b.change === 'resolved' && b.tables.includes('claudia_csat')),
        JSON.stringify(back)
      ).toHaveLength(1)
      expect(back.some((b) => b.kind === 'missing' && b.status === 'open' && !b.tables.includes('claudia_csat'))).toBe(true)
      expect(new Set(hook.bodies.slice(1).map((b) => b.fingerprint)).size).toBe(hook.bodies.length - 1)
      expect((await lines(out)).slice(commandBefore).map((b) => b.fingerprint)).toEqual(back.map((b) => b.fingerprint))
      await refreshed(w)
      expect(hook.bodies).toHaveLength(before + back.length)
      const view = await w.followSettings()
      const stillDead = view.targets.find((t) => t.name.endsWith('/hooks/dead'))
      expect(stillDead?.problem).toMatch(/ECONNREFUSED/)
      expect(stillDead?.pending).toBe(hook.bodies.length - 1)
    } finally {
      await w.dispose()
    }
    expect(events.map((e) => payloadProblem(e.name, e.payload)).filter((p) => p !== null)).toEqual([])
    // The webhook's URL (its token) is in no answer, no event and no file the app wrote.
    expect(events.length).toBeGreaterThan(0)
    expect(events.filter((e) => e.name === 'followDelivered').length).toBeGreaterThan(0)
    expect(events.map((e) => JSON.stringify(e)).filter((e) => e.includes(RECEIVER_TOKEN))).toEqual([])
    const files = (await readdir(join(work, 'data'), { recursive: true, withFileTypes: true })).filter((d) => d.isFile())
    // A temporary file the mirror renamed meanwhile is gone: nothing in it to find.
    for (const f of files) expect(await readFile(join(f.parentPath, f.name), 'utf8').catch(() => ''), f.name).not.toContain(RECEIVER_TOKEN)
  })
})
