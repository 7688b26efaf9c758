// Parses a bucket key (relative to the export's root) into a typed reference. Never throws: a key that
// breaks the layout comes back as `unrecognized` with the reason, so it can be shown instead of hidden.
import { type CatalogTable, type DeliveryMode, findTable } from './catalog'
import { isValidDate, isValidHour } from './dates'

export type Version = 'v1' | 'v2'

export const INITIAL = '__initial__'
export const SUCCESS_MARKER = '_SUCCESS'
export const MANIFEST_FILE = 'manifest.json'

export type Partition =
  /** Full tables: `snapshot_date=D/` (v1) or `snapshot_date=D/snapshot_hour=H/` (v2). */
  | { readonly kind: 'snapshot'; readonly date: string; readonly hour: string | null }
  /** Parts tables: `etl_date=__initial__/`, `etl_date=D/` (v1) or `etl_date=D/etl_hour=H/` (v2). */
  | { readonly kind: 'etl'; readonly date: string; readonly hour: string | null; readonly initial: boolean }

export interface FolderRef {
  readonly version: Version
  readonly schema: string
  readonly table: string
  /** The catalog entry, or undefined for a table the catalog does not know. */
  readonly catalog: CatalogTable | undefined
  readonly mode: DeliveryMode
  readonly partition: Partition
  /** The folder's key, ending with "/". */
  readonly prefix: string
}

export type KeyRef =
  | { readonly kind: 'data'; readonly key: string; readonly folder: FolderRef; readonly file: string }
  | { readonly kind: 'marker'; readonly key: string; readonly folder: FolderRef; readonly file: string }
  /** A file inside a partition folder that is neither Parquet nor _SUCCESS, or whose name starts with _ or .: ignored, and shown as such. */
  | { readonly kind: 'ignored'; readonly key: string; readonly folder: FolderRef; readonly file: string; readonly reason: string }
  | { readonly kind: 'manifest'; readonly key: string; readonly version: Version; readonly date: string; readonly hour: string | null }
  /** A zero-byte "folder" placeholder some tools create (key ending with "/"). */
  | { readonly kind: 'directory'; readonly key: string }
  | { readonly kind: 'unrecognized'; readonly key: string; readonly reason: string }

// Control characters (NUL included) never appear in the vendor's keys and would be unsafe in SQL literals.
// eslint-disable-next-line no-control-regex
const CONTROL_RE = /[\u0000-\u001f\u007f]/

function unrecognized(key: string, reason: string): KeyRef {
  return { kind: 'unrecognized', key, reason }
}

/** A partition folder's names, up to its value ("etl_date="), by kind. */
const DATE_NAME = { snapshot: 'snapshot_date=', etl: 'etl_date=' } as const
const HOUR_NAME = { snapshot: 'snapshot_hour=', etl: 'etl_hour=' } as const

/** The value of a partition folder named `name` ("etl_date="), or undefined for another. */
function partitionValue(segment: string | undefined, name: string): string | undefined {
  if (segment === undefined || !segment.startsWith(name)) return undefined
  return segment.slice(name.length)
}

// The folder of the last key parsed: a listing gives a folder's files one after the other, and each of them has the
// same folder (the same object, parsed once). And its table's prefix ("v2/schema/table/"): a listing gives a table's
// folders one after the other too, and only the partition of each is read (a year is ~9,000 folders of one table).
let lastFolder: FolderRef | null = null
let lastTablePrefix = ''

export function parseKey(key: string): KeyRef {
  if (key.length === 0) return unrecognized(key, 'empty key')
  if (lastFolder !== null && key.length > lastFolder.prefix.length && key.startsWith(lastFolder.prefix)) {
    const file = key.slice(lastFolder.prefix.length)
    if (!file.includes('/') && !CONTROL_RE.test(file)) return fileRef(key, lastFolder, file)
  }
  const next = lastFolder !== null ? nextFolderOfTable(key, lastFolder) : null
  if (next !== null) {
    lastFolder = next
    return fileRef(key, next, key.slice(next.prefix.length))
  }
  const ref = parseKeyInFull(key)
  if ('folder' in ref) {
    lastFolder = ref.folder
    lastTablePrefix = `${ref.folder.version}/${ref.folder.schema}/${ref.folder.table}/`
  }
  return ref
}

const SLASH = 0x2f

/**
 * The folder of a file in another folder of the last folder's table, of the same kind (snapshot or etl, dated), read
 * from its partition alone; null for anything else, which the full parse reads (and says why when it breaks the
 * layout). It gives a folder only where the full parse gives the same (a test holds it to that).
 */
function nextFolderOfTable(key: string, last: FolderRef): FolderRef | null {
  if (!key.startsWith(lastTablePrefix)) return null
  const kind = last.partition.kind
  let at = lastTablePrefix.length
  if (!key.startsWith(DATE_NAME[kind], at)) return null
  at += DATE_NAME[kind].length
  const date = key.slice(at, at + 10)
  at += 10
  if (key.charCodeAt(at) !== SLASH || !isValidDate(date)) return null
  at++
  let hour: string | null = null
  if (last.version === 'v2') {
    if (!key.startsWith(HOUR_NAME[kind], at)) return null
    at += HOUR_NAME[kind].length
    hour = key.slice(at, at + 2)
    at += 2
    if (key.charCodeAt(at) !== SLASH || !isValidHour(hour)) return null
    at++
  }
  if (at === key.length || key.includes('/', at) || CONTROL_RE.test(key.slice(at))) return null
  const partition: Partition = kind === 'snapshot' ? { kind, date, hour } : { kind, date, hour, initial: false }
  return { version: last.version, schema: last.schema, table: last.table, catalog: last.catalog, mode: last.mode, partition, prefix: key.slice(0, at) }
}

/** parseKey without its shortcuts: the key read segment by segment, and said why when it breaks the layout (remembering
 * nothing for the next key). Exported for the test that holds the shortcuts to it. */
export function parseKeyInFull(key: string): KeyRef {
  if (key.length === 0) return unrecognized(key, 'empty key')
  if (CONTROL_RE.test(key)) return unrecognized(key, 'the key contains control characters')
  if (key.endsWith('/')) return { kind: 'directory', key }
  const segs = key.split('/')
  if (segs.some((s) => s.length === 0)) return unrecognized(key, 'the key has an empty path segment ("//" or a leading "/")')
  const version = segs[0]
  if (version !== 'v1' && version !== 'v2') return unrecognized(key, 'outside v1/ and v2/, so not part of the export layout')
  if (segs[1] === '_manifests') return parseManifestKey(key, version, segs.slice(2))
  if (segs.length < 5) return unrecognized(key, 'too short for <version>/<schema>/<table>/<partition>/<file>')
  const schema = segs[1] as string
  const table = segs[2] as string
  const catalog = findTable(schema, table)
  const p1 = segs[3] as string

  let partition: Partition
  let depth: number
  const snapDate = partitionValue(p1, DATE_NAME.snapshot)
  const etlDate = partitionValue(p1, DATE_NAME.etl)
  if (snapDate !== undefined) {
    if (!isValidDate(snapDate)) return unrecognized(key, `snapshot_date "${snapDate}" is not a date (YYYY-MM-DD)`)
    if (version === 'v1') {
      partition = { kind: 'snapshot', date: snapDate, hour: null }
      depth = 4
    } else {
      const hour = partitionValue(segs[4], HOUR_NAME.snapshot)
      if (hour === undefined) return unrecognized(key, 'a v2 full-table folder needs snapshot_hour=HH after snapshot_date')
      if (!isValidHour(hour)) return unrecognized(key, `snapshot_hour "${hour}" is not an hour (00 to 23)`)
      partition = { kind: 'snapshot', date: snapDate, hour }
      depth = 5
    }
  } else if (etlDate !== undefined) {
    const initial = etlDate === INITIAL
    if (!initial && !isValidDate(etlDate)) return unrecognized(key, `etl_date "${etlDate}" is neither a date (YYYY-MM-DD) nor ${INITIAL}`)
    if (version === 'v1') {
      partition = { kind: 'etl', date: etlDate, hour: null, initial }
      depth = 4
    } else {
      if (initial) return unrecognized(key, `etl_date=${INITIAL} exists only in v1/`)
      const hour = partitionValue(segs[4], HOUR_NAME.etl)
      if (hour === undefined) return unrecognized(key, 'a v2 parts folder needs etl_hour=HH after etl_date')
      if (!isValidHour(hour)) return unrecognized(key, `etl_hour "${hour}" is not an hour (00 to 23)`)
      partition = { kind: 'etl', date: etlDate, hour, initial: false }
      depth = 5
    }
  } else {
    return unrecognized(key, `"${p1}" is not a snapshot_date= or etl_date= partition folder`)
  }

  const mode: DeliveryMode = partition.kind === 'snapshot' ? 'full' : 'parts'
  if (catalog && catalog.mode !== mode) {
    const expected = catalog.mode === 'full' ? 'snapshot_date=' : 'etl_date='
    return unrecognized(
      key,
      `${schema}.${table} is delivered ${catalog.mode === 'full' ? 'in full' : 'in parts'} (${expected} folders), but this key has ${p1.split('=')[0]}=`
    )
  }
  if (segs.length !== depth + 1) return unrecognized(key, 'a file must sit directly in its partition folder; this key is nested deeper')
  const file = segs[depth] as string
  const folder: FolderRef = { version, schema, table, catalog, mode, partition, prefix: segs.slice(0, depth).join('/') + '/' }
  return fileRef(key, folder, file)
}

/** A file directly in a partition folder: data, marker or ignored, by its name. */
function fileRef(key: string, folder: FolderRef, file: string): KeyRef {
  if (file === SUCCESS_MARKER) return { kind: 'marker', key, folder, file }
  // Spark and Hive readers, which the vendor's job uses, skip hidden names (temporary and checksum files).
  if (file.startsWith('_') || file.startsWith('.')) {
    return {
      kind: 'ignored',
      key,
      folder,
      file,
      reason: `its name starts with "${file[0]}": Spark and Hive readers (the vendor's job) skip such files, so no table reads it`
    }
  }
  if (file.endsWith('.parquet')) return { kind: 'data', key, folder, file }
  return { kind: 'ignored', key, folder, file, reason: 'not a Parquet file (*.parquet) nor _SUCCESS, so no table reads it' }
}

function parseManifestKey(key: string, version: Version, rest: string[]): KeyRef {
  const date = partitionValue(rest[0], DATE_NAME.snapshot)
  if (date === undefined || !isValidDate(date)) return unrecognized(key, 'a manifest folder must be snapshot_date=YYYY-MM-DD')
  if (version === 'v1') {
    if (rest.length !== 2 || rest[1] !== MANIFEST_FILE) return unrecognized(key, 'a v1 manifest is v1/_manifests/snapshot_date=D/manifest.json')
    return { kind: 'manifest', key, version, date, hour: null }
  }
  const hour = partitionValue(rest[1], HOUR_NAME.snapshot)
  if (hour === undefined || !isValidHour(hour) || rest.length !== 3 || rest[2] !== MANIFEST_FILE) {
    return unrecognized(key, 'a v2 manifest is v2/_manifests/snapshot_date=D/snapshot_hour=HH/manifest.json')
  }
  return { kind: 'manifest', key, version, date, hour }
}

/** The key of the manifest that describes a delivery (v1: daily, no hour). */
export function manifestKey(version: Version, date: string, hour: string | null): string {
  return version === 'v1'
    ? `v1/_manifests/snapshot_date=${date}/${MANIFEST_FILE}`
    : `v2/_manifests/snapshot_date=${date}/snapshot_hour=${hour}/${MANIFEST_FILE}`
}

/** The key prefix of a table under one version's prefix: `v2/datamart_claudia/claudia_messages/`. */
export function tablePrefix(t: { readonly schema: string; readonly table: string }, version: Version): string {
  return `${version}/${t.schema}/${t.table}/`
}

/** The folder key a table's delivery uses, for the version, date and hour given (hour null in v1). */
export function folderPrefix(t: { schema: string; table: string; mode: DeliveryMode }, version: Version, date: string, hour: string | null): string {
  const base = tablePrefix(t, version)
  if (t.mode === 'full') return version === 'v1' ? `${base}snapshot_date=${date}/` : `${base}snapshot_date=${date}/snapshot_hour=${hour}/`
  return version === 'v1' ? `${base}etl_date=${date}/` : `${base}etl_date=${date}/etl_hour=${hour}/`
}
