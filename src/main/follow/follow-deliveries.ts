// The app's follow targets per connection (issue 22): adding one (a webhook's URL into the secret store, a command
// into the follow settings), "Send a test", and after each refresh the incident changes told to each target once.
// What each target was told, still owes and last answered is kept in a state file (atomic), so a restart repeats
// nothing; a target that fails keeps its queue, is tried again after the next refresh and shows the problem meanwhile.
import { randomUUID } from 'node:crypto'
import { join } from 'node:path'
import type { FollowDelivery, FollowSettingsView, FollowTargetKind, NotifySetting } from '../../shared/api/views'
import type { DeliveryHeadline } from '../../shared/delivery-headline'
import { errorMessage } from '../../shared/error-message'
import { type IncidentChange, type KnownIncident, incidentChanges, pendingFor, rememberTold } from '../../shared/follow/incident-changes'
import { type IncidentPayload, incidentPayload, testPayload } from '../../shared/follow/incident-payload'
import type { Incident } from '../../shared/incidents'
import { refusal } from '../../shared/refusal'
import type { SecretStore } from '../connections/secret-store'
import { SavedStateFile } from '../files/saved-state-file'
import { swallowed } from '../log/main-log'
import type { MainEvents } from '../main-events'
import { FollowSettingsStore, type SavedTarget } from './follow-settings'
import { type Target, type WebhookOptions, commandTarget, webhookTarget, webhookName } from './follow-targets'

/** What one target was told: the fingerprints told, the changes it still owes, its last deliveries and problem. */
interface TargetTold {
  readonly told: readonly string[]
  readonly pending: readonly IncidentChange[]
  readonly deliveries: readonly FollowDelivery[]
  readonly problem: string | null
}

interface ConnectionTold {
  /** The incidents as of the last refresh with targets; null: the next refresh is the baseline (nothing told). */
  readonly known: Record<string, KnownIncident> | null
  readonly targets: Record<string, TargetTold>
}

type ToldState = Record<string, ConnectionTold>

const DELIVERIES_KEPT = 10
const NEW_TARGET: TargetTold = { told: [], pending: [], deliveries: [], problem: null }

function decodeTold(parsed: unknown): { value: ToldState; problems: string[] } {
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return { value: {}, problems: ['it is not what the follow targets were told'] }
  const value: ToldState = {}
  for (const [id, c] of Object.entries(parsed as Record<string, Partial<ConnectionTold> | null>)) {
    if (!c || typeof c.targets !== 'object' || c.targets === null) continue
    const targets: Record<string, TargetTold> = {}
    for (const [t, x] of Object.entries(c.targets))
      targets[t] = {
        told: Array.isArray(x?.told) ? x.told : [],
        pending: Array.isArray(x?.pending) ? x.pending : [],
        deliveries: Array.isArray(x?.deliveries) ? x.deliveries : [],
        problem: typeof x?.problem === 'string' ? x.problem : null
      }
    value[id] = { known: typeof c.known === 'object' ? (c.known ?? null) : null, targets }
  }
  return { value, problems: [] }
}

export interface FollowDeliveriesOptions {
  readonly dataDir: string
  readonly secrets: SecretStore & { unavailableReason?(): string | null }
  readonly events: MainEvents
  readonly clock: () => number
  /** Webhook retries and back-off (tests shorten them). */
  readonly webhook?: WebhookOptions
}

/** Where the told changes come from: the connection's location and headline. */
export interface FollowWhere {
  readonly location: string
  readonly headline: DeliveryHeadline | null
}

export class FollowDeliveries {
  private readonly settings: FollowSettingsStore
  private readonly state: SavedStateFile<ToldState>
  /** The refreshes' deliveries, one after another (dispose waits for them). */
  private chain: Promise<void> = Promise.resolve()
  private readonly lifetime = new AbortController()

  constructor(private readonly opts: FollowDeliveriesOptions) {
    this.settings = new FollowSettingsStore(join(opts.dataDir, 'follow-settings.json'))
    this.state = new SavedStateFile(join(opts.dataDir, 'follow-told.json'), {
      empty: () => ({}),
      decode: decodeTold,
      encode: (v) => `${JSON.stringify(v)}\n`
    })
  }

  async view(connectionId: string): Promise<FollowSettingsView> {
    const s = await this.settings.get(connectionId)
    const told = (await this.state.read()).value[connectionId]?.targets ?? {}
    return {
      connectionId,
      notify: s.notify,
      targets: s.targets.map((t) => {
        const x = told[t.id] ?? NEW_TARGET
        return {
          id: t.id,
          kind: t.kind,
          name: t.kind === 'webhook' ? t.name : t.command,
          pending: x.pending.length,
          problem: x.problem,
          deliveries: [...x.deliveries]
        }
      }),
      secretStorage: this.opts.secrets.unavailableReason?.() ?? null
    }
  }

  async setNotify(connectionId: string, notify: NotifySetting): Promise<FollowSettingsView> {
    await this.settings.setNotify(connectionId, notify)
    return this.view(connectionId)
  }

  /** A webhook (http or https; the URL into the secret store) or a command; told the changes from the next refresh on. */
  async add(connectionId: string, kind: FollowTargetKind, value: string): Promise<FollowSettingsView> {
    const id = randomUUID()
    let target: SavedTarget
    if (kind === 'webhook') {
      let url: URL
      try {
        url = new URL(value)
      } catch {
        throw refusal('bad_argument', 'The webhook must be a whole URL, such as https://hooks.example.com/…: check what was pasted.')
      }
      if (url.protocol !== 'https:' && url.protocol !== 'http:') throw refusal('bad_argument', `A webhook is an http or https URL, not ${url.protocol}`)
      const why = this.opts.secrets.unavailableReason?.() ?? null
      if (why) throw refusal('not_supported', `The webhook was not saved: its URL is a secret. ${why}`)
      target = { id, kind, name: webhookName(value), secretRef: `follow-webhook-${id}` }
      await this.opts.secrets.set(target.secretRef, url.href)
    } else target = { id, kind, command: value }
    const before = await this.settings.get(connectionId)
    await this.settings.addTarget(connectionId, target)
    await this.state.update((all) => {
      const c = all[connectionId]
      // The connection's first target: its next refresh is the baseline, so an old comparison tells nothing stale.
      const known = before.targets.length === 0 || !c ? null : c.known
      return { ...all, [connectionId]: { known, targets: { ...(c?.targets ?? {}), [id]: NEW_TARGET } } }
    })
    return this.view(connectionId)
  }

  async remove(connectionId: string, id: string): Promise<FollowSettingsView> {
    const t = await this.savedTarget(connectionId, id)
    await this.settings.removeTarget(connectionId, id)
    if (t.kind === 'webhook') await this.opts.secrets.delete(t.secretRef)
    await this.state.update((all) => {
      const c = all[connectionId]
      if (!c) return all
      const targets = Object.fromEntries(Object.entries(c.targets).filter(([k]) => k !== id))
      return { ...all, [connectionId]: { ...c, targets } }
    })
    return this.view(connectionId)
  }

  /** A deleted connection: its targets, their webhooks' URLs in the secret store, and what they were told, gone. */
  async forget(connectionId: string): Promise<void> {
    const { targets } = await this.settings.forget(connectionId)
    for (const t of targets) if (t.kind === 'webhook') await this.opts.secrets.delete(t.secretRef)
    await this.state.update((all) => Object.fromEntries(Object.entries(all).filter(([id]) => id !== connectionId)))
  }

  /** Sends a payload marked as a test; its answer (or error) is the target's newest delivery. */
  async test(connectionId: string, id: string, where: FollowWhere): Promise<FollowSettingsView> {
    const saved = await this.savedTarget(connectionId, id)
    const at = this.opts.clock()
    const p = testPayload({ location: where.location, at })
    const d = await this.deliver(saved, p)
    await this.record(connectionId, id, (x) => ({ ...x, deliveries: [{ ...d, at: new Date(at).toISOString() }, ...x.deliveries].slice(0, DELIVERIES_KEPT) }))
    return this.view(connectionId)
  }

  /**
   * After a refresh of the connection: its incidents compared with the last refresh's, the changes queued for every
   * target and told, each after the one before (a failure keeps the target's queue for the next refresh). In the
   * background: the refresh does not wait. The view is pushed (followDelivered) once something was told or failed.
   */
  afterRefresh(connectionId: string, incidentsNow: () => Promise<readonly Incident[]>, where: () => Promise<FollowWhere>): Promise<void> {
    const run = async (): Promise<void> => {
      const { targets } = await this.settings.get(connectionId)
      if (targets.length === 0) return
      const incidents = await incidentsNow()
      const state = await this.state.update((all) => {
        const c = all[connectionId] ?? { known: null, targets: {} }
        const { changes, known } = incidentChanges(c.known, incidents)
        const next: Record<string, TargetTold> = {}
        for (const t of targets) {
          const was = c.targets[t.id] ?? NEW_TARGET
          next[t.id] = { ...was, pending: c.known === null ? was.pending : pendingFor(was.pending, new Set(was.told), changes) }
        }
        return { ...all, [connectionId]: { known, targets: next } }
      })
      const owed = targets.filter((t) => (state[connectionId]?.targets[t.id]?.pending.length ?? 0) > 0)
      if (owed.length === 0) return
      const w = await where()
      await Promise.all(owed.map((t) => this.tellPending(connectionId, t, state[connectionId]?.targets[t.id]?.pending ?? [], w)))
      if (!this.lifetime.signal.aborted) this.opts.events.emit('followDelivered', await this.view(connectionId))
    }
    this.chain = this.chain.then(run).catch(swallowed('telling the follow targets (each target shows its problem)'))
    return this.chain
  }

  private async tellPending(connectionId: string, t: SavedTarget, pending: readonly IncidentChange[], where: FollowWhere): Promise<void> {
    for (const c of pending) {
      if (this.lifetime.signal.aborted) return
      const d = await this.deliver(t, incidentPayload(c, where))
      if (this.lifetime.signal.aborted) return
      const at = new Date(this.opts.clock()).toISOString()
      await this.record(connectionId, t.id, (x) => ({
        told: d.ok ? rememberTold(x.told, c.fingerprint) : x.told,
        pending: d.ok ? x.pending.filter((p) => p.fingerprint !== c.fingerprint) : x.pending,
        deliveries: [{ ...d, at }, ...x.deliveries].slice(0, DELIVERIES_KEPT),
        problem: d.ok ? null : `${d.answer}. It is told again after the next refresh.`
      }))
      if (!d.ok) return
    }
  }

  /** One payload to one target: its answer, or the error in words (a webhook's URL never in them). */
  private async deliver(t: SavedTarget, p: IncidentPayload): Promise<Omit<FollowDelivery, 'at'>> {
    const summary = p.test ? 'Test' : p.summary
    try {
      const answer = await (await this.targetOf(t)).send(p, this.lifetime.signal)
      return { summary, test: p.test === true, ok: true, answer }
    } catch (e) {
      return { summary, test: p.test === true, ok: false, answer: errorMessage(e) }
    }
  }

  private async targetOf(t: SavedTarget): Promise<Target> {
    if (t.kind === 'command') return commandTarget(t.command, { output: 'ignore' })
    const url = await this.opts.secrets.get(t.secretRef)
    if (url === null) throw new Error(`the URL of the webhook ${t.name} is not in the secret store any more: remove the webhook and add it again`)
    return webhookTarget(url, this.opts.webhook)
  }

  private async record(connectionId: string, id: string, f: (x: TargetTold) => TargetTold): Promise<void> {
    // Removed meanwhile: nothing to keep.
    if (!(await this.settings.get(connectionId)).targets.some((t) => t.id === id)) return
    await this.state.update((all) => {
      const c = all[connectionId] ?? { known: null, targets: {} }
      return { ...all, [connectionId]: { ...c, targets: { ...c.targets, [id]: f(c.targets[id] ?? NEW_TARGET) } } }
    })
  }

  private async savedTarget(connectionId: string, id: string): Promise<SavedTarget> {
    const t = (await this.settings.get(connectionId)).targets.find((x) => x.id === id)
    if (!t) throw refusal('not_found', `No follow target ${id} on this connection: reload the Follow panel.`)
    return t
  }

  /** What the follow files say is wrong (damaged, kept aside). */
  async problems(): Promise<readonly string[]> {
    return [...(await this.settings.problems()), ...(await this.state.read()).problems]
  }

  /** Resolves once the deliveries asked for so far are done. */
  settled(): Promise<void> {
    return this.chain
  }

  /** Stops telling (a retry waiting ends) and waits for what runs. */
  async close(): Promise<void> {
    this.lifetime.abort()
    await this.chain
  }
}
