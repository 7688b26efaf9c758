// npm run cli -- <args>: the packaged command (out/main/export-explorer.js) when it is newer than every source it is
// built from, else the sources through tsx. The built file starts in a fraction of tsx's time (no transform).
import { spawnSync } from 'node:child_process'
import { readdirSync, statSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const built = join(root, 'out/main/export-explorer.js')
// What the main build reads (the renderer is not part of it).
const INPUTS = ['src/cli', 'src/main', 'src/shared', 'package.json', 'electron.vite.config.ts']

function newestMtime(path) {
  const s = statSync(path, { throwIfNoEntry: false })
  if (!s) return 0
  if (!s.isDirectory()) return s.mtimeMs
  let newest = s.mtimeMs
  for (const e of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, e)))
  return newest
}

/** The built command's path when it is current, else null. */
export function currentBuiltCli() {
  const out = statSync(built, { throwIfNoEntry: false })
  if (!out) return null
  return INPUTS.every((p) => newestMtime(join(root, p)) < out.mtimeMs) ? built : null
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const current = currentBuiltCli()
  if (current) await import(pathToFileURL(current).href)
  else {
    const r = spawnSync(process.execPath, ['--import', 'tsx', join(root, 'src/cli/export-explorer.ts'), ...process.argv.slice(2)], { stdio: 'inherit' })
    process.exit(r.status ?? 1)
  }
}
