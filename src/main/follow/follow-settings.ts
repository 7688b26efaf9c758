// How the app follows each connection for the user, saved per connection id: what its desktop notifications tell
// (errors by default) and its targets, a command whole and a webhook by its shown name and the name of its URL in the
// secret store (the URL itself is never in this file). A saved file that cannot be read in full is kept aside and said.
import { NOTIFY_SETTINGS, type NotifySetting } from '../../shared/api/views'
import { type Decoded, SavedStateFile } from '../files/saved-state-file'

/** A saved target: a webhook's URL lives in the secret store under secretRef; `name` is its origin and path. */
export type SavedTarget =
  | { readonly id: string; readonly kind: 'webhook'; readonly name: string; readonly secretRef: string }
  | { readonly id: string; readonly kind: 'command'; readonly command: string }

export interface FollowSettings {
  readonly notify: NotifySetting
  readonly targets: readonly SavedTarget[]
}

export const DEFAULT_FOLLOW_SETTINGS: FollowSettings = { notify: 'errors', targets: [] }

const isNotify = (x: unknown): x is NotifySetting => typeof x === 'string' && (NOTIFY_SETTINGS as readonly string[]).includes(x)
const str = (x: unknown): x is string => typeof x === 'string' && x.length > 0

function targetOf(x: unknown): SavedTarget | null {
  const t = x as Record<string, unknown> | null
  if (typeof t !== 'object' || t === null || !str(t['id'])) return null
  if (t['kind'] === 'webhook' && str(t['name']) && str(t['secretRef'])) return { id: t['id'], kind: 'webhook', name: t['name'], secretRef: t['secretRef'] }
  if (t['kind'] === 'command' && str(t['command'])) return { id: t['id'], kind: 'command', command: t['command'] }
  return null
}

function decode(parsed: unknown): Decoded<Record<string, FollowSettings>> {
  const value: Record<string, FollowSettings> = {}
  const problems: string[] = []
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return { value, problems: ['it is not an object of settings by connection'] }
  for (const [id, s] of Object.entries(parsed)) {
    const saved = s as Partial<Record<keyof FollowSettings, unknown>> | null
    const notify = saved?.notify
    if (!isNotify(notify)) problems.push(`the notifications of connection ${id} are not one of ${NOTIFY_SETTINGS.join(', ')}`)
    const listed: unknown[] = Array.isArray(saved?.targets) ? saved.targets : []
    const targets = listed.map(targetOf).filter((t): t is SavedTarget => t !== null)
    if (targets.length < listed.length)
      problems.push(`${listed.length - targets.length} follow target(s) of connection ${id} could not be read: add them again`)
    value[id] = { notify: isNotify(notify) ? notify : DEFAULT_FOLLOW_SETTINGS.notify, targets }
  }
  return { value, problems }
}

export class FollowSettingsStore {
  private readonly saved: SavedStateFile<Record<string, FollowSettings>>

  constructor(file: string) {
    this.saved = new SavedStateFile(file, { empty: () => ({}), decode, encode: (all) => JSON.stringify(all, null, 2) })
  }

  async get(connectionId: string): Promise<FollowSettings> {
    return (await this.saved.read()).value[connectionId] ?? DEFAULT_FOLLOW_SETTINGS
  }

  private async change(connectionId: string, f: (s: FollowSettings) => FollowSettings): Promise<FollowSettings> {
    const all = await this.saved.update((x) => ({ ...x, [connectionId]: f(x[connectionId] ?? DEFAULT_FOLLOW_SETTINGS) }))
    return all[connectionId] ?? DEFAULT_FOLLOW_SETTINGS
  }

  setNotify(connectionId: string, notify: NotifySetting): Promise<FollowSettings> {
    return this.change(connectionId, (s) => ({ ...s, notify }))
  }

  addTarget(connectionId: string, target: SavedTarget): Promise<FollowSettings> {
    return this.change(connectionId, (s) => ({ ...s, targets: [...s.targets, target] }))
  }

  /** A deleted connection's settings, gone; what they were (its webhooks' secrets are the caller's to delete). */
  async forget(connectionId: string): Promise<FollowSettings> {
    const before = await this.get(connectionId)
    await this.saved.update((x) => Object.fromEntries(Object.entries(x).filter(([id]) => id !== connectionId)))
    return before
  }

  removeTarget(connectionId: string, id: string): Promise<FollowSettings> {
    return this.change(connectionId, (s) => ({ ...s, targets: s.targets.filter((t) => t.id !== id) }))
  }

  /** What the user should know about the file (damaged, kept aside; targets that could not be read). */
  async problems(): Promise<readonly string[]> {
    return (await this.saved.read()).problems
  }
}
