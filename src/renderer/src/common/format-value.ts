// The one formatter of query values in the renderer (grid, copy, row preview). DuckDB writes every scalar
// itself (the page query casts it to VARCHAR: HUGEINT, DECIMAL, INTERVAL, TIME, BLOB … exact); nested values
// come with VARCHAR leaves and are put together here the way native DuckDB 1.5 writes them, which quotes a
// string inside a LIST/STRUCT/MAP where it could be misread ('NULL', '', 'a,b') and DuckDB-WASM 0.9.1 does not.
import type { TypeShape } from './duckdb-type'
import { type AxisZone, timestampTextIn } from './time'

/** Said once, in the header of a BLOB column. */
export const BLOB_NOTE = 'BLOB values as DuckDB writes them: printable ASCII as is, every other byte as \\xNN (two hex digits)'
/** Said in the tooltip of every column: NULL is not the text "NULL". */
export const NULL_NOTE = 'NULL (no value) is shown as a grey italic NULL and copied as an empty field; the text "NULL" is shown as text'

const NUMERIC = /^(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT|UTINYINT|USMALLINT|UINTEGER|UBIGINT|UHUGEINT|FLOAT|REAL|DOUBLE|DECIMAL(\(.*\))?)$/i

/** Numbers are right-aligned. */
export const isNumericType = (type: string): boolean => NUMERIC.test(type.trim())

const INSTANT = /^(TIMESTAMP(_S|_MS|_NS)?|DATETIME|TIMESTAMP WITH TIME ZONE|TIMESTAMPTZ)$/i

/** Types whose values are instants (read on a zone's clock); DATE and TIME are not. */
export const isInstantType = (type: string): boolean => INSTANT.test(type.trim())

/** A grid value as shown (and copied): an instant on the zone's wall clock, anything else as DuckDB wrote it. */
export function shownValue(text: string | null, type: string, zone: AxisZone): string | null {
  return text === null || !isInstantType(type) ? text : timestampTextIn(text, zone)
}

/** The text of a value (`null` for NULL). Leaves are already DuckDB's own VARCHAR. */
export function displayText(value: unknown, shape: TypeShape): string | null {
  if (value === null || value === undefined) return null
  return render(value, shape)
}

const isNested = (s: TypeShape): boolean => s.kind !== 'leaf' || s.nested

// DuckDB 1.5 (VectorCastHelpers::CalculateEscapedStringLength): inside a nested value, a leaf is quoted when it
// is empty, starts (or, from two characters, ends) with white space, reads "null" in any case, or holds one
// of " ' ( ) , : = [ ] { }. Struct field names are always quoted. Quoted: ' and \ take a backslash.
const SPACE = /^[ \t\n\v\f\r]$/
const SPECIAL = /["'(),:=[\]{}]/
function needsQuotes(s: string): boolean {
  return s === '' || SPACE.test(s[0] as string) || (s.length >= 2 && SPACE.test(s[s.length - 1] as string)) || /^null$/i.test(s) || SPECIAL.test(s)
}
const quote = (s: string): string => `'${s.replace(/['\\]/g, '\\$&')}'`

function child(value: unknown, shape: TypeShape): string {
  if (value === null || value === undefined) return 'NULL'
  const text = render(value, shape)
  return isNested(shape) || !needsQuotes(text) ? text : quote(text)
}

/** Arrow gives lists as Vectors and structs/maps as rows that iterate [name, value]; tests give arrays. */
function entries(value: unknown): unknown[] {
  if (value !== null && typeof value === 'object' && Symbol.iterator in value) return Array.from(value as Iterable<unknown>)
  return Object.entries(value as object)
}

function render(value: unknown, shape: TypeShape): string {
  switch (shape.kind) {
    case 'leaf':
      return typeof value === 'string' ? value : String(value)
    case 'list':
      return `[${entries(value)
        .map((x) => child(x, shape.child))
        .join(', ')}]`
    case 'struct': {
      const pairs = entries(value) as [string, unknown][]
      return `{${shape.fields.map((f, i) => `${quote(f.name)}: ${child(pairs[i]?.[1], f.type)}`).join(', ')}}`
    }
    case 'map': {
      const pairs = entries(value) as [unknown, unknown][]
      return `{${pairs.map(([k, v]) => `${child(k, shape.key)}=${child(v, shape.value)}`).join(', ')}}`
    }
  }
}

/** Tab-separated text of displayed values: NULL is an empty field; a field holding a tab, line break or
 * double quote is quoted ("" inside), as spreadsheets write and read it, so a paste gives the same cells. */
export function toTsv(rows: readonly (readonly (string | null)[])[]): string {
  const field = (v: string | null): string => (v === null ? '' : /[\t\n\r"]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v)
  return rows.map((r) => r.map(field).join('\t')).join('\n')
}
