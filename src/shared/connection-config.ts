// A saved connection: where the export is and how to reach it, as valibot schemas from which the types derive.
// Secrets are never part of it: a static secret key is kept in the secret store under `secretRef`. A draft (what
// the connection form sends) is the same without the parts main assigns: the id of a new connection and the
// secretRef of a static key.
import * as v from 'valibot'

/** A connection id: it names folders (blocks/<id>) and secrets (s3-secret-<id>), so never "..", a slash, or long. */
export const CONNECTION_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/
export const isConnectionId = (x: unknown): x is string => typeof x === 'string' && CONNECTION_ID.test(x)
const SECRET_REF = /^[A-Za-z0-9][A-Za-z0-9_-]{0,99}$/

/** A non-empty string of at most `max` characters. */
const text = (max: number, message: string) => v.pipe(v.string(message), v.minLength(1, message), v.maxLength(max, message))
const optionalText = (max: number, message: string) => v.optional(v.pipe(v.string(message), v.maxLength(max, message)))
const prefix = (message: string) => v.pipe(v.string(message), v.maxLength(1024, message))

/** An http(s) endpoint without user:password@ (a secret in a URL would be saved in plain text). No URL class here: src/shared has neither DOM nor Node. */
const endpoint = v.optional(
  v.pipe(
    v.string('the endpoint must be an http(s) URL'),
    v.maxLength(2048, 'the endpoint must be an http(s) URL'),
    v.check((x) => /^https?:\/\/[^/?#]+/.test(x), 'the endpoint must be an http(s) URL'),
    v.check(
      (x) => !(/^https?:\/\/([^/?#]*)/.exec(x)?.[1] ?? '').includes('@'),
      "the endpoint must not hold a user name or password: use the connection's credentials instead"
    )
  )
)

const S3_AUTH_WORDS = 'S3 credentials must be the default chain, a profile name, or static keys'
const s3Default = v.object({ kind: v.literal('default') })
const s3Profile = v.object({ kind: v.literal('profile'), profile: text(128, S3_AUTH_WORDS) }, S3_AUTH_WORDS)
const s3Static = { kind: v.literal('static'), accessKeyId: text(128, S3_AUTH_WORDS) }
const s3AuthSaved = v.variant(
  'kind',
  [s3Default, s3Profile, v.object({ ...s3Static, secretRef: v.pipe(v.string(S3_AUTH_WORDS), v.regex(SECRET_REF, S3_AUTH_WORDS)) }, S3_AUTH_WORDS)],
  S3_AUTH_WORDS
)
const s3AuthDraft = v.variant('kind', [s3Default, s3Profile, v.object(s3Static, S3_AUTH_WORDS)], S3_AUTH_WORDS)
const GCS_AUTH_WORDS = 'GCS credentials must be Application Default Credentials or a key file'
const gcsAuth = v.variant(
  'kind',
  [
    v.object({ kind: v.literal('adc') }),
    v.object({ kind: v.literal('none') }),
    v.object({ kind: v.literal('key_file'), keyFile: text(4096, GCS_AUTH_WORDS) }, GCS_AUTH_WORDS)
  ],
  GCS_AUTH_WORDS
)

const S3_WORDS = 'an S3 connection needs a bucket, a prefix (may be empty), and optional region and endpoint'
const GCS_WORDS = 'a GCS connection needs a bucket, a prefix (may be empty), and an optional endpoint'
const s3 = { provider: v.literal('s3'), bucket: text(255, S3_WORDS), prefix: prefix(S3_WORDS), region: optionalText(64, S3_WORDS), endpoint }
const gcs = v.object(
  {
    provider: v.literal('gcs'),
    bucket: text(255, GCS_WORDS),
    prefix: prefix(GCS_WORDS),
    endpoint,
    projectId: optionalText(128, GCS_WORDS),
    auth: gcsAuth
  },
  GCS_WORDS
)
const local = v.object({ provider: v.literal('local'), path: text(4096, 'a local connection needs a folder path') }, 'a local connection needs a folder path')

const NAME_WORDS = 'id and name are required (a name of at most 200 characters)'
const ID_WORDS = 'id and name are required; an id is 1 to 64 letters, digits, "-" or "_" (no "." or "/")'
const name = text(200, NAME_WORDS)
const id = v.pipe(v.string(ID_WORDS), v.regex(CONNECTION_ID, ID_WORDS))
const unknownProvider = (x: unknown): string => `unknown provider ${String(JSON.stringify(x)).slice(0, 40)}`

/** A saved connection. Unknown fields (a secret typed into the wrong field, a nested blob) are dropped when parsed. */
export const ConnectionSchema = v.intersect([
  v.object({ name, id }, ID_WORDS),
  v.variant('provider', [v.object({ ...s3, auth: s3AuthSaved }, S3_WORDS), gcs, local], (issue) => unknownProvider(issue.input))
])
/** What the connection form sends: no id for a new connection, no secretRef for a static key (main assigns both). */
export const ConnectionDraftSchema = v.intersect([
  v.object({ name, id: v.optional(id) }, NAME_WORDS),
  v.variant('provider', [v.object({ ...s3, auth: s3AuthDraft }, S3_WORDS), gcs, local], (issue) => unknownProvider(issue.input))
])

export type ConnectionConfig = v.InferOutput<typeof ConnectionSchema>
export type ConnectionDraft = v.InferOutput<typeof ConnectionDraftSchema>
export type S3Auth = Extract<ConnectionConfig, { provider: 's3' }>['auth']
export type GcsAuth = Extract<ConnectionConfig, { provider: 'gcs' }>['auth']

/** The first issue's words, with where it is when the schema's words do not say. */
export function schemaReason(issues: readonly v.BaseIssue<unknown>[]): string {
  return issues[0]?.message ?? 'not valid'
}

/**
 * Checks a connection read from disk or sent by the renderer; returns the reason it is not one, or the
 * connection rebuilt from its known fields only.
 */
export function validateConnection(x: unknown): { ok: true; value: ConnectionConfig } | { ok: false; reason: string } {
  if (typeof x !== 'object' || x === null || Array.isArray(x)) return { ok: false, reason: 'not an object' }
  const r = v.safeParse(ConnectionSchema, x)
  return r.success ? { ok: true, value: r.output } : { ok: false, reason: schemaReason(r.issues) }
}
