// npm run serve [-- --bucket PATH --now ISO --port N --data DIR --renderer DIR --export-dir DIR --open]: the app in a browser, on the demo bucket by
// default. The same Workspace and handlers as the Electron shell; secrets typed into a connection are kept in
// this process's memory only (the browser has no OS keychain to lend). The printed address opens the app in one
// tab, once; Enter on stdin or SIGUSR1 prints a new one (a tab that lost its session, another browser). Exports are
// written only in the export folder (~/Downloads unless --export-dir says otherwise).
import { join, resolve } from 'node:path'
import { createInterface } from 'node:readline'
import { parseArgs } from 'node:util'
import { parseInstant } from '../shared/dates'
import { MemorySecretStore } from '../main/connections/secret-store'
import { ensureDemoBucket } from '../main/demo-bucket/demo-location'
import { startWebHost } from '../main/web-host'
import { Workspace } from '../main/workspace/workspace'
import { errorMessage } from '../shared/error-message'
import { openInBrowser } from './open-browser'

const USAGE = `npm run serve [-- --bucket PATH --now ISO --port N --data DIR --renderer DIR --export-dir DIR --open]
  Serves Export Explorer to a browser on 127.0.0.1 (the demo bucket unless --bucket names a folder).
  --open opens the address in your browser too (npm start does; --no-open or BROWSER=none does not).
  It prints a one-time address: it opens the app in one browser tab, once (a reload of that tab keeps working).
  For a new address (another tab or browser, a tab that lost its session), press Enter in this terminal,
  or send the process SIGUSR1 (kill -USR1 PID; the startup lines name the PID).
`

/** Prints a new one-time address; set once the host listens. */
let printNewAddress: (() => void) | null = null
// Listened to from the first instant: a SIGUSR1 that finds no listener starts Node's inspector, which any local user could reach.
process.on('SIGUSR1', () =>
  printNewAddress ? printNewAddress() : void process.stderr.write('serve: still starting; the address comes once the app is served.\n')
)

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      bucket: { type: 'string' },
      now: { type: 'string' },
      port: { type: 'string' },
      data: { type: 'string' },
      renderer: { type: 'string' },
      'export-dir': { type: 'string' },
      open: { type: 'boolean' },
      'no-open': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' }
    }
  })
  if (values.help) {
    process.stdout.write(USAGE)
    return
  }
  const now = values.now ? parseInstant(values.now) : undefined
  if (now !== undefined && Number.isNaN(now)) throw new Error('--now must be an ISO-8601 instant')
  // The demo bucket is evaluated at its own "now" (written by the generator); another folder at the clock.
  const demo = values.bucket
    ? { bucketDir: resolve(values.bucket), name: `Folder ${resolve(values.bucket)}`, ...(now !== undefined ? { now } : {}) }
    : await ensureDemoBucket([resolve('resources/demo-bucket')], resolve('resources/demo-bucket'))
  const exportDir = values['export-dir'] ? resolve(values['export-dir']) : undefined
  const workspace = new Workspace({
    dataDir: resolve(values.data ?? '.export-explorer-data'),
    secrets: new MemorySecretStore(),
    demo: now !== undefined ? { ...demo, now } : demo,
    ...(exportDir ? { exportDir } : {})
  })
  const host = await startWebHost({
    workspace,
    rendererDir: resolve(values.renderer ?? join('out', 'renderer')),
    ...(values.port ? { port: Number(values.port) } : {})
  })
  process.stdout.write(
    [
      `Export Explorer on ${demo.bucketDir}`,
      `exports are written in ${workspace.exportDefaults().directory}`,
      `open ${host.url}`,
      `(it opens one browser tab, once; for a new address press Enter here, or run: kill -USR1 ${process.pid})`,
      ''
    ].join('\n')
  )
  // After the address is printed: whatever the opener does, it is there to copy (the browser is given another one).
  if (values.open || values['no-open']) process.stdout.write(`${openInBrowser(() => host.newAddress(), values['no-open'] === true)}\n`)
  // A new one-time address on demand: the session is re-opened from here, never by a restart that loses the work.
  printNewAddress = () => void process.stdout.write(`open ${host.newAddress()}\n`)
  createInterface({ input: process.stdin }).on('line', printNewAddress)
}

main().catch((e: unknown) => {
  process.stderr.write(`serve: ${errorMessage(e)}\n`)
  process.exit(1)
})
