// A refusal the user caused is a typed answer with a code and words, not an HTTP 500 that looks like a bug: through
// the web host (status 4xx and the code), over IPC (a value: an Error's fields do not cross ipcMain.handle), and as
// the renderer's transport throws it (a RefusalError). Real Workspace, real web host on loopback, real DuckDB parser.
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { dispatch, encodeReply, wireAnswer } from '../../src/main/api-handlers'
import { MemorySecretStore } from '../../src/main/connections/secret-store'
import { type WebHost, startWebHost } from '../../src/main/web-host'
import { Workspace } from '../../src/main/workspace/workspace'
import { call, resultOf } from '../../src/renderer/src/common/api-transport'
import { RefusalError } from '../../src/shared/refusal'
import { type ApiSession, openApiSession } from '../helpers/web-session'

let work = ''
let exportDir = ''
let w: Workspace
let host: WebHost
let api: ApiSession

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'ee-refusals-'))
  exportDir = join(work, 'Downloads')
  await mkdir(exportDir)
  // An empty folder as the demo: the refusals come before any bucket is read.
  await mkdir(join(work, 'bucket'))
  await mkdir(join(work, 'renderer'))
  w = new Workspace({ dataDir: join(work, 'data'), secrets: new MemorySecretStore(), demo: { bucketDir: join(work, 'bucket') }, autoRefresh: false, exportDir })
  host = await startWebHost({ workspace: w, rendererDir: join(work, 'renderer') })
  api = await openApiSession(host)
}, 60_000)
afterAll(async () => {
  await host?.close()
  await w?.dispose()
  if (work) await rm(work, { recursive: true, force: true })
})

const answer = async (name: string, args: unknown): Promise<{ status: number; body: { refused?: { code: string; message: string }; error?: string } }> => {
  const r = await api.post(name, args)
  return { status: r.status, body: (await r.json()) as never }
}
const exportArgs = (path: string, sql = 'SELECT 42 AS answer') => ({ sql, format: 'csv', path, overwrite: false, asOf: null })

describe('the web host answers a refusal with a 4xx and its code', () => {
  it('a bad argument: 400 bad_argument, naming the field', async () => {
    expect(await answer('timeline', { fromHours: 'all' })).toEqual({
      status: 400,
      body: { refused: { code: 'bad_argument', message: expect.stringMatching(/fromHours/) } }
    })
    expect(await answer('noSuchCall', {})).toMatchObject({ status: 404, body: { refused: { code: 'no_call' } } })
  })

  it('a name taken: 409 name_taken, and the file is left as it was', async () => {
    await writeFile(join(exportDir, 'taken.csv'), 'kept')
    const r = await answer('exportStart', exportArgs(join(exportDir, 'taken.csv')))
    expect(r).toEqual({
      status: 409,
      body: { refused: { code: 'name_taken', message: expect.stringMatching(/taken\.csv already exists; choose another name/) } }
    })
  })

  it('a refused SQL: 422 sql_refused with what runs here, before any job starts', async () => {
    for (const [sql, words] of [
      ['DROP VIEW claudia_messages', /Only queries that read run here .*: a DROP statement is refused/],
      ['SELECT 1; SELECT 2', /Run one statement at a time/],
      ['EXPLAIN SELECT 1', /An export writes the rows of a SELECT/],
      ["SELECT * FROM enable_logging(storage = 'file')", /enable_logging\(\) cannot be called here/]
    ] as const) {
      const r = await answer('exportStart', exportArgs(join(exportDir, 'q.csv'), sql))
      expect(r.status, sql).toBe(422)
      expect(r.body.refused?.code, sql).toBe('sql_refused')
      expect(r.body.refused?.message, sql).toMatch(words)
    }
    expect(await readdir(exportDir)).not.toContain('q.csv')
  })

  it('a save path outside the export folder: 403 path_not_allowed', async () => {
    const r = await answer('exportStart', exportArgs(join(work, 'elsewhere.csv')))
    expect(r).toEqual({
      status: 403,
      body: { refused: { code: 'path_not_allowed', message: expect.stringMatching(/^Export refused: .*outside the export folder/) } }
    })
    expect(await answer('showInFolder', { path: '/root/.ssh/id_rsa' })).toMatchObject({ status: 403, body: { refused: { code: 'path_not_allowed' } } })
  })

  it('a connection or export that does not exist: 404 not_found; the demo cannot be deleted: 403 builtin', async () => {
    expect(await answer('connectionGet', { id: 'gone' })).toMatchObject({
      status: 404,
      body: { refused: { code: 'not_found', message: 'No saved connection gone.' } }
    })
    expect(await answer('exportStatus', { id: 'gone' })).toMatchObject({ status: 404, body: { refused: { code: 'not_found' } } })
    expect(await answer('connectionDelete', { id: 'demo' })).toMatchObject({ status: 403, body: { refused: { code: 'builtin' } } })
  })

  it('a bug stays a 500 with words, never a refusal', () => {
    expect(encodeReply('overview', { ok: false, status: 500, error: 'it broke' })).toEqual({ status: 500, body: '{"error":"it broke"}' })
  })
})

describe('over IPC a refusal is a value', () => {
  it('outside the dialog grants (a desktop workspace): path_not_allowed as plain data', async () => {
    const desktop = new Workspace({
      dataDir: join(work, 'desktop'),
      secrets: new MemorySecretStore(),
      demo: { bucketDir: join(work, 'bucket') },
      autoRefresh: false,
      platform: { chooseSavePath: async () => null, showInFolder: () => {}, downloadsDir: exportDir }
    })
    try {
      const sent = wireAnswer(await dispatch(desktop, 'exportStart', exportArgs(join(exportDir, 'never-chosen.csv'))))
      // What ipcMain.handle sends is structured-cloned: a plain object, no class, no prototype left to lose.
      expect(structuredClone(sent)).toEqual({ refused: { code: 'path_not_allowed', message: 'Choose where to save the file first.' } })
      expect(Object.getPrototypeOf((sent as { refused: object }).refused)).toBe(Object.prototype)
    } finally {
      await desktop.dispose()
    }
  })

  it('a result and a bug keep their shapes', () => {
    expect(wireAnswer({ ok: true, result: { id: 'x' } })).toEqual({ result: { id: 'x' } })
    expect(wireAnswer({ ok: false, status: 500, error: 'it broke' })).toEqual({ error: 'it broke' })
  })
})

describe("the renderer's transport", () => {
  it('throws a refusal as a RefusalError with its code and words; a bug as a plain Error', () => {
    const refused = (() => {
      try {
        resultOf('connectionGet', { refused: { code: 'not_found', message: 'No saved connection gone.' } }, true, '404')
      } catch (e) {
        return e
      }
    })()
    expect(refused).toBeInstanceOf(RefusalError)
    expect(refused).toMatchObject({ code: 'not_found', message: 'No saved connection gone.' })
    expect(() => resultOf('overview', { error: 'it broke' }, true, '500')).toThrow(new Error('it broke'))
    expect(() => resultOf('overview', { error: 'it broke' }, true, '500')).not.toThrow(RefusalError)
    // An unknown code is not taken for a refusal: the call failed, with the status.
    expect(() => resultOf('overview', { refused: { code: 'made_up', message: 'x' } } as never, true, '422')).toThrow('overview failed: 422')
    expect(resultOf('connectionSave', { result: { id: 'x' } }, false)).toEqual({ id: 'x' })
  })

  it("through the preload's bridge, over main's real dispatch: call() rejects with the RefusalError", async () => {
    const bridge = new Proxy({}, { get: (_t, name: string) => async (args: unknown) => structuredClone(wireAnswer(await dispatch(w, name, args))) })
    const g = globalThis as { window?: unknown }
    g.window = { exportExplorer: bridge }
    try {
      const e = await call('connectionGet', { id: 'gone' }).catch((x: unknown) => x)
      expect(e).toBeInstanceOf(RefusalError)
      expect(e).toMatchObject({ code: 'not_found', message: 'No saved connection gone.' })
      expect((await call('connections', {})).active).toBeNull()
    } finally {
      delete g.window
    }
  })
})
