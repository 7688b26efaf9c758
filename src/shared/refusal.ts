// A call the user asked for that main will not carry out (a bad argument, a connection that does not exist, a
// path outside the grants): a typed answer with a code and words, told apart from a bug (which stays a failure).

/** Every reason main refuses a call, closed: a new one is added here, where the transport and the slices see it. */
export const REFUSAL_CODES = [
  /** An argument is missing, of the wrong shape, or not acceptable (the words name the field). */
  'bad_argument',
  /** No call of that name. */
  'no_call',
  /** What the call names (a saved connection, an export) does not exist. */
  'not_found',
  /** The file exists and the call was not asked to replace it. */
  'name_taken',
  /** A path the call may not write or show (outside the export folder, not chosen in the save dialog). */
  'path_not_allowed',
  /** The built-in demo bucket cannot be changed or deleted. */
  'builtin',
  /** No connection is open (or none is saved). */
  'no_connection',
  /** The open connection's kind cannot do it (a restore on GCS or a local folder, Athena definitions of GCS). */
  'not_supported',
  /** The user's SQL is not one statement that reads. */
  'sql_refused',
  /** Something running stands in the way (an export reading the mirror, a restore already running). */
  'busy',
  /** There is nothing to do (no archived file to restore). */
  'nothing_to_do',
  /** The user said no in a dialog of main's own (a command target not confirmed). */
  'declined'
] as const
export type RefusalCode = (typeof REFUSAL_CODES)[number]

/** A refusal as it travels (IPC value, HTTP body): plain data, since an Error's own fields do not cross IPC. */
export interface Refused {
  readonly refused: { readonly code: RefusalCode; readonly message: string }
}

/** Thrown where the user caused it (main), and where an answer says it was refused (the renderer's transport). */
export class RefusalError extends Error {
  constructor(
    readonly code: RefusalCode,
    message: string
  ) {
    super(message)
    this.name = 'RefusalError'
  }
}

export const refusal = (code: RefusalCode, message: string): RefusalError => new RefusalError(code, message)

export const isRefusalCode = (x: unknown): x is RefusalCode => typeof x === 'string' && (REFUSAL_CODES as readonly string[]).includes(x)

/** The refusal an answer carries, or null: anything else (an unknown code, no words) is not one. */
export function refusedOf(answer: unknown): RefusalError | null {
  const r = typeof answer === 'object' && answer !== null ? (answer as { refused?: unknown }).refused : undefined
  if (typeof r !== 'object' || r === null) return null
  const { code, message } = r as { code?: unknown; message?: unknown }
  return isRefusalCode(code) && typeof message === 'string' ? new RefusalError(code, message) : null
}

export const refusedAnswer = (e: RefusalError): Refused => ({ refused: { code: e.code, message: e.message } })
