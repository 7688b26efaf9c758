// Filters without SQL: the query a table browser runs for per-column filters, a time range on the table's
// event-time column and a tenant picker. Values are typed by the column (TRY_CAST to its type, so filters
// push down into Parquet); every name and value is quoted, so no input changes the statement's meaning.
// Times of a range may be typed on another zone's wall clock: the SQL holds the UTC instant, and says what was typed.
import { quoteIdent, quoteLiteral } from './sql-quote'
import { wallClockText, wallClockToInstant } from './time-zones'

export type FilterOp = 'equals' | 'in' | 'contains' | 'range' | 'is_null' | 'not_null'

export const FILTER_OPS: readonly { readonly op: FilterOp; readonly label: string }[] = [
  { op: 'equals', label: '=' },
  { op: 'in', label: 'is one of' },
  { op: 'contains', label: 'contains' },
  { op: 'range', label: 'between' },
  { op: 'is_null', label: 'is empty (NULL)' },
  { op: 'not_null', label: 'is not empty' }
]

export interface ColumnFilter {
  readonly column: string
  readonly op: FilterOp
  /** equals, contains */
  readonly value?: string
  /** in */
  readonly values?: readonly string[]
  /** range: from inclusive, to exclusive; either may be empty */
  readonly from?: string
  readonly to?: string
}

export interface TableFilters {
  /** The view to read, e.g. "datamart_claudia.claudia_messages". */
  readonly schema: string
  readonly table: string
  readonly filters: readonly ColumnFilter[]
  /** On the table's event-time column (send_at / created_at); from inclusive, to exclusive. */
  readonly time?: { readonly column: string; readonly from?: string; readonly to?: string }
  readonly tenants?: readonly string[]
  /** The zone whose wall clock the times of ranges (the time range, "between" on a timestamp) are typed in; UTC when absent. */
  readonly zone?: FilterZone
}

export interface FilterZone {
  /** IANA name, e.g. "America/Sao_Paulo". */
  readonly id: string
  /** How the SQL names it, e.g. "Brasília". */
  readonly label: string
}

export interface ColumnType {
  readonly name: string
  readonly type: string
}

/** A type name from DESCRIBE that can be written back into SQL as is; anything else compares as text. */
const castable = (type: string): string | null => (/^[A-Z][A-Z0-9_]*( [A-Z]+)*(\(\d+(, ?\d+)?\))?$/.test(type) ? type : null)

function literal(value: string, type: string | undefined): string {
  const t = type ? castable(type) : null
  return t && t !== 'VARCHAR' ? `TRY_CAST(${quoteLiteral(value)} AS ${t})` : quoteLiteral(value)
}

/** "2026-11-05T14:00" or "2026-11-05T14:00:00Z" (UTC) → "2026-11-05 14:00:00", which every DuckDB parses. */
export function utcTimestampText(s: string): string {
  const t = s
    .trim()
    .replace('T', ' ')
    .replace(/Z$/, '')
    .replace(/\.\d+$/, '')
  return /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/.test(t) ? `${t}:00` : /^\d{4}-\d{2}-\d{2}$/.test(t) ? `${t} 00:00:00` : t
}

/** A timestamp range end typed on `zone`'s wall clock: the UTC text for the SQL and a comment saying what was typed. */
function instantText(value: string, zone: FilterZone | undefined): { text: string; note: string } {
  const utc = utcTimestampText(value)
  // A time written with Z is already UTC, whatever the zone chosen.
  if (!zone || zone.id === 'UTC' || /Z$/i.test(value.trim())) return { text: utc, note: '' }
  const t = wallClockToInstant(utc, zone.id)
  if (t === null) return { text: utc, note: '' }
  return { text: wallClockText(t, 'UTC'), note: ` /* = ${utc.replace(/:00$/, '')} ${commentSafe(zone.label)} */` }
}

const commentSafe = (s: string): string => s.replace(/\*\//g, '* /')

const withZone = (type: string): boolean => type === 'TIMESTAMPTZ' || type === 'TIMESTAMP WITH TIME ZONE'

function condition(f: ColumnFilter, types: ReadonlyMap<string, string>, zone?: FilterZone): string | null {
  const col = quoteIdent(f.column)
  const type = types.get(f.column)
  switch (f.op) {
    case 'is_null':
      return `${col} IS NULL`
    case 'not_null':
      return `${col} IS NOT NULL`
    case 'equals':
      return f.value === undefined ? null : `${col} = ${literal(f.value, type)}`
    case 'contains':
      return f.value ? `contains(lower(CAST(${col} AS VARCHAR)), lower(${quoteLiteral(f.value)}))` : null
    case 'in': {
      const vs = (f.values ?? []).filter((v) => v !== '')
      return vs.length ? `${col} IN (${vs.map((v) => literal(v, type)).join(', ')})` : null
    }
    case 'range': {
      const parts: string[] = []
      // A date has no zone; an instant typed on a wall clock is converted to UTC (and a TIMESTAMPTZ literal says +00,
      // so no engine's TimeZone setting moves it).
      const lit = (v: string): string => {
        if (type === 'DATE') return literal(utcTimestampText(v), type)
        if (!type?.startsWith('TIMESTAMP')) return literal(v, type)
        const { text, note } = instantText(v, zone)
        return `${literal(withZone(type) ? `${text}+00` : text, type)}${note}`
      }
      if (f.from) parts.push(`${col} >= ${lit(f.from)}`)
      if (f.to) parts.push(`${col} < ${lit(f.to)}`)
      return parts.length ? parts.join(' AND ') : null
    }
  }
}

/** The WHERE conditions, one per line (empty when there are none). */
export function filterConditions(q: TableFilters, columns: readonly ColumnType[]): string[] {
  const types = new Map(columns.map((c) => [c.name, c.type]))
  const out: string[] = []
  if (q.time && (q.time.from || q.time.to)) {
    const c = condition(
      { column: q.time.column, op: 'range', ...(q.time.from ? { from: q.time.from } : {}), ...(q.time.to ? { to: q.time.to } : {}) },
      types,
      q.zone
    )
    if (c) out.push(c)
  }
  if (q.tenants && q.tenants.length) {
    const c = condition({ column: 'tenant_id', op: 'in', values: q.tenants }, types)
    if (c) out.push(c)
  }
  for (const f of q.filters) {
    const c = condition(f, types, q.zone)
    if (c) out.push(c)
  }
  return out
}

/** SELECT * FROM the table with the filters: what the grid shows, the SQL pane opens and an export writes. */
export function tableFiltersSql(q: TableFilters, columns: readonly ColumnType[]): string {
  const where = filterConditions(q, columns)
  const from = `SELECT * FROM ${quoteIdent(q.schema)}.${quoteIdent(q.table)}`
  return where.length ? `${from}\nWHERE ${where.join('\n  AND ')}` : from
}
