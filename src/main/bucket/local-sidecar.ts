// A local folder has no storage classes; a sidecar inside a tool-owned folder records them (the demo
// bucket uses it to plant an archived object). The folder is never listed as part of the bucket.

/** Tool-owned folder at the root of a local bucket; never listed. */
export const LOCAL_METADATA_DIR = '.export-explorer'
/** JSON object: key → storage class (e.g. "GLACIER"). */
export const STORAGE_CLASS_SIDECAR = 'storage-classes.json'
