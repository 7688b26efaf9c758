// npm run bench -- listing
// A year of hourly deliveries (~100,000 objects, laid out by the generator's plan) in the S3 server, behind
// a loopback proxy adding 30 ms to every request. Times a complete index cold and warm (one new hour)
// against the vendor's approach: one sequential paginated listing of the whole prefix.
import { refreshBucketIndex } from '../../src/main/bucket/bucket-index'
import { listAll } from '../../src/main/bucket/bucket-provider'
import { S3Provider } from '../../src/main/bucket/s3-provider'
import { planDemoBucket } from '../../src/main/demo-bucket/demo-plan'
import { startFaultProxy } from '../helpers/fault-proxy'
import { putRaw } from '../helpers/s3rver-layout'
import { S3_TEST_KEYS, startS3Server } from '../helpers/s3-server'

const BUCKET = 'bench-bucket'
const LATENCY_MS = Number(process.env['BENCH_LATENCY_MS'] ?? 30)

export async function benchListing(): Promise<void> {
  const days = Number(process.env['BENCH_DAYS'] ?? 365)
  const plan = planDemoBucket({ seed: 7, days, scale: 1, v1Days: days })
  const keys: [string, number][] = []
  for (const f of plan.folders) {
    for (const file of f.files) keys.push([file.key, file.mtime])
    if (f.marker !== null) keys.push([`${f.prefix}_SUCCESS`, f.marker])
  }
  for (const t of plan.texts) keys.push([t.key, t.mtime])
  // The newest hour is held back and added before the warm refresh.
  const lastHour = plan.expected.now.slice(0, 13).replace('T', '/snapshot_hour=').replace(/^/, 'snapshot_date=')
  const lastEtl = lastHour.replace('snapshot_date=', 'etl_date=').replace('snapshot_hour=', 'etl_hour=')
  const isNew = (k: string): boolean => k.includes(`/${lastHour}/`) || k.includes(`/${lastEtl}/`)
  const initial = keys.filter(([k]) => !isNew(k))
  const added = keys.filter(([k]) => isNew(k))

  const s3 = await startS3Server({ childProcess: true })
  const proxy = await startFaultProxy(s3.endpoint)
  try {
    process.stderr.write(`writing ${initial.length} objects into the S3 server…\n`)
    for (let i = 0; i < initial.length; i += 200) await Promise.all(initial.slice(i, i + 200).map(([k, t]) => putRaw(s3.directory, BUCKET, k, 'x', t)))
    const provider = new S3Provider({ bucket: BUCKET, endpoint: proxy.endpoint, region: 'us-east-1', credentials: { kind: 'static', ...S3_TEST_KEYS } })
    const now = Date.parse(plan.expected.now)

    // Warm the server's file cache once, without latency, so neither side pays for a cold disk.
    for await (const _ of listAll(provider, '')) void _
    proxy.rules.latencyMs = LATENCY_MS

    let t0 = performance.now()
    let n = 0
    let pages = 0
    for await (const page of provider.list('')) {
      pages++
      n += page.objects.length
    }
    const vendor = performance.now() - t0

    t0 = performance.now()
    const cold = await refreshBucketIndex(provider, null, { now })
    const coldMs = performance.now() - t0
    if (cold.index.objects.size !== n) throw new Error(`cold index has ${cold.index.objects.size} objects, the full listing ${n}`)

    for (const [k, t] of added) await putRaw(s3.directory, BUCKET, k, 'x', t)
    t0 = performance.now()
    const warm = await refreshBucketIndex(provider, cold.index, { now: now + 3_600_000 })
    const warmMs = performance.now() - t0
    if (warm.index.objects.size !== n + added.length) throw new Error(`warm index has ${warm.index.objects.size} objects, expected ${n + added.length}`)

    t0 = performance.now()
    const again = await refreshBucketIndex(provider, warm.index, { now: now + 3_600_000 })
    const againMs = performance.now() - t0
    process.stderr.write(`(a second refresh with nothing new: ${again.requests} requests, ${(againMs / 1000).toFixed(2)} s)\n`)

    const fmt = (ms: number): string => `${(ms / 1000).toFixed(2)} s`
    console.log(`listing benchmark: ${n} objects (${days} days of v2 + ${days} of v1), ${LATENCY_MS} ms added per request`)
    console.log(`  vendor approach (one sequential paginated listing): ${fmt(vendor)}, ${pages} requests`)
    console.log(`  cold index (parallel, per table and month):         ${fmt(coldMs)}, ${cold.requests} requests`)
    console.log(`  warm refresh (one new hour, ${added.length} objects):        ${fmt(warmMs)}, ${warm.requests} requests`)
    console.log(`  cold speed-up: ${(vendor / coldMs).toFixed(1)}x   warm speed-up: ${(vendor / warmMs).toFixed(1)}x`)
  } finally {
    await proxy.close()
    await s3.close()
  }
}
