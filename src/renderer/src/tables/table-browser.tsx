// The table browser: the 19 tables (and tables the catalog does not know) grouped by schema, each with its
// mode, latest ready copy or folder count and row count; for the one picked, its rows with filters that need
// no SQL (a time range on its event-time column, a tenant picker, per-column filters), the generated SQL (to
// open in the SQL pane or export), and its columns with types, nulls, distinct estimate, min/max and a small
// histogram for numbers and times.
import { useCallback, useEffect, useMemo, useState } from 'react'
import type { Overview } from '../../../shared/api-contract'
import { CATALOG } from '../../../shared/catalog'
import { tableFiltersSql } from '../../../shared/filter-sql'
import { EXACT_DISTINCT_MAX_ROWS, columnSummarySql, histogramSql, rowSource } from '../../../shared/column-stats-sql'
import { quoteIdent } from '../../../shared/sql-quote'
import { ZONE_CHOICES, type ZoneChoice, zoneId, zoneWordsWithId } from '../../../shared/time-zones'
import type { ResultSet } from '../engine/result-set'
import type { Column, ViewsState } from '../engine/session'
import { ResultGrid } from '../common/result-grid'
import { ViewsProgressLine } from '../common/views-progress'
import { appStore, useApp } from '../store/use-app-store'
import { timeText, wallClock } from '../common/time'
import { countText, numberText } from '../../../shared/counts'
import { ColumnHistogram } from './column-histogram'
import { FilterRow } from './filter-row'
import { TenantPicker } from './tenant-picker'
import { checkFilters } from './filter-value-check'
import { call } from '../common/api-transport'
import { type FetchDdl, WarehouseDdlPanel } from './warehouse-ddl-panel'
import { RestorePanel } from './restore-panel'
import { LocalMirrorPanel } from '../mirror/local-mirror-panel'
import css from './table-browser.module.css'
import { errorMessage } from '../../../shared/error-message'

// The window's one query session (held by the query slice).
const { session } = appStore.getState()
const ensureViews = (asOf: string | null): Promise<ViewsState> => session.ensureViews(asOf)
const query = (sql: string): Promise<Record<string, unknown>[]> => session.query(sql)
const runQuery = (sql: string): Promise<ResultSet> => session.runQuery(sql)

const fetchDdl: FetchDdl = (a) => call('ddl', a)

interface Stats {
  readonly nulls: number
  /** Counted exactly, or DuckDB's estimate (which can exceed the row count). */
  readonly exact: boolean
  readonly distinct: number
  readonly min: string
  readonly max: string
  readonly histogram: number[] | null
}

export function TableBrowser({ overview }: { overview: Overview }): React.JSX.Element {
  const asOf = useApp((s) => s.asOf)
  // A restarted query engine holds none of the old results: open the views (and the table's rows) again.
  const engineGeneration = useApp((s) => s.engineGeneration)
  const selected = useApp((s) => s.selectedTable)
  const tab = useApp((s) => s.tableTab)
  const filters = useApp((s) => s.filters)
  const time = useApp((s) => s.timeRange)
  const tenants = useApp((s) => s.tenants)
  const mirrorGeneration = useApp((s) => s.mirrorGeneration)
  const filterZone = useApp((s) => s.filterZone)
  const {
    selectTable,
    setTableTab: setTab,
    addFilter,
    changeFilter,
    removeFilter,
    setTimeRange: setTime,
    setTenants,
    setFilterZone,
    openInSql: onOpenSql,
    openExport
  } = appStore.getState()
  const [views, setViews] = useState<ViewsState | null>(null)
  const [viewsError, setViewsError] = useState<string | null>(null)
  const [counts, setCounts] = useState<Record<string, number | string>>({})
  const [columns, setColumns] = useState<readonly Column[]>([])
  const [tenantChoices, setTenantChoices] = useState<string[]>([])
  const [applied, setApplied] = useState<string | null>(null)
  const [result, setResult] = useState<ResultSet | null>(null)
  const [running, setRunning] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const [stats, setStats] = useState<Record<string, Stats | string>>({})
  const [ddlOpen, setDdlOpen] = useState(false)

  const entry = CATALOG.find((t) => t.schema === selected.schema && t.table === selected.table)
  const qualified = `${selected.schema}.${selected.table}`
  const problem = views?.problems.find((p) => p.table === qualified)
  const hasView = views?.created.includes(qualified) ?? false

  useEffect(() => {
    setViews(null)
    setViewsError(null)
    ensureViews(asOf).then(
      (v) => {
        setViews(v)
        // Until the user picks one: claudia_messages, or the first table that can be read now.
        if (!appStore.getState().tablePickedByUser && !v.created.includes('datamart_claudia.claudia_messages')) {
          const first = v.created.find((n) => !n.endsWith('__versions') && n.includes('.'))
          if (first) selectTable({ schema: first.split('.')[0] as string, table: first.split('.')[1] as string }, false)
        }
      },
      (e: Error) => setViewsError(e.message)
    )
  }, [asOf, overview, engineGeneration, mirrorGeneration])

  // Row counts of every table with a view, one query each, in the background.
  useEffect(() => {
    if (!views) return
    let stop = false
    void (async () => {
      for (const name of views.created) {
        if (name.endsWith('__versions') || stop) continue
        const [s, t] = name.split('.') as [string, string]
        try {
          const [r] = await query(`SELECT count(*) AS n FROM ${quoteIdent(s)}.${quoteIdent(t)}`)
          if (!stop) setCounts((c) => ({ ...c, [name]: Number(r?.['n'] ?? 0) }))
        } catch (e) {
          if (!stop) setCounts((c) => ({ ...c, [name]: errorMessage(e) }))
        }
      }
    })()
    return () => {
      stop = true
    }
  }, [views])

  // The picked table: its columns and tenants (its filters were reset by selectTable).
  useEffect(() => {
    setColumns([])
    setStats({})
    setTenantChoices([])
    setResult(null)
    setError(null)
    if (!views || !hasView) return
    const name = `${quoteIdent(selected.schema)}.${quoteIdent(selected.table)}`
    void (async () => {
      try {
        const d = await query(`DESCRIBE ${name}`)
        const cols = d.map((r) => ({ name: String(r['column_name']), type: String(r['column_type']) }))
        setColumns(cols)
        if (cols.some((c) => c.name === 'tenant_id')) {
          const ts = await query(`SELECT DISTINCT tenant_id FROM ${name} WHERE tenant_id IS NOT NULL ORDER BY 1 LIMIT 500`)
          setTenantChoices(ts.map((r) => String(r['tenant_id'])))
        }
      } catch (e) {
        setError(errorMessage(e))
      }
    })()
  }, [views, hasView, selected])

  // Only complete filters whose values read as their column's type reach the SQL; the others are marked.
  // Times are typed on the chosen zone's wall clock; the SQL holds their UTC instants.
  const zoneWords = zoneWordsWithId(filterZone)
  const checked = useMemo(() => checkFilters(filters, new Map(columns.map((c) => [c.name, c.type])), zoneWords), [filters, columns, zoneWords])
  const sql = useMemo(
    () =>
      columns.length
        ? tableFiltersSql(
            {
              schema: selected.schema,
              table: selected.table,
              filters: checked.usable,
              tenants,
              zone: { id: zoneId(filterZone), label: zoneWords },
              ...(entry?.eventTimeColumn
                ? { time: { column: entry.eventTimeColumn, ...(time.from ? { from: time.from } : {}), ...(time.to ? { to: time.to } : {}) } }
                : {})
            },
            columns
          )
        : null,
    [columns, selected, checked, tenants, time, entry, filterZone, zoneWords]
  )

  const apply = useCallback(async (text: string) => {
    setRunning(true)
    setError(null)
    try {
      const r = await runQuery(text)
      setApplied(text)
      setResult((old) => {
        if (old) void old.drop()
        return r
      })
    } catch (e) {
      setError(errorMessage(e))
    } finally {
      setRunning(false)
    }
  }, [])

  // The unfiltered preview as soon as the columns are known.
  useEffect(() => {
    if (sql && columns.length && filters.length === 0 && tenants.length === 0 && !time.from && !time.to) void apply(sql)
    // Only when the table (its columns) changes; filters apply on demand.
  }, [columns])

  // Over the rows of the filters applied (the grid's), or the whole table when none are: said above the table.
  const [statsOver, setStatsOver] = useState<string | null>(null)
  useEffect(() => setStatsOver(null), [selected, applied])
  const computeStats = async (): Promise<void> => {
    const base = applied ?? sql
    if (!base) return
    const rows = result && applied ? result.rowCount : typeof counts[qualified] === 'number' ? (counts[qualified] as number) : null
    const exact = rows !== null && rows <= EXACT_DISTINCT_MAX_ROWS
    const filtered = applied !== null && /\bWHERE\b/.test(applied)
    setStatsOver(
      `${filtered ? 'Over the rows of the filters applied' : 'Over the whole table'}${rows !== null ? ` (${countText(rows, 'row')})` : ''}; distinct values ${exact ? 'counted exactly' : 'estimated (HyperLogLog, can exceed the row count)'}.`
    )
    const source = rowSource(base)
    for (const c of columns) {
      try {
        const [r] = await query(columnSummarySql(source, c.name, exact))
        let histogram: number[] | null = null
        const hq = r?.['lo'] !== null ? histogramSql(source, c.name, c.type) : null
        if (hq) {
          const h = await query(hq)
          histogram = Array.from({ length: 20 }, () => 0)
          for (const row of h) histogram[Number(row['bin'] ?? 0)] = Number(row['n'])
        }
        setStats((s) => ({
          ...s,
          [c.name]: {
            nulls: Number(r?.['nulls'] ?? 0),
            exact,
            distinct: Number(r?.['d'] ?? 0),
            min: String(r?.['lo'] ?? ''),
            max: String(r?.['hi'] ?? ''),
            histogram
          }
        }))
      } catch (e) {
        setStats((s) => ({ ...s, [c.name]: errorMessage(e) }))
      }
    }
  }

  const schemas = [...new Set(overview.tables.map((t) => t.schema))]
  const status = overview.tables.find((t) => t.schema === selected.schema && t.table === selected.table)

  return (
    <section data-testid="table-browser" className={css.browser}>
      <nav aria-label="tables" className={css.list}>
        {viewsError ? (
          <p role="alert" className={css.danger}>
            {viewsError}
          </p>
        ) : null}
        <div className={css.faint}>Latest copies in {zoneWords}</div>
        {schemas.map((s) => (
          <div key={s}>
            <div className={css.schema}>{s}</div>
            {overview.tables
              .filter((t) => t.schema === s)
              .map((t) => {
                const name = `${t.schema}.${t.table}`
                const c = counts[name]
                const blocked = views?.problems.find((p) => p.table === name)
                return (
                  <button
                    key={name}
                    data-table-item={t.table}
                    onClick={() => selectTable({ schema: t.schema, table: t.table }, true)}
                    aria-current={selected.table === t.table && selected.schema === t.schema ? 'true' : undefined}
                    className={css.item}
                  >
                    <b>{t.table}</b>{' '}
                    <span className={css.faint}>
                      {t.mode === 'full'
                        ? `full · ${t.newest ? wallClock(Date.parse(t.newest), filterZone) : 'none ready'}`
                        : `parts · ${countText(t.folders, 'folder')}`}
                      {' · '}
                      {blocked ? <span className={css.danger}>unavailable</span> : typeof c === 'number' ? countText(c, 'row') : c ? 'error' : '…'}
                    </span>
                  </button>
                )
              })}
          </div>
        ))}
        {views?.source.unknownTables.length ? (
          <div>
            <div className={css.schema}>not in the catalog (not read)</div>
            {views.source.unknownTables.map((u) => (
              <div key={u.name} className={css.unknown} title="The catalog does not know this table: its folders are listed but never read.">
                {u.name} · {u.folders} folders
              </div>
            ))}
          </div>
        ) : null}
      </nav>
      <div className={css.main}>
        <LocalMirrorPanel />
        <h2 className={css.title}>
          {qualified}{' '}
          <span className={css.subtitle}>
            {entry?.mode === 'full'
              ? `full copy; latest ready ${status?.newest ? timeText(status.newest, filterZone) : 'none'}`
              : `parts; ${countText(status?.folders ?? 0, 'ready folder')}, newest version of each ${entry?.keyColumn ?? 'row (no key: all rows)'}`}
            {typeof counts[qualified] === 'number' ? ` · ${countText(counts[qualified] as number, 'row')}` : ''}
            {asOf ? ` · as of ${timeText(asOf, filterZone)}` : ''}
          </span>{' '}
          <button onClick={() => setDdlOpen(!ddlOpen)} aria-expanded={ddlOpen}>
            Use in Athena / BigQuery
          </button>
        </h2>
        {ddlOpen ? <WarehouseDdlPanel table={qualified} location={overview.location} fetchDdl={fetchDdl} onClose={() => setDdlOpen(false)} /> : null}
        {problem ? (
          <p role="alert" data-testid="table-problem" className={css.problem}>
            {problem.message}
          </p>
        ) : null}
        <RestorePanel table={qualified} />
        {!views && !viewsError ? (
          <>
            <p>Opening the tables…</p>
            <ViewsProgressLine />
          </>
        ) : null}
        {hasView ? (
          <>
            <div role="tablist" className={css.tabs}>
              {(['rows', 'columns'] as const).map((t) => (
                <button key={t} role="tab" aria-selected={tab === t} onClick={() => setTab(t)} className={css.tab}>
                  {t === 'rows' ? 'Rows' : 'Columns'}
                </button>
              ))}
            </div>
            {tab === 'rows' ? (
              <div>
                <div data-testid="filters" className={css.filters}>
                  <label title="Times in the filters are typed on this zone's clock; the generated SQL compares their UTC instants (the bucket's clock).">
                    times in{' '}
                    <select aria-label="filter time zone" value={filterZone} onChange={(e) => setFilterZone(e.target.value as ZoneChoice)}>
                      {ZONE_CHOICES.map((z) => (
                        <option key={z} value={z}>
                          {zoneWordsWithId(z)}
                        </option>
                      ))}
                    </select>
                  </label>
                  {entry?.eventTimeColumn ? (
                    <fieldset className={css.group}>
                      <legend>
                        {entry.eventTimeColumn} ({zoneWords})
                      </legend>
                      from <input aria-label="time from" type="datetime-local" value={time.from} onChange={(e) => setTime({ ...time, from: e.target.value })} />{' '}
                      to <input aria-label="time to" type="datetime-local" value={time.to} onChange={(e) => setTime({ ...time, to: e.target.value })} />
                    </fieldset>
                  ) : null}
                  {tenantChoices.length ? <TenantPicker choices={tenantChoices} chosen={tenants} onChange={setTenants} /> : null}
                  <fieldset className={css.group}>
                    <legend>columns</legend>
                    {filters.map((f, i) => (
                      <FilterRow
                        key={i}
                        filter={f}
                        columns={columns}
                        problem={checked.problems.get(i) ?? null}
                        onChange={(nf) => changeFilter(i, nf)}
                        onRemove={() => removeFilter(i)}
                      />
                    ))}
                    <button onClick={() => addFilter(columns[0]?.name ?? '')}>+ filter</button>
                  </fieldset>
                </div>
                <div className={css.actions}>
                  <button onClick={() => sql && void apply(sql)} disabled={running || !sql}>
                    Apply filters
                  </button>
                  <button onClick={() => sql && onOpenSql(sql)} disabled={!sql}>
                    Open in SQL
                  </button>
                  <button onClick={() => sql && void openExport({ sql, asOf, defaultName: selected.table })} disabled={!sql}>
                    Export…
                  </button>
                  {running ? <span>Running…</span> : null}
                  {checked.problems.size ? (
                    <span role="alert" className={`${css.danger} ${css.note}`}>
                      {checked.problems.size === 1 ? 'One filter is' : `${checked.problems.size} filters are`} left out of the query: fix the marked value.
                    </span>
                  ) : null}
                  {applied !== sql && sql && !running ? <span className={`${css.warning} ${css.note}`}>filters changed: Apply to see them</span> : null}
                </div>
                <pre data-testid="generated-sql" className={css.sql}>
                  {sql}
                </pre>
                {error ? (
                  <p role="alert" className={css.danger}>
                    {error}
                  </p>
                ) : null}
                {result ? (
                  <ResultGrid
                    result={result}
                    onSort={(c, d) =>
                      void result.sorted(c, d).then(
                        (r) => setResult(r),
                        (e: Error) => setError(e.message)
                      )
                    }
                  />
                ) : null}
              </div>
            ) : (
              <div>
                <button onClick={() => void computeStats()}>Compute column statistics</button>
                {statsOver ? (
                  <span data-testid="stats-over" className={css.statsOver}>
                    {statsOver}
                  </span>
                ) : null}
                <table data-testid="columns" className={css.columns}>
                  <thead>
                    <tr>
                      <th>column</th>
                      <th>type</th>
                      <th>nulls</th>
                      <th>distinct</th>
                      <th>min</th>
                      <th>max</th>
                      <th>distribution</th>
                    </tr>
                  </thead>
                  <tbody>
                    {columns.map((c) => {
                      const s = stats[c.name]
                      return (
                        <tr key={c.name} data-column-stats={c.name}>
                          <td className={css.columnName}>{c.name}</td>
                          <td>{c.type}</td>
                          {typeof s === 'string' ? (
                            <td colSpan={5} className={css.danger}>
                              {s}
                            </td>
                          ) : s ? (
                            <>
                              <td>{numberText(s.nulls)}</td>
                              <td title={s.exact ? 'counted exactly' : 'an estimate (HyperLogLog): it can exceed the row count'}>
                                {s.exact ? numberText(s.distinct) : `≈${numberText(s.distinct)} (estimate)`}
                              </td>
                              <td>{s.min.slice(0, 30)}</td>
                              <td>{s.max.slice(0, 30)}</td>
                              <td>{s.histogram ? <ColumnHistogram bins={s.histogram} /> : null}</td>
                            </>
                          ) : (
                            <td colSpan={5} className={css.notComputed}>
                              —
                            </td>
                          )}
                        </tr>
                      )
                    })}
                  </tbody>
                </table>
              </div>
            )}
          </>
        ) : null}
      </div>
    </section>
  )
}
