// A connection's volume monitor thresholds: saved per connection, judged at once on the last refresh (nothing listed
// again), kept across a restart, back to the defaults on null; a threshold out of range is refused by name, and a
// damaged settings file is kept aside while the defaults judge.
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { dispatch } from '../../src/main/api-handlers'
import { MemorySecretStore } from '../../src/main/connections/secret-store'
import { Workspace } from '../../src/main/workspace/workspace'
import { DEFAULT_MONITOR_THRESHOLDS } from '../../src/shared/delivery-monitors'
import { type Demo, readDemo } from '../helpers/demo'

let demo: Demo
let work = ''
const open: Workspace[] = []

const workspace = (): Workspace => {
  const w = new Workspace({
    dataDir: join(work, 'data'),
    secrets: new MemorySecretStore(),
    demo: { bucketDir: demo.bucketDir, now: Date.parse(demo.expected.now) },
    autoRefresh: false
  })
  open.push(w)
  return w
}

/** The volume anomalies of the open connection's whole timeline, by table. */
async function anomalies(w: Workspace): Promise<Record<string, number>> {
  const t = await (await w.sessionOrOpenFirst()).snapshot.timeline({ fromHours: 400 * 24 })
  const out: Record<string, number> = {}
  for (const f of t.findings) if (f.kind === 'volume_anomaly') out[f.table ?? ''] = (out[f.table ?? ''] ?? 0) + 1
  return out
}

beforeAll(async () => {
  demo = await readDemo({ days: 8 })
  work = await mkdtemp(join(tmpdir(), 'ee-thresholds-'))
}, 180_000)
afterAll(async () => {
  for (const w of open) await w.dispose()
  await demo?.cleanup()
  if (work) await rm(work, { recursive: true, force: true })
})

describe('monitor thresholds per connection', () => {
  it('judges again at once with a table’s thresholds, keeps them across a restart, and goes back to the defaults', async () => {
    const w = workspace()
    const before = await w.monitorThresholds()
    expect(before).toEqual({ connectionId: before.connectionId, defaults: DEFAULT_MONITOR_THRESHOLDS })
    expect(await anomalies(w)).toEqual({})
    const generation = (await w.sessionOrOpenFirst()).snapshot.generation

    // A band as narrow as it goes: the busy parts table's usual noise is out of it.
    const narrow = { madFactor: 0.5, minRelativeBand: 0, countNoise: 0, maxRatio: 1, youngRatio: 1 }
    const set = await w.monitorSetThresholds({ table: 'claudia_messages', thresholds: narrow })
    expect(set.tables).toEqual({ claudia_messages: narrow })
    const judged = await anomalies(w)
    expect(Object.keys(judged)).toEqual(['claudia_messages'])
    expect(judged['claudia_messages']).toBeGreaterThan(5)
    // Judged on what the last refresh read: nothing was listed again.
    expect((await w.sessionOrOpenFirst()).snapshot.generation).toBe(generation)

    await w.dispose()
    const again = workspace()
    expect((await again.monitorThresholds()).tables).toEqual({ claudia_messages: narrow })
    expect(await anomalies(again)).toEqual(judged)

    const back = await again.monitorSetThresholds({ table: 'claudia_messages', thresholds: null })
    expect(back.tables).toBeUndefined()
    expect(await anomalies(again)).toEqual({})
  })

  it('refuses a threshold out of range or of another name, and an unknown table, by name', async () => {
    const w = workspace()
    const refused = async (args: unknown): Promise<string> => {
      const r = await dispatch(w, 'monitorSetThresholds', args)
      if (r.ok || !('refused' in r)) throw new Error(`not refused: ${JSON.stringify(r)}`)
      expect(r.refused.code).toBe('bad_argument')
      return r.refused.message
    }
    expect(await refused({ table: null, thresholds: { madFactor: -1 } })).toMatch(/madFactor must be from 0.5 to 20/)
    expect(await refused({ table: null, thresholds: { minHistory: 2.5 } })).toMatch(/minHistory must be a whole number/)
    expect(await refused({ table: null, thresholds: { sigma: 3 } })).toMatch(/thresholds must be an object of minHistory/)
    expect(await refused({ table: 'no_such_table', thresholds: null })).toMatch(/table must be null \(every table\) or a table of the catalog/)
    expect((await w.monitorThresholds()).all).toBeUndefined()
  })

  it('keeps a damaged settings file aside and judges with the defaults', async () => {
    await writeFile(join(work, 'data', 'monitor-thresholds.json'), '{"demo": {"all": {"madFactor": "wide"}}')
    const w = workspace()
    const view = await w.monitorThresholds()
    expect(view.all).toBeUndefined()
    expect(await anomalies(w)).toEqual({})
    await w.monitorSetThresholds({ table: null, thresholds: { maxRatio: 4 } })
    expect((await readdir(join(work, 'data'))).some((f) => f.startsWith('monitor-thresholds.json.corrupt-'))).toBe(true)
    expect((await w.monitorThresholds()).all).toEqual({ maxRatio: 4 })
  })
})
