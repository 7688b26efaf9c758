// Names for the columns the engine adds for its own bookkeeping (file, rank, row position, folder) that never meet a
// vendor column, whatever the vendor named theirs: chosen against the table's own columns, and a fixed escape for the
// vendor's columns stored in the mirror's segments next to the mirror's own.

/** DuckDB's identifiers are case-insensitive: the set of names taken, lowercased. */
export function takenNames(columns: Iterable<string>): Set<string> {
  return new Set([...columns].map((c) => c.toLowerCase()))
}

/** `name`, or with one more leading underscore until no column of `taken` has it; the name is then taken. */
export function freshName(name: string, taken: Set<string>): string {
  let n = name
  while (taken.has(n.toLowerCase())) n = `_${n}`
  taken.add(n.toLowerCase())
  return n
}

/** A vendor column as a segment stores it: the mirror's own columns all start with "_", so a vendor name that does
 * gets "_v" in front (no vendor column stored so can be a mirror column, nor two vendor columns one name). */
export const storedName = (vendor: string): string => (vendor.startsWith('_') ? `_v${vendor}` : vendor)

/** The vendor's name of a column a segment stores (storedName undone). */
export const vendorName = (stored: string): string => (stored.startsWith('_v_') ? stored.slice(2) : stored)
