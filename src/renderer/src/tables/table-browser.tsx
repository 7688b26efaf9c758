// The table browser: the 19 tables (and tables the catalog does not know) grouped by schema, each with its
// mode, latest ready copy or folder count and row count; for the one picked, its rows with filters that need
// no SQL (a time range on its event-time column, a tenant picker, per-column filters), the generated SQL (to
// open in the SQL pane or export), and its columns with types, nulls, distinct estimate, min/max and a small
// histogram for numbers and times.
import { useEffect, useMemo, useState } from 'react'
import type { Overview } from '../../../shared/api/views'
import { CATALOG } from '../../../shared/catalog'
import { ZONE_CHOICES, type ZoneChoice, zoneWordsWithId } from '../../../shared/time-zones'
import { ResultGrid } from '../common/result-grid'
import { ViewsProgressLine } from '../common/views-progress'
import { filterQuery } from '../store/table-query-slice'
import { appStore, useApp } from '../store/use-app-store'
import { ZONE_LABEL, timeText, wallClock } from '../common/time'
import { isInstantType, shownValue } from '../common/format-value'
import { countText, numberText } from '../../../shared/counts'
import { ColumnHistogram } from './column-histogram'
import { FilterRow } from './filter-row'
import { TenantPicker } from './tenant-picker'
import { call } from '../common/api-transport'
import { type FetchDdl, WarehouseDdlPanel } from './warehouse-ddl-panel'
import { RestorePanel } from './restore-panel'
import { VolumeChart } from './volume-chart'
import { LocalMirrorPanel } from '../mirror/local-mirror-panel'
import css from './table-browser.module.css'
import { mirrorWaitWords } from '../engine/missing-view'

const fetchDdl: FetchDdl = (a) => call('ddl', a)

/** A column's min or max: an instant on the chosen zone's clock with the zone said; long text cut, whole in its tooltip. */
function StatValue({ text, type, zone }: { text: string; type: string; zone: ZoneChoice }): React.JSX.Element {
  const shown = shownValue(text, type, zone) ?? ''
  const full = isInstantType(type) && shown ? `${shown} ${ZONE_LABEL[zone]}` : shown
  return <td title={full.length > 30 ? full : undefined}>{full.length > 30 && !isInstantType(type) ? `${full.slice(0, 30)}…` : full}</td>
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
  const mirror = useApp((s) => s.mirror)
  const filterZone = useApp((s) => s.filterZone)
  const views = useApp((s) => s.tableViews)
  const viewsError = useApp((s) => s.tableViewsError)
  const counts = useApp((s) => s.rowCounts)
  const columns = useApp((s) => s.tableColumns)
  const tenantChoices = useApp((s) => s.tenantChoices)
  const applied = useApp((s) => s.tableApplied)
  const result = useApp((s) => s.tableResult)
  const running = useApp((s) => s.tableRunning)
  const error = useApp((s) => s.tableError)
  const stats = useApp((s) => s.columnStats)
  const statsOver = useApp((s) => s.statsOver)
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
    openExport,
    openTables,
    loadTableColumns,
    applyTableQuery: apply,
    sortTable,
    computeColumnStats
  } = appStore.getState()
  const [ddlOpen, setDdlOpen] = useState(false)

  const entry = CATALOG.find((t) => t.schema === selected.schema && t.table === selected.table)
  const qualified = `${selected.schema}.${selected.table}`
  const problem = views?.problems.find((p) => p.table === qualified)
  const hasView = views?.created.includes(qualified) ?? false

  useEffect(() => {
    void openTables()
  }, [asOf, overview, engineGeneration, mirrorGeneration, openTables])

  // The picked table: its columns and tenants (its filters were reset by selectTable). Once per opening of its views:
  // the views of every table arriving after its own (the same listing) change nothing here.
  const viewsSource = views?.source
  useEffect(() => {
    void loadTableColumns()
  }, [viewsSource, hasView, selected, loadTableColumns])

  const zoneWords = zoneWordsWithId(filterZone)
  const { sql, checked } = useMemo(
    () => filterQuery({ selectedTable: selected, filters, tenants, timeRange: time, filterZone, tableColumns: columns }),
    [selected, filters, tenants, time, filterZone, columns]
  )

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
                      {t.note ? (
                        <span className={css.warning} data-table-note={t.table} title={t.note}>
                          {' · '}
                          {t.restorable ? 'files to restore' : t.mode === 'full' ? 'an older copy is read' : 'files left out'}
                        </span>
                      ) : null}
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
        {/* Archived files: the restore panel below says so, with the action where the provider has one. */}
        {status?.note && !status.restorable ? (
          <p data-testid="copy-note" className={css.copyNote}>
            {status.note}
          </p>
        ) : null}
        {ddlOpen ? <WarehouseDdlPanel table={qualified} location={overview.location} fetchDdl={fetchDdl} onClose={() => setDdlOpen(false)} /> : null}
        {views?.reads
          .filter((r) => r.table === qualified)
          .map((r) => (
            <p key="read" data-testid="read-note" role="note" className={css.readNote}>
              {r.message}
            </p>
          ))}
        {problem ? (
          <p role="alert" data-testid="table-problem" className={css.problem}>
            {mirrorWaitWords(problem, mirror) ?? problem.message}
          </p>
        ) : null}
        <RestorePanel table={qualified} />
        <VolumeChart table={qualified} />
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
                  <button
                    onClick={() =>
                      sql && void openExport({ sql, asOf, defaultName: selected.table, ...(result && applied === sql ? { rows: result.rowCount } : {}) })
                    }
                    disabled={!sql}
                  >
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
                    zone={filterZone}
                    onSort={(c, d) => void sortTable(c, d)}
                    emptyText={
                      applied && /\bWHERE\b/.test(applied)
                        ? 'No rows match the filters applied: widen the time range or remove a filter.'
                        : `${qualified} has no rows${asOf ? ' as of this hour' : ''}.`
                    }
                  />
                ) : null}
              </div>
            ) : (
              <div>
                <button onClick={() => void computeColumnStats()}>Compute column statistics</button>
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
                              <StatValue text={s.min} type={c.type} zone={filterZone} />
                              <StatValue text={s.max} type={c.type} zone={filterZone} />
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
