// npm run serve [-- --bucket PATH --now ISO --port N --data DIR --renderer DIR --export-dir DIR]: the app in a browser, on the demo bucket by
// default. The same Workspace and handlers as the Electron shell; secrets typed into a connection are kept in
// this process's memory only (the browser has no OS keychain to lend). The printed address opens the app once
// (its token becomes the browser's session cookie). Exports are written only in the export folder (~/Downloads
// unless --export-dir says otherwise).
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { parseInstant } from '../shared/dates'
import { MemorySecretStore } from '../main/connections/secret-store'
import { ensureDemoBucket } from '../main/demo-bucket/demo-location'
import { startWebHost } from '../main/web-host'
import { Workspace } from '../main/workspace'

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      bucket: { type: 'string' },
      now: { type: 'string' },
      port: { type: 'string' },
      data: { type: 'string' },
      renderer: { type: 'string' },
      'export-dir': { type: 'string' }
    }
  })
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
  process.stdout.write(`Export Explorer on ${demo.bucketDir}\nexports are written in ${workspace.exportDefaults().directory}\nopen ${host.url}\n`)
}

main().catch((e: unknown) => {
  process.stderr.write(`serve: ${(e as Error).message}\n`)
  process.exit(1)
})
