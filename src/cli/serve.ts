// npm run serve [-- --bucket PATH --now ISO --port N]: the app in a browser, on the demo bucket by default.
import { readFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { parseInstant } from '../shared/dates'
import { AppService } from '../main/app-service'
import { LocalFolderProvider } from '../main/bucket/local-provider'
import { startWebHost } from '../main/web-host'

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { bucket: { type: 'string' }, now: { type: 'string' }, port: { type: 'string' } } })
  const demo = resolve('resources/demo-bucket')
  const bucket = resolve(values.bucket ?? join(demo, 'bucket'))
  // The demo bucket is evaluated at its own "now" (written by the generator); another bucket at the clock.
  let now: number | undefined = values.now ? parseInstant(values.now) : undefined
  if (now === undefined && !values.bucket) now = Date.parse((JSON.parse(await readFile(join(demo, 'expected.json'), 'utf8')) as { now: string }).now)
  if (now !== undefined && Number.isNaN(now)) throw new Error('--now must be an ISO-8601 instant')
  const service = new AppService({ provider: new LocalFolderProvider(bucket), connectionId: `local-${bucket.replace(/[^\w]+/g, '_')}`, dataDir: resolve('.export-explorer-data'), ...(now !== undefined ? { now: () => now as number } : {}) })
  const host = await startWebHost({ service, rendererDir: resolve('out/renderer'), ...(values.port ? { port: Number(values.port) } : {}) })
  process.stdout.write(`Export Explorer on ${bucket}\nopen ${host.url}\n`)
}

main().catch((e: unknown) => {
  process.stderr.write(`serve: ${(e as Error).message}\n`)
  process.exit(1)
})
