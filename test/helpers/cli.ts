// The command-line tool run as a user would: a child process, its exit code and output. The packaged command
// (out/main/export-explorer.js) when it is newer than its sources (`npm test` builds it first), else the sources via tsx.
import { execFile } from 'node:child_process'
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { promisify } from 'node:util'
// @ts-expect-error: a plain ES module of the scripts folder, without types
import { currentBuiltCli } from '../../scripts/cli.mjs'

const run = promisify(execFile)

export interface CliRun {
  readonly code: number
  readonly stdout: string
  readonly stderr: string
}

// Absolute, so the tool also runs from another working directory (what DuckDB's relative defaults depend on).
const TSX = pathToFileURL(resolve('node_modules/tsx/dist/loader.mjs')).href
const TOOL = resolve('src/cli/export-explorer.ts')
const BUILT = currentBuiltCli() as string | null

/** node's arguments before the tool's own: the built command, or tsx and the source. */
export const CLI_COMMAND: readonly string[] = BUILT ? [BUILT] : ['--import', TSX, TOOL]

/** Runs `export-explorer <args>` with its cache in `cache` (from `cwd`); a non-zero exit is an answer, not a throw. */
export async function runCli(args: readonly string[], cache: string, env: Record<string, string> = {}, cwd?: string): Promise<CliRun> {
  try {
    const r = await run(process.execPath, [...CLI_COMMAND, ...args], {
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
