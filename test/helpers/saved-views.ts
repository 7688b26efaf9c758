// The CLI's saved views seen from a test (src/main/engine/saved-views.ts): the cache's one saved-views file, and a note
// planted in its entries that the query prints when it replays one (notes are not part of what an entry was derived
// from, so the entry stays valid).
import { readdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { expect } from 'vitest'
import type { CliRun } from './cli'

const MARK = 'replayed from the saved views'

export interface SavedViewsFile {
  entries: { views: { notes: { table: string; message: string }[] }; steps: ({ link: { path: string }[] } | { exec: string[] })[] }[]
}

/** The path of the cache's one saved-views file. */
export async function savedViewsPath(cache: string): Promise<string> {
  const files = await readdir(join(cache, 'views'))
  expect(files).toHaveLength(1)
  return join(cache, 'views', files[0]!)
}

/** Plants the replay note in every entry, after `change` (the file keeps its owner and mode); returns the file's path
 * and its entries as written. */
export async function plantReplayNote(
  cache: string,
  change: (saved: SavedViewsFile) => void = () => {}
): Promise<{ path: string; entries: SavedViewsFile['entries'] }> {
  const path = await savedViewsPath(cache)
  const saved = JSON.parse(await readFile(path, 'utf8')) as SavedViewsFile
  expect(saved.entries.length).toBeGreaterThan(0)
  for (const e of saved.entries) e.views.notes = [{ table: 'claudia_messages', message: MARK }]
  change(saved)
  await writeFile(path, JSON.stringify(saved))
  return { path, entries: saved.entries }
}

/** Whether the run replayed a saved entry (it printed the planted note). */
export const replayed = (r: CliRun): boolean => r.stderr.includes(`note: ${MARK}`)
