// A Parquet schema element's type in DuckDB's words (VARCHAR, BIGINT, TIMESTAMP WITH TIME ZONE, DECIMAL(18,3), ...),
// from its physical type and its logical or converted annotation: what the schema monitors name when a column is
// retyped, in the words the query pane shows. Written here: hyparquet gives the annotations, not DuckDB's names.
import type { SchemaElement } from 'hyparquet'

const INTEGERS: Record<string, string> = { '8': 'TINYINT', '16': 'SMALLINT', '32': 'INTEGER', '64': 'BIGINT' }

function integer(bits: number, signed: boolean): string {
  const name = INTEGERS[String(bits)] ?? 'BIGINT'
  return signed ? name : `U${name}`
}

export function parquetTypeName(e: SchemaElement): string {
  const l = e.logical_type
  if (l) {
    switch (l.type) {
      case 'STRING':
      case 'ENUM':
      case 'JSON':
        return 'VARCHAR'
      case 'UUID':
        return 'UUID'
      case 'DATE':
        return 'DATE'
      case 'DECIMAL':
        return `DECIMAL(${l.precision},${l.scale})`
      case 'TIME':
        return 'TIME'
      case 'TIMESTAMP':
        return l.isAdjustedToUTC ? 'TIMESTAMP WITH TIME ZONE' : 'TIMESTAMP'
      case 'INTEGER':
        return integer(l.bitWidth, l.isSigned)
      case 'LIST':
        return 'LIST'
      case 'MAP':
        return 'MAP'
      case 'INTERVAL':
        return 'INTERVAL'
      case 'FLOAT16':
        return 'FLOAT'
      default:
        break
    }
  }
  switch (e.converted_type) {
    case 'UTF8':
    case 'ENUM':
    case 'JSON':
      return 'VARCHAR'
    case 'DATE':
      return 'DATE'
    case 'DECIMAL':
      return `DECIMAL(${e.precision ?? 18},${e.scale ?? 0})`
    case 'TIME_MILLIS':
    case 'TIME_MICROS':
      return 'TIME'
    case 'TIMESTAMP_MILLIS':
    case 'TIMESTAMP_MICROS':
      return 'TIMESTAMP'
    case 'UINT_8':
    case 'UINT_16':
    case 'UINT_32':
    case 'UINT_64':
      return integer(Number(e.converted_type.slice(5)), false)
    case 'INT_8':
    case 'INT_16':
    case 'INT_32':
    case 'INT_64':
      return integer(Number(e.converted_type.slice(4)), true)
    case 'LIST':
      return 'LIST'
    case 'MAP':
    case 'MAP_KEY_VALUE':
      return 'MAP'
    case 'INTERVAL':
      return 'INTERVAL'
    default:
      break
  }
  switch (e.type) {
    case 'BOOLEAN':
      return 'BOOLEAN'
    case 'INT32':
      return 'INTEGER'
    case 'INT64':
      return 'BIGINT'
    case 'INT96':
      return 'TIMESTAMP'
    case 'FLOAT':
      return 'FLOAT'
    case 'DOUBLE':
      return 'DOUBLE'
    case 'BYTE_ARRAY':
    case 'FIXED_LEN_BYTE_ARRAY':
      return 'BLOB'
    default:
      return 'STRUCT'
  }
}
