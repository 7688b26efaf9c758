// A saved file that could not be read is kept aside, byte for byte, as `<name>.corrupt-<time>` (0600) before a
// new one is started: what the user had is never saved over.
import { constants } from 'node:fs'
import { chmod, copyFile } from 'node:fs/promises'
import { PRIVATE_FILE_MODE } from './private-file'

/** ISO 8601 in its basic form (20261201T092634.123Z): no ':' so the name is valid on Windows too. */
const stamp = (at: Date): string => at.toISOString().replace(/[-:]/g, '')

/** Copies `path` to a name beside it that did not exist (never replacing anything); returns that name. */
export async function keepCorruptAside(path: string, at: Date = new Date()): Promise<string> {
  const base = `${path}.corrupt-${stamp(at)}`
  for (let n = 0; ; n++) {
    const target = n === 0 ? base : `${base}-${n}`
    try {
      await copyFile(path, target, constants.COPYFILE_EXCL)
    } catch (e) {
      if ((e as { code?: string }).code === 'EEXIST' && n < 100) continue
      throw e
    }
    await chmod(target, PRIVATE_FILE_MODE)
    return target
  }
}
