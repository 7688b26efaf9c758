// Every file main saves is written here: atomically (write-file-atomic: a unique temporary name beside the
// target, fsync, rename; it also queues the writers of one file so they never interleave), readable by the
// user only (0600), in folders only the user can enter (0700).
import { chmod, mkdir, stat } from 'node:fs/promises'
import { dirname, resolve } from 'node:path'
import writeFileAtomic from 'write-file-atomic'

export const PRIVATE_FILE_MODE = 0o600
export const PRIVATE_DIR_MODE = 0o700

/** Folders already checked for their mode in this process (a block cache writes thousands of files into one). */
const narrowed = new Set<string>()

/** Creates a folder and its missing parents as 0700; the folder itself, made wider by an earlier version, is narrowed. */
export async function ensurePrivateDir(dir: string): Promise<void> {
  const abs = resolve(dir)
  await mkdir(abs, { recursive: true, mode: PRIVATE_DIR_MODE })
  if (narrowed.has(abs)) return
  if (((await stat(abs)).mode & 0o077) !== 0) await chmod(abs, PRIVATE_DIR_MODE)
  narrowed.add(abs)
}

export interface PrivateWriteOptions {
  /** fsync before the rename (default true). Caches whose loss costs only a re-fetch skip it: an fsync per 16 KiB
   * block would make a cold read of a large file take minutes on a laptop disk. */
  readonly durable?: boolean
}

/** Replaces `path` with `data` all at once (a reader sees the old file or the new one, never half), mode 0600. */
export async function writePrivateFile(path: string, data: string | Uint8Array, opts: PrivateWriteOptions = {}): Promise<void> {
  await ensurePrivateDir(dirname(path))
  const body = typeof data === 'string' ? data : Buffer.from(data.buffer, data.byteOffset, data.byteLength)
  await writeFileAtomic(path, body, { mode: PRIVATE_FILE_MODE, fsync: opts.durable ?? true })
}
