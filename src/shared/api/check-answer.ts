// Whether an answer main gave (or an event it pushed) is exactly what the contract says: tests check main's
// handlers with it, and the renderer's dev build checks what it receives. Main's own values, so a failure is a bug.
import * as v from 'valibot'
import { CALLS, type ApiName } from './calls'
import { EVENTS, type EventName } from './events'

/** The first problem of a value against a schema, with where it is ("tables.0.mode: ..."), or null when it fits. */
function problemOf(schema: v.GenericSchema, value: unknown): string | null {
  const r = v.safeParse(schema, value)
  if (r.success) return null
  const issue = r.issues[0]
  const where = (issue.path ?? []).map((p) => String(p.key)).join('.')
  return `${where ? `${where}: ` : ''}${issue.message}`
}

/** Why a call's answer is not its answer schema's, or null. */
export const answerProblem = (name: ApiName, answer: unknown): string | null => problemOf(CALLS[name].answer, answer)

/** Why an event's payload is not its schema's, or null. */
export const payloadProblem = (name: EventName, payload: unknown): string | null => problemOf(EVENTS[name], payload)
