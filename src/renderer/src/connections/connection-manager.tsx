// The connection manager: saved connections (the demo bucket first), open one, and a form for a new S3, GCS
// or local-folder connection with "Test connection", whose verdict can fill in the folder to use. A static S3
// secret key is sent to main once, kept there (encrypted by the OS keychain), and never shown again.
import { useEffect, useState } from 'react'
import type { ConnectionInput } from '../../../shared/api/calls'
import type { ConnectionVerdictView, ConnectionsView } from '../../../shared/api/views'
import type { ConnectionConfig, ConnectionDraft } from '../../../shared/connection-config'
import { appStore } from '../store/use-app-store'
import { parseBucketUrl } from '../../../shared/bucket-url'
import { ConnectionVerdict } from './connection-verdict'
import dialogCss from '../common/dialog.module.css'
import css from './connection-manager.module.css'
import { errorMessage } from '../../../shared/error-message'
import { useEscapeToClose } from '../common/escape-key'

type Provider = ConnectionConfig['provider']

interface Form {
  id: string
  name: string
  provider: Provider
  bucket: string
  prefix: string
  region: string
  endpoint: string
  path: string
  s3Auth: 'default' | 'profile' | 'static'
  profile: string
  accessKeyId: string
  secretAccessKey: string
  gcsAuth: 'adc' | 'key_file' | 'none'
  keyFile: string
  projectId: string
}

const EMPTY: Form = {
  id: '',
  name: '',
  provider: 's3',
  bucket: '',
  prefix: '',
  region: '',
  endpoint: '',
  path: '',
  s3Auth: 'default',
  profile: '',
  accessKeyId: '',
  secretAccessKey: '',
  gcsAuth: 'adc',
  keyFile: '',
  projectId: ''
}

/** The form as a draft: main assigns a new connection's id and a static key's secretRef. */
function toDraft(f: Form): ConnectionDraft {
  const name = f.name || (f.provider === 'local' ? f.path : `${f.bucket}/${f.prefix}`)
  const id = f.id ? { id: f.id } : {}
  if (f.provider === 'local') return { ...id, name, provider: 'local', path: f.path }
  if (f.provider === 'gcs')
    return {
      ...id,
      name,
      provider: 'gcs',
      bucket: f.bucket,
      prefix: f.prefix,
      ...(f.endpoint ? { endpoint: f.endpoint } : {}),
      ...(f.projectId ? { projectId: f.projectId } : {}),
      auth: f.gcsAuth === 'key_file' ? { kind: 'key_file', keyFile: f.keyFile } : { kind: f.gcsAuth }
    }
  const auth =
    f.s3Auth === 'profile'
      ? { kind: 'profile' as const, profile: f.profile }
      : f.s3Auth === 'static'
        ? { kind: 'static' as const, accessKeyId: f.accessKeyId }
        : { kind: 'default' as const }
  return {
    ...id,
    name,
    provider: 's3',
    bucket: f.bucket,
    prefix: f.prefix,
    ...(f.region ? { region: f.region } : {}),
    ...(f.endpoint ? { endpoint: f.endpoint } : {}),
    auth
  }
}

function fromConfig(c: ConnectionConfig): Form {
  if (c.provider === 'local') return { ...EMPTY, id: c.id, name: c.name, provider: 'local', path: c.path }
  if (c.provider === 'gcs')
    return {
      ...EMPTY,
      id: c.id,
      name: c.name,
      provider: 'gcs',
      bucket: c.bucket,
      prefix: c.prefix,
      endpoint: c.endpoint ?? '',
      projectId: c.projectId ?? '',
      gcsAuth: c.auth.kind,
      keyFile: c.auth.kind === 'key_file' ? c.auth.keyFile : ''
    }
  return {
    ...EMPTY,
    id: c.id,
    name: c.name,
    provider: 's3',
    bucket: c.bucket,
    prefix: c.prefix,
    region: c.region ?? '',
    endpoint: c.endpoint ?? '',
    s3Auth: c.auth.kind,
    profile: c.auth.kind === 'profile' ? c.auth.profile : '',
    accessKeyId: c.auth.kind === 'static' ? c.auth.accessKeyId : ''
  }
}

/** What connectionSave and connectionTest take: the draft, and a secret typed into the form. */
function input(f: Form): ConnectionInput {
  return { connection: toDraft(f), ...(f.secretAccessKey ? { secretAccessKey: f.secretAccessKey } : {}) }
}

export function ConnectionManager({ view }: { view: ConnectionsView }): React.JSX.Element {
  const { openConnection, setManagerOpen, testConnection, saveAndOpen, deleteConnection, getConnection, awsProfiles } = appStore.getState()
  const onClose = (): void => setManagerOpen(false)
  useEscapeToClose(onClose)
  const [form, setForm] = useState<Form | null>(null)
  const [verdict, setVerdict] = useState<ConnectionVerdictView | null>(null)
  const [busy, setBusy] = useState<string | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [profiles, setProfiles] = useState<{ profiles: readonly string[]; error: string | null } | null>(null)
  const set = (patch: Partial<Form>): void => {
    setForm((f) => (f ? { ...f, ...patch } : f))
    setVerdict(null)
  }
  useEffect(() => {
    if (form?.provider === 's3' && form.s3Auth === 'profile' && !profiles) awsProfiles().then(setProfiles, (e: Error) => setError(e.message))
  }, [form?.provider, form?.s3Auth, profiles, awsProfiles])

  const run = async (label: string, f: () => Promise<void>): Promise<void> => {
    setBusy(label)
    setError(null)
    try {
      await f()
    } catch (e) {
      setError(errorMessage(e))
    } finally {
      setBusy(null)
    }
  }

  const open = (id: string): Promise<void> => run('Opening…', () => openConnection(id))
  /** Tests the form as given (a "Use …" of the verdict fills the prefix or folder first, then tests again). */
  const test = (f: Form): void => {
    setForm(f)
    setVerdict(null)
    void run('Testing…', async () => setVerdict(await testConnection(input(f))))
  }

  return (
    <div role="dialog" aria-modal="true" aria-label="Connections" data-testid="connections" className={css.backdrop}>
      <div className={css.box}>
        <div className={dialogCss.header}>
          <h2 className={dialogCss.title}>Connections</h2>
          <button onClick={onClose}>Close</button>
        </div>
        {view.problems.map((p) => (
          <p key={p} role="alert" className={css.note}>
            {p}
          </p>
        ))}
        <table className={css.list}>
          <tbody>
            {view.connections.map((c) => (
              <tr key={c.id} data-connection={c.name} aria-current={c.id === view.active ? 'true' : undefined}>
                <td className={css.name}>
                  <b>{c.name}</b> {c.id === view.active ? <span className={css.open}>(open)</span> : null}
                  <div className={css.location}>{c.location}</div>
                </td>
                <td className={css.actions}>
                  <button disabled={busy !== null} onClick={() => void open(c.id)}>
                    Open
                  </button>{' '}
                  {!c.builtin ? (
                    <>
                      <button disabled={busy !== null} onClick={() => void run('Loading…', async () => setForm(fromConfig(await getConnection(c.id))))}>
                        Edit
                      </button>{' '}
                      <button disabled={busy !== null} onClick={() => void run('Deleting…', async () => deleteConnection(c.id))}>
                        Delete
                      </button>
                    </>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {!form ? (
          <p>
            <button onClick={() => setForm({ ...EMPTY })}>New connection…</button>
          </p>
        ) : (
          <form
            aria-label="connection"
            onSubmit={(e) => {
              e.preventDefault()
              void run('Saving…', async () => {
                await saveAndOpen(input(form))
                setForm(null)
              })
            }}
            className={css.form}
          >
            <h3 className={css.formTitle}>{form.id ? 'Edit connection' : 'New connection'}</h3>
            <label className={css.field}>
              Kind
              <select aria-label="kind" value={form.provider} onChange={(e) => set({ provider: e.target.value as Provider })}>
                <option value="s3">Amazon S3 (or S3-compatible)</option>
                <option value="gcs">Google Cloud Storage</option>
                <option value="local">Folder on this computer</option>
              </select>
            </label>
            <label className={css.field}>
              Name
              <input aria-label="name" value={form.name} placeholder="shown in the list" onChange={(e) => set({ name: e.target.value })} />
            </label>
            {form.provider === 'local' ? (
              <label className={css.field}>
                Folder
                <input
                  aria-label="folder"
                  required
                  value={form.path}
                  placeholder="/path/to/export (holding v1/ and v2/)"
                  onChange={(e) => set({ path: e.target.value })}
                />
              </label>
            ) : (
              <>
                <label className={css.field}>
                  Bucket
                  <input
                    aria-label="bucket"
                    required
                    value={form.bucket}
                    placeholder="my-bucket, or paste s3://my-bucket/folder/ or gs://my-bucket/folder/"
                    onChange={(e) => {
                      // A pasted URL fills kind, bucket and prefix instead of becoming an invalid bucket name.
                      const url = parseBucketUrl(e.target.value)
                      set(url ? { provider: url.provider, bucket: url.bucket, prefix: url.prefix } : { bucket: e.target.value })
                    }}
                  />
                </label>
                <label className={css.field}>
                  Prefix
                  <input
                    aria-label="prefix"
                    value={form.prefix}
                    placeholder="folder holding v1/ and v2/ (may be empty)"
                    onChange={(e) => set({ prefix: e.target.value })}
                  />
                </label>
                <label className={css.field}>
                  Endpoint
                  <input
                    aria-label="endpoint"
                    value={form.endpoint}
                    placeholder={form.provider === 's3' ? 'only for S3-compatible storage' : 'only for an emulator'}
                    onChange={(e) => set({ endpoint: e.target.value })}
                  />
                </label>
              </>
            )}
            {form.provider === 's3' ? (
              <>
                <label className={css.field}>
                  Region
                  <input
                    aria-label="region"
                    value={form.region}
                    placeholder="found from the bucket when empty"
                    onChange={(e) => set({ region: e.target.value })}
                  />
                </label>
                <label className={css.field}>
                  Credentials
                  <select aria-label="credentials" value={form.s3Auth} onChange={(e) => set({ s3Auth: e.target.value as Form['s3Auth'] })}>
                    <option value="default">Default chain (environment, SSO, instance role)</option>
                    <option value="profile">AWS profile</option>
                    <option value="static">Access key</option>
                  </select>
                </label>
                {form.s3Auth === 'profile' ? (
                  <label className={css.field}>
                    Profile
                    <select aria-label="profile" value={form.profile} onChange={(e) => set({ profile: e.target.value })}>
                      <option value="">
                        {profiles ? (profiles.profiles.length ? 'choose a profile' : 'no profile in ~/.aws/config or credentials') : 'reading your AWS config…'}
                      </option>
                      {profiles?.profiles.map((p) => (
                        <option key={p} value={p}>
                          {p}
                        </option>
                      ))}
                    </select>
                  </label>
                ) : null}
                {profiles?.error && form.s3Auth === 'profile' ? <p className={css.note}>{profiles.error}</p> : null}
                {form.s3Auth === 'static' ? (
                  <>
                    <label className={css.field}>
                      Access key ID
                      <input aria-label="access key id" required value={form.accessKeyId} onChange={(e) => set({ accessKeyId: e.target.value })} />
                    </label>
                    <label className={css.field}>
                      Secret access key
                      <input
                        aria-label="secret access key"
                        type="password"
                        autoComplete="off"
                        value={form.secretAccessKey}
                        placeholder={form.id ? 'saved; type to replace' : ''}
                        onChange={(e) => set({ secretAccessKey: e.target.value })}
                      />
                    </label>
                    {view.secretStorage ? <p className={css.note}>{view.secretStorage}</p> : null}
                  </>
                ) : null}
              </>
            ) : null}
            {form.provider === 'gcs' ? (
              <>
                <label className={css.field}>
                  Credentials
                  <select aria-label="credentials" value={form.gcsAuth} onChange={(e) => set({ gcsAuth: e.target.value as Form['gcsAuth'] })}>
                    <option value="adc">Application Default Credentials (gcloud auth)</option>
                    <option value="key_file">Service account key file</option>
                    <option value="none">None (public bucket or emulator)</option>
                  </select>
                </label>
                {form.gcsAuth === 'key_file' ? (
                  <label className={css.field}>
                    Key file
                    <input
                      aria-label="key file"
                      required
                      value={form.keyFile}
                      placeholder="/path/to/key.json"
                      onChange={(e) => set({ keyFile: e.target.value })}
                    />
                  </label>
                ) : null}
                <label className={css.field}>
                  Project ID
                  <input aria-label="project id" value={form.projectId} onChange={(e) => set({ projectId: e.target.value })} />
                </label>
              </>
            ) : null}
            {verdict ? (
              <ConnectionVerdict verdict={verdict} onUse={(value) => test({ ...form, ...(form.provider === 'local' ? { path: value } : { prefix: value }) })} />
            ) : null}
            <div className={css.buttons}>
              <button type="button" disabled={busy !== null} onClick={() => test(form)}>
                Test connection
              </button>
              <button type="submit" disabled={busy !== null}>
                Save and open
              </button>
              <button type="button" onClick={() => setForm(null)}>
                Cancel
              </button>
              {busy ? <span className={css.busy}>{busy}</span> : null}
            </div>
          </form>
        )}
        {error ? (
          <p role="alert" className={css.error}>
            {error}
          </p>
        ) : null}
      </div>
    </div>
  )
}
