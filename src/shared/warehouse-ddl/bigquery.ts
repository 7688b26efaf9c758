// BigQuery: external tables over Cloud Storage with hive partitioning (partition columns STRING, no partition
// filter required) and views in GoogleSQL, where _FILE_NAME names each row's file.
import { bigQueryName, bigQueryType } from './column-types'
import type { ExternalTableSpec, WarehouseDialect } from './warehouse-ddl'

const literal = (v: string): string => `'${v.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`
const qualified = (database: string, name: string): string => bigQueryName(`${database}.${name}`)

function externalTable(t: ExternalTableSpec): { sql: string; caveats: string[] } {
  const caveats: string[] = []
  const cols = t.columns.map((c) => {
    const w = bigQueryType(c.type)
    if (w.caveat) caveats.push(`column ${c.name}: ${w.caveat}`)
    return `  ${bigQueryName(c.name)} ${w.text}`
  })
  const sql =
    `CREATE OR REPLACE EXTERNAL TABLE ${qualified(t.database, t.name)} (\n${cols.join(',\n')}\n)\n` +
    `WITH PARTITION COLUMNS (${t.partitions.map((p) => `${bigQueryName(p.name)} STRING`).join(', ')})\n` +
    `OPTIONS (\n` +
    `  format = 'PARQUET',\n` +
    `  uris = [${literal(`${t.location}*.parquet`)}],\n` +
    `  hive_partition_uri_prefix = ${literal(t.location.replace(/\/$/, ''))},\n` +
    `  require_hive_partition_filter = false\n)`
  return { sql, caveats }
}

export const BIGQUERY: WarehouseDialect = {
  name: 'BigQuery',
  scheme: 'gs',
  ddlDialect: 'bigquery',
  viewDialect: 'bigquery',
  fileColumn: '_FILE_NAME',
  nullString: 'CAST(NULL AS STRING)',
  ident: bigQueryName,
  table: qualified,
  createDatabase: (database) => `CREATE SCHEMA IF NOT EXISTS ${bigQueryName(database)}`,
  externalTable,
  createView: (database, name, body) => `CREATE OR REPLACE VIEW ${qualified(database, name)} AS\n${body}`,
  notes: [
    '_SUCCESS cannot be seen from SQL: a folder being written (or left failed) is read as soon as its files land. Each full-table view reads the newest copy present (v2 by date and hour, else the newest v1 copy); under it, a pinned query reads exactly the latest ready copy the app saw.',
    'BigQuery exposes no row position: should one file hold a key twice, which row the view keeps is up to BigQuery (the app keeps the last one). Ties between files are broken by _FILE_NAME (the file name, within one folder).',
    "A v2 folder is read as soon as it exists; the app reads v2 only once anything is under v2/_manifests/ (the vendor's switch). The delivery order is the vendor's: etl_date=__initial__ first, then v1 by date, then v2 by date and hour.",
    "Partition columns are declared STRING (WITH PARTITION COLUMNS), so snapshot_hour=07 stays '07' and etl_date=__initial__ is a value like any other; no partition filter is required.",
    'Datasets are created in your default project: prefix the names with your project if needed. Timestamps without a time zone are DATETIME, with one TIMESTAMP.',
    'Check in BigQuery before relying on it: run the statements in a test dataset first; confirm that the *.parquet pattern leaves out names starting with _ or ., and that a column missing from some files or whose Parquet type changes across files reads as you expect.'
  ]
}
