// DuckDB's type names (read by src/shared/duckdb-type-name.ts) written as Athena (Hive DDL) and BigQuery types;
// main and the tests get the names from DuckDB itself.
import { type DuckDbType, parseDuckDbTypeName } from '../duckdb-type-name'

/** A column of a logical table as DuckDB describes it. */
export interface ColumnSpec {
  readonly name: string
  /** DuckDB's type name, e.g. BIGINT, DECIMAL(18,3), VARCHAR[], STRUCT(a INTEGER, "b c" VARCHAR), MAP(VARCHAR, BIGINT). */
  readonly type: string
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
  const t = parseDuckDbTypeName(duckdbType)
  const caveats: string[] = []
  const write = (x: DuckDbType): string => {
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
  const t = parseDuckDbTypeName(duckdbType)
  const caveats: string[] = []
  const write = (x: DuckDbType): string => {
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
