// The README's first command where the Electron binary is missing: `npm start` serves the same app to a
// browser on 127.0.0.1, on the built-in demo bucket (generated on first run). Where the binary is installed
// it opens the window instead, which electron-app.test.ts covers.
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { electronBinary } from '../../src/cli/electron-binary'
import { SESSION_HEADER } from '../../src/shared/web-session'
import { exchangeToken, tokenOf } from '../helpers/web-session'

let child: ChildProcess | null = null
let data = ''
afterAll(async () => {
  if (child?.pid) process.kill(-child.pid, 'SIGTERM')
  if (data) await rm(data, { recursive: true, force: true })
})

describe.skipIf(electronBinary() !== null)('npm start without the Electron binary', () => {
  it('says why there is no window and serves the app on the demo bucket', async () => {
    data = await mkdtemp(join(tmpdir(), 'ee-start-'))
    // Its own build folder and process group: nothing under other tests' feet, and all of it stopped after.
    child = spawn(process.execPath, [resolve('node_modules/tsx/dist/cli.mjs'), 'src/cli/start-app.ts', '--port', '0', '--data', data, '--no-open'], {
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
      env: { ...process.env, EE_OUT_DIR: join(data, 'out') }
    })
    let out = ''
    let err = ''
    child.stdout?.on('data', (d: Buffer) => (out += d.toString()))
    child.stderr?.on('data', (d: Buffer) => (err += d.toString()))
    const url = await new Promise<string>((res, rej) => {
      const t = setInterval(() => {
        const m = /open (http:\/\/127\.0\.0\.1:\d+\/#t=[0-9a-f]{64})\n/.exec(out)
        if (m) {
          clearInterval(t)
          res(m[1] as string)
        }
      }, 100)
      child?.once('exit', (code) => rej(new Error(`start exited ${code}: ${err}`)))
    })
    expect(err).toMatch(/Electron binary is not installed.*Starting the same app in your browser/s)
    expect(out).toMatch(/for a new address press Enter here, or run: kill -USR1 \d+/)
    // Told not to open a browser (it would use a one-time address of its own): it says so, after the address.
    await new Promise<void>((res) =>
      /not opening a browser \(--no-open\)\n/.test(out) ? res() : child?.stdout?.on('data', () => /not opening a browser \(--no-open\)\n/.test(out) && res())
    )
    // The printed address's token opens one session: its secret, sent in a header with the page's Origin, opens the API.
    const origin = new URL(url).origin
    const opened = await exchangeToken({ origin }, tokenOf(url))
    expect(opened.status).toBe(200)
    const { session } = ((await opened.json()) as { result: { session: string } }).result
    const page = await (await fetch(new URL('/', url))).text()
    expect(page).toContain('<div id="root">')
    const overview = (await (
      await fetch(new URL('/api/overview', url), {
        method: 'POST',
        body: '{}',
        headers: { origin, [SESSION_HEADER]: session, 'content-type': 'application/json' }
      })
    ).json()) as { result: { location: string; version: string } }
    expect(overview.result.version).toBe('v2')
    expect(overview.result.location).toContain('demo-bucket')
  }, 240_000)
})
