// The query session (engine/session.ts) and the store's actions on it (sql-slice.ts, table-query-slice.ts) in Node,
// on the renderer's own engine code over DuckDB-WASM 1.28's Node build (test/helpers/node-wasm-engine.ts), reading
// real Parquet written by native DuckDB through a real Workspace's byte server: views and "as of", cancel,
// errors in words, results read a page at a time, and an older run's result never overwriting a newer one.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MemorySecretStore } from '../../src/main/connections/secret-store'
import { Workspace } from '../../src/main/workspace/workspace'
import { CancelledError, QuerySession, WARM_UP_SQL } from '../../src/renderer/src/engine/session'
import type { ApiPort } from '../../src/renderer/src/store/api-port'
import { type AppStore, createAppStore } from '../../src/renderer/src/store/app-store'
import { SQL_PANE } from '../../src/renderer/src/store/sql-slice'
import { manifestKey } from '../../src/shared/bucket-key'
import { quoteLiteral } from '../../src/shared/sql-quote'
import { type Db, openDb } from '../helpers/duckdb'
import { startNodeWasmEngine } from '../helpers/node-wasm-engine'
import { CSAT, H03, H04, MSGS, NOW, bucketWriter, csat03, csat04, d, h, msgs03, msgs04 } from '../helpers/unreadable-bucket'
import { until, workspacePort } from '../helpers/workspace-port'

const MIN = 60_000
/** A scan the engine's interrupt stops (it runs for minutes otherwise). */
const RUNAWAY = 'SELECT count(*) AS n FROM range(100000000) a, range(1000) b'
/** The hour H03 was delivered by, before H04: "as of" it, the tables read H03's folders only. */
const AS_OF_H03 = new Date(H04).toISOString()

let work: string
let db: Db
let workspace: Workspace
let api: ApiPort

const newSession = (): QuerySession => new QuerySession({ source: (asOf) => api.call('engineSource', { asOf }), start: startNodeWasmEngine })

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'ee-query-'))
  const bucket = join(work, 'bucket')
  db = await openDb()
  const { put, parquet } = bucketWriter(bucket, db)
  const csat = (k: number, tag: string): string =>
    `SELECT 'r' || i AS csat_id, 'tnt_' || (i % 2) AS tenant_id, ${quoteLiteral(tag)} AS tag, i * 10 AS score FROM range(${k}) t(i)`
  const msgs = (keys: string[], tag: string): string =>
    `SELECT * FROM (VALUES ${keys.map((k) => `(${quoteLiteral(k)}, 'tnt_acme', ${quoteLiteral(tag)})`).join(', ')}) t(message_id, tenant_id, content)`
  for (const at of [H03, H04])
    await put(
      manifestKey('v2', d(at), h(at)),
      at + 25 * MIN,
      JSON.stringify({ snapshot_date: d(at), snapshot_hour: h(at), complete: true, tables_delivered: [], tables_missing: [], tables_pending: [] })
    )
  await parquet(`${csat03}part-0.parquet`, csat(3, 'h03'), H03 + 10 * MIN)
  await put(`${csat03}_SUCCESS`, H03 + 20 * MIN, '')
  await parquet(`${csat04}part-0.parquet`, csat(5, 'h04'), H04 + 10 * MIN)
  await put(`${csat04}_SUCCESS`, H04 + 20 * MIN, '')
  await parquet(`${msgs03}part-0.parquet`, msgs(['m1', 'm2'], 'h03'), H03 + 10 * MIN)
  await put(`${msgs03}_SUCCESS`, H03 + 20 * MIN, '')
  await parquet(`${msgs04}part-0.parquet`, msgs(['m3'], 'h04'), H04 + 10 * MIN)
  await put(`${msgs04}_SUCCESS`, H04 + 20 * MIN, '')
  workspace = new Workspace({ dataDir: join(work, 'data'), secrets: new MemorySecretStore(), clock: () => NOW, autoRefresh: false })
  api = workspacePort(workspace)
  const { id } = await api.call('connectionSave', { connection: { name: 'written', provider: 'local', path: bucket } as never })
  await api.call('connectionOpen', { id })
  await workspace.running
}, 120_000)
afterAll(async () => {
  await workspace?.running
  await workspace?.dispose()
  db?.close()
  if (work) await rm(work, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 })
})

const csatName = `${CSAT.schema}.${CSAT.table}`
const msgsName = `${MSGS.schema}.${MSGS.table}`

describe('the query session on DuckDB-WASM', () => {
  it('opens the views of the latest copy, and "as of" an hour the folders delivered by then', async () => {
    const session = newSession()
    const progress: (number | null)[] = []
    session.subscribe((e) => void (e.kind === 'progress' && progress.push(e.progress?.done ?? null)))
    try {
      const views = await session.ensureViews(null)
      expect(views.created).toEqual(expect.arrayContaining([csatName, msgsName]))
      expect(progress.at(-1)).toBeNull()
      expect(await session.query(`SELECT count(*) AS n, min(tag) AS tag FROM ${csatName}`)).toEqual([{ n: 5, tag: 'h04' }])
      expect(await session.query(`SELECT string_agg(message_id, ',' ORDER BY message_id) AS ids FROM ${msgsName}`)).toEqual([{ ids: 'm1,m2,m3' }])
      await session.ensureViews(AS_OF_H03)
      expect(await session.query(`SELECT count(*) AS n, min(tag) AS tag FROM ${csatName}`)).toEqual([{ n: 3, tag: 'h03' }])
      expect(await session.query(`SELECT string_agg(message_id, ',' ORDER BY message_id) AS ids FROM ${msgsName}`)).toEqual([{ ids: 'm1,m2' }])
    } finally {
      await session.close()
    }
  })

  it('a statement waits only for the tables it names, which open ahead of the tables still waiting', async () => {
    const session = newSession()
    const started: string[] = []
    session.subscribe((e) => void (e.kind === 'progress' && e.progress?.table && started.push(e.progress.table)))
    try {
      let allOpen = false
      const all = session.ensureViews(null).then((v) => {
        allOpen = true
        return v
      })
      const named = await session.ensureViews(null, [MSGS])
      expect(allOpen).toBe(false)
      expect(named.created).toEqual([msgsName, `${MSGS.table}__versions`])
      // Its statement goes ahead of the views still opening too.
      expect(await session.query(`SELECT count(*) AS n FROM ${msgsName}`)).toEqual([{ n: 3 }])
      expect(allOpen).toBe(false)
      // The first table was already opening; the named one went next, ahead of the 17 others asked for before it.
      expect(started.slice(0, 2)).toEqual(['datamart_claudia.claudia_contents', msgsName])
      const views = await all
      expect(views.created).toEqual(expect.arrayContaining([csatName, msgsName]))
      // Each table opened once.
      expect(new Set(started).size).toBe(started.length)
    } finally {
      await session.close()
    }
  })

  it('warms up: the engine started ahead runs WARM_UP_SQL once, unless work asked for the engine while it started, or none is given', async () => {
    // Each engine started, and the statements it ran, in order.
    const ran: string[][] = []
    // The listings asked for ("as of" or latest).
    const asked: (string | null)[] = []
    const recording = (warmUpSql?: null): QuerySession =>
      new QuerySession({
        source: (asOf) => {
          asked.push(asOf)
          return api.call('engineSource', { asOf })
        },
        ...(warmUpSql === null ? { warmUpSql } : {}),
        start: async (urlOf) => {
          const e = await startNodeWasmEngine(urlOf)
          const statements: string[] = []
          ran.push(statements)
          const query = e.query.bind(e)
          e.query = (sql) => {
            statements.push(sql)
            return query(sql)
          }
          return e
        }
      })
    const idle = recording()
    try {
      await idle.warmUp()
      expect(ran).toEqual([[WARM_UP_SQL]])
      // Then the latest listing's views were prepared (no statement: each table opens when asked for).
      expect(asked).toEqual([null])
      expect((await idle.ensureViews(null, [CSAT])).created).toContain(csatName)
      // Started already: a second call starts nothing and runs nothing.
      await idle.warmUp()
      expect(await idle.query('SELECT 42 AS n')).toEqual([{ n: 42 }])
      expect(ran[0]?.[0]).toBe(WARM_UP_SQL)
      expect(ran[0]?.at(-1)).toBe('SELECT 42 AS n')
    } finally {
      await idle.close()
    }
    ran.length = 0
    asked.length = 0
    const busy = recording()
    try {
      const warmed = busy.warmUp()
      // A statement asked for while the engine starts warms it itself: no warm-up runs before or after it.
      expect(await busy.query('SELECT 7 AS n')).toEqual([{ n: 7 }])
      await warmed
      expect(ran).toEqual([['SELECT 7 AS n']])
      expect(asked).toEqual([])
    } finally {
      await busy.close()
    }
    ran.length = 0
    // Without a warm-up statement (the bench's comparison): the engine starts, and runs nothing.
    const bare = recording(null)
    try {
      await bare.warmUp()
      expect(ran).toEqual([[]])
    } finally {
      await bare.close()
    }
  })

  it('hands the tables still waiting over to the new listing\'s views ("as of" another hour): they open there', async () => {
    const session = newSession()
    try {
      const latest = session.ensureViews(null)
      const asOf = await session.ensureViews(AS_OF_H03, [CSAT])
      const handedOver = await latest
      expect(handedOver.created).toEqual(expect.arrayContaining([csatName, msgsName]))
      expect(asOf.created).toEqual([csatName])
      // Every view now reads the folders delivered by H03: none was opened for the latest hour after "as of".
      expect(await session.query(`SELECT count(*) AS n, min(tag) AS tag FROM ${csatName}`)).toEqual([{ n: 3, tag: 'h03' }])
      expect(await session.query(`SELECT string_agg(message_id, ',' ORDER BY message_id) AS ids FROM ${msgsName}`)).toEqual([{ ids: 'm1,m2' }])
    } finally {
      await session.close()
    }
  })

  it("cancels one owner's running statement and its queued ones, never another owner's; the engine goes on", async () => {
    const session = newSession()
    try {
      await session.ensureViews(null)
      const runaway = session.query(RUNAWAY, SQL_PANE).then(
        () => 'finished',
        (e: Error) => `stopped: ${e.message}`
      )
      const queuedOfPane = session.query('SELECT 1 AS one', SQL_PANE).then(
        () => 'ran',
        (e: unknown) => (e instanceof CancelledError ? 'dropped' : 'failed')
      )
      const otherOwner = session.query(`SELECT count(*) AS n FROM ${csatName}`, 'tables')
      expect(await session.cancel(SQL_PANE)).toBe('interrupted')
      expect(await runaway).toMatch(/^stopped: .*cancel/i)
      expect(await queuedOfPane).toBe('dropped')
      expect(await otherOwner).toEqual([{ n: 5 }])
      expect(await session.cancel(SQL_PANE)).toBe('idle')
    } finally {
      await session.close()
    }
  })

  it('materializes a result and reads it a page at a time, sorted in SQL on the typed values', async () => {
    const session = newSession()
    try {
      await session.ensureViews(null)
      const r = await session.runQuery(`SELECT csat_id, score FROM ${csatName};`)
      expect(r.rowCount).toBe(5)
      expect(r.columns.map((c) => `${c.name} ${c.type}`)).toEqual(['csat_id VARCHAR', 'score BIGINT'])
      const sorted = await r.sorted('score', true)
      expect((await sorted.page(0)).map((row) => row[1])).toEqual(['40', '30', '20', '10', '0'])
      await r.drop()
      await expect(r.page(1)).rejects.toThrow(/does not exist/)
    } finally {
      await session.close()
    }
  })
})

describe("the store's query actions", () => {
  let store: AppStore
  let session: QuerySession
  beforeAll(() => {
    session = newSession()
    store = createAppStore({ api, session })
  })
  afterAll(async () => {
    await session?.close()
  })

  it('runs the SQL pane statement: its result, a page of rows, and the history main keeps', async () => {
    await store.getState().runSql({ text: `SELECT tag, count(*) AS n FROM ${csatName} GROUP BY 1`, doc: '', base: 0 })
    const s = store.getState()
    expect(s.sqlRunning).toBeNull()
    expect(s.sqlError).toBeNull()
    expect(s.sqlEnded).toBeNull()
    expect(await s.sqlResult?.page(0)).toEqual([['h04', '5']])
    await until(() => store.getState().history.some((e) => e.sql.includes('GROUP BY 1') && e.rows === 1), 10_000)
  })

  it('says an error in words, at its line and column of the editor (a selected statement further down)', async () => {
    const doc = `SELECT 1;\nSELECT nope\nFROM ${csatName}`
    const base = doc.indexOf('SELECT nope')
    await store.getState().runSql({ text: doc.slice(base), doc, base })
    const s = store.getState()
    expect(s.sqlResult).toBeNull()
    expect(s.sqlEnded).toMatch(/^Failed after /)
    expect(s.sqlError?.message).toMatch(/Referenced column "nope" not found/)
    expect(s.sqlError?.where).toBe('line 2, column 8')
    expect(s.sqlError?.message).toContain('LINE 2:')
    expect(s.sqlError?.at).toBe(base + 7)
  })

  it('refuses a COPY … TO: it would write into the engine, not a file; nothing runs, nothing goes to the history', async () => {
    const before = store.getState().history.length
    await store.getState().runSql({ text: `COPY (SELECT * FROM ${csatName}) TO 'x.csv'`, doc: '', base: 0 })
    const s = store.getState()
    expect(s.sqlError?.message).toMatch(/^COPY … TO would write into the query engine's memory.*Export…/)
    expect([s.sqlEnded, s.sqlRunning, s.history.length]).toEqual([null, null, before])
  })

  it("says in DuckDB's words that a table does not exist", async () => {
    await store.getState().runSql({ text: 'SELECT * FROM no_such_table', doc: '', base: 0 })
    expect(store.getState().sqlError?.message).toMatch(/Table with name no_such_table does not exist/)
  })

  it('cancels a run: the last result stays, the status says cancelled, no error', async () => {
    await store.getState().runSql({ text: `SELECT count(*) AS n FROM ${msgsName}`, doc: '', base: 0 })
    const last = store.getState().sqlResult
    expect(await last?.page(0)).toEqual([['3']])
    const run = store.getState().runSql({ text: RUNAWAY, doc: '', base: 0 })
    expect(store.getState().sqlRunning).not.toBeNull()
    await store.getState().cancelSql()
    expect(store.getState().sqlRunning?.cancelAt).toBeDefined()
    await run
    const s = store.getState()
    expect(s.sqlEnded).toMatch(/^Cancelled after \d/)
    expect(s.sqlError).toBeNull()
    expect(s.sqlResult).toBe(last)
    expect(await s.sqlResult?.page(0)).toEqual([['3']])
    await until(() => store.getState().history.some((e) => e.sql === RUNAWAY && e.error?.startsWith('Cancelled') === true), 10_000)
  })

  it("opens the tables view: row counts, the picked table's columns and tenants, and its unfiltered rows", async () => {
    store.getState().selectTable({ schema: CSAT.schema, table: CSAT.table }, true)
    await store.getState().openTables()
    expect(store.getState().rowCounts[csatName]).toBe(5)
    expect(store.getState().rowCounts[msgsName]).toBe(3)
    await store.getState().loadTableColumns()
    const s = store.getState()
    expect(s.tableColumns.map((c) => c.name)).toEqual(['csat_id', 'tenant_id', 'tag', 'score'])
    expect(s.tenantChoices).toEqual(['tnt_0', 'tnt_1'])
    await until(() => store.getState().tableResult !== null && !store.getState().tableRunning, 30_000)
    expect(store.getState().tableResult?.rowCount).toBe(5)
    expect(store.getState().tableApplied).toMatch(/FROM .*claudia_csat/)
  })

  it("opens the picked table's views first, alone, then every table's and their row counts", async () => {
    const own = newSession()
    const fresh = createAppStore({ api, session: own })
    try {
      fresh.getState().selectTable({ schema: CSAT.schema, table: CSAT.table }, true)
      const seen: string[][] = []
      fresh.subscribe((st, prev) => {
        if (st.tableViews && st.tableViews !== prev.tableViews) seen.push([...st.tableViews.created])
      })
      await fresh.getState().openTables()
      expect(seen[0]).toEqual([csatName])
      expect(seen.at(-1)).toEqual(expect.arrayContaining([csatName, msgsName, `${MSGS.table}__versions`]))
      expect(fresh.getState().rowCounts).toMatchObject({ [csatName]: 5, [msgsName]: 3 })
    } finally {
      await own.close()
    }
  })

  it('a table picked while the views open has its own opened ahead of the rest, and its columns load at once', async () => {
    const own = newSession()
    const fresh = createAppStore({ api, session: own })
    try {
      fresh.getState().selectTable({ schema: CSAT.schema, table: CSAT.table }, true)
      const partial = new Promise<void>((resolve) =>
        fresh.subscribe((st) => {
          if (st.tableViews?.created.includes(csatName)) resolve()
        })
      )
      let allOpen = false
      const opening = fresh
        .getState()
        .openTables()
        .then(() => (allOpen = true))
      await partial
      fresh.getState().selectTable({ schema: MSGS.schema, table: MSGS.table }, true)
      await fresh.getState().loadTableColumns()
      // Its statements went ahead of the other tables' views still queued: every table's are not open yet.
      expect(fresh.getState().tableColumns.map((c) => c.name)).toContain('message_id')
      expect([allOpen, fresh.getState().tableViews?.created]).toEqual([false, expect.arrayContaining([csatName, msgsName])])
      await opening
      expect(fresh.getState().rowCounts).toMatchObject({ [csatName]: 5, [msgsName]: 3 })
    } finally {
      await own.close()
    }
  })

  it('applies filters and sorts; of two runs, the last one asked is shown', async () => {
    store.getState().setTenants(['tnt_1'])
    const older = store.getState().applyTableQuery(`SELECT * FROM ${csatName} WHERE score > 0`)
    const newer = store.getState().applyTableQuery(`SELECT * FROM ${csatName} WHERE tenant_id = 'tnt_1'`)
    await Promise.all([older, newer])
    const s = store.getState()
    expect(s.tableRunning).toBe(false)
    expect(s.tableApplied).toBe(`SELECT * FROM ${csatName} WHERE tenant_id = 'tnt_1'`)
    expect(s.tableResult?.rowCount).toBe(2)
    await store.getState().sortTable('score', true)
    expect((await store.getState().tableResult?.page(0))?.map((r) => r[3])).toEqual(['30', '10'])
    await store.getState().applyTableQuery(`SELECT nope FROM ${csatName}`)
    expect(store.getState().tableError).toMatch(/Referenced column "nope" not found/)
  })

  it('computes column statistics over the rows applied', async () => {
    await store.getState().applyTableQuery(`SELECT * FROM ${csatName} WHERE tenant_id = 'tnt_1'`)
    await store.getState().computeColumnStats()
    const s = store.getState()
    expect(s.statsOver).toBe('Over the rows of the filters applied (2 rows); distinct values counted exactly.')
    expect(s.columnStats['score']).toMatchObject({ nulls: 0, exact: true, distinct: 2, min: '10', max: '30' })
  })

  it('"as of" an hour: the tables view and the pane read the folders delivered by then', async () => {
    store.getState().setAsOf(AS_OF_H03)
    await store.getState().openTables()
    expect(store.getState().rowCounts[csatName]).toBe(3)
    await store.getState().runSql({ text: `SELECT min(tag) AS tag FROM ${csatName}`, doc: '', base: 0 })
    expect(await store.getState().sqlResult?.page(0)).toEqual([['h03']])
    store.getState().setAsOf(null)
  })

  it('never lets the views of an older open overwrite those of a newer one (main answered it last)', async () => {
    // The same workspace, with main's answer for the "as of" source held back until the newer open has ended.
    let release: () => void = () => {}
    const held = new Promise<void>((r) => (release = r))
    const slow: ApiPort = {
      call: async (name, args) => {
        if (name === 'engineSource' && (args as { asOf: string | null }).asOf !== null) await held
        return api.call(name, args)
      },
      subscribe: api.subscribe
    }
    const other = new QuerySession({ source: (asOf) => slow.call('engineSource', { asOf }), start: startNodeWasmEngine })
    const s2 = createAppStore({ api: slow, session: other })
    try {
      s2.getState().setAsOf(AS_OF_H03)
      const older = s2.getState().openTables()
      s2.getState().setAsOf(null)
      await s2.getState().openTables()
      const newer = s2.getState().tableViews
      expect(s2.getState().rowCounts[csatName]).toBe(5)
      release()
      await older
      expect(s2.getState().tableViews).toBe(newer)
      expect(s2.getState().rowCounts[csatName]).toBe(5)
      await s2.getState().runSql({ text: `SELECT min(tag) AS tag FROM ${csatName}`, doc: '', base: 0 })
      expect(await s2.getState().sqlResult?.page(0)).toEqual([['h04']])
    } finally {
      await other.close()
    }
  })
})
