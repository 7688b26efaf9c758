// The answers main gives and the renderer shows (the views of the open connection, its jobs, its saved
// connections), plain data as they travel over Electron IPC and the web host's HTTP.
import type { Version } from '../bucket-key'
import type { JobState, JobStatus } from '../job-state'
import type { ListedObject } from '../listing'
import type { MirroredSegment } from '../mirror-plan'
import type { RestorePlan, RestoreTier } from '../restore-plan'
import type { Manifest } from '../manifest'
import type { CellState, Finding, ManifestState, Severity } from '../timeline'

export interface TableStatus {
  readonly schema: string
  readonly table: string
  readonly mode: 'full' | 'parts'
  /** Latest ready copy (full) or newest ready folder (parts): its delivery hour, UTC ISO. */
  readonly newest: string | null
  readonly newestPrefix: string | null
  /** Ready folders: copies of a full table, parts of a parts table. */
  readonly folders: number
  /** Which copy it reads and why, where a rule makes it differ from the newest (copyReadNote); null otherwise. */
  readonly note: string | null
  /** Archived files it needs: restoring them completes it. */
  readonly restorable: boolean
}

export interface Overview {
  readonly connectionId: string
  readonly location: string
  readonly version: Version
  /** v1 → v2 switch in progress: v2 manifests exist but v1 still delivered within the last week. */
  readonly switching: boolean
  /** Evaluation instant (UTC ISO). */
  readonly now: string
  /** The newest hour whose manifest is complete. */
  readonly lastCompleteHour: string | null
  readonly tables: readonly TableStatus[]
  readonly findings: Readonly<Record<Severity, number>>
  /** Problems met while listing (a prefix that could not be listed, …), for the user. */
  readonly problems: readonly string[]
}

export interface TimelineHourView {
  readonly start: string
  readonly era: 'v1' | 'gap' | 'v2'
  readonly manifest: ManifestState | null
  /** One character per table of `TimelineView.tables`, in order: an index into CELL_STATES, in base 36. */
  readonly cells: string
}

export interface TimelineView {
  readonly tables: readonly { readonly schema: string; readonly table: string }[]
  readonly hours: readonly TimelineHourView[]
  readonly findings: readonly Finding[]
}

export interface HourTable {
  readonly schema: string
  readonly table: string
  readonly state: CellState
  /** The folder this hour's delivery uses (whether or not it exists). */
  readonly prefix: string
  readonly files: readonly {
    readonly key: string
    readonly size: number
    readonly lastModified: string
    readonly storageClass: string | null
    readonly rows: number | null
    readonly rowsError?: string
  }[]
  /** When _SUCCESS was written, or null when there is none. */
  readonly success: string | null
  /** From the manifest, for a parts table. */
  readonly deliveredThrough: string | null
}

export interface HourDetail {
  readonly start: string
  readonly era: 'v1' | 'gap' | 'v2'
  readonly manifest: {
    readonly key: string | null
    readonly state: ManifestState | null
    readonly warnings: readonly string[]
    readonly raw: string | null
    /** The parsed fields, when the manifest could be parsed. */
    readonly parsed: Manifest | null
  } | null
  readonly tables: readonly HourTable[]
  readonly findings: readonly Finding[]
}

export interface ConnectionSummary {
  readonly id: string
  readonly name: string
  readonly provider: 's3' | 'gcs' | 'local'
  /** Where it points, e.g. s3://bucket/prefix/. */
  readonly location: string
  /** The built-in demo bucket: cannot be edited or deleted. */
  readonly builtin: boolean
}

export interface ConnectionsView {
  readonly active: string | null
  readonly connections: readonly ConnectionSummary[]
  /** Saved connections that could not be read. */
  readonly problems: readonly string[]
  /** Why a secret key cannot be saved here, or null when it can. */
  readonly secretStorage: string | null
}

export interface RefreshStatus {
  readonly running: boolean
  readonly progress: { readonly prefixesDone: number; readonly prefixesTotal: number; readonly objects: number } | null
  /** Increases each time a refresh completes: the renderer reloads what it shows. */
  readonly generation: number
  readonly lastRefreshed: string | null
  readonly lastError: string | null
  readonly nextAuto: string | null
}

/** "Test connection": green is an export that opens as it is; amber is not, but names where it is instead; red cannot be used. */
export interface ConnectionVerdictView {
  readonly level: 'green' | 'amber' | 'red'
  /** level === 'green'. */
  readonly ok: boolean
  /** What was found and what to do, in plain words (no error codes). */
  readonly message: string
  readonly version: Version | null
  /** The prefix (S3, GCS) or folder (local) to use instead, best first: each offered as "Use …". */
  readonly useInstead: readonly string[]
  /** The provider's own words (an error code, a status), for a tooltip. */
  readonly detail: string | null
}

/** What the renderer's engine needs to build the same views: the byte server and the objects the views read. */
export interface EngineSource {
  /** Byte-server URL prefix (token included): append encodeURIComponent(key). */
  readonly base: string
  readonly objects: readonly ListedObject[]
  /** The compacted mirror's segments: parts tables read them (served by the byte server under "mirror/<file>"). */
  readonly mirror: readonly MirroredSegment[]
  readonly now: number
  /** Changes whenever the views must be rebuilt (another connection, a refresh, another "as of"). */
  readonly version: string
  /** Tables the bucket holds that the catalog does not know, with their folder counts (never read). */
  readonly unknownTables: readonly { readonly name: string; readonly folders: number }[]
}

/** The local mirror's build under way: how far along, and the time left estimated from the rate so far. */
export interface MirrorProgressView {
  readonly table: string
  readonly tables: number
  readonly tablesTotal: number
  readonly folders: number
  readonly foldersTotal: number
  readonly files: number
  readonly filesTotal: number
  /** Bytes of the bucket's files read into the mirror (downloaded, or already held whole), of those this build reads. */
  readonly bytes: number
  readonly bytesTotal: number
  readonly segments: number
  readonly segmentsTotal: number
  readonly startedAt: string
  /** Seconds left at the rate so far; null until there is a rate to go by. */
  readonly secondsLeft: number | null
}

/** One parts table in the mirror: folders held of those the rules read (it reads the mirror once it holds all), and disk use. */
export interface MirrorTableView {
  readonly table: string
  readonly folders: number
  readonly foldersTotal: number
  readonly segments: number
  readonly bytes: number
}

/** The open connection's local mirror (issue 13): its build, what it holds, what it costs, and its limit. */
export interface MirrorStatusView {
  /** idle: not built yet; running: building; done: built; cancelled: stopped by the user or at the disk limit
   * (atLimit says which; message says what to do); failed: the build met an error. */
  readonly state: JobState
  readonly atLimit: boolean
  readonly message: string | null
  readonly progress: MirrorProgressView | null
  readonly tables: readonly MirrorTableView[]
  /** Bytes on disk: the compacted segments, the bucket's files downloaded whole, and both. */
  readonly usage: { readonly mirror: number; readonly downloaded: number; readonly total: number }
  /** The disk this connection's mirror may use: chosen, or the default share of the free space. */
  readonly limit: { readonly bytes: number; readonly chosen: boolean } | null
  /** The last build that ended: segments built, kept, removed, and those that could not be built. */
  readonly last: {
    readonly built: number
    readonly kept: number
    readonly removed: number
    readonly problems: readonly { readonly table: string; readonly period: string; readonly message: string }[]
  } | null
}

export interface ExportJob extends JobStatus {
  readonly id: string
  readonly path: string
  readonly format: 'csv' | 'parquet'
  /** Rows written (when done) or processed so far (while running). */
  readonly rows: number
  /** How far along, 0–100, where the engine can tell. */
  readonly percent: number | null
  /** Bytes of the file written so far (what moves while DuckDB cannot tell how far along it is); the file's size when done. */
  readonly bytes: number
  readonly error: string | null
}

export interface HistoryEntry {
  readonly sql: string
  readonly at: string
  /** The connection it ran on and the "as of" it read (null: latest): a result means nothing without them. */
  readonly connection: string | null
  readonly asOf: string | null
  readonly rows: number | null
  readonly ms: number | null
  readonly error: string | null
}

/** A restore plan as the renderer sees it: the figures and words, a few keys for example (not every key). */
export interface RestorePlanView extends Omit<RestorePlan, 'files'> {
  readonly provider: 's3' | 'gcs' | 'local'
  /** The first keys it would restore, for the user to recognise. */
  readonly sample: readonly string[]
  /** What this kind of connection says of archive classes (GCS: read directly, no restore), or null. */
  readonly note: string | null
}

/** Where one key of a restore is: not asked yet, asked (S3 accepted it), S3 says in progress, readable, or failed. */
export type RestoreKeyState = 'waiting' | 'requested' | 'in_progress' | 'done' | 'failed'
export const RESTORE_KEY_STATES: readonly RestoreKeyState[] = ['waiting', 'requested', 'in_progress', 'done', 'failed']

/** The connection's bulk restore (kept in the data folder: it survives a restart). */
export interface RestoreJobView extends JobStatus {
  readonly table: string | null
  readonly tier: RestoreTier
  readonly days: number
  /** When S3 was last asked how far the restores are (HEAD of each key not done), and when it is asked next. */
  readonly checkedAt: string | null
  readonly nextCheck: string | null
  // state: running until every key was done or failed and the listing was brought up to date (endedAt), then done.
  readonly total: number
  readonly bytes: number
  readonly counts: Readonly<Record<RestoreKeyState, number>>
  /** Keys that failed, with why (at most 20). */
  readonly failed: readonly { readonly key: string; readonly message: string }[]
  /** The last problem met while checking (a network failure: checked again at the next interval), or null. */
  readonly lastError: string | null
}

export interface RestoreStatusView {
  readonly provider: 's3' | 'gcs' | 'local'
  readonly job: RestoreJobView | null
  readonly note: string | null
}
