// The tables view's choices: the table picked, the Rows/Columns tab, and the filters that need no SQL (a
// time range on the event-time column, tenants, per-column filters) and the zone their times are typed in.
// Picking another table resets the filters, not the zone.
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
  selectTable(table: TableRef, byUser: boolean): void
  setTableTab(tab: 'rows' | 'columns'): void
  addFilter(column: string): void
  changeFilter(index: number, filter: ColumnFilter): void
  removeFilter(index: number): void
  setTimeRange(range: TimeRange): void
  setTenants(tenants: readonly string[]): void
  setFilterZone(zone: ZoneChoice): void
}

const NO_FILTERS = { filters: [], timeRange: { from: '', to: '' }, tenants: [] }

export const createTablesSlice: StateCreator<AppState, [], [], TablesSlice> = (set) => ({
  selectedTable: { schema: 'datamart_claudia', table: 'claudia_messages' },
  tablePickedByUser: false,
  tableTab: 'rows',
  ...NO_FILTERS,
  filterZone: 'utc',
  selectTable: (table, byUser) =>
    set((s) =>
      s.selectedTable.schema === table.schema && s.selectedTable.table === table.table
        ? { tablePickedByUser: s.tablePickedByUser || byUser }
        : { selectedTable: table, tablePickedByUser: s.tablePickedByUser || byUser, ...NO_FILTERS }
    ),
  setTableTab: (tab) => set({ tableTab: tab }),
  addFilter: (column) => set((s) => ({ filters: [...s.filters, { column, op: 'equals', value: '' }] })),
  changeFilter: (index, filter) => set((s) => ({ filters: s.filters.map((f, i) => (i === index ? filter : f)) })),
  removeFilter: (index) => set((s) => ({ filters: s.filters.filter((_, i) => i !== index) })),
  setTimeRange: (range) => set({ timeRange: range }),
  setTenants: (tenants) => set({ tenants }),
  setFilterZone: (zone) => set({ filterZone: zone })
})
