// The wire form of a timeline hour's cells: one character per table, an index into CELL_STATES in base 36 (a year
// of hours is 8,760 rows, so a short string rather than an object per table).
import { CELL_STATES, type CellState } from '../timeline'

/** Encodes a row of cell states for the wire (a year of hours is 8,760 rows). */
export function encodeCells(tables: readonly string[], cells: Readonly<Record<string, CellState>>): string {
  return tables.map((t) => CELL_STATES.indexOf(cells[t] ?? 'no_delivery').toString(36)).join('')
}

/** The index into CELL_STATES of one table's cell (no_delivery's when the row is shorter). */
export function cellStateIndex(cells: string, tableIndex: number): number {
  const ch = cells[tableIndex]
  const i = ch === undefined ? -1 : parseInt(ch, 36)
  return i >= 0 && i < CELL_STATES.length ? i : CELL_STATES.indexOf('no_delivery')
}

export function decodeCell(cells: string, tableIndex: number): CellState {
  return CELL_STATES[cellStateIndex(cells, tableIndex)] as CellState
}
