// The app in a real browser through the web host, on a generated bucket opened as the built-in demo: the
// host's guards (one-time token exchanged for a session secret sent in a header, Host and Origin headers, JSON
// bodies, body limits, argument validation, another Unix user; the attacks on the session are test/security/), the overview, the timeline (cells clicked where they are
// drawn, keyboard, zoom, axis zone), the findings list that jumps to its hour, and the inspector.
// Screenshots are saved under test-results/.
import { execFile } from 'node:child_process'
import { mkdir, mkdtemp, readFile, readdir, rm, symlink, writeFile } from 'node:fs/promises'
import { type IncomingMessage, request } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MemorySecretStore } from '../../src/main/connections/secret-store'
import { MAX_BODY_BYTES, type WebHost, startWebHost } from '../../src/main/web-host'
import { Workspace } from '../../src/main/workspace/workspace'
import { CATALOG } from '../../src/shared/catalog'
import { clickCell, hourIso } from '../helpers/app-page'
import { type AppUnderTest, demoWorkspace, startAppUnderTest } from '../helpers/app-under-test'
import { type Demo } from '../helpers/demo'
import { type ApiSession, openApiSession } from '../helpers/web-session'

let app: AppUnderTest
let demo: Demo
let host: AppUnderTest['host']
let page: Page

beforeAll(async () => {
  app = await startAppUnderTest({
    workspace: demoWorkspace
  })
  ;({ demo, host, page } = app)
}, 300_000)
afterAll(async () => {
  await app?.close()
})

/** The API as the page calls it, on its own session (opened on first use). */
let apiSession: ApiSession | null = null
const post = async (call: string, body: string, headers?: Record<string, string>): Promise<Response> => {
  apiSession ??= await openApiSession(host)
  return fetch(`${host.origin}/api/${call}`, { method: 'POST', body, headers: headers ?? apiSession.headers })
}

/** A raw request (fetch cannot send a foreign Origin or split a body where we choose). */
function raw(
  base: string,
  opts: { method?: string; path: string; headers?: Record<string, string>; chunks?: readonly Buffer[] }
): Promise<{ status: number; headers: IncomingMessage['headers']; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(`${base}${opts.path}`, { method: opts.method ?? 'GET', headers: opts.headers ?? {} }, (res) => {
      const parts: Buffer[] = []
      res.on('data', (d: Buffer) => parts.push(d))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(parts).toString('utf8') }))
    })
    // The server may answer (413) and close before the whole body is sent: the answer counts, not the broken pipe.
    req.on('error', (e) => setTimeout(() => reject(e), 200))
    void (async () => {
      for (const c of opts.chunks ?? []) {
        req.write(c)
        // Each piece its own TCP segment: the server sees the body in these chunks.
        await new Promise((r) => setTimeout(r, 5))
      }
      req.end()
    })()
  })
}

describe('web host session', () => {
  let w: Workspace
  let h: WebHost
  let data: string
  let api: ApiSession
  /** The page's headers without the JSON content type (the tests below set their own). */
  let session: Record<string, string> = {}
  beforeAll(async () => {
    data = await mkdtemp(join(tmpdir(), 'ee-host-'))
    w = new Workspace({
      dataDir: data,
      secrets: new MemorySecretStore(),
      demo: { bucketDir: demo.bucketDir, now: Date.parse(demo.expected.now) },
      autoRefresh: false
    })
    h = await startWebHost({ workspace: w, rendererDir: app.rendererDir })
    // The printed address's exchange, as the page makes it; every test below calls the API on its session.
    api = await openApiSession(h, h.url)
    session = { origin: h.origin, 'x-export-explorer-session': api.secret }
  })
  afterAll(async () => {
    await h?.close()
    await w?.dispose()
    await rm(data, { recursive: true, force: true })
  })

  it('serves the page without a cookie or any secret in it, under a CSP header naming the byte server exactly', async () => {
    expect(h.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/#t=[0-9a-f]{64}$/)
    const pageRes = await fetch(`${h.origin}/`)
    expect(pageRes.status).toBe(200)
    expect(pageRes.headers.getSetCookie()).toEqual([])
    const html = await pageRes.text()
    expect(html).toContain('<div id="root">')
    // Nothing secret in the page: neither a launch token nor a session, and no API address to find one in.
    expect(html).not.toContain(api.secret)
    expect(html).not.toContain('ee-api')
    // The CSP is a header, naming the byte server's exact origin (no loopback wildcard).
    const csp = pageRes.headers.get('content-security-policy') ?? ''
    expect(csp).toContain(`connect-src 'self' ${await w.byteServerOrigin()}`)
    expect(csp).not.toContain('127.0.0.1:*')
    expect(csp).toContain("frame-ancestors 'none'")
    expect(pageRes.headers.get('x-frame-options')).toBe('DENY')
    expect(pageRes.headers.get('referrer-policy')).toBe('no-referrer')
  })

  it("serves the bundled stylesheet as text/css, and the CSP allows only the app's own stylesheets", async () => {
    const pageRes = await fetch(`${h.origin}/`)
    const csp = pageRes.headers.get('content-security-policy') ?? ''
    expect(csp).toContain("style-src 'self'")
    const sheet = /<link rel="stylesheet"[^>]* href="\.?(\/assets\/[^"]+\.css)"/.exec(await pageRes.text())?.[1] as string
    expect(sheet).toBeTruthy()
    const res = await fetch(`${h.origin}${sheet}`)
    expect(res.status).toBe(200)
    // With nosniff, a stylesheet of any other type is not applied.
    expect(res.headers.get('content-type')).toBe('text/css')
    expect(res.headers.get('x-content-type-options')).toBe('nosniff')
    expect(await res.text()).toContain('--cell-ready:')
  })

  it('pushes refresh progress and its end on the event stream, a POST of the session only', async () => {
    // The demo open and its first refresh over (when this test runs alone), so the next refresh is one generation on.
    expect((await api.post('overview')).status).toBe(200)
    await w.running
    const g = w.refreshStatus().generation
    const abort = new AbortController()
    const res = await fetch(`${h.origin}/api/events`, { method: 'POST', headers: session, signal: abort.signal })
    expect([res.status, res.headers.get('content-type')]).toEqual([200, 'application/x-ndjson'])
    const reader = (res.body as ReadableStream<Uint8Array>).getReader()
    const decoder = new TextDecoder()
    let text = ''
    const events: { name: string; payload: { running: boolean; generation: number } }[] = []
    const read = (async () => {
      while (!events.some((e) => e.name === 'refreshDone')) {
        const { value, done } = await reader.read()
        if (done) break
        text += decoder.decode(value, { stream: true })
        const lines = text.split('\n')
        text = lines.pop() ?? ''
        for (const line of lines) if (line) events.push(JSON.parse(line) as (typeof events)[number])
      }
    })()
    const started = await api.post('refresh', { full: true })
    expect(started.status).toBe(200)
    await read
    abort.abort()
    await w.running
    // The mirror's build (mirrorProgress, the first refresh's or this one's) may send its events before, between and after.
    const refreshEvents = events.filter((e) => e.name.startsWith('refresh'))
    expect(refreshEvents[0]).toMatchObject({ name: 'refreshProgress', payload: { running: true } })
    expect(refreshEvents.at(-1)).toMatchObject({ name: 'refreshDone', payload: { running: false, generation: g + 1 } })
  })

  it('refuses a foreign Origin, and a body that is not application/json', async () => {
    const base = h.origin
    const json = { ...session, 'content-type': 'application/json' }
    for (const origin of ['http://evil.example', `http://127.0.0.1:${Number(new URL(base).port) + 1}`, 'null']) {
      const r = await raw(base, { method: 'POST', path: '/api/connections', headers: { ...json, origin }, chunks: [Buffer.from('{}')] })
      expect(r.status, origin).toBe(403)
      expect(JSON.parse(r.body).error).toContain(`a request from ${origin}`)
      expect((await raw(base, { path: '/', headers: { origin } })).status).toBe(403)
    }
    expect((await raw(base, { method: 'POST', path: '/api/connections', headers: json, chunks: [Buffer.from('{}')] })).status).toBe(200)
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
      const r = await raw(base, { method: 'POST', path: '/api/connections', headers: { ...session, 'content-type': type }, chunks: [Buffer.from('{}')] })
      expect(r.status, type).toBe(415)
      expect(JSON.parse(r.body).error).toMatch(/application\/json bodies/)
    }
    expect((await raw(base, { method: 'POST', path: '/api/connections', headers: session, chunks: [Buffer.from('{}')] })).status).toBe(415)
    expect(
      (
        await raw(base, {
          method: 'POST',
          path: '/api/connections',
          headers: { ...session, 'content-type': 'application/json; charset=utf-8' },
          chunks: [Buffer.from('{}')]
        })
      ).status
    ).toBe(200)
  })

  it('decodes a body once it is whole: non-ASCII split across chunks survives; a 1,000,000-character SQL is admitted; over the limit is 413', async () => {
    const base = h.origin
    const headers = { ...session, 'content-type': 'application/json' }
    const sql = `SELECT '${'€'.repeat(15_000)}' AS euros`
    const body = Buffer.from(JSON.stringify({ sql, asOf: null, rows: 1, ms: 1, error: null }))
    // Cut in the middle of a 3-byte '€', then in pieces of odd sizes.
    const cut = body.indexOf(Buffer.from('€')) + 1
    const chunks = [
      body.subarray(0, cut),
      ...Array.from({ length: Math.ceil((body.length - cut) / 1001) }, (_, i) => body.subarray(cut + i * 1001, cut + (i + 1) * 1001))
    ]
    const r = await raw(base, { method: 'POST', path: '/api/historyAdd', headers, chunks })
    expect(r.status).toBe(200)
    const saved = (JSON.parse(r.body) as { result: { entries: { sql: string }[] } }).result.entries[0]?.sql
    expect(saved).toBe(sql)
    expect(saved).not.toContain('\uFFFD')

    const longest = `SELECT '${'€'.repeat(1_000_000 - 9)}'`
    expect(longest.length).toBe(1_000_000)
    const big = await fetch(`${base}/api/historyAdd`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ sql: longest, asOf: null, rows: null, ms: null, error: null })
    })
    expect(big.status).toBe(200)

    const over = await raw(base, {
      method: 'POST',
      path: '/api/historyAdd',
      headers: { ...headers, 'content-length': String(MAX_BODY_BYTES + 1) },
      chunks: [Buffer.alloc(MAX_BODY_BYTES + 1, 0x20)]
    })
    expect(over.status).toBe(413)
    expect(JSON.parse(over.body).error).toMatch(/larger than 4194304 bytes/)
    // Without a Content-Length (chunked), refused as it passes the limit.
    const chunked = await raw(base, {
      method: 'POST',
      path: '/api/historyAdd',
      headers: { ...headers, 'transfer-encoding': 'chunked' },
      chunks: [Buffer.alloc(MAX_BODY_BYTES / 2, 0x20), Buffer.alloc(MAX_BODY_BYTES / 2 + 10, 0x20)]
    })
    expect(chunked.status).toBe(413)
    const notUtf8 = await raw(base, { method: 'POST', path: '/api/historyAdd', headers, chunks: [Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d])] })
    expect(notUtf8.status).toBe(400)
    expect(JSON.parse(notUtf8.body).error).toMatch(/not UTF-8/)
  }, 60_000)

  it('saves a connection from its known fields only; refuses a secret-looking field, a ".." id and 3,000 levels of nesting', async () => {
    const call = (name: string, body: unknown) => api.post(name, body)
    let deep: unknown = 'x'
    for (let i = 0; i < 3000; i++) deep = { a: deep }
    const refusedDeep = await call('connectionSave', { connection: { name: 'deep', provider: 'local', path: '/data/x', extra: deep } })
    expect(refusedDeep.status).toBe(400)
    expect(((await refusedDeep.json()) as { refused: { code: string; message: string } }).refused).toEqual({
      code: 'bad_argument',
      message: expect.stringMatching(/nested more than 8 levels/)
    })
    const refusedSecret = await call('connectionSave', {
      connection: { name: 'k', provider: 's3', bucket: 'b', prefix: '', auth: { kind: 'static', accessKeyId: 'AKIAEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI' } }
    })
    expect(refusedSecret.status).toBe(400)
    expect(((await refusedSecret.json()) as { refused: { code: string; message: string } }).refused).toEqual({
      code: 'bad_argument',
      message: expect.stringMatching(/auth\.secretAccessKey looks like a secret/)
    })
    expect((await call('connectionSave', { connection: { id: '..', name: 'up', provider: 'local', path: '/data/x' } })).status).toBe(400)
    const saved = await call('connectionSave', { connection: { name: 'copy', provider: 'local', path: '/data/x', notes: 'kept out', nested: { a: { b: 1 } } } })
    expect(saved.status).toBe(200)
    const file = await readFile(join(data, 'connections.json'), 'utf8')
    expect(JSON.parse(file)).toEqual([{ id: expect.stringMatching(/^[0-9a-f-]{36}$/), name: 'copy', provider: 'local', path: '/data/x' }])
    expect(file).not.toMatch(/notes|nested|wJalr|deep/)
  })

  const asRoot = process.getuid?.() === 0
  it.skipIf(!asRoot)(
    'gives another Unix user (nobody) no data: the built page only, no session for a guessed token, no API even with the right Origin (as root only)',
    async () => {
      const script = `
      const base = process.argv[1]
      const json = { 'content-type': 'application/json' }
      const out = {}
      for (const [name, path, init] of [['page', '/', {}],
                                         ['guess', '/api/session', { method: 'POST', body: JSON.stringify({ token: '0'.repeat(64) }), headers: { ...json, origin: base } }],
                                         ['api', '/api/connections', { method: 'POST', body: '{}', headers: json }],
                                         ['forged', '/api/connections', { method: 'POST', body: '{}', headers: { ...json, origin: base, cookie: 'ee_session=' + '0'.repeat(64) } }]]) {
        const r = await fetch(base + path, init)
        out[name] = { status: r.status, body: (await r.text()).slice(0, 4000) }
      }
      console.log(JSON.stringify({ uid: process.getuid(), out }))`
      const { stdout } = await promisify(execFile)('runuser', ['-u', 'nobody', '--', process.execPath, '-e', script, h.origin], { timeout: 30_000 })
      const seen = JSON.parse(stdout) as { uid: number; out: Record<string, { status: number; body: string }> }
      expect(seen.uid).toBe(65534)
      // The renderer's built files are the same for everyone and hold no data.
      expect(seen.out['page']?.status).toBe(200)
      for (const [name, r] of Object.entries(seen.out)) {
        if (name !== 'page') expect(r.status, name).toBe(403)
        expect(r.body, name).not.toMatch(/"result"|Demo bucket|session":/i)
        expect(r.body, name).not.toContain(api.secret)
      }
      expect(seen.out['guess']?.body).toMatch(/press Enter in its terminal for a new one/)
    },
    60_000
  )
})

describe('export folder through the web host', () => {
  let w: Workspace
  let h: WebHost
  let root: string
  let exportDir: string
  let api: ApiSession
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'ee-exports-'))
    // Not created yet: the first export creates it (and nothing else).
    exportDir = join(root, 'Downloads')
    await mkdir(join(root, 'elsewhere'))
    w = new Workspace({
      dataDir: join(root, 'data'),
      secrets: new MemorySecretStore(),
      demo: { bucketDir: demo.bucketDir, now: Date.parse(demo.expected.now) },
      autoRefresh: false,
      exportDir
    })
    h = await startWebHost({ workspace: w, rendererDir: app.rendererDir })
    api = await openApiSession(h, h.url)
  })
  afterAll(async () => {
    await h?.close()
    await w?.dispose()
    await rm(root, { recursive: true, force: true })
  })
  const call = async (
    name: string,
    args: unknown
  ): Promise<{
    status: number
    body: {
      result?: { id: string; state: string; error: string | null; rows: number; shown?: boolean; directory?: string }
      refused?: { code: string; message: string }
    }
  }> => {
    const r = await api.post(name, args)
    return { status: r.status, body: (await r.json()) as never }
  }
  const exportTo = (path: string) => call('exportStart', { sql: 'SELECT 42 AS answer', format: 'csv', path, overwrite: false, asOf: null })

  it('refuses a path outside the folder, a ../ path, a dot-file, a symlinked folder or file, and a new folder tree, each saying why', async () => {
    expect((await call('exportDefaults', {})).body.result?.directory).toBe(exportDir)
    await mkdir(exportDir)
    await symlink(join(root, 'elsewhere'), join(exportDir, 'linked'))
    await writeFile(join(root, 'elsewhere', 'target.csv'), 'kept')
    await symlink(join(root, 'elsewhere', 'target.csv'), join(exportDir, 'file-link.csv'))
    const cases: [string, RegExp][] = [
      [join(root, 'elsewhere', 'x.csv'), /is outside the export folder/],
      ['/root/.bashrc', /is outside the export folder/],
      [`${exportDir}/../elsewhere/x.csv`, /contains "\." or "\.\." segments/],
      [join(exportDir, '.bashrc'), /hidden \(dot\) file or folder/],
      [join(exportDir, 'linked', 'x.csv'), /linked is a symbolic link/],
      [join(exportDir, 'file-link.csv'), /file-link\.csv is a symbolic link/],
      [join(exportDir, 'new', 'deeper', 'x.csv'), /does not exist, and an export creates no folders/]
    ]
    for (const [path, reason] of cases) {
      const r = await exportTo(path)
      expect(r.status, path).toBe(403)
      expect(r.body.refused?.code, path).toBe('path_not_allowed')
      expect(r.body.refused?.message, path).toMatch(reason)
      expect(r.body.refused?.message, path).toMatch(/^Export refused: /)
    }
    // Nothing was written anywhere: the link target is intact, no folder was created.
    expect(await readFile(join(root, 'elsewhere', 'target.csv'), 'utf8')).toBe('kept')
    expect((await readdir(join(root, 'elsewhere'))).sort()).toEqual(['target.csv'])
    expect((await readdir(exportDir)).sort()).toEqual(['file-link.csv', 'linked'])
    await rm(exportDir, { recursive: true })
  })

  it('writes a normal file in the export folder (creating that folder only), and shows only a file it wrote', async () => {
    const target = join(exportDir, 'answer.csv')
    const started = await exportTo(target)
    expect(started.status).toBe(200)
    let job = started.body.result
    while (job?.state === 'running') job = (await call('exportStatus', { id: job.id })).body.result
    expect(job?.error ?? null).toBeNull()
    expect(job?.state).toBe('done')
    // Line ends are the engine's choice (\n or \r\n): the content is what counts.
    expect(await readFile(target, 'utf8')).toMatch(/^answer\r?\n42\r?\n$/)
    // "Show in folder" takes only a path an export of this session wrote.
    expect((await call('showInFolder', { path: target })).status).toBe(200)
    const other = await call('showInFolder', { path: '/root/.ssh/id_rsa' })
    expect(other.status).toBe(403)
    expect(other.body.refused?.message).toMatch(/only for a file an export of this session wrote/)
  }, 120_000)
})

describe('web host', () => {
  it('guards the API: session header, Host header, validated arguments, no secret in any answer', async () => {
    expect(
      (await post('overview', '{}', { origin: host.origin, 'content-type': 'application/json', 'x-export-explorer-session': '0'.repeat(64) })).status
    ).toBe(403)
    const ok = await post('overview', '{}')
    expect(ok.status).toBe(200)
    expect(((await ok.json()) as { result: { version: string } }).result.version).toBe('v2')
    expect((await post('timeline', '{"fromHours": "all"}')).status).toBe(400)
    expect((await post('timeline', '{"fromHours": 24, "extra": 1}')).status).toBe(400)
    expect((await post('hour', '{"start": "2026-11-05T14:30:00Z"}')).status).toBe(400)
    expect((await post('connectionOpen', '{"id": "../../etc"}')).status).toBe(400)
    expect((await post('noSuchCall', '{}')).status).toBe(404)
    expect((await post('overview', 'not json')).status).toBe(400)
    // A connection with a static key: the secret goes in, never comes out.
    const saved = await post(
      'connectionSave',
      JSON.stringify({
        connection: {
          name: 'k',
          provider: 's3',
          bucket: 'b',
          prefix: '',
          endpoint: 'http://127.0.0.1:9',
          auth: { kind: 'static', accessKeyId: 'AKIAEXAMPLE' }
        },
        secretAccessKey: 'very-secret-value'
      })
    )
    expect(saved.status).toBe(200)
    const { id } = ((await saved.json()) as { result: { id: string } }).result
    const answers = await Promise.all([post('connections', '{}'), post('connectionGet', JSON.stringify({ id }))].map(async (r) => (await r).text()))
    expect(answers[1]).toContain('AKIAEXAMPLE')
    for (const a of answers) expect(a).not.toContain('very-secret-value')
    expect((await post('connectionDelete', JSON.stringify({ id }))).status).toBe(200)
    expect((await post('connectionDelete', JSON.stringify({ id: 'demo' }))).status).toBe(403)
    const port = new URL(host.url).port
    const { request } = await import('node:http')
    const status = await new Promise<number>((r) =>
      request({ host: '127.0.0.1', port, path: '/', headers: { host: `evil.example:${port}` } }, (res) => r(res.statusCode ?? 0)).end()
    )
    expect(status).toBe(421)
  })

  it('opens on the demo bucket: overview, latest copies, and the planted faults where the generator put them', async () => {
    await page.goto(host.url)
    await page.waitForSelector('[data-testid=timeline-canvas]')
    const errors = demo.expected.faults.filter((f) => ['missing', 'failed', 'pending_not_caught_up', 'corrupt_file'].includes(f.kind)).length
    await expect.poll(() => page.locator('[data-testid=overview] [data-severity=error]').textContent()).toBe(`${errors} errors`)
    expect(await page.locator('[data-testid=version]').textContent()).toBe('v2')
    expect(await page.locator('select[aria-label=connection] option:checked').textContent()).toBe('Demo bucket (built in)')
    // The query engine (DuckDB-WASM's worker) starts once the user has left Deliveries alone for a while (no input
    // here), before any query asks for it.
    await expect.poll(() => page.workers().some((w) => /duckdb/i.test(w.url()))).toBe(true)
    // Latest ready copy of each table with its age.
    expect(await page.locator('[data-testid=latest-copies] tr[data-latest]').count()).toBe(CATALOG.length)
    const latestCsat = demo.expected.latest_ready['claudia_csat'] as { snapshot_date: string; snapshot_hour: string }
    expect(await page.locator('tr[data-latest=claudia_csat]').textContent()).toContain(`${latestCsat.snapshot_date} ${latestCsat.snapshot_hour}:00 UTC`)

    const p = demo.expected.planted_hours
    for (const t of ['claudia_csat', 'cloud_chat_tags', 'claudia_messages']) expect(await clickCell(page, t, hourIso(p['missingHour']!))).toBe('missing')
    for (const t of ['claudia_contents', 'cloud_chat_team_metrics']) expect(await clickCell(page, t, hourIso(p['lateHour']!))).toBe('late')
    expect(await clickCell(page, 'claudia_csat', hourIso(p['failedFolder']!))).toBe('failed')
    expect(await page.locator('[data-testid=timeline-status]').textContent()).toMatch(/UTC · \d\d:00 Brasília · \d\d:\d\d local · failed/)
    // The click opened the inspector: the failed folder's file, no _SUCCESS, and what to do.
    await expect.poll(() => page.locator('[data-inspector-table=claudia_csat]').textContent()).toMatch(/failed.*—.*part-00000\.parquet.*rows/)
    expect(await page.locator('[data-testid=inspector-findings]').textContent()).toMatch(/failed claudia_csat.*report it to the vendor/)
    await page.screenshot({ path: 'test-results/overview-timeline.png', fullPage: true })
  })

  it('moves through the timeline with the keyboard and opens an hour with Enter', async () => {
    const p = demo.expected.planted_hours
    await clickCell(page, 'claudia_csat', hourIso(p['lateHour']!))
    await page.keyboard.press('ArrowRight')
    const next = new Date(Date.parse(hourIso(p['lateHour']!)) + 3_600_000).toISOString()
    await expect.poll(() => page.locator('[data-testid=timeline-status]').getAttribute('data-hour')).toBe(next)
    await page.keyboard.press('ArrowLeft')
    await page.keyboard.press('ArrowUp')
    const status = page.locator('[data-testid=timeline-status]')
    const above = CATALOG[CATALOG.findIndex((t) => t.table === 'claudia_csat') - 1]?.table
    await expect.poll(() => status.getAttribute('data-table')).toBe(above)
    expect(await status.getAttribute('data-state')).toBe('late')
    await page.keyboard.press('Shift+ArrowLeft')
    await expect.poll(() => status.getAttribute('data-hour')).toBe(new Date(Date.parse(hourIso(p['lateHour']!)) - 24 * 3_600_000).toISOString())
    await page.keyboard.press('Enter')
    await expect
      .poll(() => page.locator('[data-testid=inspector] h2').textContent())
      .toContain(new Date(Date.parse(hourIso(p['lateHour']!)) - 24 * 3_600_000).toISOString().slice(0, 13).replace('T', ' '))
  })

  it('zooms with the keyboard, switches the axis to Brasília, and shows the whole export at once', async () => {
    const canvas = page.locator('[data-testid=timeline-canvas]')
    const before = Number(await canvas.getAttribute('data-pxh'))
    await canvas.focus()
    await page.keyboard.press('+')
    await expect.poll(async () => Number(await canvas.getAttribute('data-pxh'))).toBeCloseTo(before * 1.5, 3)
    await page.keyboard.press('-')
    await page.selectOption('select[aria-label="axis time zone"]', 'brasilia')
    await expect.poll(() => page.locator('[data-testid=heatmap]').textContent()).toContain('hour (Brasília)')
    await page.selectOption('select[aria-label="hours shown"]', String(366 * 24))
    // The whole export (8 days here) fits: fewer hours than a year, every one of them drawn.
    await expect.poll(async () => Number(await canvas.getAttribute('data-hours'))).toBeGreaterThan(8 * 24)
    expect(Number(await canvas.getAttribute('data-offset'))).toBeLessThanOrEqual(0)
    await page.screenshot({ path: 'test-results/timeline-whole-export-brasilia.png' })
    await page.selectOption('select[aria-label="axis time zone"]', 'utc')
  })

  it('jumps from a finding to its hour and shows the malformed manifest in the inspector', async () => {
    await page.selectOption('select[aria-label="hours shown"]', String(48))
    const finding = page.locator('[data-testid=findings] li[data-kind=manifest_malformed] button')
    expect(await finding.count()).toBe(1)
    // Older than the two days shown: the range widens to reach it.
    await finding.click()
    const at = hourIso(demo.expected.planted_hours['malformedManifest']!)
    await expect.poll(() => page.locator('[data-testid=timeline-status]').getAttribute('data-hour'), { timeout: 15_000 }).toBe(at)
    await expect.poll(() => page.locator('[data-testid=manifest-warnings]').textContent()).toMatch(/not valid JSON/)
    expect(await page.locator('[data-testid=inspector]').textContent()).toContain('Manifest: unreadable')
    await page.locator('[data-testid=inspector] summary', { hasText: 'Raw manifest' }).click()
    await page.screenshot({ path: 'test-results/inspector-malformed-manifest.png', fullPage: true })
  })

  it("shows the rules of issue 12 on the planted cases: a manifest that contradicts itself, an empty copy, the manifest's word over a partial folder", async () => {
    // One incident per hour and kind.
    for (const kind of ['manifest_contradiction', 'empty_copy', 'corrupt_file']) {
      expect(await page.locator(`[data-testid=findings] li[data-kind=${kind}]`).count(), kind).toBe(
        new Set(demo.expected.faults.filter((f) => f.kind === kind).map((f) => `${f.date} ${f.hour}`)).size
      )
    }
    // The file cut short: named, with the copy its table reads instead (issue 12 item 10).
    const cf = demo.expected.corrupt_file
    // An incident's findings are drawn once it is opened.
    await page.locator('[data-testid=findings] li[data-kind=corrupt_file] summary').click()
    await expect
      .poll(() => page.locator('[data-testid=findings] li[data-kind=corrupt_file]').textContent())
      .toContain(`the previous readable ready copy ${cf.reads_prefix} is read instead`)
    await page.locator('[data-testid=findings] li[data-kind=manifest_contradiction] button').first().click()
    const at = hourIso(demo.expected.planted_hours['contradiction']!)
    await expect.poll(() => page.locator('[data-testid=timeline-status]').getAttribute('data-hour'), { timeout: 15_000 }).toBe(at)
    await expect.poll(() => page.locator('[data-testid=manifest-warnings]').textContent()).toMatch(/complete is true, yet tables are listed as missing/)
    const partial = demo.expected.partial_folders.find((f) => f.state === 'missing')!
    for (const summary of await page.locator('[data-testid=findings] li[data-kind=missing] summary').all()) await summary.click()
    await page.locator('[data-testid=findings] li[data-kind=missing]', { hasText: partial.prefix }).locator('button').click()
    await expect.poll(() => page.locator('[data-testid=timeline-status]').getAttribute('data-hour'), { timeout: 15_000 }).toBe(hourIso(partial))
    await expect
      .poll(() => page.locator('[data-testid=inspector-findings]').textContent())
      .toContain(`${partial.prefix} has no _SUCCESS and the hour's manifest lists it in tables_missing`)
  })
  it('groups findings into incidents per hour and kind, open before resolved, newest first, resolved ones saying how', async () => {
    await page.selectOption('select[aria-label="hours shown"]', String(7 * 24))
    const p = demo.expected.planted_hours
    const items = page.locator('[data-testid=findings] > li')
    await expect.poll(() => items.count()).toBeGreaterThan(3)
    // The missing hour: one incident naming how many tables, not one line per table.
    const missing = items.filter({ hasText: `${p['missingHour']!.date} ${p['missingHour']!.hour}:00 UTC` }).and(page.locator('[data-kind=missing]'))
    expect(await missing.count()).toBe(1)
    expect(await missing.locator('button').textContent()).toContain(`${CATALOG.length} tables missing`)
    // Resolved from the whole history: the next hour brought a copy of each full table and, through its
    // delivered_through, the parts tables' rows.
    expect(await missing.getAttribute('data-resolved')).toBe('true')
    expect(await missing.locator('[data-testid=resolution]').textContent()).toMatch(
      new RegExp(
        `${CATALOG.filter((c) => c.mode === 'full').length} superseded by the later copy of .*; ${CATALOG.filter((c) => c.mode === 'parts').length} caught up by the delivery of`
      )
    )
    const late = items.filter({ hasText: `${p['lateHour']!.date} ${p['lateHour']!.hour}:00 UTC` }).and(page.locator('[data-kind=late]'))
    expect(await late.count()).toBe(1)
    expect(await late.getAttribute('data-resolved')).toBe('true')
    expect(await late.locator('[data-testid=resolution]').textContent()).toContain('arrived late; the data is complete')
    // Open ones first, and within each part the newest hour first.
    const rows = await items.evaluateAll((lis) =>
      lis.map((li) => ({ resolved: li.getAttribute('data-resolved') === 'true', text: li.querySelector('button')?.textContent ?? '' }))
    )
    const firstResolved = rows.findIndex((r) => r.resolved)
    expect(firstResolved).toBeGreaterThan(0)
    expect(rows.slice(firstResolved).every((r) => r.resolved)).toBe(true)
    const hours = (part: typeof rows): string[] => part.map((r) => /(\d{4}-\d\d-\d\d \d\d):00 UTC/.exec(r.text)?.[1] ?? '').filter(Boolean)
    for (const part of [rows.slice(0, firstResolved), rows.slice(firstResolved)]) expect(hours(part)).toEqual([...hours(part)].sort().reverse())
    // The headline answers "is the last hour there?" for the newest due hour.
    const headline = page.locator('[data-testid=headline]')
    expect(await headline.textContent()).toMatch(/The last due hour, \d{4}-\d\d-\d\d \d\d:00 UTC, (is complete|has \d+ of \d+ tables)/)
    await page.evaluate(() => window.scrollTo(0, 0))
    await page.screenshot({ path: 'test-results/deliveries-normal-hour.png' })
  })

  it('shows the inspector in view however it is opened: a cell, Enter on the timeline, an incident far down the page', async () => {
    const inView = async (): Promise<boolean> => {
      const box = await page.locator('[data-testid=inspector]').boundingBox()
      const vh = page.viewportSize()?.height ?? 0
      return box !== null && box.y >= 0 && box.y < vh - 100 && box.height > 100
    }
    const p = demo.expected.planted_hours
    await page.evaluate(() => window.scrollTo(0, 0))
    expect(await clickCell(page, 'claudia_csat', hourIso(p['lateHour']!))).toBe('late')
    await expect.poll(() => page.locator('[data-testid=inspector] h2').textContent()).toContain(`${p['lateHour']!.date} ${p['lateHour']!.hour}:00`)
    expect(await inView()).toBe(true)
    // Beside the timeline, not under it.
    const [timeline, inspector] = await Promise.all([
      page.locator('[data-testid=heatmap]').boundingBox(),
      page.locator('[data-testid=inspector]').boundingBox()
    ])
    expect(inspector!.x).toBeGreaterThan(timeline!.x + timeline!.width - 1)
    await page.locator('[data-testid=timeline-canvas]').focus()
    await page.keyboard.press('ArrowRight')
    await page.keyboard.press('Enter')
    await expect
      .poll(() => page.locator('[data-testid=inspector] h2').textContent())
      .toContain(new Date(Date.parse(hourIso(p['lateHour']!)) + 3_600_000).toISOString().slice(0, 13).replace('T', ' '))
    expect(await inView()).toBe(true)
    // The last incident, at the bottom of the page: the inspector comes into view, focused, the incident marked.
    const last = page.locator('[data-testid=findings] > li:not([data-resolved=true])').last()
    await last.scrollIntoViewIfNeeded()
    await last.locator('button').click()
    await expect.poll(() => last.getAttribute('aria-current')).toBe('true')
    await expect.poll(inView).toBe(true)
    expect(await page.evaluate(() => document.activeElement?.closest('[data-testid=inspector]') !== null)).toBe(true)
    await page.screenshot({ path: 'test-results/inspector-beside-timeline.png' })
  })

  it('opens the hour the headline names; Escape closes the inspector; unreadable and empty copies are not green', async () => {
    if (!page.url().startsWith(host.origin)) await page.goto(host.url)
    await page.locator('[data-testid=headline-hour]').click()
    const named = (await page.locator('[data-testid=headline-hour]').textContent()) ?? ''
    await expect.poll(() => page.locator('[data-testid=inspector] h2').textContent()).toContain(named.replace(/ UTC$/, ''))
    await page.keyboard.press('Escape')
    await expect.poll(() => page.locator('[data-testid=inspector]').count()).toBe(0)
    const p = demo.expected.planted_hours
    expect(await clickCell(page, demo.expected.corrupt_file.table, hourIso(p['corruptFile']!))).toBe('unreadable')
    expect(await clickCell(page, demo.expected.empty_copy.table, hourIso(p['emptyCopy']!))).toBe('empty')
    expect(await page.locator('[data-testid=legend]').textContent()).toContain('unreadable file')
  })

  it('says loudly when the feed has stopped, and since when nothing has arrived', async () => {
    const data = await mkdtemp(join(tmpdir(), 'ee-stopped-'))
    const later = Date.parse(demo.expected.now) + 18 * 24 * 3_600_000
    const w = new Workspace({ dataDir: data, secrets: new MemorySecretStore(), demo: { bucketDir: demo.bucketDir, now: later }, autoRefresh: false })
    const h = await startWebHost({ workspace: w, rendererDir: app.rendererDir })
    const other = await app.browser.newPage({ viewport: { width: 1400, height: 900 } })
    try {
      await other.goto(h.url)
      const headline = other.locator('[data-testid=headline]')
      await expect.poll(() => headline.getAttribute('data-tone'), { timeout: 60_000 }).toBe('stopped')
      expect(await headline.textContent()).toMatch(/The feed has stopped: nothing has arrived since \d{4}-\d\d-\d\d \d\d:00 UTC \(1[78] days( \d+ h)? ago\)/)
      await other.screenshot({ path: 'test-results/deliveries-stopped-feed.png' })
    } finally {
      await other.close()
      await h.close()
      await w.dispose()
      await rm(data, { recursive: true, force: true })
    }
  })

  it('runs SQL in the pane under the CSP header: its DuckDB-WASM worker reads Parquet from the byte server, nothing refused', async () => {
    // A worker takes its policy from its own response, so the header (unlike the old meta tag) governs it too.
    const refused: string[] = []
    const listen = (m: { text(): string }): void => void (/Content Security Policy|Refused to/i.test(m.text()) && refused.push(m.text()))
    page.on('console', listen)
    try {
      await page.reload()
      await page.getByRole('tab', { name: 'SQL' }).click()
      await page.locator('[data-testid=sql-editor] .cm-content').click()
      await page.keyboard.press('ControlOrMeta+a')
      await page.keyboard.press('Delete')
      await page.keyboard.insertText('SELECT count(*) AS n FROM cloud_chat_tags')
      await page.keyboard.press('Escape')
      await page.keyboard.press('ControlOrMeta+Enter')
      await expect.poll(() => page.locator('[data-testid=sql-pane] [data-testid=result-count]').textContent(), { timeout: 90_000 }).toMatch(/^1 row · 1 column/)
      // The grid loads its page of rows after the count is shown ('…' until then).
      await expect
        .poll(async () => Number(/\d+$/.exec((await page.locator('[data-testid=sql-pane] [data-testid=result-grid]').textContent()) ?? '')?.[0]), {
          timeout: 30_000
        })
        .toBeGreaterThan(0)
      expect(refused).toEqual([])
    } finally {
      page.off('console', listen)
    }
  }, 180_000)

  it('styles the page from the one tokens stylesheet under the CSP: the CSS modules and the timeline canvas use the same colours, nothing refused', async () => {
    const refused: string[] = []
    const listen = (m: { text(): string }): void => void (/Content Security Policy|Refused to/i.test(m.text()) && refused.push(m.text()))
    page.on('console', listen)
    try {
      await page.reload()
      await page.getByRole('tab', { name: 'Deliveries' }).click()
      const canvas = page.locator('[data-testid=timeline-canvas]')
      await canvas.waitFor()
      const token = (name: string): Promise<string> => page.evaluate((n) => getComputedStyle(document.documentElement).getPropertyValue(n).trim(), name)
      expect(await token('--cell-ready')).toBe('#2e9e5b')
      // A CSS module's rule on a token: the selected tab's underline is the accent colour.
      expect(await page.getByRole('tab', { name: 'Deliveries' }).evaluate((el) => getComputedStyle(el).borderBottomColor)).toBe('rgb(46, 111, 209)')
      // The legend swatch (CSS) and the canvas cells (painted) of a ready hour are the same colour.
      expect(
        await page
          .locator('[data-testid=legend] li')
          .first()
          .locator('span')
          .evaluate((el) => getComputedStyle(el).backgroundColor)
      ).toBe('rgb(229, 72, 77)')
      const painted = await canvas.evaluate((c: HTMLCanvasElement) => {
        const d = c.getContext('2d')?.getImageData(0, 0, c.width, c.height).data ?? new Uint8ClampedArray()
        const seen = new Set<string>()
        for (let i = 0; i < d.length; i += 4) seen.add(`${d[i]},${d[i + 1]},${d[i + 2]}`)
        return [...seen]
      })
      expect(painted).toContain('46,158,91')
      expect(painted).toContain('229,72,77')
      expect(refused).toEqual([])
    } finally {
      page.off('console', listen)
    }
  }, 120_000)

  it('marks a filter value its column cannot read and leaves it out of the SQL; an empty filter row adds nothing', async () => {
    if (!page.url().startsWith(host.origin)) await page.goto(host.url)
    await page.getByRole('tab', { name: 'Tables' }).click()
    await page.locator('[data-table-item=cloud_chat_tags]').click()
    await expect.poll(() => page.locator('[data-testid=table-browser] [data-testid=result-grid]').count(), { timeout: 60_000 }).toBe(1)
    const generated = page.locator('[data-testid=generated-sql]')
    const before = await generated.textContent()
    await page.getByRole('button', { name: '+ filter' }).click()
    // A new row, still empty, changes nothing.
    expect(await generated.textContent()).toBe(before)
    const row = page.locator('[data-filter-row]').first()
    await row.getByLabel('filter column').selectOption('created_at')
    await row.getByLabel('filter operator').selectOption('range')
    await row.getByLabel('filter from').fill('tomorrow')
    await expect
      .poll(() => row.locator('[data-testid=filter-problem]').textContent())
      .toContain('"tomorrow" is not a time: write it in UTC as YYYY-MM-DD HH:MM')
    expect(await row.getByLabel('filter from').getAttribute('aria-invalid')).toBe('true')
    expect(await generated.textContent()).toBe(before)
    expect(await page.getByText(/One filter is left out of the query/).count()).toBe(1)
    await page.screenshot({ path: 'test-results/tables-filter-marked.png' })
    await row.getByLabel('filter from').fill('2026-11-05 00:00')
    await expect.poll(() => generated.textContent()).toContain(`"created_at" >= TRY_CAST('2026-11-05 00:00:00' AS TIMESTAMP)`)
    expect(await row.locator('[data-testid=filter-problem]').count()).toBe(0)
    expect(await row.getByLabel('filter to').getAttribute('aria-invalid')).toBeNull()
    // Statistics over the rows of the filters applied, distinct values counted exactly (never above the rows).
    const grid = page.locator('[data-testid=table-browser] [data-testid=result-grid]')
    const all = Number(await grid.getAttribute('data-rows'))
    await page.getByRole('button', { name: 'Apply filters' }).click()
    await expect.poll(async () => Number(await grid.getAttribute('data-rows')), { timeout: 30_000 }).toBeLessThan(all)
    const rows = Number(await grid.getAttribute('data-rows'))
    await page.getByRole('tab', { name: 'Columns' }).click()
    await page.getByRole('button', { name: 'Compute column statistics' }).click()
    await expect
      .poll(() => page.locator('[data-testid=stats-over]').textContent())
      .toBe(`Over the rows of the filters applied (${rows.toLocaleString('en')} rows); distinct values counted exactly.`)
    await expect.poll(() => page.locator('[data-column-stats=created_at] svg[aria-label=histogram]').count(), { timeout: 30_000 }).toBe(1)
    const distinct = Number(((await page.locator('[data-column-stats=tag_id] td').nth(3).textContent()) ?? '').replace(/,/g, ''))
    expect(distinct).toBeGreaterThan(0)
    expect(distinct).toBeLessThanOrEqual(rows)
    await page.screenshot({ path: 'test-results/tables-filters-and-statistics.png' })
    await page.getByRole('tab', { name: 'Rows' }).click()
    await row.getByLabel('remove filter').click()
  })

  it('opens the connections with Ctrl+K in the browser too, and splits a pasted s3:// or gs:// URL', async () => {
    if (!page.url().startsWith(host.origin)) await page.goto(host.url)
    await page.locator('body').click({ position: { x: 5, y: 5 } })
    await page.keyboard.press('Control+k')
    const dialog = page.getByRole('dialog', { name: 'Connections' })
    await expect.poll(() => dialog.count()).toBe(1)
    await dialog.getByRole('button', { name: 'New connection…' }).click()
    const form = page.getByRole('form', { name: 'connection' })
    await form.getByLabel('bucket').fill('s3://vendor-export/exports/prod/')
    expect([await form.getByLabel('kind').inputValue(), await form.getByLabel('bucket').inputValue(), await form.getByLabel('prefix').inputValue()]).toEqual([
      's3',
      'vendor-export',
      'exports/prod/'
    ])
    await form.getByLabel('bucket').fill('gs://other-bucket/v')
    expect([await form.getByLabel('kind').inputValue(), await form.getByLabel('bucket').inputValue(), await form.getByLabel('prefix').inputValue()]).toEqual([
      'gcs',
      'other-bucket',
      'v/'
    ])
    await form.getByRole('button', { name: 'Cancel' }).click()
    await dialog.getByRole('button', { name: 'Close' }).click()
    expect(await dialog.count()).toBe(0)
  })

  it('fits every view at 1280×800 and 1920×1080: no page wider than the window, the grid filling it, columns sized to their values', async () => {
    if (!page.url().startsWith(host.origin)) await page.goto(host.url)
    const wide = (): Promise<boolean> => page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1)
    try {
      for (const [w, h] of [
        [1280, 800],
        [1920, 1080]
      ] as const) {
        await page.setViewportSize({ width: w, height: h })
        await page.getByRole('tab', { name: 'Deliveries' }).click()
        await page.evaluate(() => window.scrollTo(0, 0))
        await page.waitForSelector('[data-testid=timeline-canvas]')
        expect(await wide(), `deliveries at ${w}×${h}`).toBe(false)
        await page.screenshot({ path: `test-results/layout-deliveries-${w}x${h}.png` })
        await page.getByRole('tab', { name: 'Tables' }).click()
        await page.locator('[data-table-item=cloud_chat_tags]').click()
        const grid = page.locator('[data-testid=table-browser] [data-testid=grid-scroll]')
        await expect.poll(() => grid.count(), { timeout: 60_000 }).toBe(1)
        expect(await wide(), `tables at ${w}×${h}`).toBe(false)
        // The grid reaches down to the window's bottom edge (less a margin), not a fixed 420 px.
        await expect
          .poll(async () => {
            const b = await grid.boundingBox()
            return b ? Math.round(b.y + b.height) : 0
          })
          .toBeGreaterThan(h - 60)
        // A timestamp column is as wide as its values: 2026-11-05 14:00:00 is never cut.
        const header = page.locator('[data-testid=table-browser] [role=columnheader][data-column=created_at]')
        expect((await header.boundingBox())!.width).toBeGreaterThanOrEqual(19 * 7)
        await page.screenshot({ path: `test-results/layout-tables-${w}x${h}.png` })
        await page.getByRole('tab', { name: 'SQL' }).click()
        await page.locator('[data-testid=sql-editor] .cm-content').click()
        await page.keyboard.press('ControlOrMeta+a')
        await page.keyboard.press('Delete')
        await page.keyboard.insertText(`SELECT tag_id, name, created_at FROM cloud_chat_tags WHERE name <> '${'x'.repeat(400)}' ORDER BY created_at`)
        await page.keyboard.press('Escape')
        await page.keyboard.press('ControlOrMeta+Enter')
        await expect.poll(() => page.locator('[data-testid=sql-pane] [data-testid=result-grid]').count(), { timeout: 60_000 }).toBe(1)
        expect(await wide(), `SQL at ${w}×${h}`).toBe(false)
        await page.screenshot({ path: `test-results/layout-sql-${w}x${h}.png` })
      }
    } finally {
      await page.setViewportSize({ width: 1400, height: 900 })
      await page.getByRole('tab', { name: 'Deliveries' }).click()
    }
  }, 180_000)

  describe('the SQL pane obeys', () => {
    const typeSql = async (sql: string): Promise<void> => {
      await page.locator('[data-testid=sql-editor] .cm-content').click()
      await page.keyboard.press('ControlOrMeta+a')
      await page.keyboard.press('Delete')
      await page.keyboard.insertText(sql)
      await page.keyboard.press('Escape')
    }
    const grid = (): ReturnType<Page['locator']> => page.locator('[data-testid=sql-pane] [data-testid=result-grid]')

    it('clears the old result on an error, and says the line the excerpt says', async () => {
      if (!page.url().startsWith(host.origin)) await page.goto(host.url)
      await page.getByRole('tab', { name: 'SQL' }).click()
      await typeSql('SELECT 41 + 1 AS answer')
      await page.keyboard.press('ControlOrMeta+Enter')
      await expect.poll(() => page.locator('[data-testid=sql-pane] [data-cell="0:0"]').textContent(), { timeout: 60_000 }).toBe('42')
      await typeSql('SELECT tag_id,\n  count(*) FROM FROM cloud_chat_tags')
      await page.keyboard.press('ControlOrMeta+Enter')
      const error = page.locator('[data-testid=sql-error]')
      await expect.poll(() => error.count(), { timeout: 30_000 }).toBe(1)
      expect(await grid().count()).toBe(0)
      const text = (await error.textContent()) ?? ''
      expect(text).toMatch(/^At line 2, column \d+: /)
      expect(text).toContain('LINE 2:')
      expect(await page.locator('[data-testid=sql-status]').textContent()).toMatch(/^Failed after \d+(\.\d{1,2})? s\.$/)
      await page.screenshot({ path: 'test-results/sql-error.png' })
    })

    it('exports the text in the editor, not the last query run', async () => {
      await typeSql('SELECT 1 AS run_before')
      await page.keyboard.press('ControlOrMeta+Enter')
      await expect.poll(() => grid().count(), { timeout: 30_000 }).toBe(1)
      await typeSql('SELECT 2 AS edited_since')
      await page.getByRole('button', { name: 'Export…' }).click()
      const dialog = page.getByRole('dialog', { name: 'Export' })
      expect(await dialog.locator('pre').textContent()).toBe('SELECT 2 AS edited_since')
      await dialog.getByRole('button', { name: 'Close' }).click()
      // The result and its one duration: in the grid's header, not repeated in the status line.
      expect(await page.locator('[data-testid=sql-pane] [data-testid=result-count]').textContent()).toMatch(/^1 row · 1 column · \d+(\.\d{1,2})? s$/)
      expect(await page.locator('[data-testid=sql-status]').textContent()).toBe('')
      await page.screenshot({ path: 'test-results/sql-result.png' })
    })

    it('answers Cancel of a runaway query within a second', async () => {
      await typeSql('SELECT count(*) FROM range(200000000) a, range(200000000) b')
      await page.keyboard.press('ControlOrMeta+Enter')
      const status = page.locator('[data-testid=sql-status]')
      await expect.poll(() => status.textContent(), { timeout: 30_000 }).toMatch(/^Running… [1-9]/)
      await page.getByRole('button', { name: 'Cancel', exact: true }).click()
      const asked = Date.now()
      await expect.poll(() => status.textContent(), { timeout: 5_000 }).toMatch(/^(Cancelled after|Cancel asked)/)
      const took = Date.now() - asked
      process.stdout.write(`cancel answered after ${took} ms: ${await status.textContent()}\n`)
      expect(took).toBeLessThan(2_500)
      // Cancelled, not failed: no error shown; and the pane takes the next query.
      if ((await status.textContent())?.startsWith('Cancelled')) {
        expect(await page.locator('[data-testid=sql-error]').count()).toBe(0)
        await typeSql('SELECT 7 AS next_one')
        await page.keyboard.press('ControlOrMeta+Enter')
        await expect.poll(() => page.locator('[data-testid=sql-pane] [data-cell="0:0"]').textContent(), { timeout: 30_000 }).toBe('7')
      }
    }, 60_000)
  })
})
