// The bulk restore of archived history: what the picked table leaves out as archived (its restore plan), the
// restore dialog's choices (this table or all, tier, days) with the plan's count, bytes and usual delay before
// starting, starting it, and the connection's restore job as main pushes it (it survives a restart of the app).
import type { RestorePlanView, RestoreStatusView } from '../../../shared/api/views'
import type { RestoreTier } from '../../../shared/restore-plan'
import type { StateCreator } from 'zustand/vanilla'
import type { AppState, StoreDeps } from './app-store'
import { errorMessage } from '../../../shared/error-message'

export interface RestoreChoice {
  /** "schema.table", or null for every table. */
  readonly table: string | null
  readonly tier: RestoreTier
  readonly days: number
}

export interface RestoreSlice {
  /** The connection's restore job (null until asked). */
  readonly restoreStatus: RestoreStatusView | null
  /** The picked table's plan with the current tier and days: what it leaves out as archived. */
  readonly tableRestorePlan: RestorePlanView | null
  /** The dialog's choices and its plan; null while the dialog is closed. */
  readonly restoreDialog: { readonly choice: RestoreChoice; readonly plan: RestorePlanView | null; readonly starting: boolean } | null
  readonly restoreError: string | null
  loadRestoreStatus(): Promise<void>
  /** The plan of the table the Tables view shows (asked again after each refresh). */
  loadTableRestorePlan(table: string): Promise<void>
  openRestoreDialog(table: string): Promise<void>
  changeRestoreChoice(patch: Partial<RestoreChoice>): Promise<void>
  closeRestoreDialog(): void
  startRestore(): Promise<void>
  /** A restore status from main (an answer or a pushed event). */
  applyRestoreStatus(status: RestoreStatusView): void
}

const DEFAULT_CHOICE = { tier: 'Standard', days: 7 } as const

export const createRestoreSlice =
  (deps: StoreDeps): StateCreator<AppState, [], [], RestoreSlice> =>
  (set, get) => {
    const { api } = deps
    const failed = (e: unknown): void => set({ restoreError: errorMessage(e) })
    // Only the plan asked last is shown (one asked before a restore finished would bring its left-out files back).
    let plansAsked = 0
    const planDialog = async (choice: RestoreChoice): Promise<void> => {
      set((s) => ({ restoreDialog: s.restoreDialog ? { ...s.restoreDialog, choice } : s.restoreDialog, restoreError: null }))
      try {
        const plan = await api.call('restorePlan', choice)
        // Only the answer for the choice still shown.
        set((s) => (s.restoreDialog?.choice === choice ? { restoreDialog: { ...s.restoreDialog, plan } } : {}))
      } catch (e) {
        failed(e)
      }
    }
    return {
      restoreStatus: null,
      tableRestorePlan: null,
      restoreDialog: null,
      restoreError: null,
      loadRestoreStatus: async () => {
        try {
          get().applyRestoreStatus(await api.call('restoreStatus', {}))
        } catch (e) {
          failed(e)
        }
      },
      loadTableRestorePlan: async (table) => {
        const n = ++plansAsked
        try {
          const plan = await api.call('restorePlan', { table, ...DEFAULT_CHOICE })
          if (n === plansAsked) set({ tableRestorePlan: plan })
        } catch (e) {
          if (n !== plansAsked) return
          set({ tableRestorePlan: null })
          failed(e)
        }
      },
      openRestoreDialog: async (table) => {
        const choice: RestoreChoice = { table, ...DEFAULT_CHOICE }
        set({ restoreDialog: { choice, plan: null, starting: false }, restoreError: null })
        await planDialog(choice)
      },
      changeRestoreChoice: async (patch) => {
        const d = get().restoreDialog
        if (!d) return
        await planDialog({ ...d.choice, ...patch })
      },
      closeRestoreDialog: () => set({ restoreDialog: null, restoreError: null }),
      startRestore: async () => {
        const d = get().restoreDialog
        if (!d || d.starting) return
        set({ restoreDialog: { ...d, starting: true }, restoreError: null })
        try {
          get().applyRestoreStatus(await api.call('restoreStart', d.choice))
          set({ restoreDialog: null })
        } catch (e) {
          set((s) => ({ restoreDialog: s.restoreDialog ? { ...s.restoreDialog, starting: false } : null }))
          failed(e)
        }
      },
      applyRestoreStatus: (status) => {
        const was = get().restoreStatus?.job
        set({ restoreStatus: status })
        // A restore that just finished brought the listing up to date: the picked table's plan is asked again.
        // Until it answers, the old plan's "left out … Restore…" is not shown beside "finished, n of n restored".
        const table = get().tableRestorePlan?.table
        const job = status.job
        if (was && was.state === 'running' && job?.state === 'done' && table) {
          if (job.table === null || job.table === table) set({ tableRestorePlan: null })
          void get().loadTableRestorePlan(table)
        }
      }
    }
  }
