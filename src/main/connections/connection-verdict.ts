// "Test connection": lists the top of the folder a connection points at, with a bounded look one level down,
// and says in plain words whether it is the export (green), where the export is instead (amber, with the
// prefix or path to use), or why it cannot be used (red: no such folder, not an export, denied, bad keys).
import { stat } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { CATALOG } from '../../shared/catalog'
import { detectVersion } from '../../shared/inventory'
import type { Version } from '../../shared/bucket-key'
import type { ConnectionConfig } from '../../shared/connection-config'
import { BucketError, bucketError } from '../bucket/bucket-errors'
import type { BucketProvider } from '../bucket/bucket-provider'
import { LocalFolderProvider } from '../bucket/local-provider'
import { normalizePrefix } from '../bucket/bucket-provider'
import { errorMessage } from '../../shared/error-message'

export type VerdictLevel = 'green' | 'amber' | 'red'

export interface ConnectionVerdict {
  readonly level: VerdictLevel
  /** Green: the folder is an export and can be opened as it is. */
  readonly ok: boolean
  /** What was found and what to do, in plain words (no error codes). */
  readonly message: string
  readonly version: Version | null
  /** What to put in the prefix field (S3, GCS) or the folder field (local) instead, best first. Relative to
   * the tested folder ("export/") when the verdict was made without the connection. */
  readonly useInstead: readonly string[]
  /** The provider's own words (an error code, a status) for a tooltip; null when there are none. */
  readonly detail: string | null
  /** The failure behind a red verdict that came from the provider. */
  readonly error: BucketError | null
}

/** Child folders looked into, at most, for a folder that holds v1/ or v2/ (one listing request each). */
export const MAX_CHILDREN_LOOKED_INTO = 20
const TOP_PAGE = 1000

const isExportRoot = (folders: readonly string[], under = ''): boolean => folders.includes(`${under}v1/`) || folders.includes(`${under}v2/`)

/** The first page of a delimited listing: the folders and the object keys directly under `prefix`. */
async function listTop(provider: BucketProvider, prefix: string, signal?: AbortSignal): Promise<{ folders: string[]; files: string[]; more: boolean }> {
  for await (const page of provider.list(prefix, { delimiter: '/', pageSize: TOP_PAGE, ...(signal ? { signal } : {}) })) {
    return { folders: [...page.prefixes], files: page.objects.map((o) => o.key), more: page.prefixes.length + page.objects.length >= TOP_PAGE }
  }
  return { folders: [], files: [], more: false }
}

/** The field value that points at `relative` (a folder under the tested one, or ".." steps up), for this connection. */
function fieldValue(config: ConnectionConfig | undefined, relative: string): string {
  if (!config) return relative
  if (config.provider === 'local') return join(config.path, relative).replace(/(.)\/+$/, '$1')
  return normalizePrefix(join(normalizePrefix(config.prefix) || '.', relative).replace(/^\.\/?$/, ''))
}

const SCHEMAS = new Set(CATALOG.map((t) => t.schema))

/**
 * For a connection pointing inside an export (…/export/v2/, …/export/v1/datamart_claudia/…), the folder above
 * v1/ or v2/, relative ("../../"). Only when what follows v1 or v2 is the export's own (_manifests, a schema).
 */
function exportAbove(config: ConnectionConfig | undefined, location: string): string | null {
  const path = config ? (config.provider === 'local' ? config.path : config.prefix) : location.replace(/^[a-z0-9]+:\/\/[^/]+\//, '')
  const segments = path.split('/').filter((s) => s !== '')
  const at = Math.max(segments.lastIndexOf('v1'), segments.lastIndexOf('v2'))
  if (at < 0) return null
  const next = segments[at + 1]
  if (next !== undefined && next !== '_manifests' && !SCHEMAS.has(next)) return null
  return '../'.repeat(segments.length - at)
}

const names = (folders: readonly string[], max = 5): string =>
  folders.slice(0, max).join(', ') + (folders.length > max ? ` and ${folders.length - max} more` : '')

/** Plain words for a provider failure: what happened, to which bucket or folder, and what to check. */
export function failureVerdict(error: BucketError, location: string): ConnectionVerdict {
  const gcs = location.startsWith('gs://')
  const local = !/^[a-z0-9]+:\/\//.test(location)
  const bucket = /^[a-z0-9]+:\/\/([^/]+)/.exec(location)?.[1] ?? location
  const where = local ? `the folder ${location}` : location
  const message = ((): string => {
    // A key file's fault (unreadable, not a key, refused by its token endpoint) is said by the file, whatever its kind.
    if (error.message.startsWith('The key file ')) return `${error.message.replace(/\.+$/, '')}, so ${where} was not read. ${error.fix}`
    switch (error.kind) {
      case 'denied':
        if (local) return `Permission denied reading ${where}. Check that your user may read this folder.`
        return `Access denied to ${where}: these credentials may not list this bucket. Check that they may list and read it (${gcs ? 'storage.objects.list and storage.objects.get' : 's3:ListBucket and s3:GetObject'}), or ask the bucket's owner for read access.`
      case 'auth':
        if (/^No /.test(error.message)) return `No credentials were found for ${where}. ${error.fix}`
        return `The credentials were refused for ${where}. Check the ${gcs ? 'key file' : 'access key ID and secret key, or the profile,'} of this connection, then test again.`
      case 'expired_session':
        return `The sign-in used for ${where} has expired. ${error.fix}`
      case 'not_found':
        if (local) return `The folder ${location} does not exist. Check the path: it should be the folder holding v1/ and v2/.`
        return `The bucket ${bucket} does not exist, or these credentials cannot see it. Check the bucket's name${gcs ? '' : ', the region'} and the endpoint.`
      case 'network':
        return `Cannot reach the server for ${where}. Check the network connection, a proxy or VPN, and the endpoint, then test again.`
      case 'timeout':
        return `The server for ${where} did not answer in time. Check the network connection, a proxy or VPN, and the endpoint, then test again.`
      case 'throttled':
        return `The provider is slowing down requests to ${where}. Try again in a minute.`
      case 'cancelled':
        return 'The test was cancelled.'
      default:
        return `Could not read ${where}. ${error.fix}`
    }
  })()
  return { level: 'red', ok: false, message, version: null, useInstead: [], detail: error.message, error }
}

/**
 * Lists the top of the export (one request), whether it is on v2 (one more), and when it holds no v1/ or v2/,
 * its first MAX_CHILDREN_LOOKED_INTO folders (one request each) for one that does; when it does not exist, the
 * folder above the same way. Never throws.
 */
export async function testConnection(
  provider: BucketProvider,
  /** config: the tested connection, so that "use instead" values are field values; openAbove: the folder above it,
   * looked into (1 + up to MAX_CHILDREN_LOOKED_INTO requests) when the folder does not exist. */
  opts: { signal?: AbortSignal; config?: ConnectionConfig; openAbove?: () => Promise<BucketProvider | null> } = {}
): Promise<ConnectionVerdict> {
  const { signal, config } = opts
  const loc = provider.location
  try {
    const missingFolder = async (message: string): Promise<ConnectionVerdict> => {
      const nearby = await exportsBeside(opts.openAbove, signal)
      if (nearby.length === 0) return { level: 'red', ok: false, message, version: null, useInstead: [], detail: null, error: null }
      const targets = nearby.map((f) => fieldValue(config, `../${f}`))
      const use = targets[0] || 'the bucket’s top'
      const offer =
        nearby[0] === ''
          ? `The folder above is the export: use ${use}.`
          : nearby.length === 1
            ? `The folder above holds the export in ${nearby[0]}: use ${use}.`
            : `The folder above holds exports in ${names(nearby)}: use one of them.`
      return {
        level: 'red',
        ok: false,
        message: `${message.replace(/ Check .*$/, '')} ${offer}`,
        version: null,
        useInstead: targets,
        detail: null,
        error: null
      }
    }
    if (provider instanceof LocalFolderProvider) {
      const problem = await localFolderProblem(loc)
      if (problem)
        return problem.missing
          ? missingFolder(problem.message)
          : { level: 'red', ok: false, message: problem.message, version: null, useInstead: [], detail: null, error: null }
    }
    const top = await listTop(provider, '', signal)
    if (isExportRoot(top.folders)) {
      let manifests = 0
      for await (const page of provider.list('v2/_manifests/', { pageSize: 1, ...(signal ? { signal } : {}) })) {
        manifests += page.objects.length
        break
      }
      const version = detectVersion(manifests > 0 ? ['v2/_manifests/x'] : [])
      return { level: 'green', ok: true, message: `Connected to ${loc}: the export is on ${version}.`, version, useInstead: [], detail: null, error: null }
    }
    const notExport = (message: string, useInstead: readonly string[] = []): ConnectionVerdict => ({
      level: useInstead.length ? 'amber' : 'red',
      ok: false,
      message,
      version: null,
      useInstead,
      detail: null,
      error: null
    })
    if (top.folders.length === 0 && top.files.length === 0) {
      if (provider instanceof LocalFolderProvider) return notExport(`The folder ${loc} is empty. Choose the folder holding v1/ and v2/.`)
      const prefix = config && config.provider !== 'local' ? normalizePrefix(config.prefix) : loc.replace(/^[a-z0-9]+:\/\/[^/]+\//, '')
      if (prefix === '') return notExport(`The bucket ${loc} is empty: nothing has been delivered to it. Check the bucket's name.`)
      return missingFolder(
        `There is no folder ${loc}: nothing in the bucket is under ${prefix}. Check the prefix (the folder holding v1/ and v2/), or leave it empty for the bucket's top.`
      )
    }
    const above = exportAbove(config, loc)
    if (above !== null) {
      const target = fieldValue(config, above)
      return notExport(`${loc} is inside the export. Use ${target || 'the bucket\u2019s top'} instead: the folder holding v1/ and v2/.`, [target])
    }
    const { found, looked } = await exportsOneDown(provider, top.folders, signal)
    if (found.length > 0) {
      const targets = found.map((f) => fieldValue(config, f))
      const which = found.length === 1 ? `its folder ${found[0]} does: use ${targets[0]}` : `its folders ${names(found)} do: use one of them`
      return notExport(`${loc} holds no v1/ or v2/ folder, but ${which}.`, targets)
    }
    const scope = top.folders.length > looked || top.more ? ` (looked into its first ${looked})` : ''
    const holds = top.folders.length ? `it holds ${names(top.folders)}, and none of them holds v1/ or v2/${scope}` : `it holds only files (${names(top.files)})`
    return notExport(
      `${loc} is not an export: ${holds}. Check the ${config?.provider === 'local' ? 'folder' : 'prefix'}: it should be the folder holding v1/ and v2/.`
    )
  } catch (e) {
    return failureVerdict(e instanceof BucketError ? e : bucketError('other', '', errorMessage(e)), loc)
  }
}

/** A local path that is not a folder, in words; null when it is one. */
async function localFolderProblem(path: string): Promise<{ message: string; missing: boolean } | null> {
  try {
    if (!(await stat(path)).isDirectory()) return { message: `${path} is a file, not a folder. Choose the folder holding v1/ and v2/.`, missing: false }
    return null
  } catch (e) {
    const code = (e as { code?: string }).code
    if (code === 'ENOENT' || code === 'ENOTDIR')
      return { message: `The folder ${path} does not exist. Check the path: it should be the folder holding v1/ and v2/.`, missing: true }
    if (code === 'EACCES' || code === 'EPERM')
      return { message: `Permission denied reading the folder ${path}. Check that your user may read it.`, missing: false }
    throw e
  }
}

/** Which of the first MAX_CHILDREN_LOOKED_INTO folders hold v1/ or v2/ (one listing each, at once), and how many were looked into. */
async function exportsOneDown(provider: BucketProvider, folders: readonly string[], signal?: AbortSignal): Promise<{ found: string[]; looked: number }> {
  const looked = folders.slice(0, MAX_CHILDREN_LOOKED_INTO)
  const children = await Promise.all(
    looked.map(async (f) => ((await listTop(provider, f, signal)).folders.some((g) => g === `${f}v1/` || g === `${f}v2/`) ? f : null))
  )
  return { found: children.filter((c): c is string => c !== null), looked: looked.length }
}

/** For a folder that does not exist: the folders beside it that hold an export (a typo, "export/" for "exports/"). Best effort: [] on any failure. */
async function exportsBeside(openAbove: (() => Promise<BucketProvider | null>) | undefined, signal?: AbortSignal): Promise<string[]> {
  try {
    const above = await openAbove?.()
    if (!above) return []
    const top = await listTop(above, '', signal)
    return isExportRoot(top.folders) ? [''] : (await exportsOneDown(above, top.folders, signal)).found
  } catch {
    return []
  }
}

/** The connection one folder up (its prefix's or path's parent), or null at the bucket's top or the file system's root. */
export function configAbove(c: ConnectionConfig): ConnectionConfig | null {
  if (c.provider === 'local') {
    const up = dirname(c.path.replace(/(.)\/+$/, '$1'))
    return up === c.path.replace(/(.)\/+$/, '$1') ? null : { ...c, path: up }
  }
  const segments = normalizePrefix(c.prefix)
    .split('/')
    .filter((x) => x !== '')
  return segments.length === 0 ? null : { ...c, prefix: normalizePrefix(segments.slice(0, -1).join('/')) }
}
