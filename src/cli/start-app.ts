// npm start: the desktop app on the demo bucket. Where the Electron binary is missing (it cannot be
// downloaded everywhere), says so and shows what works without it, instead of a stack trace.
import { spawnSync } from 'node:child_process'
import { createRequire } from 'node:module'
import { electronBinary } from './electron-binary'

const require = createRequire(import.meta.url)

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
