// A follow target runs code as the user (a command) or sends the incidents anywhere (a webhook), so adding one, and
// "Send a test", are API calls a hostile page or local process must not make (issue 22). Against the real web host:
// without the session secret, with a foreign Origin or as a form post, nothing is added and nothing runs. And a
// webhook's URL is a secret: it goes into the secret store and never comes back, in no answer, no event, no file.
import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MemorySecretStore } from '../../src/main/connections/secret-store'
import { type WebHost, startWebHost } from '../../src/main/web-host'
import { Workspace } from '../../src/main/workspace/workspace'
import { SESSION_HEADER } from '../../src/shared/web-session'
import { RECEIVER_TOKEN, type WebhookReceiver, startWebhookReceiver } from '../helpers/webhook-receiver'
import { type ApiSession, openApiSession } from '../helpers/web-session'

let work = ''
let w: Workspace
let host: WebHost
let api: ApiSession
let hook: WebhookReceiver
const secrets = new MemorySecretStore()
const events: string[] = []

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'ee-follow-attack-'))
  // An empty folder as the demo and no page: the API is what is attacked.
  await mkdir(join(work, 'bucket'))
  await mkdir(join(work, 'renderer'))
  w = new Workspace({ dataDir: join(work, 'data'), secrets, demo: { bucketDir: join(work, 'bucket'), now: Date.now() }, autoRefresh: false })
  w.events.on((e) => events.push(JSON.stringify(e)))
  host = await startWebHost({ workspace: w, rendererDir: join(work, 'renderer') })
  api = await openApiSession(host)
  hook = await startWebhookReceiver()
}, 120_000)
afterAll(async () => {
  await hook?.close()
  await host?.close()
  await w?.dispose()
  if (work) await rm(work, { recursive: true, force: true })
})

const pwned = (): string => join(work, 'pwned')

describe('follow targets under attack', () => {
  it('adds no target and runs nothing without the session, from another origin, or as a form post', async () => {
    const add = JSON.stringify({ kind: 'command', value: `touch '${pwned()}'` })
    const attempts: [string, Record<string, string>][] = [
      ['no secret', { origin: host.origin, 'content-type': 'application/json' }],
      ['a foreign Origin', { origin: 'http://evil.example', [SESSION_HEADER]: api.secret, 'content-type': 'application/json' }],
      ['another loopback port', { origin: 'http://127.0.0.1:1', [SESSION_HEADER]: api.secret, 'content-type': 'application/json' }],
      ['a form post', { origin: 'http://evil.example', 'content-type': 'text/plain' }]
    ]
    for (const [name, headers] of attempts) {
      const r = await fetch(`${host.origin}/api/followTargetAdd`, { method: 'POST', headers, body: add })
      expect(r.status, name).toBe(403)
    }
    expect((await w.followSettings()).targets).toEqual([])

    // A target the user added: a test of it needs the session as well.
    const ok = await api.post('followTargetAdd', { kind: 'command', value: `touch '${pwned()}'` })
    expect(ok.status).toBe(200)
    const { id } = ((await ok.json()) as { result: { targets: { id: string }[] } }).result.targets[0]!
    for (const [name, headers] of attempts) {
      const r = await fetch(`${host.origin}/api/followTargetTest`, { method: 'POST', headers, body: JSON.stringify({ id }) })
      expect(r.status, name).toBe(403)
      const gone = await fetch(`${host.origin}/api/followTargetRemove`, { method: 'POST', headers, body: JSON.stringify({ id }) })
      expect(gone.status, name).toBe(403)
    }
    expect(existsSync(pwned())).toBe(false)
    expect((await w.followSettings()).targets.map((t) => t.id)).toEqual([id])
    expect((await api.post('followTargetRemove', { id })).status).toBe(200)
  })

  it('refuses a webhook that is not http or https, saying so', async () => {
    for (const value of ['file:///etc/passwd', 'javascript:alert(1)', 'not a url']) {
      const r = await api.post('followTargetAdd', { kind: 'webhook', value })
      expect(r.status, value).toBe(400)
      expect(JSON.stringify(await r.json())).toMatch(/webhook/)
    }
  })

  it('never gives the webhook URL back: answers, events and files hold its origin and path only', async () => {
    const answers: string[] = []
    const add = await api.post('followTargetAdd', { kind: 'webhook', value: hook.url })
    answers.push(await add.text())
    const { id, name } = (JSON.parse(answers[0]!) as { result: { targets: { id: string; name: string }[] } }).result.targets[0]!
    expect(name).toBe(`${new URL(hook.url).origin}/hooks/T000`)
    const test = await api.post('followTargetTest', { id })
    answers.push(await test.text())
    expect(hook.bodies.map((b) => b.test)).toEqual([true])
    for (const call of ['followSettings', 'connections', 'overview']) answers.push(await (await api.post(call)).text())
    await w.refresh({ full: true })
    await w.running
    await w.telling
    expect(events.length).toBeGreaterThan(0)
    for (const text of [...answers, ...events]) expect(text).not.toContain(RECEIVER_TOKEN)
    // In the secret store, and in no file the app wrote.
    expect(JSON.stringify(await secrets.get(`follow-webhook-${id}`))).toContain(RECEIVER_TOKEN)
    const files = (await readdir(join(work, 'data'), { recursive: true, withFileTypes: true })).filter((d) => d.isFile())
    expect(files.length).toBeGreaterThan(0)
    // A temporary file the mirror renamed meanwhile is gone: nothing in it to find.
    for (const f of files) expect(await readFile(join(f.parentPath, f.name), 'utf8').catch(() => ''), f.name).not.toContain(RECEIVER_TOKEN)
  })

  it('deleting a connection deletes its webhooks from the secret store, and its targets', async () => {
    const { id } = await w.connectionSave({ connection: { name: 'A copy', provider: 'local', path: join(work, 'bucket') } })
    await w.connectionOpen({ id })
    await w.running
    const added = await api.post('followTargetAdd', { kind: 'webhook', value: hook.url })
    expect(added.status).toBe(200)
    const [target] = (await w.followSettings()).targets
    expect(await secrets.get(`follow-webhook-${target!.id}`)).toContain(RECEIVER_TOKEN)
    await w.connectionDelete({ id })
    expect(await secrets.get(`follow-webhook-${target!.id}`)).toBeNull()
    const files = (await readdir(join(work, 'data'), { recursive: true, withFileTypes: true })).filter((d) => d.isFile())
    for (const f of files) expect(await readFile(join(f.parentPath, f.name), 'utf8').catch(() => ''), f.name).not.toContain(target!.id)
  })
})
