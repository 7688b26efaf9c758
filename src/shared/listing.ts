// The shape of one listed object, as every bucket provider reports it, and whether it can be read now.

export interface RestoreState {
  /** True while a restore from an archive class is running. */
  readonly ongoing: boolean
  /** When a finished restore's temporary copy expires (ISO-8601), if known. */
  readonly expiry?: string
}

export interface ListedObject {
  /** Key relative to the export's root (the connection's prefix removed). */
  readonly key: string
  readonly size: number
  /** ISO-8601 instant the object was last written. */
  readonly lastModified: string
  /** ETag (S3), generation (GCS) or a content stamp (local folder): identifies this version of the object. */
  readonly etag?: string
  /** Provider's storage class name, e.g. STANDARD, GLACIER, DEEP_ARCHIVE, NEARLINE. */
  readonly storageClass?: string
  readonly restore?: RestoreState
}

/** Whether two listings of one key give the same version in the same state (size, time, ETag, class, restore). */
export function sameListedObject(a: ListedObject, b: ListedObject): boolean {
  return (
    a.key === b.key &&
    a.size === b.size &&
    a.lastModified === b.lastModified &&
    a.etag === b.etag &&
    a.storageClass === b.storageClass &&
    (a.restore === b.restore ||
      (a.restore !== undefined && b.restore !== undefined && a.restore.ongoing === b.restore.ongoing && a.restore.expiry === b.restore.expiry))
  )
}

/** S3 classes whose objects cannot be read until restored. (Glacier Instant Retrieval and GCS classes read directly.) */
const ARCHIVE_CLASSES = new Set(['GLACIER', 'DEEP_ARCHIVE'])

/** An object in an archive class without a finished, unexpired restore: reading it fails until it is restored. */
export function isArchived(obj: ListedObject, now: number): boolean {
  if (!obj.storageClass || !ARCHIVE_CLASSES.has(obj.storageClass)) return false
  const r = obj.restore
  if (!r || r.ongoing) return true
  return r.expiry !== undefined && Date.parse(r.expiry) <= now
}
