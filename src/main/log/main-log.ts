// Main's log of what it swallows: a failure that must not stop the work (a background refresh whose error the
// refresh status already carries, a cache file that could not be removed) is said here instead of dropped. On
// stderr; `debug` lines only with EXPORT_EXPLORER_DEBUG set. Lines hold an error's words and bucket keys, never a secret.
import { errorMessage } from '../../shared/error-message'

export type LogLevel = 'debug' | 'warn'

/** Where lines go (tests replace it). */
export const logSink: { write: (line: string) => void } = { write: (line) => void process.stderr.write(line) }

export function logLine(level: LogLevel, message: string): void {
  if (level === 'debug' && !process.env['EXPORT_EXPLORER_DEBUG']) return
  logSink.write(`export-explorer ${level}: ${message}\n`)
}

/** A catch handler that logs what was swallowed and where: `.catch(swallowed('removing a stale cache block'))`. */
export function swallowed(what: string, level: LogLevel = 'debug'): (e: unknown) => void {
  return (e) => logLine(level, `${what}: ${errorMessage(e)}`)
}
