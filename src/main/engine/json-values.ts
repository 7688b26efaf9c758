// Values of native DuckDB as JSON, exactly: a number where a JSON reader gets exactly the value back, a string
// otherwise (HUGEINT past 2^53, most DECIMALs of 38 digits, NaN and ±Infinity); nested values as arrays and
// objects; every other type as DuckDB writes it when cast to VARCHAR (dates, times, instants in UTC, intervals,
// UUIDs, BLOBs as \xNN escapes). The CLI's `--help` states the same rule.
import type { DuckDBValue } from '@duckdb/node-api'
import { duckdb } from './duckdb-api'

const {
  DuckDBArrayValue,
  DuckDBBlobValue,
  DuckDBDateValue,
  DuckDBDecimalValue,
  DuckDBListValue,
  DuckDBMapValue,
  DuckDBStructValue,
  DuckDBTimestampMillisecondsValue,
  DuckDBTimestampNanosecondsValue,
  DuckDBTimestampSecondsValue,
  DuckDBTimestampTZValue,
  DuckDBTimestampValue,
  DuckDBUnionValue
} = duckdb

export type JsonValue = null | boolean | number | string | JsonValue[] | { [k: string]: JsonValue }

const nonFinite = (n: number): string => (Number.isNaN(n) ? 'NaN' : n > 0 ? 'Infinity' : '-Infinity')

/** The shortest decimal that reads back as this single-precision float (what DuckDB prints for a FLOAT). */
function shortestFloat(n: number): number {
  for (let p = 1; p <= 9; p++) {
    const c = Number(n.toPrecision(p))
    if (Math.fround(c) === n) return c
  }
  return n
}

/** A decimal's text as a JSON number when a reader parses it back to the same value, else as text. */
function decimalJson(text: string): number | string {
  const n = Number(text)
  const canonical = text.includes('.') ? text.replace(/0+$/, '').replace(/\.$/, '') : text
  return Number.isFinite(n) && String(n) === (canonical === '-0' ? '0' : canonical) ? n : text
}

/**
 * A date or instant as DuckDB casts it to VARCHAR. @duckdb/node-api 1.5's own text gives the year 1 BC as "0000-…"
 * where DuckDB writes "0001-… (BC)" (earlier years it already writes as DuckDB does: the values test found it).
 */
function dateText(text: string): string {
  return text.startsWith('0000-') ? `0001${text.slice(4, 10)} (BC)${text.slice(10)}` : text
}

/** A BLOB as DuckDB casts it to VARCHAR: printable ASCII as is, other bytes (and \\ ' ") as \\xNN. */
function blobText(bytes: Uint8Array): string {
  let out = ''
  for (const b of bytes)
    out += b >= 32 && b <= 126 && b !== 92 && b !== 39 && b !== 34 ? String.fromCharCode(b) : `\\x${b.toString(16).toUpperCase().padStart(2, '0')}`
  return out
}

export function toJsonValue(v: DuckDBValue, isFloat = false): JsonValue {
  if (v === null) return null
  if (typeof v === 'boolean' || typeof v === 'string') return v
  if (typeof v === 'number') return Number.isFinite(v) ? (isFloat ? shortestFloat(v) : v) : nonFinite(v)
  if (typeof v === 'bigint') return v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v.toString()
  if (v instanceof DuckDBDecimalValue) return decimalJson(v.toString())
  if (v instanceof DuckDBListValue || v instanceof DuckDBArrayValue) return v.items.map((x) => toJsonValue(x))
  if (v instanceof DuckDBStructValue) return Object.fromEntries(Object.entries(v.entries).map(([k, x]) => [k, toJsonValue(x)]))
  if (v instanceof DuckDBMapValue) return Object.fromEntries(v.entries.map((e) => [typeof e.key === 'string' ? e.key : String(e.key), toJsonValue(e.value)]))
  if (v instanceof DuckDBUnionValue) return toJsonValue(v.value)
  if (v instanceof DuckDBBlobValue) return blobText(v.bytes)
  if (
    v instanceof DuckDBDateValue ||
    v instanceof DuckDBTimestampValue ||
    v instanceof DuckDBTimestampTZValue ||
    v instanceof DuckDBTimestampSecondsValue ||
    v instanceof DuckDBTimestampMillisecondsValue ||
    v instanceof DuckDBTimestampNanosecondsValue
  )
    return dateText(String(v))
  return String(v)
}
