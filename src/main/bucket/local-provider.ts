// A local folder (a synced copy of the bucket) behind the bucket interface. File modification times are
// object times; storage classes come from the sidecar (a folder has none), and an object the sidecar puts
// in an archive class is refused as S3 would refuse it. Signals are checked between files and end streams.
import { createReadStream } from 'node:fs'
import { open, readdir, stat } from 'node:fs/promises'
import { join, sep } from 'node:path'
import type { Readable } from 'node:stream'
import { isArchived, type ListedObject } from '../../shared/listing'
import type { RestoreTier } from '../../shared/restore-plan'
import { bucketError, classifyFsError } from './bucket-errors'
import { type BucketProvider, type ByteRange, DEFAULT_TIMEOUTS, type ListOptions, type ListPage, type RangeRead } from './bucket-provider'
import { guardStream } from './guarded-stream'
import { LOCAL_METADATA_DIR, readStorageClasses } from './local-sidecar'

const utf8Compare = (a: string, b: string): number => Buffer.compare(Buffer.from(a), Buffer.from(b))

/** A cancelled BucketError (not the signal's bare DOMException) once the signal has aborted. */
function checkSignal(signal: AbortSignal | undefined, key: string): void {
  if (signal?.aborted) throw bucketError('cancelled', key, 'Cancelled')
}

export class LocalFolderProvider implements BucketProvider {
  readonly location: string
  private classes: Promise<Record<string, string>> | null = null

  constructor(private readonly root: string) {
    this.location = root
  }

  private storageClasses(): Promise<Record<string, string>> {
    this.classes ??= readStorageClasses(this.root)
    return this.classes
  }

  /** Where a key's file is (the file store reads a local folder in place instead of copying it). */
  localPath(key: string): string {
    return key === '' ? this.root : this.path(key)
  }

  private path(key: string): string {
    if (key.split('/').some((s) => s === '..' || s === '.')) throw bucketError('not_found', key, 'Not a key of this folder')
    return join(this.root, ...key.split('/'))
  }

  private async describe(key: string, abs: string): Promise<ListedObject> {
    const st = await stat(abs)
    if (!st.isFile()) throw bucketError('not_found', key, 'Not a file')
    return {
      key,
      size: st.size,
      lastModified: st.mtime.toISOString(),
      etag: `${st.size}-${Math.trunc(st.mtimeMs)}`,
      storageClass: (await this.storageClasses())[key] ?? 'STANDARD'
    }
  }

  /** Keys under the prefix in UTF-8 byte order, as S3 lists them. Only the folders the prefix can reach are
   * read: the entries of its deepest folder that start with its last, partial segment. With the "/"
   * delimiter, that one folder alone: its files are keys, its subfolders common prefixes ("dir/"). */
  private async keysUnder(prefix: string, delimited: boolean): Promise<string[]> {
    const dirKey = prefix.slice(0, prefix.lastIndexOf('/') + 1)
    const partial = prefix.slice(dirKey.length)
    const base = dirKey ? this.path(dirKey.replace(/\/$/, '')) : this.root
    let top
    try {
      top = await readdir(base, { withFileTypes: true })
    } catch (e) {
      const code = (e as { code?: string }).code
      if (code === 'ENOENT' || code === 'ENOTDIR') return []
      throw classifyFsError(e, prefix)
    }
    const keys: string[] = []
    for (const e of top) {
      if (!e.name.startsWith(partial)) continue
      const key = dirKey + e.name
      if (key === LOCAL_METADATA_DIR || key.startsWith(`${LOCAL_METADATA_DIR}/`)) continue
      if (e.isFile()) keys.push(key)
      else if (e.isDirectory()) {
        if (delimited) {
          keys.push(`${key}/`)
          continue
        }
        const abs = join(base, e.name)
        for (const f of await readdir(abs, { recursive: true, withFileTypes: true })) {
          if (f.isFile())
            keys.push(
              key +
                '/' +
                join(f.parentPath, f.name)
                  .slice(abs.length + 1)
                  // Only the system's separator: on Linux and macOS a `\\` is part of a name (S3 and GCS keep it as data too).
                  .split(sep)
                  .join('/')
            )
        }
      }
    }
    // Each key's bytes computed once for the sort, not once per comparison.
    return keys
      .map((k) => [Buffer.from(k), k] as const)
      .sort((x, y) => Buffer.compare(x[0], y[0]))
      .map(([, k]) => k)
  }

  /** Describes keys in order, many file stats in flight at once (a folder of a year is ~100,000 files). */
  private async describeAll(keys: readonly string[]): Promise<ListedObject[]> {
    const out = await Promise.all(
      keys.map(async (key) => {
        try {
          return await this.describe(key, this.path(key))
        } catch (e) {
          // Removed while listing: as S3, list what is there.
          if ((e as { code?: string }).code !== 'ENOENT') throw classifyFsError(e, key)
          return null
        }
      })
    )
    return out.filter((o): o is ListedObject => o !== null)
  }

  async *list(prefix: string, options: ListOptions = {}): AsyncIterable<ListPage> {
    const pageSize = options.pageSize ?? 1000
    // Only the "/" delimiter is used by the app; another one lists every key and groups them below.
    const keys = await this.keysUnder(prefix, options.delimiter === '/')
    // A page is decided from the keys alone (as S3 pages by key), then its objects are described at once.
    let pageKeys: string[] = []
    let prefixes: string[] = []
    let lastPrefix: string | undefined
    const flush = async (): Promise<ListPage> => {
      const page = { objects: await this.describeAll(pageKeys), prefixes }
      pageKeys = []
      prefixes = []
      return page
    }
    for (const key of keys) {
      checkSignal(options.signal, prefix)
      if (options.startAfter !== undefined && utf8Compare(key, options.startAfter) <= 0) continue
      if (options.delimiter) {
        const idx = key.slice(prefix.length).indexOf(options.delimiter)
        if (idx !== -1) {
          const cp = key.slice(0, prefix.length + idx + options.delimiter.length)
          if (cp !== lastPrefix && (options.startAfter === undefined || utf8Compare(cp, options.startAfter) > 0)) {
            prefixes.push(cp)
            lastPrefix = cp
          }
          continue
        }
      }
      pageKeys.push(key)
      if (pageKeys.length + prefixes.length >= pageSize) yield await flush()
    }
    if (pageKeys.length + prefixes.length > 0 || keys.length === 0) yield await flush()
  }

  async head(key: string, signal?: AbortSignal): Promise<ListedObject> {
    checkSignal(signal, key)
    try {
      return await this.describe(key, this.path(key))
    } catch (e) {
      throw classifyFsError(e, key)
    }
  }

  private async readable(key: string, signal?: AbortSignal): Promise<ListedObject> {
    const obj = await this.head(key, signal)
    if (isArchived(obj, Date.now()))
      throw bucketError(
        'archived',
        key,
        `The object is in ${obj.storageClass} and has not been restored`,
        'Restore it in the source bucket and sync the folder again.'
      )
    return obj
  }

  async readRange(key: string, range: ByteRange, signal?: AbortSignal): Promise<RangeRead> {
    const obj = await this.readable(key, signal)
    const start = 'suffix' in range ? Math.max(0, obj.size - range.suffix) : range.start
    const end = 'suffix' in range ? obj.size - 1 : Math.min(range.end ?? obj.size - 1, obj.size - 1)
    if (start > end && obj.size > 0)
      throw bucketError('other', key, `The range ${start}-${end} is outside the object (${obj.size} bytes)`, 'This is a bug of the reader; report it.')
    const fh = await open(this.path(key), 'r')
    try {
      const body = new Uint8Array(Math.max(0, end - start + 1))
      await fh.read(body, 0, body.length, start)
      return { body, size: obj.size }
    } catch (e) {
      throw classifyFsError(e, key)
    } finally {
      await fh.close()
    }
  }

  async readStream(key: string, signal?: AbortSignal): Promise<Readable> {
    await this.readable(key, signal)
    // A folder on a network share can stall like a server.
    return guardStream(createReadStream(this.path(key)), { key, idleMs: DEFAULT_TIMEOUTS.idleMs, signal, classify: (e) => classifyFsError(e, key) })
  }

  async restore(key: string, _days: number, _tier: RestoreTier, signal?: AbortSignal): Promise<'started' | 'in_progress' | 'done'> {
    const obj = await this.head(key, signal)
    if (!isArchived(obj, Date.now())) return 'done'
    throw bucketError(
      'archived',
      key,
      'A local folder cannot restore an archived object',
      'Restore it in the source bucket (S3 RestoreObject) and sync the folder again.'
    )
  }
}
