// Native DuckDB for tests: runs the core's SQL on real Parquet files.
import { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api'

export interface Db {
  rows(sql: string): Promise<Record<string, unknown>[]>
  run(sql: string): Promise<void>
  close(): void
}

export async function openDb(): Promise<Db> {
  const instance = await DuckDBInstance.create(':memory:')
  const conn: DuckDBConnection = await instance.connect()
  return {
    async rows(sql) {
      const r = await conn.runAndReadAll(sql)
      return r.getRowObjectsJson() as Record<string, unknown>[]
    },
    async run(sql) {
      await conn.run(sql)
    },
    close() {
      conn.closeSync()
      instance.closeSync()
    }
  }
}
