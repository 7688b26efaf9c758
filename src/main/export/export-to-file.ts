// Writes a query's result to a file with native DuckDB's own COPY (CSV with a header row, or Parquet), so a file
// written by the app reads back in DuckDB, pandas or a spreadsheet exactly as DuckDB wrote it. The engine writes
// only into its scratch folder; the finished file is moved beside the target under a temporary name and
// renamed: the target is whole or untouched, never half-written. An existing target is replaced only when asked.
// In a checked export folder (the web host) the move goes through guarded-move.ts: no link swapped in is followed.
import { randomBytes } from 'node:crypto'
import { existsSync } from 'node:fs'
import { chmod, copyFile, rename, rm } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import type { NativeEngine, QueryProgress } from '../engine/native-engine'
import { type MoveGuard, guardedMove } from './guarded-move'
import { type ExportFormat, nameFormatMismatch } from '../../shared/export-format'

export interface ExportOptions {
  readonly format: ExportFormat
  readonly overwrite?: boolean
  readonly signal?: AbortSignal
  readonly onProgress?: (p: QueryProgress) => void
  /** The export folder the target was checked against (the web host): the move then follows no link swapped in since. */
  readonly guard?: MoveGuard
}

export class ExportError extends Error {}

/** Moves a finished file to its place: a rename where the folders share a disk, else a copy beside the target first. */
async function moveInto(from: string, target: string): Promise<void> {
  try {
    await rename(from, target)
    return
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EXDEV') throw e
  }
  const tmp = join(dirname(target), `.${basename(target)}.${process.pid}.${randomBytes(6).toString('hex')}.partial`)
  try {
    await copyFile(from, tmp)
    await rename(tmp, target)
  } finally {
    await rm(tmp, { force: true })
    await rm(from, { force: true })
  }
}

export async function exportQuery(engine: NativeEngine, sql: string, target: string, opts: ExportOptions): Promise<{ rows: number }> {
  // A Parquet file named .csv (or CSV text named .parquet) would open wrong everywhere: refused before anything runs.
  const mismatch = nameFormatMismatch(target, opts.format)
  if (mismatch) throw new ExportError(mismatch)
  if (existsSync(target) && !opts.overwrite) throw new ExportError(`${target} already exists; choose another name or ask to replace it.`)
  const { path, rows } = await engine.copyToScratch(sql, opts.format, {
    ...(opts.signal ? { signal: opts.signal } : {}),
    ...(opts.onProgress ? { onProgress: opts.onProgress } : {})
  })
  try {
    opts.signal?.throwIfAborted()
    // An export is an ordinary file of the user's: the mode their umask gives a new file.
    const umask = process.umask()
    await chmod(path, 0o666 & ~umask)
    if (opts.guard) await guardedMove(path, target, opts.guard)
    else await moveInto(path, target)
    return { rows }
  } finally {
    await rm(path, { force: true })
  }
}
