// Where the web host may write an export: a file in the export folder or in a folder that already exists
// below it; never a dot-file or dot-folder, never through a symbolic link, never a new folder tree (only the
// export folder itself may be created). Pure: the caller looks up what is on disk and passes it in.
import { isAbsolute, join, relative, sep } from 'node:path'

/** What lstat says of an entry (the export folder itself: what stat says, so a linked Downloads still works). */
export type EntryKind = 'file' | 'directory' | 'symlink' | 'other' | 'missing'

export type PathVerdict = { readonly ok: true; readonly path: string; readonly createExportDir: boolean } | { readonly ok: false; readonly reason: string }

const fix = (exportDir: string): string => `Choose a file in ${exportDir} (npm run serve -- --export-dir DIR changes that folder).`

/**
 * The entries to look up for `path`: the export folder, then each folder below it, then the file; or the
 * reason the path is refused before anything is looked up.
 */
export function exportPathSteps(
  exportDir: string,
  path: string
): { readonly ok: true; readonly steps: readonly string[] } | { readonly ok: false; readonly reason: string } {
  if (!isAbsolute(exportDir))
    return { ok: false, reason: `The export folder ${exportDir} is not an absolute path; start the web host with --export-dir /absolute/folder.` }
  if (!isAbsolute(path) || path.includes('\0')) return { ok: false, reason: `Export refused: ${path} is not an absolute file path. ${fix(exportDir)}` }
  // Said as such rather than normalized away: a path that climbs is a mistake or an attempt.
  if (path.split(/[\\/]/).some((s) => s === '..' || s === '.'))
    return { ok: false, reason: `Export refused: ${path} contains "." or ".." segments. ${fix(exportDir)}` }
  const rel = relative(exportDir, path)
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel))
    return { ok: false, reason: `Export refused: ${path} is outside the export folder. ${fix(exportDir)}` }
  const parts = rel.split(sep)
  const dotted = parts.find((s) => s.startsWith('.'))
  if (dotted !== undefined)
    return { ok: false, reason: `Export refused: ${path} names ${dotted}, a hidden (dot) file or folder, which an export never writes. ${fix(exportDir)}` }
  return { ok: true, steps: [exportDir, ...parts.map((_, i) => join(exportDir, ...parts.slice(0, i + 1)))] }
}

/** The verdict on `path` given the kind of each of its steps (exportPathSteps) on disk. */
export function exportPathVerdict(exportDir: string, path: string, kindOf: ReadonlyMap<string, EntryKind>): PathVerdict {
  const planned = exportPathSteps(exportDir, path)
  if (!planned.ok) return planned
  const [dir, ...below] = planned.steps as [string, ...string[]]
  const folders = below.slice(0, -1)
  const dirKind = kindOf.get(dir) ?? 'missing'
  if (dirKind !== 'directory' && dirKind !== 'missing')
    return { ok: false, reason: `Export refused: the export folder ${exportDir} is not a folder. Start the web host with --export-dir naming a folder.` }
  // Only the export folder itself is ever created, and then nothing below it can exist yet.
  if (dirKind === 'missing' && folders.length > 0)
    return {
      ok: false,
      reason: `Export refused: the folder ${folders[0]} does not exist, and an export creates no folders. Create it first, or choose a file in ${exportDir}.`
    }
  for (const f of folders) {
    const kind = kindOf.get(f) ?? 'missing'
    if (kind === 'symlink') return { ok: false, reason: `Export refused: ${f} is a symbolic link; an export never writes through one. ${fix(exportDir)}` }
    if (kind === 'missing')
      return {
        ok: false,
        reason: `Export refused: the folder ${f} does not exist, and an export creates no folders. Create it first, or choose a file in ${exportDir}.`
      }
    if (kind !== 'directory') return { ok: false, reason: `Export refused: ${f} is not a folder. ${fix(exportDir)}` }
  }
  const fileKind = kindOf.get(path) ?? 'missing'
  if (fileKind === 'symlink') return { ok: false, reason: `Export refused: ${path} is a symbolic link; an export never writes through one. ${fix(exportDir)}` }
  if (fileKind !== 'file' && fileKind !== 'missing') return { ok: false, reason: `Export refused: ${path} exists and is not a file. ${fix(exportDir)}` }
  return { ok: true, path, createExportDir: dirKind === 'missing' }
}
