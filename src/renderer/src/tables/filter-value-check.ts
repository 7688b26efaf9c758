// What a filter's value means for its column's type, before any SQL: a value that cannot be read as the type
// is marked (with how to write it) and left out of the query, never TRY_CAST to NULL and so to no rows; a row
// without a value yet adds nothing. Pure.
import type { ColumnFilter } from '../../../shared/filter-sql'

const INTEGER = /^(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT|UTINYINT|USMALLINT|UINTEGER|UBIGINT|UHUGEINT)$/
const NUMBER = /^(FLOAT|DOUBLE|REAL|DECIMAL(\(\d+(, ?\d+)?\))?)$/

function validDate(y: string, m: string, d: string): boolean {
  const t = new Date(Date.UTC(Number(y), Number(m) - 1, Number(d)))
  return t.getUTCFullYear() === Number(y) && t.getUTCMonth() === Number(m) - 1 && t.getUTCDate() === Number(d)
}

/** Why `value` cannot be read as a value of `type`, with the form to use; null when it can (or the type takes any text). */
export function valueProblem(value: string, type: string, zoneWords = 'UTC'): string | null {
  const v = value.trim()
  if (INTEGER.test(type)) return /^[+-]?\d+$/.test(v) ? null : `"${value}" is not a whole number (${type}): write digits only, such as 42.`
  if (NUMBER.test(type))
    return /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(v) ? null : `"${value}" is not a number (${type}): write it with a dot for decimals, such as 3.5.`
  if (type === 'BOOLEAN') return /^(true|false)$/i.test(v) ? null : `"${value}" is not true or false (BOOLEAN).`
  if (type === 'DATE') {
    const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(v)
    return m && validDate(m[1] as string, m[2] as string, m[3] as string) ? null : `"${value}" is not a date: write it as YYYY-MM-DD, such as 2026-11-03.`
  }
  if (type.startsWith('TIMESTAMP')) {
    const m = /^(\d{4})-(\d{2})-(\d{2})([ T](\d{2}):(\d{2})(:(\d{2})(\.\d+)?)?Z?)?$/.exec(v)
    const ok = m && validDate(m[1] as string, m[2] as string, m[3] as string) && Number(m[5] ?? 0) < 24 && Number(m[6] ?? 0) < 60 && Number(m[8] ?? 0) < 60
    return ok ? null : `"${value}" is not a time: write it in ${zoneWords} as YYYY-MM-DD HH:MM, such as 2026-11-03 14:00.`
  }
  return null
}

export interface CheckedFilters {
  /** The filters that go into the query: complete, and every value readable as its column's type. */
  readonly usable: readonly ColumnFilter[]
  /** By the filter's index: why it is left out (a value it cannot read); absent for a row still empty. */
  readonly problems: ReadonlyMap<number, string>
}

/** `zoneWords` names the zone times are typed in ("Brasília"), for the message of a time that cannot be read. */
export function checkFilters(filters: readonly ColumnFilter[], types: ReadonlyMap<string, string>, zoneWords = 'UTC'): CheckedFilters {
  const usable: ColumnFilter[] = []
  const problems = new Map<number, string>()
  filters.forEach((f, i) => {
    const type = types.get(f.column) ?? 'VARCHAR'
    const values = f.op === 'equals' ? [f.value ?? ''] : f.op === 'in' ? (f.values ?? []) : f.op === 'range' ? [f.from ?? '', f.to ?? ''] : []
    const given = values.map((v) => v.trim()).filter((v) => v !== '')
    // A row without a value yet adds nothing (not "= ''"); "contains" compares text, so any text is fine.
    if ((f.op === 'equals' || f.op === 'in' || f.op === 'range' || f.op === 'contains') && given.length === 0 && (f.op !== 'contains' || !f.value)) return
    const problem = f.op === 'contains' ? null : given.map((v) => valueProblem(v, type, zoneWords)).find((p) => p !== null)
    if (problem) problems.set(i, problem)
    else usable.push(f)
  })
  return { usable, problems }
}
