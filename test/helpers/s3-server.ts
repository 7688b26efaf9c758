// A real S3-compatible server on 127.0.0.1 (s3rver, patched in patches/ to behave as S3 does), seeded
// straight from a bucket folder so object times (the generator's planted times) survive.
import { link, mkdir, mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises'
import { fork } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { AddressInfo } from 'node:net'
// @ts-expect-error s3rver ships no types
import S3rver from 's3rver'
import { LOCAL_METADATA_DIR, readStorageClasses } from '../../src/main/bucket/local-sidecar'

export interface S3Server {
  readonly endpoint: string
  readonly directory: string
  /** CPU time the server has used so far (ms), where it runs in a process of its own (Linux /proc); else null. */
  cpuMs(): number | null
  /** Copies a bucket folder into a bucket of the server (hard links; times and storage classes kept); only the keys `keep` takes (the folder's key, without keyPrefix), if given. */
  seed(bucket: string, folder: string, keyPrefix?: string, keep?: (key: string) => boolean): Promise<number>
  /** Writes one object as if uploaded at `mtime`. */
  put(bucket: string, key: string, body: Buffer | string, mtime: Date): Promise<void>
  remove(bucket: string, key: string): Promise<void>
  close(): Promise<void>
}

export const S3_TEST_KEYS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } as const

/** Starts the server in this process, or (for benchmarks) in a child process of its own. */
export async function startS3Server(opts: { childProcess?: boolean } = {}): Promise<S3Server> {
  const directory = await mkdtemp(join(tmpdir(), 'ee-s3rver-'))
  let port: number
  let stop: () => Promise<void>
  let pid: number | null = null
  if (opts.childProcess) {
    const child = fork(join(import.meta.dirname, 's3-server-process.mjs'), [directory], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] })
    pid = child.pid ?? null
    port = await new Promise<number>((resolve, reject) => {
      child.once('message', (m) => resolve((m as { port: number }).port))
      child.once('exit', (code) => reject(new Error(`s3rver exited (${code})`)))
    })
    stop = async () => {
      const exited = new Promise((r) => child.once('exit', r))
      child.disconnect()
      await exited
    }
  } else {
    const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory })
    port = ((await server.run()) as AddressInfo).port
    stop = () => server.close()
  }
  return {
    endpoint: `http://127.0.0.1:${port}`,
    directory,
    cpuMs() {
      if (pid === null) return null
      try {
        // Fields 14 and 15 of /proc/<pid>/stat: user and system time in clock ticks (100 per second on Linux).
        const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
        return (Number(fields[11]) + Number(fields[12])) * 10
      } catch {
        return null
      }
    },
    async seed(bucket, folder, keyPrefix = '', keep = () => true) {
      const classes = await readStorageClasses(folder)
      const entries = await readdir(folder, { recursive: true, withFileTypes: true })
      let n = 0
      for (const e of entries) {
        if (!e.isFile()) continue
        const key =
          keyPrefix +
          join(e.parentPath, e.name)
            .slice(folder.length + 1)
            .split('/')
            .join('/')
        if (key.slice(keyPrefix.length).startsWith(`${LOCAL_METADATA_DIR}/`) || !keep(key.slice(keyPrefix.length))) continue
        const parts = key.split('/')
        const name = parts.pop() as string
        const dir = join(directory, bucket, ...parts)
        await mkdir(dir, { recursive: true })
        await link(join(e.parentPath, e.name), join(dir, `${name}._S3rver_object`))
        const cls = classes[key.slice(keyPrefix.length)]
        await writeFile(
          join(dir, `${name}._S3rver_metadata.json`),
          JSON.stringify({ 'content-type': 'application/octet-stream', ...(cls ? { 'x-amz-storage-class': cls } : {}) })
        )
        n++
      }
      await mkdir(join(directory, bucket), { recursive: true })
      return n
    },
    async put(bucket, key, body, mtime) {
      const parts = key.split('/')
      const name = parts.pop() as string
      const dir = join(directory, bucket, ...parts)
      await mkdir(dir, { recursive: true })
      const file = join(dir, `${name}._S3rver_object`)
      // Removed first, so the server sees its folder change (it caches listings by folder mtime).
      await rm(file, { force: true })
      await writeFile(file, body)
      await utimes(file, mtime, mtime)
      await writeFile(join(dir, `${name}._S3rver_metadata.json`), JSON.stringify({ 'content-type': 'application/octet-stream' }))
      await rm(join(dir, `${name}._S3rver_object.md5`), { force: true })
    },
    async remove(bucket, key) {
      const parts = key.split('/')
      const name = parts.pop() as string
      const dir = join(directory, bucket, ...parts)
      for (const suffix of ['object', 'object.md5', 'metadata.json']) await rm(join(dir, `${name}._S3rver_${suffix}`), { force: true })
    },
    async close() {
      await stop()
      await rm(directory, { recursive: true, force: true })
    }
  }
}
