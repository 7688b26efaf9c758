// Which of the catalog's tables a statement can read, so an engine opens only their views (a view costs a
// glob, a schema read and, for a parts table, the mirror's plan: 19 of them are most of a warm query's start).
import { CATALOG, type CatalogTable } from './catalog'

// Words that list or describe the catalog itself: such a statement sees every view, so every view is opened.
const INTROSPECTION = new Set([
  'show',
  'describe',
  'summarize',
  'information_schema',
  'duckdb_views',
  'duckdb_tables',
  'duckdb_columns',
  'pragma',
  'pg_catalog'
])

/**
 * The catalog tables whose name (or `<table>__versions`) appears as a word of `sql`, or every table when the
 * statement lists the catalog (SHOW TABLES, information_schema…). Words, not a parse: a name inside a string
 * or a comment opens a view too many, never one too few; quoted and schema-qualified names are words as well.
 */
export function tablesNamed(sql: string): readonly CatalogTable[] {
  const words = new Set((sql.toLowerCase().match(/[a-z_][a-z0-9_$]*/g) ?? []) as string[])
  if ([...INTROSPECTION].some((w) => words.has(w))) return CATALOG
  return CATALOG.filter((t) => words.has(t.table) || words.has(`${t.table}__versions`))
}
