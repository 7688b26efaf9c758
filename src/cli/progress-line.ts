// The CLI's progress: one line on a terminal's stderr, rewritten in place (never on stdout, never in a pipe).

export type Progress = ((text: string) => void) & { done(): void }

/** One line rewritten in place on a terminal's stderr; nothing when stderr is not a terminal or JSON is asked for. */
export function progress(enabled: boolean): Progress {
  const tty = enabled && process.stderr.isTTY
  const f = ((text: string) => {
    if (tty) process.stderr.write(`\r${text.padEnd(70)}`)
  }) as Progress
  f.done = () => {
    if (tty) process.stderr.write(`\r${''.padEnd(70)}\r`)
  }
  return f
}
