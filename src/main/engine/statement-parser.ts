// A DuckDB that only parses: the user's SQL for an export is judged by it when the export is asked for, before
// the bucket's engine (which may still wait for the mirror) is open. No file, no extension, no view.
import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api'
import { duckdb } from './duckdb-api'
import { checkExportStatement } from './user-statement'

export class StatementParser {
  private opened: Promise<{ instance: DuckDBInstance; conn: DuckDBConnection }> | null = null

  private open(): Promise<{ instance: DuckDBInstance; conn: DuckDBConnection }> {
    this.opened ??= (async () => {
      const instance = await duckdb.DuckDBInstance.create(':memory:', {
        autoinstall_known_extensions: 'false',
        autoload_known_extensions: 'false',
        allow_community_extensions: 'false'
      })
      const conn = await instance.connect()
      await conn.run('SET enable_external_access = false')
      return { instance, conn }
    })()
    return this.opened
  }

  /** Throws a StatementRefused when the text is not one SELECT an export may write. */
  async checkExport(sql: string): Promise<void> {
    await checkExportStatement((await this.open()).conn, sql)
  }

  async close(): Promise<void> {
    const opened = this.opened
    this.opened = null
    const o = await opened?.catch(() => null)
    o?.conn.closeSync()
    o?.instance.closeSync()
  }
}
