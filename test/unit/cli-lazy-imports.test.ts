// `export-explorer --help` and a wrong flag answer at once: the entry's static import graph must not reach the cloud
// SDKs or DuckDB (they load with the command that needs them, through `await import`). Reads the sources' imports.
import { existsSync, readFileSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

const HEAVY = [/^@aws-sdk\//, /^@google-cloud\//, /^@duckdb\//, /^@smithy\//, /^google-auth-library/]

/** Static imports only (`import … from`, `export … from`, and a module-level `createRequire(import.meta.url)('…')`,
 * how DuckDB's API loads); `await import(…)` is how heavy modules are meant to load. */
function staticImports(file: string): string[] {
  const text = readFileSync(file, 'utf8')
  return [...text.matchAll(/^(?:import|export)\s(?!type\b)[^'"]*?from\s+'([^']+)'|^import\s+'([^']+)'|createRequire\(import\.meta\.url\)\('([^']+)'\)/gm)].map(
    (m) => (m[1] ?? m[2] ?? m[3]) as string
  )
}

function resolveSource(from: string, spec: string): string | null {
  const base = resolve(dirname(from), spec)
  for (const p of [`${base}.ts`, `${base}.tsx`, `${base}/index.ts`]) if (existsSync(p)) return p
  return null
}

/** Every package the entry loads before its first `await import`, with the chain that brings it in. */
function packagesReached(entry: string): Map<string, string[]> {
  const seen = new Set<string>()
  const packages = new Map<string, string[]>()
  const walk = (file: string, chain: string[]): void => {
    if (seen.has(file)) return
    seen.add(file)
    for (const spec of staticImports(file)) {
      if (spec.startsWith('.')) {
        const next = resolveSource(file, spec)
        if (next) walk(next, [...chain, next.replace(`${process.cwd()}/`, '')])
      } else if (!spec.startsWith('node:') && !packages.has(spec)) packages.set(spec, chain)
    }
  }
  walk(resolve(entry), [entry])
  return packages
}

describe('the CLI starts without its heavy modules', () => {
  const heavyReached = (entry: string): string[] =>
    [...packagesReached(entry)].filter(([p]) => HEAVY.some((h) => h.test(p))).map(([p, chain]) => `${p} via ${chain.join(' → ')}`)

  it('loads no cloud SDK and no DuckDB before a command runs', () => {
    expect(heavyReached('src/cli/export-explorer.ts')).toEqual([])
  })

  it('judges a local folder (status, timeline, doctor) without DuckDB or an SDK: a cron job starts fast', () => {
    expect(heavyReached('src/cli/bucket-run.ts')).toEqual([])
    expect(heavyReached('src/cli/commands/report-commands.ts')).toEqual([])
  })

  it('watch follows a local folder without DuckDB or an SDK', () => {
    expect(heavyReached('src/cli/commands/watch-command.ts')).toEqual([])
  })

  it('the check can fail: a command module does reach DuckDB and the SDKs', () => {
    const reached = [...packagesReached('src/cli/commands/engine-commands.ts').keys()]
    expect(reached.some((p) => p.startsWith('@duckdb/'))).toBe(true)
  })
})
