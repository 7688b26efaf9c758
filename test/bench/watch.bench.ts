// npm run bench -- watch
// The cost of following a year-old S3 bucket (BENCH_DAYS of hourly markers: every table's _SUCCESS and the hour's
// manifest) behind a loopback proxy adding BENCH_LATENCY_MS (30) to every request: requests and time per quiet check
// (the due hour's markers not there yet; goal ≤ 5 requests, ≤ 1 s), and the time from the markers landing to a poll
// seeing them, against the poll interval.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pollMarkers } from '../../src/main/follow/marker-poll'
import { S3Provider } from '../../src/main/bucket/s3-provider'
import { markerKeys } from '../../src/shared/follow/check-schedule'
import { startFaultProxy } from '../helpers/fault-proxy'
import { putRaw } from '../helpers/s3rver-layout'
import { S3_TEST_KEYS, startS3Server } from '../helpers/s3-server'

const BUCKET = 'bench-watch'
const DAYS = Number(process.env['BENCH_DAYS'] ?? 365)
const LATENCY_MS = Number(process.env['BENCH_LATENCY_MS'] ?? 30)
const ROUNDS = 20
const V2_START = Date.UTC(2026, 10, 3, 3)
const H = 3_600_000

export async function benchWatch(): Promise<void> {
  const work = await mkdtemp(join(tmpdir(), 'ee-bench-watch-'))
  const s3 = await startS3Server({ childProcess: true })
  const proxy = await startFaultProxy(s3.endpoint)
  try {
    const hours = DAYS * 24
    process.stderr.write(`writing ${hours} hours of markers (${hours * markerKeys(V2_START).length} objects) into the S3 server…\n`)
    for (let i = 0; i < hours; i++) {
      const at = V2_START + i * H
      for (const key of markerKeys(at)) await putRaw(s3.directory, BUCKET, key, key.endsWith('.json') ? '{}' : '', at + 30 * 60_000)
    }
    const due = V2_START + hours * H
    const now = due + 50 * 60_000
    const provider = new S3Provider({ bucket: BUCKET, endpoint: proxy.endpoint, region: 'us-east-1', credentials: { kind: 'static', ...S3_TEST_KEYS } })
    proxy.rules.latencyMs = LATENCY_MS
    const awaiting = markerKeys(due)
    await pollMarkers(provider, awaiting, 0, now) // the client's first connection, not a check's cost
    const requests0 = proxy.stats.requests
    const t0 = performance.now()
    for (let r = 0; r < ROUNDS; r++) {
      const { seen } = await pollMarkers(provider, awaiting, r, now)
      if (seen.size > 0) throw new Error('a quiet check saw markers')
    }
    const perCheckMs = (performance.now() - t0) / ROUNDS
    const perCheckRequests = (proxy.stats.requests - requests0) / ROUNDS
    process.stdout.write(
      `watch: quiet check on ${DAYS} days at ${LATENCY_MS} ms/request: ${perCheckRequests.toFixed(1)} requests (goal ≤ 5: ${(perCheckRequests / 5).toFixed(2)}× the goal), ` +
        `${perCheckMs.toFixed(0)} ms (goal ≤ 1000: ${(perCheckMs / 1000).toFixed(2)}× the goal)\n`
    )
    // The markers land; the manifest last. Detection is the next poll: ≤ one interval plus one quiet check.
    for (const key of markerKeys(due).reverse()) await putRaw(s3.directory, BUCKET, key, key.endsWith('.json') ? '{}' : '', due + 30 * 60_000)
    const t1 = performance.now()
    const { seen } = await pollMarkers(provider, awaiting, ROUNDS, now)
    const seeMs = performance.now() - t1
    if (!seen.has(awaiting[0] as string)) throw new Error('the poll did not see the manifest land')
    process.stdout.write(
      `watch: a poll sees the landed manifest in ${seeMs.toFixed(0)} ms: landing → full check ≤ poll interval + ${(seeMs / 1000).toFixed(2)} s\n`
    )
  } finally {
    await proxy.close()
    await s3.close()
    await rm(work, { recursive: true, force: true })
  }
}
