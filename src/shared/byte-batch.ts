// The byte server's batches, as both sides know them: the query pane asks for its small files together
// (`<base>?k=<key>&k=<key>…`, base being the URL of the empty key), main answers with their bytes one after the other
// and each size in a header, or refuses the whole batch.

/** A batch names at most this many objects, of at most this many bytes in all (the server holds it in memory). */
export const BATCH_MAX_OBJECTS = 64
export const BATCH_MAX_BYTES = 16 * 1024 * 1024
/** The query string of a batch stays within this many characters (Node's HTTP server takes 16 KB of headers). */
export const BATCH_MAX_URL_CHARS = 8_000
/** The response header giving each object's size, comma-separated, in the batch's order. */
export const BATCH_SIZES_HEADER = 'x-export-explorer-sizes'

/** The URL of a batch of keys, from the byte-server URL of the empty key. */
export const batchUrl = (base: string, keys: readonly string[]): string =>
  `${base}${base.includes('?') ? '&' : '?'}${keys.map((k) => `k=${encodeURIComponent(k)}`).join('&')}`
