// Writes a query's result to a file: CSV (RFC 4180, UTF-8, header row) streamed batch by batch, or Parquet
// written by the engine. Always into a temporary file beside the target, renamed when complete: the target
// is whole or untouched, never half-written. An existing target is replaced only when asked.
import { randomBytes } from 'node:crypto'
import { createWriteStream, existsSync } from 'node:fs'
import { chmod, rename, rm } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import { quoteLiteral } from '../../shared/sql-quote'
import type { NodeEngine } from '../engine/node-engine'
import { csvLine } from './csv'

export interface ExportOptions {
  readonly format: 'csv' | 'parquet'
  readonly overwrite?: boolean
  readonly signal?: AbortSignal
  readonly onProgress?: (rows: number) => void
}

export class ExportError extends Error {}

export async function exportQuery(engine: NodeEngine, sql: string, target: string, opts: ExportOptions): Promise<{ rows: number }> {
  if (existsSync(target) && !opts.overwrite) throw new ExportError(`${target} already exists; choose another name or ask to replace it (--force).`)
  // A fresh name every time: DuckDB-WASM can hand back an earlier file written under the same name.
  const tmp = join(dirname(target), `.${basename(target)}.${process.pid}.${randomBytes(6).toString('hex')}.partial`)
  let rows = 0
  const onAbort = (): void => engine.cancel()
  opts.signal?.addEventListener('abort', onAbort, { once: true })
  try {
    if (opts.format === 'parquet') {
      const counted = await engine.query(`SELECT count(*) FROM (${sql})`)
      rows = Number(counted.rows[0]?.[0] ?? 0)
      opts.signal?.throwIfAborted()
      await engine.query(`COPY (${sql}) TO ${quoteLiteral(tmp)} (FORMAT parquet)`)
    } else {
      const out = createWriteStream(tmp, { flags: 'wx' })
      const failed = new Promise<never>((_, reject) => out.once('error', reject))
      failed.catch(() => {})
      let header = false
      // One batch at a time: the engine produces the next once this one is written out (bounded memory).
      const result = await engine.query(sql, async (columns, batch) => {
        opts.signal?.throwIfAborted()
        let text = header ? '' : csvLine(columns)
        header = true
        for (const r of batch) text += csvLine(r)
        rows += batch.length
        if (!out.write(text)) await Promise.race([new Promise<void>((r) => out.once('drain', () => r())), failed])
        opts.onProgress?.(rows)
      })
      if (!header) out.write(csvLine(result.columns))
      opts.signal?.throwIfAborted()
      await Promise.race([new Promise<void>((resolve) => out.end(resolve)), failed])
    }
    opts.signal?.throwIfAborted()
    // The engine creates files readable by the owner only; an export is an ordinary file.
    await chmod(tmp, 0o644)
    await rename(tmp, target)
    return { rows }
  } catch (e) {
    await rm(tmp, { force: true })
    throw e
  } finally {
    opts.signal?.removeEventListener('abort', onAbort)
  }
}
