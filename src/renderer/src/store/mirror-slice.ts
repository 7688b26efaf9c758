// The open connection's local mirror: its status (build progress, per-table state, disk use, limit) as main pushes
// it (mirrorProgress) or answers it (mirrorStatus), and the user's actions on it: cancel, resume, clear, set the
// limit. A build that ends (or a clear) bumps mirrorGeneration, so the tables open again on what the mirror holds.
import type { MirrorStatusView } from '../../../shared/api/views'
import type { StateCreator } from 'zustand/vanilla'
import type { AppState, StoreDeps } from './app-store'
import { errorMessage } from '../../../shared/error-message'

export interface MirrorSlice {
  readonly mirror: MirrorStatusView | null
  /** Changes each time a build ends or the mirror is cleared: what the tables read from it changed. */
  readonly mirrorGeneration: number
  /** The last mirror action's error (shown in the mirror's panel). */
  readonly mirrorError: string | null
  applyMirrorStatus(status: MirrorStatusView): void
  loadMirror(): Promise<void>
  cancelMirror(): Promise<void>
  resumeMirror(): Promise<void>
  clearMirror(): Promise<void>
  /** Bytes, or null for the default share of the free space. */
  setMirrorLimit(bytes: number | null): Promise<void>
  /** Follows main's pushed mirror status until the returned function is called. */
}

export const createMirrorSlice =
  (deps: StoreDeps): StateCreator<AppState, [], [], MirrorSlice> =>
  (set, get) => {
    const { api } = deps
    const act = async (run: () => Promise<MirrorStatusView>): Promise<void> => {
      try {
        set({ mirrorError: null })
        get().applyMirrorStatus(await run())
      } catch (e) {
        set({ mirrorError: errorMessage(e) })
      }
    }
    return {
      mirror: null,
      mirrorGeneration: 0,
      mirrorError: null,
      applyMirrorStatus: (status) => {
        const before = get().mirror
        const ended = before !== null && before.state === 'running' && status.state !== 'running'
        const cleared = before !== null && before.usage.mirror > 0 && status.state === 'idle'
        set((s) => ({ mirror: status, mirrorGeneration: ended || cleared ? s.mirrorGeneration + 1 : s.mirrorGeneration }))
      },
      loadMirror: () => act(() => api.call('mirrorStatus', {})),
      cancelMirror: () => act(() => api.call('mirrorCancel', {})),
      resumeMirror: () => act(() => api.call('mirrorResume', {})),
      clearMirror: () => act(() => api.call('mirrorClear', {})),
      setMirrorLimit: (bytes) => act(() => api.call('mirrorSetLimit', { bytes }))
    }
  }
