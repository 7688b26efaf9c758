// DuckDB's type names (as DESCRIBE prints them) read into a tree and written as Athena (Hive DDL) and BigQuery
// types. Hand-written: a type name is a small grammar and no maintained package reads DuckDB's; main and the
// tests get the names from DuckDB itself.

export type ColumnType =
  | { readonly kind: 'scalar'; readonly name: string }
  | { readonly kind: 'decimal'; readonly width: number; readonly scale: number }
  | { readonly kind: 'list'; readonly element: ColumnType }
  | { readonly kind: 'struct'; readonly fields: readonly { readonly name: string; readonly type: ColumnType }[] }
  | { readonly kind: 'map'; readonly key: ColumnType; readonly value: ColumnType }

/** A column of a logical table as DuckDB describes it. */
export interface ColumnSpec {
  readonly name: string
  /** DuckDB's type name, e.g. BIGINT, DECIMAL(18,3), VARCHAR[], STRUCT(a INTEGER, "b c" VARCHAR), MAP(VARCHAR, BIGINT). */
  readonly type: string
}

/** Reads a DuckDB type name; null when it is not one this reader knows (the caller says so and falls back). */
export function parseDuckDbType(text: string): ColumnType | null {
  let i = 0
  const s = text.trim()
  const space = (): void => {
    while (s[i] === ' ') i++
  }
  const ident = (): string | null => {
    space()
    if (s[i] === '"') {
      let out = ''
      for (i++; i < s.length; i++) {
        if (s[i] === '"' && s[i + 1] === '"') {
          out += '"'
          i++
        } else if (s[i] === '"') {
          i++
          return out
        } else out += s[i]
      }
      return null
    }
    const m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(s.slice(i))
    if (!m) return null
    i += m[0].length
    return m[0]
  }
  const expect = (c: string): boolean => {
    space()
    if (s[i] !== c) return false
    i++
    return true
  }
  const type = (): ColumnType | null => {
    space()
    const word = /^[A-Za-z_][A-Za-z0-9_]*/.exec(s.slice(i))?.[0]
    if (!word) return null
    i += word.length
    const upper = word.toUpperCase()
    let t: ColumnType | null
    if (upper === 'STRUCT') {
      if (!expect('(')) return null
      const fields: { name: string; type: ColumnType }[] = []
      do {
        const name = ident()
        const ft = name === null ? null : type()
        if (name === null || ft === null) return null
        fields.push({ name, type: ft })
      } while (expect(','))
      t = expect(')') ? { kind: 'struct', fields } : null
    } else if (upper === 'MAP') {
      const key = expect('(') ? type() : null
      const value = key && expect(',') ? type() : null
      t = key && value && expect(')') ? { kind: 'map', key, value } : null
    } else if (upper === 'DECIMAL' || upper === 'NUMERIC') {
      const m = /^\s*\(\s*(\d+)\s*,\s*(\d+)\s*\)/.exec(s.slice(i))
      if (m) i += m[0].length
      t = { kind: 'decimal', width: m ? Number(m[1]) : 18, scale: m ? Number(m[2]) : 3 }
    } else if (upper === 'ENUM' || upper === 'UNION') {
      // Their arguments are read over; an ENUM is a string, a UNION has no counterpart (scalar, said by the writer).
      let depth = 0
      for (; i < s.length; i++) {
        if (s[i] === "'") i = s.indexOf("'", i + 1)
        else if (s[i] === '(') depth++
        else if (s[i] === ')' && --depth === 0) break
      }
      i++
      t = { kind: 'scalar', name: upper }
    } else {
      // Multi-word names: TIMESTAMP WITH TIME ZONE, DOUBLE PRECISION.
      const tail = /^ WITH TIME ZONE/i.exec(s.slice(i)) ?? /^ PRECISION/i.exec(s.slice(i))
      if (tail) i += tail[0].length
      t = { kind: 'scalar', name: tail ? `${upper}${tail[0].toUpperCase()}` : upper }
    }
    // T[] (a list) and T[n] (a fixed-size array): both are repeated values to the warehouses.
    while (t && /^\s*\[\d*\]/.test(s.slice(i))) {
      i += (/^\s*\[\d*\]/.exec(s.slice(i)) as RegExpExecArray)[0].length
      t = { kind: 'list', element: t }
    }
    return t
  }
  const t = type()
  space()
  return t && i === s.length ? t : null
}

/** What a writer gives: the type, and what the warehouse reads differently from DuckDB (null when nothing). */
export interface WrittenType {
  readonly text: string
  readonly caveat: string | null
}

const HIVE_SCALARS: Readonly<Record<string, string>> = {
  BOOLEAN: 'boolean',
  TINYINT: 'tinyint',
  SMALLINT: 'smallint',
  INTEGER: 'int',
  BIGINT: 'bigint',
  UTINYINT: 'smallint',
  USMALLINT: 'int',
  UINTEGER: 'bigint',
  UBIGINT: 'decimal(20,0)',
  HUGEINT: 'decimal(38,0)',
  UHUGEINT: 'decimal(38,0)',
  FLOAT: 'float',
  DOUBLE: 'double',
  VARCHAR: 'string',
  ENUM: 'string',
  JSON: 'string',
  UUID: 'string',
  BLOB: 'binary',
  DATE: 'date',
  TIMESTAMP: 'timestamp',
  TIMESTAMP_S: 'timestamp',
  TIMESTAMP_MS: 'timestamp',
  TIMESTAMP_NS: 'timestamp',
  'TIMESTAMP WITH TIME ZONE': 'timestamp'
}

const BIGQUERY_SCALARS: Readonly<Record<string, string>> = {
  BOOLEAN: 'BOOL',
  TINYINT: 'INT64',
  SMALLINT: 'INT64',
  INTEGER: 'INT64',
  BIGINT: 'INT64',
  UTINYINT: 'INT64',
  USMALLINT: 'INT64',
  UINTEGER: 'INT64',
  UBIGINT: 'BIGNUMERIC',
  HUGEINT: 'BIGNUMERIC',
  UHUGEINT: 'BIGNUMERIC',
  FLOAT: 'FLOAT64',
  DOUBLE: 'FLOAT64',
  VARCHAR: 'STRING',
  ENUM: 'STRING',
  JSON: 'STRING',
  UUID: 'STRING',
  BLOB: 'BYTES',
  DATE: 'DATE',
  // Parquet's timestamps without a zone are local date-times (DATETIME); with isAdjustedToUTC, instants (TIMESTAMP).
  TIMESTAMP: 'DATETIME',
  TIMESTAMP_S: 'DATETIME',
  TIMESTAMP_MS: 'DATETIME',
  TIMESTAMP_NS: 'DATETIME',
  'TIMESTAMP WITH TIME ZONE': 'TIMESTAMP',
  TIME: 'TIME'
}

/** An Athena (Hive DDL) identifier in backticks. */
export const hiveName = (name: string): string => `\`${name.replaceAll('`', '``')}\``

/** The Athena (Hive DDL) type of a DuckDB type name. */
export function hiveType(duckdbType: string): WrittenType {
  const t = parseDuckDbType(duckdbType)
  const caveats: string[] = []
  const write = (x: ColumnType): string => {
    switch (x.kind) {
      case 'decimal':
        return `decimal(${x.width},${x.scale})`
      case 'list':
        return `array<${write(x.element)}>`
      case 'map':
        return `map<${write(x.key)},${write(x.value)}>`
      case 'struct':
        return `struct<${x.fields.map((f) => `${hiveName(f.name)}:${write(f.type)}`).join(',')}>`
      case 'scalar': {
        const known = HIVE_SCALARS[x.name]
        if (known) return known
        if (x.name === 'TIME') {
          caveats.push('TIME has no Athena type: declared as bigint, which reads the microseconds since midnight that Parquet stores')
          return 'bigint'
        }
        caveats.push(`${x.name} has no Athena type: declared as string; check the values Athena reads`)
        return 'string'
      }
    }
  }
  if (!t) return { text: 'string', caveat: `DuckDB's type ${duckdbType} was not understood: declared as string; check the values Athena reads` }
  const text = write(t)
  return { text, caveat: caveats.length > 0 ? [...new Set(caveats)].join('; ') : null }
}

/** The BigQuery (GoogleSQL) type of a DuckDB type name. BigQuery has no MAP (Parquet maps read as repeated key/value
 * records) and no array of arrays. */
export function bigQueryType(duckdbType: string): WrittenType {
  const t = parseDuckDbType(duckdbType)
  const caveats: string[] = []
  const write = (x: ColumnType): string => {
    switch (x.kind) {
      case 'decimal':
        // NUMERIC holds 29 digits before the point and 9 after; BIGNUMERIC more.
        return x.width - x.scale <= 29 && x.scale <= 9 ? `NUMERIC(${x.width}, ${x.scale})` : `BIGNUMERIC(${x.width}, ${x.scale})`
      case 'list':
        if (x.element.kind === 'list') caveats.push('BigQuery has no array of arrays: declared as an array of records with one field, element; check it')
        return x.element.kind === 'list' ? `ARRAY<STRUCT<element ${write(x.element)}>>` : `ARRAY<${write(x.element)}>`
      case 'map':
        return `ARRAY<STRUCT<key ${write(x.key)}, value ${write(x.value)}>>`
      case 'struct':
        return `STRUCT<${x.fields.map((f) => `${bigQueryName(f.name)} ${write(f.type)}`).join(', ')}>`
      case 'scalar': {
        const known = BIGQUERY_SCALARS[x.name]
        if (known) return known
        caveats.push(`${x.name} has no BigQuery type: declared as STRING; check the values BigQuery reads`)
        return 'STRING'
      }
    }
  }
  if (!t) return { text: 'STRING', caveat: `DuckDB's type ${duckdbType} was not understood: declared as STRING; check the values BigQuery reads` }
  const text = write(t)
  return { text, caveat: caveats.length > 0 ? [...new Set(caveats)].join('; ') : null }
}

/** A BigQuery identifier in backticks (backslash and backtick escaped). */
export function bigQueryName(name: string): string {
  return `\`${name.replaceAll('\\', '\\\\').replaceAll('`', '\\`')}\``
}
