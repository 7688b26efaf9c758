// Main's answers are what the contract says: every call a workspace on a real demo bucket (a local folder) can
// answer passes its call's answer schema, every event it pushes meanwhile its event's schema, and answers that are
// wrong the way a handler could get them wrong (an extra field, a missing one, a value out of range, a secret) fail.
import { mkdir, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { dispatch } from '../../src/main/api-handlers'
import { MemorySecretStore } from '../../src/main/connections/secret-store'
import type { PushedEvent } from '../../src/main/main-events'
import { Workspace } from '../../src/main/workspace/workspace'
import { API_NAMES, type ApiName, type ArgsOf, type ResultOf } from '../../src/shared/api/calls'
import { answerProblem, payloadProblem } from '../../src/shared/api/check-answer'
import { type Demo, readDemo } from '../helpers/demo'

let demo: Demo
let work = ''
let exportDir = ''
let w: Workspace
const events: PushedEvent[] = []
/** Each call made, with its answer's problem (null: it fits), or its refusal's code. */
const answered = new Map<ApiName, (string | null)[]>()
const refused = new Map<ApiName, string>()

async function call<N extends ApiName>(name: N, args: ArgsOf<N>): Promise<ResultOf<N> | null> {
  const reply = await dispatch(w, name, args)
  if (!reply.ok && reply.status === 500) throw new Error(`${name}: ${reply.error}`)
  if (!reply.ok) {
    refused.set(name, reply.refused.code)
    return null
  }
  answered.set(name, [...(answered.get(name) ?? []), answerProblem(name, reply.result)])
  return reply.result as ResultOf<N>
}

/** Resolves with the first pushed event that `match` accepts (already pushed, or to come). */
function nextEvent(match: (e: PushedEvent) => boolean): Promise<PushedEvent> {
  const seen = events.find(match)
  if (seen) return Promise.resolve(seen)
  return new Promise((resolve) => {
    const off = w.events.on((e) => {
      if (!match(e)) return
      off()
      resolve(e)
    })
  })
}

beforeAll(async () => {
  demo = await readDemo({ days: 8 })
  work = await mkdtemp(join(tmpdir(), 'ee-answers-'))
  exportDir = join(work, 'Downloads')
  await mkdir(exportDir)
  w = new Workspace({
    dataDir: join(work, 'data'),
    secrets: new MemorySecretStore(),
    demo: { bucketDir: demo.bucketDir, now: Date.parse(demo.expected.now) },
    autoRefresh: false,
    exportDir
  })
  w.events.on((e) => events.push(e))
}, 120_000)
afterAll(async () => {
  await w?.dispose()
  await demo?.cleanup()
  if (work) await rm(work, { recursive: true, force: true })
})

describe("main's answers fit the contract's answer schemas", () => {
  it('every call the demo workspace answers, and every event it pushes', async () => {
    await call('overview', {})
    await w.running
    await call('refresh', { full: false })
    await call('refreshStatus', {})
    await w.running
    await call('refreshCancel', {})
    await call('overview', {})
    const timeline = await call('timeline', { fromHours: 24 * 9 })
    // The answer to a call that holds the findings already: without them.
    expect(await call('timeline', { fromHours: 48, findingsOf: timeline?.findingsOf ?? '' })).toMatchObject({ findings: null })
    const hours = timeline?.hours ?? []
    expect(hours.length).toBeGreaterThan(0)
    // An hour with a manifest and files, and one without: the inspector's two shapes.
    const withManifest = hours.findLast((h) => h.manifest === 'complete')
    for (const h of [withManifest, hours[0]]) if (h) await call('hour', { start: h.start })
    const volume = await call('tableVolume', { table: 'datamart_claudia.claudia_messages', fromHours: 7 * 24 })
    expect(volume?.points.length).toBeGreaterThan(100)
    expect(volume?.points.some((p) => p.rowsBand !== null)).toBe(true)
    await call('tableVolume', { table: 'nosuch.table', fromHours: 48 })
    await call('engineSource', { asOf: null })
    if (withManifest) await call('engineSource', { asOf: withManifest.start })

    await call('connections', {})
    await call('connectionGet', { id: 'demo' })
    const local = { name: 'Copy of the demo', provider: 'local' as const, path: demo.bucketDir }
    await call('connectionTest', { connection: local })
    await call('connectionTest', { connection: { ...local, path: join(work, 'nowhere') } })
    const saved = await call('connectionSave', { connection: local })
    expect(saved).not.toBeNull()
    await call('connectionGet', { id: saved?.id ?? '' })
    await call('awsProfiles', {})

    await call('exportDefaults', {})
    await call('chooseSavePath', { defaultName: 'rows.csv', format: 'csv' })
    const path = join(exportDir, 'rows.csv')
    const job = await call('exportStart', { sql: 'SELECT 42 AS answer', format: 'csv', path, overwrite: false, asOf: null })
    expect(job).not.toBeNull()
    await nextEvent((e) => e.name === 'exportProgress' && e.payload.id === job?.id && e.payload.state === 'done')
    await call('exportStatus', { id: job?.id ?? '' })
    await call('exportCancel', { id: job?.id ?? '' })
    await call('showInFolder', { path })
    await call('historyAdd', { sql: 'SELECT 42 AS answer', asOf: null, rows: 1, ms: 3, error: null })
    await call('historyAdd', { sql: 'SELECT nope', asOf: withManifest?.start ?? null, rows: null, ms: null, error: 'no such column' })
    await call('history', {})

    await call('ddl', { engine: 'athena', table: null, database: null })
    await call('ddl', { engine: 'bigquery', table: null, database: 'exports' })
    await call('restorePlan', { table: null, tier: 'Standard', days: 7 })
    // The demo is a local folder: nothing is archived there, so a restore is refused (a refusal, not an answer).
    await call('restoreStart', { table: null, tier: 'Standard', days: 7 })
    await call('restoreStatus', {})

    await call('mirrorStatus', {})
    await call('mirrorSetLimit', { bytes: 10 ** 12 })
    await call('mirrorSetLimit', { bytes: null })
    await call('mirrorCancel', {})
    await call('mirrorResume', {})
    await call('mirrorClear', {})

    await call('followSettings', {})
    await call('followSetNotify', { notify: 'all' })
    const added = await call('followTargetAdd', { kind: 'command', value: 'true' })
    await call('followTargetTest', { id: added?.targets[0]?.id ?? '' })
    await call('followTargetRemove', { id: added?.targets[0]?.id ?? '' })
    await call('monitorSetThresholds', { table: 'claudia_messages', thresholds: { madFactor: 4 } })
    await call('monitorThresholds', {})
    await call('monitorSetThresholds', { table: 'claudia_messages', thresholds: null })

    await call('connectionOpen', { id: saved?.id ?? '' })
    await w.running
    await call('overview', {})
    await call('connectionDelete', { id: saved?.id ?? '' })

    const problems = [...answered].flatMap(([name, ps]) => ps.filter((p) => p !== null).map((p) => `${name}: ${p}`))
    expect(problems).toEqual([])
    expect(Object.fromEntries(refused)).toEqual({ restoreStart: expect.stringMatching(/^(not_supported|nothing_to_do)$/) })
    expect([...answered.keys(), ...refused.keys()].sort()).toEqual([...API_NAMES].sort())

    const names = new Set(events.map((e) => e.name))
    expect([...names].sort()).toEqual(expect.arrayContaining(['exportProgress', 'mirrorProgress', 'refreshDone', 'refreshProgress']))
    expect(events.map((e) => payloadProblem(e.name, e.payload)).filter((p) => p !== null)).toEqual([])
  }, 300_000)

  it('refuses answers that are wrong the way a handler could get them wrong', async () => {
    const overview = (await call('overview', {})) as ResultOf<'overview'>
    expect(answerProblem('overview', overview)).toBeNull()
    const table = overview.tables[0]
    expect(table).toBeDefined()
    expect(answerProblem('overview', { ...overview, internal: 1 })).toMatch(/^internal: /)
    const { problems: _dropped, ...missing } = overview
    expect(answerProblem('overview', missing)).toMatch(/^problems: /)
    expect(answerProblem('overview', { ...overview, tables: [{ ...table, mode: 'half' }] })).toMatch(/^tables\.0\.mode: /)
    expect(answerProblem('overview', { ...overview, now: 'yesterday' })).toMatch(/^now: /)
    expect(answerProblem('overview', { ...overview, tables: [{ ...table, folders: -1 }] })).toMatch(/^tables\.0\.folders: /)

    const demoConnection = (await call('connectionGet', { id: 'demo' })) as ResultOf<'connectionGet'>
    expect(answerProblem('connectionGet', demoConnection)).toBeNull()
    expect(answerProblem('connectionGet', { ...demoConnection, secretAccessKey: 'wJalrXUtnFEMI' })).toMatch(/secret/)

    const plan = (await call('restorePlan', { table: null, tier: 'Standard', days: 7 })) as ResultOf<'restorePlan'>
    expect(answerProblem('restorePlan', plan)).toBeNull()
    // Every key of the plan stays in main: the renderer sees a sample.
    expect(answerProblem('restorePlan', { ...plan, files: [] })).toMatch(/^files: /)

    const status = (await call('mirrorStatus', {})) as ResultOf<'mirrorStatus'>
    expect(payloadProblem('mirrorProgress', status)).toBeNull()
    expect(payloadProblem('mirrorProgress', { ...status, state: 'paused' })).toMatch(/^state: /)
  }, 120_000)
})
