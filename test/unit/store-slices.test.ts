// The renderer's store slices in Node (zustand/vanilla), their actions calling a real Workspace through the
// same dispatch the web host and IPC use, on a small hand-written local bucket: opening a connection, a
// refresh that reloads what is shown, jumping to a finding (widening the range), the inspector, filters reset
// by another table, and the query pane's handover.
import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MemorySecretStore } from '../../src/main/connections/secret-store'
import { Workspace } from '../../src/main/workspace/workspace'
import { createAppStore, type AppStore } from '../../src/renderer/src/store/app-store'
import type { ApiPort } from '../../src/renderer/src/store/api-port'
import type { TimelineAnswer } from '../../src/shared/api/views'

import { CATALOG } from '../../src/shared/catalog'
import { findingHour } from '../../src/shared/timeline'
import { until as waitUntil, workspacePort } from '../helpers/workspace-port'

const H = 3_600_000
const day = (t: number): string => new Date(t).toISOString().slice(0, 10)
const hh = (t: number): string => new Date(t).toISOString().slice(11, 13)
// Hours delivered: one long ago (first delivery), then the last two; everything between is missing.
const FIRST = Date.UTC(2026, 10, 16, 8)
const RECENT = [Date.UTC(2026, 10, 20, 8), Date.UTC(2026, 10, 20, 9)]
const NOW = Date.UTC(2026, 10, 20, 9, 50)

let work: string
let bucket: string
let workspace: Workspace
let store: AppStore

async function put(key: string, body: string, at: number): Promise<void> {
  const file = join(bucket, key)
  await mkdir(dirname(file), { recursive: true })
  await writeFile(file, body)
  await utimes(file, at / 1000, at / 1000)
}

async function deliverHour(t: number): Promise<void> {
  for (const c of CATALOG) {
    const folder =
      c.mode === 'full'
        ? `v2/${c.schema}/${c.table}/snapshot_date=${day(t)}/snapshot_hour=${hh(t)}/`
        : `v2/${c.schema}/${c.table}/etl_date=${day(t)}/etl_hour=${hh(t)}/`
    await put(`${folder}part-00000.parquet`, 'PAR1', t + 10 * 60_000)
    await put(`${folder}_SUCCESS`, '', t + 12 * 60_000)
  }
  const delivered = CATALOG.map((c) => ({ schema: c.schema, table: c.table, mode: c.mode }))
  await put(
    `v2/_manifests/snapshot_date=${day(t)}/snapshot_hour=${hh(t)}/manifest.json`,
    JSON.stringify({ snapshot_date: day(t), snapshot_hour: hh(t), complete: true, tables_delivered: delivered, tables_missing: [], tables_pending: [] }),
    t + 13 * 60_000
  )
}

const until = (what: () => boolean, ms = 10_000): Promise<void> => waitUntil(what, ms)

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'ee-store-'))
  bucket = join(work, 'bucket')
  for (const t of [FIRST, ...RECENT]) await deliverHour(t)
  workspace = new Workspace({ dataDir: join(work, 'data'), secrets: new MemorySecretStore(), clock: () => NOW, autoRefresh: false })
  store = createAppStore({ api: workspacePort(workspace) })
}, 30_000)
afterAll(async () => {
  await workspace?.running
  await workspace?.dispose()
  // The workspace may still be saving its index as it closes: a folder emptied meanwhile is removed on a retry.
  if (work) await rm(work, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 })
})

describe('store slices on a real workspace', () => {
  it('saves and opens a local connection: the old view is cleared, the pushed end of its first refresh reloads overview and timeline', async () => {
    const stop = store.getState().followEvents()
    await store.getState().loadConnections()
    expect(store.getState().connections?.active).toBeNull()
    await store.getState().saveAndOpen({ connection: { name: 'hand-written', provider: 'local', path: bucket } as never })
    const s = store.getState()
    expect(s.connections?.connections.find((c) => c.id === s.connections?.active)?.name).toBe('hand-written')
    expect(s.overview).toBeNull()
    // No call from the test: main's refreshDone event makes the store reload.
    await until(() => store.getState().overview !== null && store.getState().timeline !== null)
    expect(store.getState().refreshStatus).toMatchObject({ running: false, generation: workspace.refreshStatus().generation })
    expect(store.getState().overview?.version).toBe('v2')
    expect(store.getState().overview?.lastCompleteHour).toBe(new Date(RECENT[1]!).toISOString())
    // 7 days asked, but nothing before the first delivery's day: from its midnight to the last hour.
    const hours = store.getState().timeline!.hours
    expect([hours[0]?.start, hours.at(-1)?.start]).toEqual([new Date(Date.UTC(2026, 10, 16)).toISOString(), new Date(RECENT[1]!).toISOString()])
    // The same generation again reloads nothing (no second round of calls on every poll).
    const shown = store.getState().overview
    store.getState().applyRefreshStatus(workspace.refreshStatus())
    expect(store.getState().overview).toBe(shown)
    stop()
  })

  it('follows a refresh by its pushed progress: running while it lists, then done with a new generation', async () => {
    const seen: boolean[] = []
    const stop = store.getState().followEvents()
    const unsub = store.subscribe((s, before) => {
      if (s.refreshStatus !== before.refreshStatus) seen.push(s.refreshStatus?.running ?? false)
    })
    const g = workspace.refreshStatus().generation
    await store.getState().refresh(true)
    await workspace.running
    await until(() => store.getState().refreshStatus?.running === false && store.getState().refreshStatus?.generation === g + 1)
    expect(seen[0]).toBe(true)
    expect(seen.at(-1)).toBe(false)
    unsub()
    stop()
  })

  it('jumps to a finding older than the range: widens it, then focuses the cell and opens the inspector', async () => {
    await store.getState().setRange(48)
    expect(store.getState().timeline?.hours.length).toBe(48)
    // Nothing delivered from the hour after the first delivery until 4 days later: one feed_stopped, outside 2 days.
    const old = (await workspacePort(workspace).call('timeline', { fromHours: 7 * 24 })).findings ?? []
    expect(old.filter((x) => x.kind === 'missing' && findingHour(x) === FIRST + H)).toEqual([])
    const f = old.find((x) => x.kind === 'feed_stopped' && findingHour(x) === FIRST + H)
    expect(f).toBeDefined()
    await store.getState().jumpTo(f!)
    await until(() => store.getState().inspected !== null)
    const s = store.getState()
    expect(s.rangeHours).toBe(7 * 24)
    expect(s.pendingJump).toBeNull()
    // A finding of the whole hour focuses its first table.
    expect(s.focused).toEqual({ start: new Date(FIRST + H).toISOString(), table: 0 })
    expect(s.inspected?.start).toBe(new Date(FIRST + H).toISOString())
    expect(s.inspected?.tables.every((t) => t.state === 'missing')).toBe(true)
    s.closeInspector()
    expect(store.getState().inspected).toBeNull()
  })

  it('a call that fails says why in the store, and the next reload clears it', async () => {
    await store.getState().inspect('not-an-hour')
    expect(store.getState().error).toMatch(/start/)
    await store.getState().reloadDeliveries()
    expect(store.getState().error).toBeNull()
  })

  it('filters stay with their table: another table shows its own (none), coming back brings them; the zone stays; the pane receives handed-over SQL', () => {
    const s = store.getState()
    s.addFilter('tenant_id')
    s.setTenants(['t1'])
    s.setTimeRange({ from: '2026-11-20T00:00', to: '' })
    expect(store.getState().filterZone).toBe('utc')
    s.setFilterZone('brasilia')
    s.selectTable({ schema: 'datamart_claudia', table: 'claudia_messages' }, true)
    expect(store.getState().filters).toHaveLength(1)
    s.selectTable({ schema: 'datamart_claudia', table: 'claudia_csat' }, true)
    // The zone the times are typed in is the user's habit, not the table's: it stays.
    expect(store.getState()).toMatchObject({ filters: [], tenants: [], timeRange: { from: '', to: '' }, tablePickedByUser: true, filterZone: 'brasilia' })
    s.addFilter('csat_score')
    s.selectTable({ schema: 'datamart_claudia', table: 'claudia_messages' }, true)
    expect(store.getState()).toMatchObject({
      filters: [{ column: 'tenant_id', op: 'equals', value: '' }],
      tenants: ['t1'],
      timeRange: { from: '2026-11-20T00:00', to: '' }
    })
    s.selectTable({ schema: 'datamart_claudia', table: 'claudia_csat' }, true)
    expect(store.getState().filters).toEqual([{ column: 'csat_score', op: 'equals', value: '' }])
    s.removeFilter(0)
    s.selectTable({ schema: 'datamart_claudia', table: 'claudia_messages' }, true)
    s.openInSql('SELECT 1')
    s.openInSql('SELECT 1')
    expect(store.getState().handedOver).toEqual({ sql: 'SELECT 1', n: 2 })
    expect(store.getState().tab).toBe('sql')
    expect(store.getState().visited.sql).toBe(true)
  })

  it('"as of" is one state per connection: it never carries to another, and comes back with its own', async () => {
    const first = store.getState().connections?.active ?? null
    expect(first).not.toBeNull()
    const at = new Date(RECENT[0]!).toISOString()
    store.getState().setAsOf(at)
    await store.getState().saveAndOpen({ connection: { name: 'the same folder again', provider: 'local', path: bucket } as never })
    const second = store.getState().connections?.active ?? null
    expect(second).not.toBe(first)
    expect(store.getState().asOf).toBeNull()
    await store.getState().openConnection(first!)
    expect(store.getState().asOf).toBe(at)
    store.getState().setAsOf(null)
    await store.getState().openConnection(second!)
    await store.getState().openConnection(first!)
    expect([store.getState().asOf, store.getState().asOfByConnection]).toEqual([null, {}])
  })

  it('filters are one set per table of each connection: another connection shows its own, the first gets its back', async () => {
    const [first, second] = (store.getState().connections?.connections ?? []).map((c) => c.id)
    expect(second).toBeDefined()
    await store.getState().openConnection(first!)
    store.getState().selectTable({ schema: 'datamart_claudia', table: 'claudia_messages' }, true)
    store.getState().setTenants(['t-first'])
    await store.getState().openConnection(second!)
    expect(store.getState().tenants).toEqual([])
    store.getState().setTenants(['t-second'])
    await store.getState().openConnection(first!)
    expect(store.getState().tenants).toEqual(['t-first'])
    await store.getState().openConnection(second!)
    expect(store.getState().tenants).toEqual(['t-second'])
  })

  it('keeps the query history in main: an entry added is in the next load', async () => {
    await store.getState().addHistory({ sql: 'SELECT 42', rows: 1, ms: 3, error: null })
    const fresh = createAppStore({ api: workspacePort(workspace) })
    await fresh.getState().loadHistory()
    expect(fresh.getState().history[0]).toMatchObject({ sql: 'SELECT 42', connection: store.getState().connections?.active, asOf: null })
  })
})

describe('the findings cross once per analysis', () => {
  /** The store's port, keeping each timeline answer as it crossed. */
  function recordingPort(): { port: ApiPort; answers: TimelineAnswer[] } {
    const inner = workspacePort(workspace)
    const answers: TimelineAnswer[] = []
    const port: ApiPort = {
      ...inner,
      async call(name, args) {
        const answer = await inner.call(name, args)
        if (name === 'timeline') answers.push(answer as TimelineAnswer)
        return answer
      }
    }
    return { port, answers }
  }

  it('another range and a refresh with nothing new get no findings again; a refresh that changes them sends the new list', async () => {
    const { port, answers } = recordingPort()
    const s = createAppStore({ api: port })
    await s.getState().setRange(7 * 24)
    const first = s.getState().timeline!
    expect(answers.at(-1)?.findings).toHaveLength(first.findings.length)
    expect(first.findings.some((f) => f.kind === 'feed_stopped')).toBe(true)

    await s.getState().setRange(48)
    expect(answers.at(-1)).toMatchObject({ findings: null, findingsOf: first.findingsOf })
    expect(s.getState().timeline?.hours).toHaveLength(48)
    expect(s.getState().timeline?.findings).toBe(first.findings)

    await workspace.refresh({ full: false })
    await workspace.running
    await s.getState().setRange(7 * 24)
    expect(answers.at(-1)).toMatchObject({ findings: null, findingsOf: first.findingsOf })
    expect(s.getState().timeline?.findings).toBe(first.findings)

    // A day delivered in the gap (a full listing finds it): the feed stopped later, the findings change, and the new
    // list crosses whole.
    for (let t = FIRST + H; t < FIRST + 24 * H; t += H) await deliverHour(t)
    await workspace.refresh({ full: true })
    await workspace.running
    await s.getState().setRange(48)
    const now = s.getState().timeline!
    expect(now.findingsOf).not.toBe(first.findingsOf)
    expect(answers.at(-1)?.findings).toHaveLength(now.findings.length)
    expect(now.findings).toEqual((await workspacePort(workspace).call('timeline', { fromHours: 48 })).findings)
    expect(now.findings).not.toEqual(first.findings)
  })

  it('asks again for the findings when the list its call named was replaced while the call was out', async () => {
    const { port, answers } = recordingPort()
    const s = createAppStore({ api: port })
    await s.getState().setRange(48)
    const held = s.getState().timeline!
    // As an answer landing between the call and its reply would: the store holds another list when the reply arrives.
    const racing: ApiPort = {
      ...port,
      async call(name, args) {
        const answer = await port.call(name, args)
        if (name === 'timeline' && (answer as TimelineAnswer).findings === null) r.setState({ timeline: { ...held, findingsOf: 'another list', findings: [] } })
        return answer
      }
    }
    const r: AppStore = createAppStore({ api: racing })
    r.setState({ timeline: held })
    await r.getState().setRange(7 * 24)
    expect(answers.slice(-2).map((a) => a.findings === null)).toEqual([true, false])
    expect(r.getState().timeline?.findings).toEqual(held.findings)
    expect(r.getState().timeline?.findingsOf).toBe(held.findingsOf)
  })
})
