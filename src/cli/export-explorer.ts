#!/usr/bin/env node
// export-explorer: the delivery rules from a terminal or a scheduled job, over the same core and services
// as the app. status | timeline | doctor (exit 0: no open error, 1: some, 2: could not check), query, export, ddl.
// This entry only reads the command line: each command's modules (cloud SDKs, DuckDB) load when it runs.
import { BucketError } from '../main/bucket/bucket-errors'
import { errorMessage } from '../shared/error-message'
import { type CliRequest, USAGE, UsageError, parseCommandLine } from './cli-request'

async function runCommand(request: CliRequest): Promise<number> {
  const { derivedRun, openBucketRun } = await import('./bucket-run')
  const { command } = request
  if (command === 'query' || command === 'export' || command === 'ddl') {
    const { ENGINE_COMMANDS, startEngineEarly } = await import('./commands/engine-commands')
    const run = await openBucketRun(request, { startEngine: (provider, id) => startEngineEarly(provider, id, request), deriveLater: true })
    if (typeof run === 'number') return run
    try {
      return await ENGINE_COMMANDS[command](run)
    } finally {
      await run.early?.dispose()
    }
  }
  const opened = await openBucketRun(request)
  if (typeof opened === 'number') return opened
  const run = await derivedRun(opened)
  if (command === 'watch') {
    const { watchCommand } = await import('./commands/watch-command')
    const exports = request.watch?.export
    return watchCommand(run, exports ? (await import('./commands/watch-export')).watchExportHooks(run, exports) : {})
  }
  const { REPORT_COMMANDS } = await import('./commands/report-commands')
  return REPORT_COMMANDS[command](run)
}

async function main(argv: string[]): Promise<number> {
  const parsed = parseCommandLine(argv)
  if (parsed.help) {
    process.stdout.write(`${USAGE}\n`)
    return parsed.exitCode
  }
  return runCommand(parsed)
}

/** Exits once stdout has been written out (a pipe is written asynchronously). */
function exit(code: number): void {
  process.stdout.write('', () => process.exit(code))
}

main(process.argv.slice(2)).then(
  (code) => exit(code),
  (e: unknown) => {
    if (e instanceof UsageError || (e as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      process.stderr.write(`export-explorer: ${errorMessage(e)}\n${USAGE}\n`)
      exit(2)
      return
    }
    process.stderr.write(`export-explorer: ${e instanceof BucketError ? e.userMessage : errorMessage(e)}\n`)
    exit(2)
  }
)
