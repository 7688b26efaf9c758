// The saved connections (the built-in demo bucket first) and their secrets: list, save, delete, test (the verdict),
// the AWS profiles a form offers, and opening one's provider.
import { randomUUID } from 'node:crypto'
import { join } from 'node:path'
import type { ArgsOf } from '../../shared/api/calls'
import type { ConnectionSummary, ConnectionVerdictView, ConnectionsView } from '../../shared/api/views'
import { type ConnectionConfig, validateConnection } from '../../shared/connection-config'
import type { BucketProvider } from '../bucket/bucket-provider'
import { ConnectionStore } from '../connections/connection-store'
import { configAbove, testConnection } from '../connections/connection-verdict'
import { type OpenOptions, listAwsProfiles, openConnection } from '../connections/open-connection'
import type { SecretStore } from '../connections/secret-store'
import { userMessage } from './user-message'
import { refusal } from '../../shared/refusal'

export const DEMO_CONNECTION_ID = 'demo'

export interface SavedConnectionsOptions {
  readonly dataDir: string
  readonly secrets: SecretStore & { unavailableReason?(): string | null; problems?(): Promise<readonly string[]> }
  /** The built-in demo bucket and the instant it is evaluated at (its own "now"). */
  readonly demo?: { readonly bucketDir: string; readonly now?: number; readonly name?: string }
  readonly openOptions?: OpenOptions
}

const locationOf = (c: ConnectionConfig): string => (c.provider === 'local' ? c.path : `${c.provider}://${c.bucket}/${c.prefix}`)

export class SavedConnections {
  private readonly store: ConnectionStore

  constructor(private readonly opts: SavedConnectionsOptions) {
    this.store = new ConnectionStore(join(opts.dataDir, 'connections.json'))
  }

  private demoConfig(): ConnectionConfig | null {
    return this.opts.demo
      ? { id: DEMO_CONNECTION_ID, name: this.opts.demo.name ?? 'Demo bucket (built in)', provider: 'local', path: this.opts.demo.bucketDir }
      : null
  }

  async all(): Promise<{ list: ConnectionConfig[]; problems: string[] }> {
    const { connections, problems } = await this.store.load()
    const demo = this.demoConfig()
    return { list: [...(demo ? [demo] : []), ...connections.filter((c) => c.id !== DEMO_CONNECTION_ID)], problems }
  }

  /** The list the connection manager shows, with the open one and every saved file's problems (`more`: others'). */
  async view(active: string | null, more: readonly string[]): Promise<ConnectionsView> {
    const { list, problems: own } = await this.all()
    // Every saved file's problems (damaged, kept aside) are shown where the connection manager lists them.
    const problems = [...own, ...((await this.opts.secrets.problems?.()) ?? []), ...more]
    const summary = (c: ConnectionConfig): ConnectionSummary => ({
      id: c.id,
      name: c.name,
      provider: c.provider,
      location: locationOf(c),
      builtin: c.id === DEMO_CONNECTION_ID
    })
    return { active, connections: list.map(summary), problems, secretStorage: this.opts.secrets.unavailableReason?.() ?? null }
  }

  async get(args: { id: string }): Promise<ConnectionConfig> {
    const c = (await this.all()).list.find((x) => x.id === args.id)
    if (!c) throw refusal('not_found', `No saved connection ${args.id}.`)
    return c
  }

  /** The config as saved: an id for a new one; a static key's secret stored apart under its secretRef. */
  private async complete(input: ArgsOf<'connectionSave'>, persistSecret: boolean): Promise<ConnectionConfig> {
    const c = input.connection
    const id = c.id && c.id !== DEMO_CONNECTION_ID ? c.id : randomUUID()
    if (c.provider === 's3' && c.auth.kind === 'static') {
      const secretRef = `s3-secret-${id}`
      if (input.secretAccessKey) {
        if (persistSecret) await this.opts.secrets.set(secretRef, input.secretAccessKey)
      } else if ((await this.opts.secrets.get(secretRef)) === null)
        throw refusal('bad_argument', 'Enter the secret access key: none is saved for this connection.')
      return { ...c, id, auth: { kind: 'static', accessKeyId: c.auth.accessKeyId, secretRef } }
    }
    // The draft with its id is a saved connection (the schema says so; a static key took the branch above).
    const saved = validateConnection({ ...c, id })
    if (!saved.ok) throw refusal('bad_argument', `The connection cannot be saved: ${saved.reason}.`)
    return saved.value
  }

  async save(input: ArgsOf<'connectionSave'>): Promise<{ id: string }> {
    if (input.connection.id === DEMO_CONNECTION_ID) throw refusal('builtin', 'The demo bucket cannot be changed; save a new connection instead.')
    const c = await this.complete(input, true)
    await this.store.upsert(c)
    return { id: c.id }
  }

  async test(input: ArgsOf<'connectionTest'>): Promise<ConnectionVerdictView> {
    let provider: BucketProvider
    let openAbove: () => Promise<BucketProvider | null>
    let config: ConnectionConfig
    try {
      const c = await this.complete(input, false)
      config = c
      // A secret typed into the form is tested without being saved.
      const secrets: SecretStore =
        input.secretAccessKey && c.provider === 's3' && c.auth.kind === 'static'
          ? { get: async () => input.secretAccessKey ?? null, set: async () => {}, delete: async () => {} }
          : this.opts.secrets
      provider = await openConnection(c, secrets, this.opts.openOptions)
      const above = configAbove(c)
      openAbove = async () => (above ? openConnection(above, secrets, this.opts.openOptions) : null)
    } catch (e) {
      return { level: 'red', ok: false, message: userMessage(e), version: null, useInstead: [], detail: null }
    }
    const opened: BucketProvider[] = [provider]
    const v = await testConnection(provider, {
      signal: AbortSignal.timeout(30_000),
      config,
      openAbove: async () => {
        const p = await openAbove()
        if (p) opened.push(p)
        return p
      }
    })
    // S3 clients hold sockets open (keep-alive): a test's are closed with it.
    for (const p of opened) (p as { close?: () => void }).close?.()
    return { level: v.level, ok: v.ok, message: v.message, version: v.version, useInstead: v.useInstead, detail: v.detail }
  }

  /** Removes a saved connection and its stored secret. */
  async delete(args: { id: string }): Promise<void> {
    if (args.id === DEMO_CONNECTION_ID) throw refusal('builtin', 'The demo bucket is built in and cannot be deleted.')
    const c = (await this.all()).list.find((x) => x.id === args.id)
    if (c?.provider === 's3' && c.auth.kind === 'static') await this.opts.secrets.delete(c.auth.secretRef)
    await this.store.remove(args.id)
  }

  /** A saved connection's provider, and the instant it is evaluated at when it is not the clock (the demo's). */
  async open(c: ConnectionConfig): Promise<{ provider: BucketProvider; fixedNow: number | undefined }> {
    const provider = await openConnection(c, this.opts.secrets, this.opts.openOptions)
    return { provider, fixedNow: c.id === DEMO_CONNECTION_ID ? this.opts.demo?.now : undefined }
  }

  async awsProfiles(): Promise<{ profiles: readonly string[]; error: string | null }> {
    try {
      return { profiles: await listAwsProfiles(this.opts.openOptions), error: null }
    } catch (e) {
      return { profiles: [], error: `Your AWS config could not be read: ${userMessage(e)}` }
    }
  }
}
