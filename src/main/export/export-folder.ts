// The export folder on disk: looks up what the path policy needs (lstat of each step), applies it, and creates
// the export folder itself when it is missing (its parent must exist: never a folder tree).
import { lstat, mkdir, stat } from 'node:fs/promises'
import { type EntryKind, type PathVerdict, exportPathSteps, exportPathVerdict } from './export-path-policy'

async function kind(path: string, follow: boolean): Promise<EntryKind> {
  try {
    const s = follow ? await stat(path) : await lstat(path)
    return s.isSymbolicLink() ? 'symlink' : s.isDirectory() ? 'directory' : s.isFile() ? 'file' : 'other'
  } catch (e) {
    if ((e as { code?: string }).code === 'ENOENT') return 'missing'
    throw e
  }
}

/** Checks `path` against the export folder; on success the export folder exists. */
export async function checkExportPath(exportDir: string, path: string): Promise<PathVerdict> {
  const planned = exportPathSteps(exportDir, path)
  if (!planned.ok) return planned
  const [dir, ...below] = planned.steps as [string, ...string[]]
  const kinds = new Map<string, EntryKind>([[dir, await kind(dir, true)]])
  for (const p of below) {
    const k = await kind(p, false)
    kinds.set(p, k)
    if (k !== 'directory') break
  }
  const verdict = exportPathVerdict(exportDir, path, kinds)
  if (verdict.ok && verdict.createExportDir) {
    try {
      await mkdir(exportDir)
    } catch (e) {
      const code = (e as { code?: string }).code
      if (code === 'ENOENT')
        return {
          ok: false,
          reason: `Export refused: the export folder ${exportDir} does not exist and neither does its parent. Create it, or start the web host with --export-dir naming an existing folder.`
        }
      if (code !== 'EEXIST') throw e
    }
  }
  return verdict
}
