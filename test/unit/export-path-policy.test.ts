// The web host's export path policy on its own: inside the export folder only, no dot-files, no symbolic
// link on the way, no folder created but the export folder itself; each refusal says what to do.
import { describe, expect, it } from 'vitest'
import { type EntryKind, exportPathSteps, exportPathVerdict } from '../../src/main/export/export-path-policy'

const dir = '/home/ana/Downloads'
const disk = (entries: Record<string, EntryKind>): Map<string, EntryKind> => new Map(Object.entries(entries))

describe('export path policy', () => {
  it('allows a file in the export folder or in a folder that exists below it', () => {
    expect(exportPathVerdict(dir, `${dir}/msgs.csv`, disk({ [dir]: 'directory' }))).toEqual({ ok: true, path: `${dir}/msgs.csv`, createExportDir: false })
    expect(
      exportPathVerdict(dir, `${dir}/q4/msgs.parquet`, disk({ [dir]: 'directory', [`${dir}/q4`]: 'directory', [`${dir}/q4/msgs.parquet`]: 'file' })).ok
    ).toBe(true)
    // A missing export folder is created, and only it.
    expect(exportPathVerdict(dir, `${dir}/msgs.csv`, disk({}))).toEqual({ ok: true, path: `${dir}/msgs.csv`, createExportDir: true })
  })

  it('refuses paths outside the folder, relative ones and climbing ones', () => {
    for (const p of [
      '/home/ana/.bashrc',
      '/etc/cron.d/x',
      '/home/ana/Downloads-evil/x.csv',
      dir,
      `${dir}/../x.csv`,
      `${dir}/./x.csv`,
      'x.csv',
      `${dir}/a\0b.csv`
    ]) {
      const v = exportPathVerdict(dir, p, disk({ [dir]: 'directory' }))
      expect(v.ok, p).toBe(false)
      if (!v.ok) expect(v.reason, p).toMatch(/^Export refused: .*Choose a file in \/home\/ana\/Downloads \(npm run serve -- --export-dir DIR/)
    }
  })

  it('refuses dot-files and dot-folders', () => {
    for (const p of [`${dir}/.bashrc`, `${dir}/.ssh/authorized_keys`, `${dir}/q4/.hidden.csv`]) {
      const v = exportPathVerdict(dir, p, disk({ [dir]: 'directory', [`${dir}/q4`]: 'directory', [`${dir}/.ssh`]: 'directory' }))
      expect(v.ok, p).toBe(false)
      if (!v.ok) expect(v.reason).toMatch(/hidden \(dot\) file or folder/)
    }
  })

  it('refuses a symbolic link: the file itself or any folder on the way', () => {
    const linkedFolder = exportPathVerdict(dir, `${dir}/link/x.csv`, disk({ [dir]: 'directory', [`${dir}/link`]: 'symlink' }))
    expect(linkedFolder).toEqual({ ok: false, reason: expect.stringMatching(/\/home\/ana\/Downloads\/link is a symbolic link/) })
    const deep = exportPathVerdict(dir, `${dir}/a/b/x.csv`, disk({ [dir]: 'directory', [`${dir}/a`]: 'directory', [`${dir}/a/b`]: 'symlink' }))
    expect(deep.ok).toBe(false)
    const linkedFile = exportPathVerdict(dir, `${dir}/x.csv`, disk({ [dir]: 'directory', [`${dir}/x.csv`]: 'symlink' }))
    expect(linkedFile).toEqual({ ok: false, reason: expect.stringMatching(/x\.csv is a symbolic link; an export never writes through one/) })
  })

  it('creates no folder tree: a missing folder below the export folder is refused', () => {
    expect(exportPathVerdict(dir, `${dir}/new/x.csv`, disk({ [dir]: 'directory' }))).toEqual({
      ok: false,
      reason: expect.stringMatching(/folder \/home\/ana\/Downloads\/new does not exist, and an export creates no folders/)
    })
    expect(exportPathVerdict(dir, `${dir}/new/x.csv`, disk({})).ok).toBe(false)
    expect(exportPathVerdict(dir, `${dir}/x.csv`, disk({ [dir]: 'file' })).ok).toBe(false)
    expect(exportPathVerdict(dir, `${dir}/sub`, disk({ [dir]: 'directory', [`${dir}/sub`]: 'directory' })).ok).toBe(false)
  })

  it('lists the entries to look up, from the export folder down to the file', () => {
    expect(exportPathSteps(dir, `${dir}/a/b/x.csv`)).toEqual({ ok: true, steps: [dir, `${dir}/a`, `${dir}/a/b`, `${dir}/a/b/x.csv`] })
    expect(exportPathSteps('Downloads', `${dir}/x.csv`).ok).toBe(false)
  })
})
