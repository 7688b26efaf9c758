// How the app follows each connection for the user, saved per connection id: what its desktop notifications tell
// (errors by default). A saved file that cannot be read in full is kept aside and said (SavedStateFile).
import { type FollowSettingsView, NOTIFY_SETTINGS, type NotifySetting } from '../../shared/api/views'
import { type Decoded, SavedStateFile } from '../files/saved-state-file'

export interface FollowSettings {
  readonly notify: NotifySetting
}

export const DEFAULT_FOLLOW_SETTINGS: FollowSettings = { notify: 'errors' }

const isNotify = (x: unknown): x is NotifySetting => typeof x === 'string' && (NOTIFY_SETTINGS as readonly string[]).includes(x)

function decode(parsed: unknown): Decoded<Record<string, FollowSettings>> {
  const value: Record<string, FollowSettings> = {}
  const problems: string[] = []
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return { value, problems: ['it is not an object of settings by connection'] }
  for (const [id, s] of Object.entries(parsed)) {
    const notify = (s as Partial<FollowSettings> | null)?.notify
    if (isNotify(notify)) value[id] = { notify }
    else problems.push(`the notifications of connection ${id} are not one of ${NOTIFY_SETTINGS.join(', ')}`)
  }
  return { value, problems }
}

export class FollowSettingsStore {
  private readonly saved: SavedStateFile<Record<string, FollowSettings>>

  constructor(file: string) {
    this.saved = new SavedStateFile(file, { empty: () => ({}), decode, encode: (all) => JSON.stringify(all, null, 2) })
  }

  async view(connectionId: string): Promise<FollowSettingsView> {
    return { connectionId, ...((await this.saved.read()).value[connectionId] ?? DEFAULT_FOLLOW_SETTINGS) }
  }

  async setNotify(connectionId: string, notify: NotifySetting): Promise<FollowSettingsView> {
    const all = await this.saved.update((x) => ({ ...x, [connectionId]: { ...(x[connectionId] ?? DEFAULT_FOLLOW_SETTINGS), notify } }))
    return { connectionId, ...(all[connectionId] ?? DEFAULT_FOLLOW_SETTINGS) }
  }
}
