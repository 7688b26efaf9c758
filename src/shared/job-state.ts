// One vocabulary for the jobs main runs and the renderer shows (an export, the bulk restore, the mirror's
// build): where the job is, and when it started and ended.

/** idle: not started (nothing built yet); running; done; failed (it says why); cancelled (stopped before the end). */
export const JOB_STATES = ['idle', 'running', 'done', 'failed', 'cancelled'] as const
export type JobState = (typeof JOB_STATES)[number]

/** Where a job is, and when (UTC ISO): startedAt null before it first starts, endedAt null until it ends. */
export interface JobStatus {
  readonly state: JobState
  readonly startedAt: string | null
  readonly endedAt: string | null
}

/** The job ended, whichever way. */
export const jobEnded = (state: JobState): boolean => state === 'done' || state === 'failed' || state === 'cancelled'
