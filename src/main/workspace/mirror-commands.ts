// The user's commands on the open connection's local mirror (status, cancel, resume, clear, the disk limit), for the
// contract's mirror calls: each on the open session (the first saved connection opened when none is).
import type { MirrorStatusView } from '../../shared/api/views'
import { refusal } from '../../shared/refusal'
import type { MirrorLimits } from '../mirror/mirror-limits'
import type { ConnectionSession } from '../session/connection-session'

export interface MirrorCommandsOptions {
  readonly session: () => Promise<ConnectionSession>
  readonly limits: MirrorLimits
  /** True once a refresh of the open connection succeeded (a resume builds for its listing). */
  readonly refreshed: () => boolean
  /** True while an export runs (it may read the mirror's files). */
  readonly exporting: () => boolean
}

export class MirrorCommands {
  constructor(private readonly opts: MirrorCommandsOptions) {}

  async status(): Promise<MirrorStatusView> {
    return (await this.opts.session()).mirror.refreshUsage()
  }

  async cancel(): Promise<MirrorStatusView> {
    return (await this.opts.session()).mirror.cancel()
  }

  /** Builds from where the mirror stopped, for the last listing (none yet: the refresh running builds it when it ends). */
  async resume(): Promise<MirrorStatusView> {
    const session = await this.opts.session()
    if (this.opts.refreshed()) void session.mirror.update(session.mirrorSnapshot())
    return session.mirror.status()
  }

  /** Removes the mirror and the files downloaded for it; main's engine (which may read those files) opens again. */
  async clear(): Promise<MirrorStatusView> {
    const session = await this.opts.session()
    if (this.opts.exporting()) throw refusal('busy', 'An export is running and reads the mirror: wait for it to finish (or cancel it), then clear the mirror.')
    await session.closeEngine()
    return session.mirror.clear()
  }

  async setLimit(args: { bytes: number | null }): Promise<MirrorStatusView> {
    const session = await this.opts.session()
    await this.opts.limits.set(session.connectionId, args.bytes)
    return session.mirror.refreshUsage()
  }
}
