// The tables view's engine work on the session: opening the views (the first readable table picked until the
// user picks one), every table's row count, the picked table's columns and tenants, its rows with the filters
// applied (a newer run's result is never overwritten by an older one), sorting them, and column statistics.
// The SQL the filters make is derived here too (filterQuery), so the actions and the view use one definition.
import { CATALOG, findTable } from '../../../shared/catalog'
import { EXACT_DISTINCT_MAX_ROWS, columnSummarySql, histogramSql, rowSource } from '../../../shared/column-stats-sql'
import { countText } from '../../../shared/counts'
import { errorMessage } from '../../../shared/error-message'
import { tableFiltersSql } from '../../../shared/filter-sql'
import { quoteIdent } from '../../../shared/sql-quote'
import { zoneId, zoneWordsWithId } from '../../../shared/time-zones'
import type { StateCreator } from 'zustand/vanilla'
import type { ResultSet } from '../engine/result-set'
import type { Column, ViewsState } from '../engine/session'
import { type CheckedFilters, checkFilters } from '../tables/filter-value-check'
import type { AppState, SliceDeps } from './app-store'

export interface ColumnStats {
  readonly nulls: number
  /** Counted exactly, or DuckDB's estimate (which can exceed the row count). */
  readonly exact: boolean
  readonly distinct: number
  readonly min: string
  readonly max: string
  readonly histogram: number[] | null
}

export interface TableQuerySlice {
  readonly tableViews: ViewsState | null
  readonly tableViewsError: string | null
  /** Rows of each table with a view ("schema.table"), or the error counting them. */
  readonly rowCounts: Readonly<Record<string, number | string>>
  readonly tableColumns: readonly Column[]
  readonly tenantChoices: readonly string[]
  /** The SQL whose rows the grid shows. */
  readonly tableApplied: string | null
  readonly tableResult: ResultSet | null
  readonly tableRunning: boolean
  readonly tableError: string | null
  readonly columnStats: Readonly<Record<string, ColumnStats | string>>
  /** What the statistics are over (said above the columns). */
  readonly statsOver: string | null
  /**
   * Opens the views of the "as of" hour (again after a refresh or a restart): the picked table's first (`tableViews`
   * then holds its alone), then every table's, whose rows it counts.
   */
  openTables(): Promise<void>
  /** The picked table's columns and tenants, then its rows (with the filters it kept, if any). */
  loadTableColumns(): Promise<void>
  /** Runs the table's query (the filters' SQL): its rows replace the grid's. */
  applyTableQuery(sql: string): Promise<void>
  sortTable(column: string, desc: boolean): Promise<void>
  computeColumnStats(): Promise<void>
}

/** The views shown with another table's joined (opened ahead of the rest, on the same listing). */
const joinViews = (shown: ViewsState, more: ViewsState): ViewsState => ({
  created: [...shown.created, ...more.created.filter((c) => !shown.created.includes(c))],
  problems: [...shown.problems, ...more.problems.filter((p) => !shown.problems.some((q) => q.table === p.table))],
  notes: [...shown.notes, ...more.notes.filter((x) => !shown.notes.some((y) => y.table === x.table && y.message === x.message))],
  reads: [...shown.reads, ...more.reads.filter((x) => !shown.reads.some((y) => y.table === x.table))],
  source: shown.source
})

export type FilterQueryInput = Pick<AppState, 'selectedTable' | 'filters' | 'tenants' | 'timeRange' | 'filterZone' | 'tableColumns'>

/**
 * The picked table's query: only complete filters whose values read as their column's type reach the SQL; the
 * others are marked. Times are typed on the chosen zone's wall clock; the SQL holds their UTC instants.
 */
export function filterQuery(s: FilterQueryInput): { readonly sql: string | null; readonly checked: CheckedFilters } {
  const zoneWords = zoneWordsWithId(s.filterZone)
  const checked = checkFilters(s.filters, new Map(s.tableColumns.map((c) => [c.name, c.type])), zoneWords)
  const entry = CATALOG.find((t) => t.schema === s.selectedTable.schema && t.table === s.selectedTable.table)
  const time = s.timeRange
  const sql = s.tableColumns.length
    ? tableFiltersSql(
        {
          schema: s.selectedTable.schema,
          table: s.selectedTable.table,
          filters: checked.usable,
          tenants: s.tenants,
          zone: { id: zoneId(s.filterZone), label: zoneWords },
          ...(entry?.eventTimeColumn
            ? { time: { column: entry.eventTimeColumn, ...(time.from ? { from: time.from } : {}), ...(time.to ? { to: time.to } : {}) } }
            : {})
        },
        s.tableColumns
      )
    : null
  return { sql, checked }
}

const qualifiedOf = (s: AppState): string => `${s.selectedTable.schema}.${s.selectedTable.table}`

export const createTableQuerySlice =
  (deps: SliceDeps): StateCreator<AppState, [], [], TableQuerySlice> =>
  (set, get) => {
    const { session } = deps
    // Each open, table load and run counts: the answer of one the user has left since is dropped.
    let opened = 0
    let loaded = 0
    let runs = 0
    const countRows = async (views: ViewsState, n: number): Promise<void> => {
      for (const name of views.created) {
        if (name.endsWith('__versions')) continue
        if (n !== opened) return
        const [s, t] = name.split('.') as [string, string]
        try {
          const [r] = await session.query(`SELECT count(*) AS n FROM ${quoteIdent(s)}.${quoteIdent(t)}`)
          if (n === opened) set((st) => ({ rowCounts: { ...st.rowCounts, [name]: Number(r?.['n'] ?? 0) } }))
        } catch (e) {
          if (n === opened) set((st) => ({ rowCounts: { ...st.rowCounts, [name]: errorMessage(e) } }))
        }
      }
    }
    return {
      tableViews: null,
      tableViewsError: null,
      rowCounts: {},
      tableColumns: [],
      tenantChoices: [],
      tableApplied: null,
      tableResult: null,
      tableRunning: false,
      tableError: null,
      columnStats: {},
      statsOver: null,
      openTables: async () => {
        const n = ++opened
        set({ tableViews: null, tableViewsError: null })
        const asOf = get().asOf
        const picked = findTable(get().selectedTable.schema, get().selectedTable.table)
        let views: ViewsState
        try {
          // The picked table's views first, ahead of the rest: its columns and rows load while the others open (the
          // list says "…" for their counts until then).
          if (picked) {
            const first = await session.ensureViews(asOf, [picked])
            if (n !== opened) return
            if (first.created.length > 0) set({ tableViews: first })
          }
          views = await session.ensureViews(asOf)
        } catch (e) {
          if (n === opened) set({ tableViewsError: errorMessage(e) })
          return
        }
        if (n !== opened) return
        set({ tableViews: views })
        // Until the user picks one: claudia_messages, or the first table that can be read now.
        if (!get().tablePickedByUser && !views.created.includes('datamart_claudia.claudia_messages')) {
          const first = views.created.find((v) => !v.endsWith('__versions') && v.includes('.'))
          if (first) get().selectTable({ schema: first.split('.')[0] as string, table: first.split('.')[1] as string }, false)
        }
        await countRows(views, n)
      },
      loadTableColumns: async () => {
        const n = ++loaded
        // A run under way goes on: its rows still show when they come (the views may open again meanwhile).
        set({ tableColumns: [], columnStats: {}, statsOver: null, tenantChoices: [], tableResult: null, tableError: null })
        const { tableViews: views, selectedTable } = get()
        const qualified = qualifiedOf(get())
        const picked = findTable(selectedTable.schema, selectedTable.table)
        // Picked while the other tables' views still open: its own go ahead of them, and join those shown.
        if (views && picked && !views.created.includes(qualified) && !views.problems.some((p) => p.table === qualified)) {
          let own: ViewsState
          try {
            own = await session.ensureViews(get().asOf, [picked])
          } catch (e) {
            if (n === loaded) set({ tableError: errorMessage(e) })
            return
          }
          const now = get().tableViews
          if (n !== loaded || !now || now.source !== own.source || now.created.includes(qualified)) return
          set({ tableViews: joinViews(now, own) })
          return get().loadTableColumns()
        }
        if (!views?.created.includes(qualified)) return
        const name = `${quoteIdent(selectedTable.schema)}.${quoteIdent(selectedTable.table)}`
        try {
          const d = await session.query(`DESCRIBE ${name}`)
          if (n !== loaded) return
          const cols = d.map((r) => ({ name: String(r['column_name']), type: String(r['column_type']) }))
          set({ tableColumns: cols })
          const tenants = cols.some((c) => c.name === 'tenant_id')
            ? session.query(`SELECT DISTINCT tenant_id FROM ${name} WHERE tenant_id IS NOT NULL ORDER BY 1 LIMIT 500`)
            : null
          // The rows as soon as the columns are known: unfiltered, or with the filters the table kept (a table
          // picked again shows what it showed); filters changed afterwards apply on demand.
          const { sql } = filterQuery(get())
          if (sql) void get().applyTableQuery(sql)
          if (tenants) {
            const ts = await tenants
            if (n === loaded) set({ tenantChoices: ts.map((r) => String(r['tenant_id'])) })
          }
        } catch (e) {
          if (n === loaded) set({ tableError: errorMessage(e) })
        }
      },
      applyTableQuery: async (sql) => {
        const n = ++runs
        set({ tableRunning: true, tableError: null })
        try {
          const r = await session.runQuery(sql)
          if (n !== runs) {
            // An older run than the one shown or running now: its rows never reach the grid.
            void r.drop()
            return
          }
          const old = get().tableResult
          set((st) => ({ tableApplied: sql, tableResult: r, statsOver: st.tableApplied === sql ? st.statsOver : null }))
          if (old) void old.drop()
        } catch (e) {
          if (n === runs) set({ tableError: errorMessage(e) })
        } finally {
          if (n === runs) set({ tableRunning: false })
        }
      },
      sortTable: async (column, desc) => {
        const result = get().tableResult
        if (!result) return
        try {
          const r = await result.sorted(column, desc)
          if (get().tableResult === result) set({ tableResult: r })
        } catch (e) {
          set({ tableError: errorMessage(e) })
        }
      },
      // Over the rows of the filters applied (the grid's), or the whole table when none are: said above the table.
      computeColumnStats: async () => {
        const s = get()
        const base = s.tableApplied ?? filterQuery(s).sql
        if (!base) return
        const n = loaded
        const qualified = qualifiedOf(s)
        const count = s.rowCounts[qualified]
        const rows = s.tableResult && s.tableApplied ? s.tableResult.rowCount : typeof count === 'number' ? count : null
        const exact = rows !== null && rows <= EXACT_DISTINCT_MAX_ROWS
        const filtered = s.tableApplied !== null && /\bWHERE\b/.test(s.tableApplied)
        set({
          statsOver: `${filtered ? 'Over the rows of the filters applied' : 'Over the whole table'}${rows !== null ? ` (${countText(rows, 'row')})` : ''}; distinct values ${exact ? 'counted exactly' : 'estimated (HyperLogLog, can exceed the row count)'}.`
        })
        const source = rowSource(base)
        for (const c of s.tableColumns) {
          if (n !== loaded) return
          let stats: ColumnStats | string
          try {
            const [r] = await session.query(columnSummarySql(source, c.name, exact))
            let histogram: number[] | null = null
            const hq = r?.['lo'] !== null ? histogramSql(source, c.name, c.type) : null
            if (hq) {
              const h = await session.query(hq)
              histogram = Array.from({ length: 20 }, () => 0)
              for (const row of h) histogram[Number(row['bin'] ?? 0)] = Number(row['n'])
            }
            stats = {
              nulls: Number(r?.['nulls'] ?? 0),
              exact,
              distinct: Number(r?.['d'] ?? 0),
              min: String(r?.['lo'] ?? ''),
              max: String(r?.['hi'] ?? ''),
              histogram
            }
          } catch (e) {
            stats = errorMessage(e)
          }
          if (n === loaded) set((st) => ({ columnStats: { ...st.columnStats, [c.name]: stats } }))
        }
      }
    }
  }
