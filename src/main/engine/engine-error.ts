// The errors main's engine gives the user as answers: a failure they caused or can act on, and a statement the
// engine refuses to run (the CLI exits 2 for it, as for any request it will not carry out).

/** A failure the user caused or can act on (a refused statement, a cancelled query), said plainly. */
export class EngineError extends Error {}

/** The user's SQL is not something this engine runs (not one SELECT, a function that changes the engine…). */
export class StatementRefused extends EngineError {}
