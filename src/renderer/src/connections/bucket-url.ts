// A bucket URL pasted where a bucket name goes: s3://bucket/prefix/ or gs://bucket/prefix (also
// https://storage.googleapis.com/bucket/prefix) split into the provider, the bucket and the prefix, so the
// SDK never sees "s3://…" as a bucket name. Pure.
export interface BucketUrl {
  readonly provider: 's3' | 'gcs'
  readonly bucket: string
  readonly prefix: string
}

export function parseBucketUrl(text: string): BucketUrl | null {
  const t = text.trim()
  const m = /^(s3|s3a|gs):\/\/([^/]+)\/?(.*)$/i.exec(t) ?? /^https:\/\/storage\.(?:cloud\.)?googleapis\.com\/([^/]+)\/?(.*)$/i.exec(t)
  if (!m) return null
  const [provider, bucket, rest] = m.length === 4 ? [(m[1] ?? '').toLowerCase() === 'gs' ? 'gcs' : 's3', m[2], m[3]] : ['gcs', m[1], m[2]]
  if (!bucket) return null
  // The prefix as the form takes it: no leading slash, ending in one (a folder), empty for the bucket's root.
  const prefix = (rest ?? '').replace(/^\/+/, '')
  return { provider: provider as 's3' | 'gcs', bucket, prefix: prefix === '' || prefix.endsWith('/') ? prefix : `${prefix}/` }
}
