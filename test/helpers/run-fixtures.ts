// What a test run builds once and every test file shares (vitest's global setup makes it; test/global-setup.ts):
// the demo buckets most files read, the built renderer and the built engine page, in one run folder named by
// environment variables.
// Outside such a run (a benchmark run by tsx) nothing is shared and each helper makes its own.
import { existsSync, readdirSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'

/** The run folder holding the shared demo buckets (one folder per generator options, see demoKey). */
export const RUN_DEMOS_ENV = 'EE_TEST_RUN_DEMOS'
/** A renderer built for this run (out/renderer when current, else built once into the run folder). */
export const RUN_RENDERER_ENV = 'EE_TEST_RUN_RENDERER'
/** The engine page (test/e2e/engine-page) built once for this run. */
export const RUN_ENGINE_PAGE_ENV = 'EE_TEST_RUN_ENGINE_PAGE'
/** The WebSocket address of the Chromium the run launched (test/helpers/chromium.ts connects to it). */
export const RUN_CHROMIUM_ENV = 'EE_TEST_RUN_CHROMIUM'

export interface DemoOpts {
  readonly seed: number
  readonly days: number
  readonly scale: number
  readonly start?: number
}

/** The generator options most tests use (what generateDemo() defaults to), and those the run generates up front. */
export const SHARED_DEMOS: readonly DemoOpts[] = [
  { seed: 7, days: 8, scale: 1 },
  { seed: 7, days: 9, scale: 1 }
]

export const demoKey = (o: DemoOpts): string => `seed${o.seed}-days${o.days}-scale${o.scale}${o.start !== undefined ? `-start${o.start}` : ''}`

/** The run's generated demo of these options (its folder, holding bucket/ and expected.json), if the run made one. */
export function sharedDemoDir(o: DemoOpts): string | null {
  const root = process.env[RUN_DEMOS_ENV]
  if (!root) return null
  const dir = join(root, demoKey(o))
  return existsSync(join(dir, 'expected.json')) ? dir : null
}

export function sharedRendererDir(): string | null {
  const dir = process.env[RUN_RENDERER_ENV]
  return dir && existsSync(join(dir, 'index.html')) ? dir : null
}

export function sharedChromiumEndpoint(): string | null {
  return process.env[RUN_CHROMIUM_ENV] || null
}

export function sharedEnginePageDir(): string | null {
  const dir = process.env[RUN_ENGINE_PAGE_ENV]
  return dir && existsSync(join(dir, 'index.html')) ? dir : null
}

/**
 * Each file under `dir` with its size and modification time, one line each, sorted: what readDemo's readers must not
 * change. Synchronous: 0.35 CPU s for a demo's 11,650 entries, where a Promise per stat took 1.8.
 */
export function folderFingerprint(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .map((e) => {
      const path = join(e.parentPath, e.name)
      if (e.isDirectory()) return `${relative(dir, path)}/`
      const s = statSync(path)
      return `${relative(dir, path)} ${s.size} ${s.mtimeMs}`
    })
    .sort()
}

/** What differs between two fingerprints (added, removed or changed lines), the first few, for the message. */
export function fingerprintChanges(before: readonly string[], after: readonly string[]): string[] {
  const a = new Set(before)
  const b = new Set(after)
  return [...before.filter((l) => !b.has(l)).map((l) => `before: ${l}`), ...after.filter((l) => !a.has(l)).map((l) => `after:  ${l}`)].slice(0, 10)
}
