// An export (a table with its filters, or the SQL pane's query) to CSV or Parquet, written by main: the
// request (what to export), where main may write, the job's progress (pushed by main) and its cancel.
import type { ExportJob } from '../../../shared/api/views'
import type { StateCreator } from 'zustand/vanilla'
import type { AppState, StoreDeps } from './app-store'
import { errorMessage } from '../../../shared/error-message'

export interface ExportRequest {
  readonly sql: string
  readonly asOf: string | null
  readonly defaultName: string
  /** The rows the export writes, when the grid it is asked from counted them (its progress says them). */
  readonly rows?: number
}

export interface ExportSlice {
  /** The export the dialog is open for, or null when it is closed. */
  readonly exportRequest: ExportRequest | null
  /** Where an export may go: a native save dialog (desktop) or a typed path in this folder (browser). */
  readonly exportDefaults: { readonly directory: string; readonly dialog: boolean } | null
  readonly exportJob: ExportJob | null
  readonly exportError: string | null
  openExport(request: ExportRequest): Promise<void>
  closeExport(): void
  chooseExportPath(defaultName: string, format: 'csv' | 'parquet'): Promise<string | null>
  startExport(args: { format: 'csv' | 'parquet'; path: string; overwrite: boolean }): Promise<void>
  cancelExport(): Promise<void>
  showExportInFolder(): Promise<void>
  /** A job status from main (an answer or a pushed event). */
  applyExportJob(job: ExportJob): void
}

export const createExportSlice =
  (deps: StoreDeps): StateCreator<AppState, [], [], ExportSlice> =>
  (set, get) => {
    const { api } = deps
    const failed = (e: unknown): void => set({ exportError: errorMessage(e) })
    return {
      exportRequest: null,
      exportDefaults: null,
      exportJob: null,
      exportError: null,
      openExport: async (request) => {
        set({ exportRequest: request, exportJob: null, exportError: null })
        try {
          set({ exportDefaults: await api.call('exportDefaults', {}) })
        } catch (e) {
          failed(e)
        }
      },
      closeExport: () => {
        set({ exportRequest: null, exportJob: null, exportError: null })
      },
      chooseExportPath: async (defaultName, format) => {
        try {
          return (await api.call('chooseSavePath', { defaultName, format })).path
        } catch (e) {
          failed(e)
          return null
        }
      },
      startExport: async ({ format, path, overwrite }) => {
        const request = get().exportRequest
        if (!request) return
        set({ exportError: null })
        try {
          const job = await api.call('exportStart', { sql: request.sql, format, path, overwrite, asOf: request.asOf })
          set({ exportJob: job })
          // An event may have come before the answer: ask once, so a job that ended already shows it.
          get().applyExportJob(await api.call('exportStatus', { id: job.id }))
        } catch (e) {
          failed(e)
        }
      },
      cancelExport: async () => {
        const job = get().exportJob
        if (!job) return
        try {
          get().applyExportJob(await api.call('exportCancel', { id: job.id }))
        } catch (e) {
          failed(e)
        }
      },
      showExportInFolder: async () => {
        const job = get().exportJob
        if (job?.state === 'done') await api.call('showInFolder', { path: job.path }).catch(failed)
      },
      applyExportJob: (job) => {
        const current = get().exportJob
        // Only the dialog's own job, and never back from its end to "running" (events and answers may cross).
        if (current?.id !== job.id || (current.state !== 'running' && job.state === 'running')) return
        set({ exportJob: job })
      }
    }
  }
