// Where an incremental export's cursor lives: the CLI's state folder, one file per bucket and cursor name (a hash,
// after a readable part of the name so a user can find it), written atomically by SavedStateFile.
import { createHash } from 'node:crypto'
import { join } from 'node:path'
import type { ExportCursor } from '../shared/incremental-export'
import { SavedStateFile } from '../main/files/saved-state-file'
import { CURSOR_FORMAT } from '../main/export/incremental-export'
import { stateDir } from './bucket-run'

/** The cursor `name` of the bucket `bucketId`; `label` starts the file's name (letters, digits, _ and - kept). */
export function cursorFile(bucketId: string, name: string, label: string): SavedStateFile<ExportCursor | null> {
  const hash = createHash('sha256').update(`${bucketId}|${name}`).digest('hex').slice(0, 24)
  const safe = label.replace(/[^A-Za-z0-9_-]+/g, '_').slice(0, 40)
  return new SavedStateFile(join(stateDir(), `cursor-${safe}-${hash}.json`), CURSOR_FORMAT)
}
