// npm start: the desktop app on the demo bucket. Where the Electron binary is missing (it cannot be
// downloaded everywhere), says so and shows what works without it, instead of a stack trace.
import { spawnSync } from 'node:child_process'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { electronBinary } from './electron-binary'

const require = createRequire(import.meta.url)
/** electron-vite's command (its package exports no "./bin/…" path to resolve). */
const electronVite = join(dirname(require.resolve('electron-vite')), '..', 'bin', 'electron-vite.js')

const binary = electronBinary()
if (!binary) {
  // No window here: the same app (same handlers, same renderer) in a browser, through the web host.
  process.stderr.write(
    [
      'The Electron binary is not installed on this machine (the electron package could not download it),',
      'so the desktop window cannot open. Starting the same app in your browser instead (npm run serve).',
      'The command line works too:  npm run cli -- doctor --bucket resources/demo-bucket/bucket --now 2026-11-13T02:50:00Z',
      'To get the window: install without ELECTRON_SKIP_BINARY_DOWNLOAD on a machine that can reach the download.',
      ''
    ].join('\n')
  )
  // EE_OUT_DIR: build elsewhere than out/ (the tests do, so as not to rebuild under other tests' feet).
  const outDir = process.env['EE_OUT_DIR']
  const built = spawnSync(process.execPath, [electronVite, 'build', ...(outDir ? ['--outDir', outDir] : [])], { stdio: ['ignore', 'ignore', 'inherit'] })
  if (built.status !== 0) process.exit(built.status ?? 1)
  // --open: the browser opens at the address (the window's stand-in), unless --no-open or BROWSER=none says not to.
  // tsx as a loader of this one process, not its CLI (a parent process): serve's SIGUSR1 (print a new address) then
  // reaches the process that listens, and no listener-less Node process opens its inspector on it.
  const served = spawnSync(
    process.execPath,
    ['--import', 'tsx', 'src/cli/serve.ts', '--open', ...(outDir ? ['--renderer', join(outDir, 'renderer')] : []), ...process.argv.slice(2)],
    { stdio: 'inherit' }
  )
  process.exit(served.status ?? 1)
}
const r = spawnSync(process.execPath, [electronVite, 'preview'], { stdio: 'inherit' })
process.exit(r.status ?? 1)
