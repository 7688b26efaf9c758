// npm start: the desktop app on the demo bucket. Where the Electron binary is missing (it cannot be
// downloaded everywhere), says so and shows what works without it, instead of a stack trace.
import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { createRequire } from 'node:module'

const require = createRequire(import.meta.url)

/** The binary if it is installed. Never require('electron') to find out: from Electron 42 on that downloads it. */
function electronBinary(): string | null {
  try {
    const dir = dirname(require.resolve('electron/package.json'))
    const pathFile = join(dir, 'path.txt')
    if (!existsSync(pathFile)) return null
    const binary = join(dir, 'dist', readFileSync(pathFile, 'utf8').trim())
    return existsSync(binary) ? binary : null
  } catch {
    return null
  }
}

const binary = electronBinary()
if (!binary) {
  process.stderr.write(
    [
      'The Electron binary is not installed on this machine (the electron package could not download it),',
      'so the desktop window cannot open here. Everything else works without it; on the demo bucket:',
      '',
      '  npm run serve           (the same app in a browser, on 127.0.0.1)',
      '  npm run cli -- status   --bucket resources/demo-bucket/bucket --now 2026-11-13T02:50:00Z',
      '  npm run cli -- doctor   --bucket resources/demo-bucket/bucket --now 2026-11-13T02:50:00Z',
      "  npm run cli -- query \"SELECT tenant_id, count(*) FROM cloud_chat_messages GROUP BY 1\" --bucket resources/demo-bucket/bucket",
      '',
      'To get the window: install without ELECTRON_SKIP_BINARY_DOWNLOAD on a machine that can reach the download.',
      ''
    ].join('\n')
  )
  process.exit(1)
}
const r = spawnSync(process.execPath, [require.resolve('electron-vite/bin/electron-vite.js'), 'preview'], { stdio: 'inherit' })
process.exit(r.status ?? 1)
