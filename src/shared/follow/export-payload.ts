// What a watch's targets are told when it has written a delivery hour's file (`watch --export-dir`): the incident
// payload's shape (so every target takes it as it is), with change "exported" and the file, its rows and table. Pure.
import { countText } from '../counts'
import { type IncidentPayload, hourText } from './incident-payload'

export interface ExportedFile {
  readonly file: string
  readonly rows: number
  /** "schema.table". */
  readonly table: string
  readonly format: string
  /** The delivery hour the file holds (UTC ms), null for etl_date=__initial__. */
  readonly hour: number | null
  /** Rows that replace a version exported before (column _ee_supersedes). */
  readonly superseding: number
  /** The folders it holds, in words (src/shared/incremental-export.ts). */
  readonly words: string
}

export function exportPayload(f: ExportedFile, location: string): IncidentPayload {
  const hour = f.hour === null ? null : new Date(f.hour).toISOString()
  const when = f.hour === null ? 'the initial history' : hourText(f.hour)
  const replaced = f.superseding > 0 ? ` (${countText(f.superseding, 'row')} replacing versions exported before)` : ''
  const summary = `exported ${f.table} for ${when}: ${countText(f.rows, 'row')}${replaced} to ${f.file}`
  return {
    change: 'exported',
    fingerprint: `exported|${f.table}|${hour ?? 'initial'}|${f.file}`,
    id: `export:${f.table}:${hour ?? 'initial'}`,
    kind: 'export',
    severity: 'info',
    hour,
    tables: [f.table],
    status: 'resolved',
    resolved: null,
    words: f.words,
    keys: [],
    location,
    headline: null,
    summary,
    text: `[EXPORTED] ${location}: ${summary}`,
    export: { file: f.file, rows: f.rows, table: f.table, format: f.format, superseding: f.superseding }
  }
}
