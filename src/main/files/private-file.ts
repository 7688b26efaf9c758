// Every file main saves is written here: atomically (a reader sees the old file or the new one, never half),
// readable by the user only (0600), in folders only the user can enter (0700). Durable writes use write-file-atomic
// (a unique temporary name beside the target, fsync, rename; it also queues the writers of one file so they never
// interleave). Cache blocks skip the fsync and that library's extra checks (see writePrivateFile). One file is added to
// instead: the frame answers' journal (src/main/store/frame-answers.ts), appended without following a link, in a
// folder made here.
import { threadId } from 'node:worker_threads'
import { chmod, mkdir, rename, stat, unlink, writeFile } from 'node:fs/promises'
import { dirname, resolve } from 'node:path'
import writeFileAtomic from 'write-file-atomic'
import { swallowed } from '../log/main-log'

export const PRIVATE_FILE_MODE = 0o600
export const PRIVATE_DIR_MODE = 0o700

/** Folders known to exist with their mode checked, in this process (a block cache writes thousands into one). */
const known = new Set<string>()

/** Creates a folder and its missing parents as 0700; the folder itself, made wider by an earlier version, is narrowed. */
export async function ensurePrivateDir(dir: string): Promise<void> {
  const abs = resolve(dir)
  if (known.has(abs)) return
  await mkdir(abs, { recursive: true, mode: PRIVATE_DIR_MODE })
  if (((await stat(abs)).mode & 0o077) !== 0) await chmod(abs, PRIVATE_DIR_MODE)
  known.add(abs)
}

export interface PrivateWriteOptions {
  /** fsync before the rename (default true). Caches whose loss costs only a re-fetch say false. */
  readonly durable?: boolean
}

let written = 0

/** A cache file: unique temporary name (never shared by two writers), created 0600 exclusively, renamed. */
async function writeCacheFile(path: string, body: string | Buffer): Promise<void> {
  const tmp = `${path}.${process.pid}.${threadId}.${++written}.tmp`
  try {
    await writeFile(tmp, body, { mode: PRIVATE_FILE_MODE, flag: 'wx' })
    await rename(tmp, path)
  } catch (e) {
    await unlink(tmp).catch(swallowed(`removing ${tmp} after a failed write`))
    throw e
  }
}

/**
 * Replaces `path` with `data` all at once, mode 0600. Not durable (`durable: false`) means no fsync and no
 * write-file-atomic: measured on 2,048 blocks of 16 KiB, its realpath, stat, chmod and queue doubled the time of a
 * cold read (1.6 s against 0.6 s for 32 MiB), and an fsync per block would make it minutes on a laptop disk.
 */
export async function writePrivateFile(path: string, data: string | Uint8Array, opts: PrivateWriteOptions = {}): Promise<void> {
  const body = typeof data === 'string' ? data : Buffer.from(data.buffer, data.byteOffset, data.byteLength)
  const write = (): Promise<void> =>
    opts.durable === false ? writeCacheFile(path, body) : writeFileAtomic(path, body, { mode: PRIVATE_FILE_MODE, fsync: true })
  await ensurePrivateDir(dirname(path))
  try {
    await write()
  } catch (e) {
    // The folder was removed since (a block cache drops an object's folder with its last block): make it again.
    if ((e as { code?: string }).code !== 'ENOENT') throw e
    known.delete(resolve(dirname(path)))
    await ensurePrivateDir(dirname(path))
    await write()
  }
}
