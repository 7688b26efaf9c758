// The tables view's choices: the table picked, the Rows/Columns tab, and the filters that need no SQL (a
// time range on the event-time column, tenants, per-column filters) and the zone their times are typed in.
// Filters belong to their table of their connection: picking another table (or connection) puts them aside and
// brings back that one's; the zone is the user's, kept across tables.
import type { ColumnFilter } from '../../../shared/filter-sql'
import type { ZoneChoice } from '../../../shared/time-zones'
import type { StateCreator } from 'zustand/vanilla'
import type { AppState } from './app-store'

export interface TableRef {
  readonly schema: string
  readonly table: string
}

export interface TimeRange {
  readonly from: string
  readonly to: string
}

/** One table's filters: what is put aside when another table is picked, and comes back with it. */
export interface TableFilters {
  readonly filters: readonly ColumnFilter[]
  readonly timeRange: TimeRange
  readonly tenants: readonly string[]
}

export interface TablesSlice {
  readonly selectedTable: TableRef
  /** False until the user picks a table: the first readable one may be picked for them. */
  readonly tablePickedByUser: boolean
  readonly tableTab: 'rows' | 'columns'
  readonly filters: readonly ColumnFilter[]
  readonly timeRange: TimeRange
  readonly tenants: readonly string[]
  /** The wall clock the times of the filters are typed on (kept when another table is picked). */
  readonly filterZone: ZoneChoice
  /** The filters of the tables not shown, by filtersKey (connection and table). */
  readonly filtersByTable: Readonly<Record<string, TableFilters>>
  /** Whose filters are the ones above: the connection and table they were set on. */
  readonly filtersKey: string
  selectTable(table: TableRef, byUser: boolean): void
  setTableTab(tab: 'rows' | 'columns'): void
  addFilter(column: string): void
  changeFilter(index: number, filter: ColumnFilter): void
  removeFilter(index: number): void
  setTimeRange(range: TimeRange): void
  setTenants(tenants: readonly string[]): void
  setFilterZone(zone: ZoneChoice): void
  /** Another connection opened: its filters for the table shown come back, the old connection's are put aside. */
  filtersFollowConnection(): void
}

const NO_FILTERS: TableFilters = { filters: [], timeRange: { from: '', to: '' }, tenants: [] }

/** The key of a table's filters: the connection (its id; none before one opens) and the table. */
export const filtersKeyOf = (connectionId: string | null | undefined, table: TableRef): string => `${connectionId ?? ''}\n${table.schema}.${table.table}`

const isEmpty = (f: TableFilters): boolean => f.filters.length === 0 && f.tenants.length === 0 && !f.timeRange.from && !f.timeRange.to

/** The state that puts the shown filters aside under their key and brings back those of `key`. */
function switchFilters(s: AppState, key: string): Pick<TablesSlice, 'filtersByTable' | 'filtersKey'> & TableFilters {
  if (key === s.filtersKey) return { filtersByTable: s.filtersByTable, filtersKey: key, filters: s.filters, timeRange: s.timeRange, tenants: s.tenants }
  const { [key]: back, [s.filtersKey]: _old, ...others } = s.filtersByTable
  const shown: TableFilters = { filters: s.filters, timeRange: s.timeRange, tenants: s.tenants }
  return { filtersByTable: isEmpty(shown) ? others : { ...others, [s.filtersKey]: shown }, filtersKey: key, ...(back ?? NO_FILTERS) }
}

const DEFAULT_TABLE: TableRef = { schema: 'datamart_claudia', table: 'claudia_messages' }

export const createTablesSlice: StateCreator<AppState, [], [], TablesSlice> = (set) => ({
  selectedTable: DEFAULT_TABLE,
  tablePickedByUser: false,
  tableTab: 'rows',
  ...NO_FILTERS,
  filterZone: 'utc',
  filtersByTable: {},
  filtersKey: filtersKeyOf(null, DEFAULT_TABLE),
  selectTable: (table, byUser) =>
    set((s) =>
      s.selectedTable.schema === table.schema && s.selectedTable.table === table.table
        ? { tablePickedByUser: s.tablePickedByUser || byUser }
        : { selectedTable: table, tablePickedByUser: s.tablePickedByUser || byUser, ...switchFilters(s, filtersKeyOf(s.connections?.active, table)) }
    ),
  filtersFollowConnection: () => set((s) => switchFilters(s, filtersKeyOf(s.connections?.active, s.selectedTable))),
  setTableTab: (tab) => set({ tableTab: tab }),
  addFilter: (column) => set((s) => ({ filters: [...s.filters, { column, op: 'equals', value: '' }] })),
  changeFilter: (index, filter) => set((s) => ({ filters: s.filters.map((f, i) => (i === index ? filter : f)) })),
  removeFilter: (index) => set((s) => ({ filters: s.filters.filter((_, i) => i !== index) })),
  setTimeRange: (range) => set({ timeRange: range }),
  setTenants: (tenants) => set({ tenants }),
  setFilterZone: (zone) => set({ filterZone: zone })
})
