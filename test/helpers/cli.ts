// The command-line tool run as a user would: a child process (through tsx, from source), its exit code and output.
import { execFile } from 'node:child_process'
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { promisify } from 'node:util'

const run = promisify(execFile)

export interface CliRun {
  readonly code: number
  readonly stdout: string
  readonly stderr: string
}

// Absolute, so the tool also runs from another working directory (what DuckDB's relative defaults depend on).
const TSX = pathToFileURL(resolve('node_modules/tsx/dist/loader.mjs')).href
const TOOL = resolve('src/cli/export-explorer.ts')

/** Runs `export-explorer <args>` with its cache in `cache` (from `cwd`); a non-zero exit is an answer, not a throw. */
export async function runCli(args: readonly string[], cache: string, env: Record<string, string> = {}, cwd?: string): Promise<CliRun> {
  try {
    const r = await run(process.execPath, ['--import', TSX, TOOL, ...args], {
      ...(cwd ? { cwd } : {}),
      env: { ...process.env, EXPORT_EXPLORER_CACHE: cache, ...env },
      maxBuffer: 64 * 1024 * 1024
    })
    return { code: 0, stdout: r.stdout, stderr: r.stderr }
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string }
    return { code: err.code, stdout: err.stdout, stderr: err.stderr }
  }
}
