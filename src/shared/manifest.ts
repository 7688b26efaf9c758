// Parses an hour's (v2) or a day's (v1) manifest.json. Tolerant and never throws: table entries may be
// objects, "schema.table" strings or bare table names; unknown fields are kept; anything malformed becomes a
// warning shown beside the hour. Only text that is not a JSON object at all (or nests deeper than any manifest)
// makes the manifest `malformed`.
import { type Version } from './bucket-key'
import { qualifiedName, resolveTableName } from './catalog'
import { isValidDate, isValidHour, parseInstant } from './dates'
import { errorMessage } from './error-message'

export interface ManifestTableEntry {
  /** "schema.table" when the catalog (or the entry) tells the schema; otherwise the name as written. */
  readonly name: string
  readonly known: boolean
  readonly mode?: string
  readonly path?: string
  readonly format?: string
  readonly files?: number
  readonly rows?: number
  readonly deliveredThrough?: string
  /** Fields this project does not read, kept as they were. */
  readonly extra: Readonly<Record<string, unknown>>
}

export interface Manifest {
  readonly snapshotDate: string | null
  readonly snapshotHour: string | null
  /** As written; null when the field is absent or not a boolean. */
  readonly complete: boolean | null
  readonly delivered: readonly ManifestTableEntry[]
  readonly missing: readonly ManifestTableEntry[]
  readonly pending: readonly ManifestTableEntry[]
  readonly extra: Readonly<Record<string, unknown>>
}

/** One thing the parser noticed: a `contradiction` (the manifest disagrees with itself or its key) or a `format` problem. */
export interface ManifestIssue {
  readonly kind: 'contradiction' | 'format'
  /** The catalog's table name the issue is about, if one. */
  readonly table: string | null
  readonly message: string
}

export type ParsedManifest =
  | { readonly state: 'complete' | 'incomplete'; readonly manifest: Manifest; readonly warnings: readonly string[]; readonly issues: readonly ManifestIssue[] }
  | { readonly state: 'malformed'; readonly manifest: null; readonly warnings: readonly string[]; readonly issues: readonly ManifestIssue[] }

const KNOWN_TOP = new Set(['snapshot_date', 'snapshot_hour', 'complete', 'tables_delivered', 'tables_missing', 'tables_pending'])
const KNOWN_ENTRY = new Set(['schema', 'table', 'mode', 'path', 'format', 'files', 'rows', 'delivered_through'])

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

function nameEntry(name: string, extra: Record<string, unknown>): ManifestTableEntry {
  const t = resolveTableName(name)
  return { name: t ? qualifiedName(t) : name, known: t !== undefined, extra }
}

function parseEntry(raw: unknown, field: string, index: number, warnings: string[]): ManifestTableEntry | null {
  const where = `${field}[${index}]`
  if (typeof raw === 'string') {
    const e = nameEntry(raw, {})
    if (!e.known) warnings.push(`${where}: "${raw}" is not a table of the catalog`)
    return e
  }
  if (!isRecord(raw)) {
    warnings.push(`${where}: expected a table name or an object, found ${JSON.stringify(raw)}; ignored`)
    return null
  }
  const table = raw['table']
  const schema = raw['schema']
  if (typeof table !== 'string' || table.length === 0) {
    warnings.push(`${where}: no "table" name; ignored`)
    return null
  }
  const extra: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(raw)) if (!KNOWN_ENTRY.has(k)) extra[k] = v
  const base = nameEntry(typeof schema === 'string' && schema.length > 0 ? `${schema}.${table}` : table, extra)
  if (!base.known) warnings.push(`${where}: "${base.name}" is not a table of the catalog`)
  const entry: { -readonly [K in keyof ManifestTableEntry]: ManifestTableEntry[K] } = { ...base }
  const str = (k: string): string | undefined => {
    const v = raw[k]
    if (v === undefined || v === null) return undefined
    if (typeof v === 'string') return v
    warnings.push(`${where}.${k}: expected a string, found ${JSON.stringify(v)}`)
    return undefined
  }
  const int = (k: string): number | undefined => {
    const v = raw[k]
    if (v === undefined || v === null) return undefined
    if (typeof v === 'number' && Number.isInteger(v) && v >= 0) return v
    warnings.push(`${where}.${k}: expected a whole number, found ${JSON.stringify(v)}`)
    return undefined
  }
  const mode = str('mode')
  if (mode !== undefined) entry.mode = mode
  const path = str('path')
  if (path !== undefined) entry.path = path
  const format = str('format')
  if (format !== undefined) entry.format = format
  const files = int('files')
  if (files !== undefined) entry.files = files
  const rows = int('rows')
  if (rows !== undefined) entry.rows = rows
  const dt = str('delivered_through')
  if (dt !== undefined) {
    if (Number.isNaN(parseInstant(dt))) warnings.push(`${where}.delivered_through: "${dt}" is not an ISO-8601 instant`)
    else entry.deliveredThrough = dt
  }
  return entry
}

function parseList(obj: Record<string, unknown>, field: string, warnings: string[]): ManifestTableEntry[] {
  const raw = obj[field]
  if (raw === undefined || raw === null) return []
  if (!Array.isArray(raw)) {
    warnings.push(`${field}: expected a list, found ${JSON.stringify(raw)}; treated as empty`)
    return []
  }
  const out: ManifestTableEntry[] = []
  raw.forEach((item, i) => {
    const e = parseEntry(item, field, i, warnings)
    if (e) out.push(e)
  })
  return out
}

/** Deeper than this is not a manifest: what is kept of it (unknown fields) would overflow the stack of whoever encodes it. */
export const MAX_MANIFEST_DEPTH = 64

/**
 * How deep the text's brackets nest, outside strings, counted up to `limit + 1` (then it stops: the rest is not read).
 * Cheap and iterative, before JSON.parse: what it returns, JSON.stringify and every recursive walk would have to
 * descend, and 100,000 levels (200 KB) overflow them.
 */
export function nestingDepth(text: string, limit: number): number {
  let depth = 0
  let max = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (inString) {
      if (c === 0x5c)
        i++ // a backslash escapes the next character (a quote included)
      else if (c === 0x22) inString = false
    } else if (c === 0x22) inString = true
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > max && (max = depth) > limit) return max
    } else if (c === 0x7d || c === 0x5d) depth--
  }
  return max
}

/**
 * Parses a manifest's text. `expected` (from its key) is checked against the fields inside: a disagreement
 * is a warning, and the key's date and hour are the ones that count.
 */
export function parseManifest(text: string, expected: { version: Version; date: string; hour: string | null }): ParsedManifest {
  const depth = nestingDepth(text, MAX_MANIFEST_DEPTH)
  if (depth > MAX_MANIFEST_DEPTH)
    return {
      state: 'malformed',
      manifest: null,
      warnings: [`nested more than ${MAX_MANIFEST_DEPTH} levels deep (a manifest needs 3), so it is not read; the folders of this hour are still read`],
      issues: []
    }
  let root: unknown
  try {
    root = JSON.parse(text)
  } catch (e) {
    return { state: 'malformed', manifest: null, warnings: [`not valid JSON (${errorMessage(e)}); the folders of this hour are still read`], issues: [] }
  }
  if (!isRecord(root)) return { state: 'malformed', manifest: null, warnings: ['not a JSON object; the folders of this hour are still read'], issues: [] }

  const warnings: string[] = []
  const extra: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(root)) if (!KNOWN_TOP.has(k)) extra[k] = v

  const sd = root['snapshot_date']
  let snapshotDate: string | null = null
  if (typeof sd === 'string' && isValidDate(sd)) snapshotDate = sd
  else warnings.push(`snapshot_date: expected YYYY-MM-DD, found ${JSON.stringify(sd)}`)
  const contradictions: { at: number; table: string | null }[] = []
  const contradict = (message: string, table: string | null = null): void => {
    contradictions.push({ at: warnings.length, table })
    warnings.push(message)
  }
  if (snapshotDate !== null && snapshotDate !== expected.date)
    contradict(`snapshot_date is ${snapshotDate} but the manifest sits under snapshot_date=${expected.date}`)

  const sh = root['snapshot_hour']
  let snapshotHour: string | null = null
  if (expected.version === 'v2') {
    // Hours are strings; a number (3) is accepted but noted, since "03" is what the vendor writes.
    if (typeof sh === 'string' && isValidHour(sh)) snapshotHour = sh
    else if (typeof sh === 'number' && Number.isInteger(sh) && sh >= 0 && sh < 24) {
      snapshotHour = String(sh).padStart(2, '0')
      warnings.push(`snapshot_hour is the number ${sh}; expected the string "${snapshotHour}"`)
    } else warnings.push(`snapshot_hour: expected "00" to "23", found ${JSON.stringify(sh)}`)
    if (snapshotHour !== null && snapshotHour !== expected.hour)
      contradict(`snapshot_hour is ${snapshotHour} but the manifest sits under snapshot_hour=${expected.hour}`)
  } else if (sh !== undefined) {
    warnings.push('snapshot_hour in a v1 (daily) manifest; ignored')
  }

  const delivered = parseList(root, 'tables_delivered', warnings)
  const missing = parseList(root, 'tables_missing', warnings)
  const pending = parseList(root, 'tables_pending', warnings)
  if (expected.version === 'v1' && pending.length > 0) warnings.push('tables_pending in a v1 (daily) manifest')

  for (const e of pending) {
    const t = resolveTableName(e.name)
    if (t?.mode === 'full')
      contradict(`tables_pending lists ${e.name}, which is delivered in full: only tables delivered in parts can be pending; read as missing`, t.table)
  }

  const c = root['complete']
  const complete = typeof c === 'boolean' ? c : null
  if (complete === null) warnings.push(`complete: expected true or false, found ${JSON.stringify(c)}`)
  if (complete === true && (missing.length > 0 || pending.length > 0))
    contradict('complete is true, yet tables are listed as missing or pending; read as incomplete')
  if (complete === false && missing.length === 0 && pending.length === 0)
    contradict('complete is false, yet no table is listed as missing or pending; read as incomplete')

  const seen = new Map<string, string>()
  for (const [field, list] of [
    ['tables_delivered', delivered],
    ['tables_missing', missing],
    ['tables_pending', pending]
  ] as const) {
    for (const e of list) {
      const before = seen.get(e.name)
      if (before !== undefined) contradict(`${e.name} is listed in both ${before} and ${field}`, resolveTableName(e.name)?.table ?? null)
      else seen.set(e.name, field)
    }
  }

  // The manifest's lists are its word: an hour is complete only when nothing is listed missing or pending, and
  // `complete` does not say otherwise (a contradiction is read the safe way, and reported).
  const isComplete = complete !== false && missing.length === 0 && pending.length === 0
  const byAt = new Map(contradictions.map((x) => [x.at, x.table]))
  const issues = warnings.map((message, i): ManifestIssue =>
    byAt.has(i) ? { kind: 'contradiction', table: byAt.get(i) ?? null, message } : { kind: 'format', table: null, message }
  )
  return {
    state: isComplete ? 'complete' : 'incomplete',
    manifest: { snapshotDate, snapshotHour, complete, delivered, missing, pending, extra },
    warnings,
    issues
  }
}
