// Athena / Glue: external tables in Hive DDL (Parquet, string partitions, partition projection so no MSCK REPAIR is
// needed) and views in Athena's SQL (Trino), where "$path" names each row's file.
import { hiveName, hiveType } from './column-types'
import type { ExternalTableSpec, Projection, WarehouseDialect } from './warehouse-ddl'

const trinoName = (name: string): string => `"${name.replaceAll('"', '""')}"`
const literal = (v: string): string => `'${v.replaceAll("'", "''")}'`

function projection(name: string, p: Projection): [string, string][] {
  if (p.kind === 'enum')
    return [
      [`projection.${name}.type`, 'enum'],
      [`projection.${name}.values`, p.values.join(',')]
    ]
  // A date projection on a string column hands Athena the values as text in this format: they stay strings.
  return [
    [`projection.${name}.type`, 'date'],
    [`projection.${name}.format`, 'yyyy-MM-dd'],
    [`projection.${name}.range`, `${p.from},${p.toNow ? 'NOW' : p.to}`],
    [`projection.${name}.interval`, '1'],
    [`projection.${name}.interval.unit`, 'DAYS']
  ]
}

function externalTable(t: ExternalTableSpec): { sql: string; caveats: string[] } {
  const caveats: string[] = []
  const cols = t.columns.map((c) => {
    const w = hiveType(c.type)
    if (w.caveat) caveats.push(`column ${c.name}: ${w.caveat}`)
    return `  ${hiveName(c.name)} ${w.text}`
  })
  const template = `${t.location}${t.partitions.map((p) => `${p.name}=\${${p.name}}/`).join('')}`
  const props: [string, string][] = [
    ['projection.enabled', 'true'],
    ...t.partitions.flatMap((p) => projection(p.name, p.projection)),
    ['storage.location.template', template]
  ]
  const sql =
    `CREATE EXTERNAL TABLE IF NOT EXISTS ${hiveName(t.database)}.${hiveName(t.name)} (\n${cols.join(',\n')}\n)\n` +
    `PARTITIONED BY (${t.partitions.map((p) => `${hiveName(p.name)} string`).join(', ')})\n` +
    `STORED AS PARQUET\n` +
    `LOCATION ${literal(t.location)}\n` +
    `TBLPROPERTIES (\n${props.map(([k, v]) => `  ${literal(k)} = ${literal(v)}`).join(',\n')}\n)`
  return { sql, caveats }
}

export const ATHENA: WarehouseDialect = {
  name: 'Athena',
  scheme: 's3',
  ddlDialect: 'hive',
  viewDialect: 'trino',
  fileColumn: '"$path"',
  nullString: 'CAST(NULL AS varchar)',
  ident: trinoName,
  table: (database, name) => `${trinoName(database)}.${trinoName(name)}`,
  createDatabase: (database) => `CREATE DATABASE IF NOT EXISTS ${hiveName(database)}`,
  externalTable,
  createView: (database, name, body) => `CREATE OR REPLACE VIEW ${trinoName(database)}.${trinoName(name)} AS\n${body}`,
  notes: [
    '_SUCCESS cannot be seen from SQL: a folder being written (or left failed) is read as soon as its files land. Each full-table view reads the newest copy present (v2 by date and hour, else the newest v1 copy); under it, a pinned query reads exactly the latest ready copy the app saw.',
    'Athena exposes no row position: should one file hold a key twice, which row the view keeps is up to Athena (the app keeps the last one). Ties between files are broken by "$path" (the file name, within one folder).',
    "A v2 folder is read as soon as it exists; the app reads v2 only once anything is under v2/_manifests/ (the vendor's switch). The delivery order is the vendor's: etl_date=__initial__ first, then v1 by date, then v2 by date and hour.",
    "Partition values are declared string and projected (dates from a date range up to NOW, hours 00-23 enumerated, v1's etl_date enumerated with __initial__), so no MSCK REPAIR TABLE is needed and snapshot_hour=07 stays '07'.",
    'Check in Athena before relying on it: run the statements in a test database first; confirm the projection properties, that a column whose Parquet type changes across files reads as you expect, and the cost of a view that scans every copy to find the newest (query the pinned table where that matters).'
  ]
}
