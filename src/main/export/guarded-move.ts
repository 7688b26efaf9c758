// Moves a finished export into a folder the path policy checked, without following a link swapped in since: the
// folder is opened (O_DIRECTORY | O_NOFOLLOW), its real path checked to be still the checked one, and the file is
// written and renamed through that open folder (Linux: /proc/self/fd/N), so a later swap cannot redirect it.
import { randomBytes } from 'node:crypto'
import { constants, createReadStream } from 'node:fs'
import { type FileHandle, open, readlink, realpath, rename, rm } from 'node:fs/promises'
import { basename, dirname, join, relative } from 'node:path'

/** Where a guarded move may be interrupted, for tests that swap a folder at exactly that moment. */
export type MoveStage = 'before-open' | 'opened'

export interface MoveGuard {
  /** The export folder the target was checked against (itself may be a link, as the policy allows). */
  readonly within: string
  readonly onStage?: (stage: MoveStage) => Promise<void>
}

export class MoveRefused extends Error {}

/** Node has no openat/renameat: on Linux the open folder's /proc entry names it exactly, whatever happens to its path. */
const viaFd = process.platform === 'linux'

/** The real path of the open folder now (moved or not); elsewhere than Linux, the path's real path (a narrower race). */
async function openedPath(fh: FileHandle, folder: string): Promise<string> {
  return viaFd ? readlink(`/proc/self/fd/${fh.fd}`) : realpath(folder)
}

/**
 * Moves `from` (the engine's scratch file) to `target`, whose folder must still be the checked folder below
 * `guard.within`: a rename when they share a disk, else a copy into a new file (O_CREAT | O_EXCL | O_NOFOLLOW)
 * beside the target, then a rename inside the folder. A folder that became a link or moved is refused with words,
 * and nothing is left behind, there or anywhere.
 */
export async function guardedMove(from: string, target: string, guard: MoveGuard): Promise<void> {
  const folder = dirname(target)
  const name = basename(target)
  const rel = relative(guard.within, folder)
  const refused = (why: string): MoveRefused =>
    new MoveRefused(`Export refused: ${folder} ${why} after the export path was checked, so nothing was written. Choose a file in ${guard.within} again.`)
  if (rel.startsWith('..')) throw refused('is outside the export folder')
  await guard.onStage?.('before-open')
  const expected = join(await realpath(guard.within), rel)
  let fh: FileHandle
  try {
    fh = await open(folder, constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW)
  } catch (e) {
    const code = (e as { code?: string }).code
    if (code === 'ELOOP' || code === 'ENOTDIR') throw refused('became a symbolic link or a file')
    if (code === 'ENOENT') throw refused('was removed')
    throw e
  }
  const base = viaFd ? `/proc/self/fd/${fh.fd}` : folder
  const tmp = join(base, `.${name}.${process.pid}.${randomBytes(6).toString('hex')}.partial`)
  const final = join(base, name)
  let placed = false
  try {
    // A folder above it swapped for a link (O_NOFOLLOW guards only the last step) shows in the real path.
    const real = await openedPath(fh, folder)
    if (real !== expected) throw refused(`now leads to ${real}`)
    await guard.onStage?.('opened')
    try {
      await rename(from, tmp)
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EXDEV') throw e
      // Another disk: a new file in the open folder (the user's umask gives its mode, as for any file of theirs).
      const out = await open(tmp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o666)
      try {
        for await (const chunk of createReadStream(from)) await out.write(chunk as Buffer)
        await out.sync()
      } finally {
        await out.close()
      }
    }
    await rename(tmp, final)
    placed = true
    // Moved away while it was written (the open folder followed it): the file is not where it was asked to go.
    const after = await openedPath(fh, folder)
    if (after !== expected) throw refused(`was moved to ${after}`)
  } catch (e) {
    if (placed) await rm(final, { force: true })
    throw e
  } finally {
    await rm(tmp, { force: true })
    await fh.close()
  }
}
