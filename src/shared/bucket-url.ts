// A bucket URL as a person writes it (s3://bucket/prefix/, s3a://…, gs://bucket/prefix, or
// https://storage.googleapis.com/bucket/prefix, in any case) split into the provider, the bucket and the prefix,
// so an SDK never sees "s3://…" as a bucket name. The one parser: the connection form and the CLI's --bucket.
export interface BucketUrl {
  readonly provider: 's3' | 'gcs'
  readonly bucket: string
  /** No leading slash, ending in one (a folder); empty for the bucket's root. */
  readonly prefix: string
}

/** The URL's parts, or null when the text is not a bucket URL (a local path, a typo). */
export function parseBucketUrl(text: string): BucketUrl | null {
  const t = text.trim()
  const m = /^(s3|s3a|gs):\/\/([^/]+)\/?(.*)$/i.exec(t) ?? /^https:\/\/storage\.(?:cloud\.)?googleapis\.com\/([^/]+)\/?(.*)$/i.exec(t)
  if (!m) return null
  const [provider, bucket, rest] = m.length === 4 ? [(m[1] ?? '').toLowerCase() === 'gs' ? 'gcs' : 's3', m[2], m[3]] : ['gcs', m[1], m[2]]
  if (!bucket) return null
  const prefix = (rest ?? '').replace(/^\/+/, '')
  return { provider: provider as 's3' | 'gcs', bucket, prefix: prefix === '' || prefix.endsWith('/') ? prefix : `${prefix}/` }
}

/** The provider a location (a bucket URL, as providers name themselves: `gs://…`, `s3://…`) is on; null for a folder. */
export function providerOfLocation(location: string): 's3' | 'gcs' | null {
  return parseBucketUrl(location)?.provider ?? null
}
