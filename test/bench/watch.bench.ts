// npm run bench -- watch
// The cost of following a year-old S3 bucket behind a loopback proxy adding BENCH_LATENCY_MS (30) to every request.
// The bucket (BENCH_DAYS, 365, of hourly v2 deliveries, markers only): each hour's manifest and the _SUCCESS of
// FEW_TABLES tables, and for the last FULL_DAYS days every table's (a plan with few tables: a year of every table's
// markers is 175,000 objects to write into s3rver, ~6 minutes). Measured:
//   1. a quiet check (the due hour's markers not there yet; goal ≤ 5 requests, ≤ 1 s): pollMarkers, ROUNDS times;
//   2. a real `watch` (the built CLI, --poll POLL_S, a webhook receiver on loopback): the time from the due hour's
//      markers landing to the webhook telling its change (goal ≤ one poll interval + 2 s), split into the wait for
//      the next poll (≤ the interval) and the poll → full check → webhook part (goal ≤ 2 s), and its requests.
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pollMarkers } from '../../src/main/follow/marker-poll'
import { S3Provider } from '../../src/main/bucket/s3-provider'
import { CATALOG } from '../../src/shared/catalog'
import { markerKeys } from '../../src/shared/follow/check-schedule'
import { CLI_COMMAND } from '../helpers/cli'
import { startFaultProxy } from '../helpers/fault-proxy'
import { putRaw } from '../helpers/s3rver-layout'
import { S3_TEST_KEYS, startS3Server } from '../helpers/s3-server'

const BUCKET = 'bench-watch'
const DAYS = Number(process.env['BENCH_DAYS'] ?? 365)
const LATENCY_MS = Number(process.env['BENCH_LATENCY_MS'] ?? 30)
const POLL_S = Number(process.env['BENCH_POLL_S'] ?? 5)
const ROUNDS = 20
const FEW_TABLES = 2
const FULL_DAYS = 8
const V2_START = Date.UTC(2026, 10, 3, 3)
const H = 3_600_000

const iso = (t: number): string => new Date(t).toISOString()

/** A complete manifest naming the hour's delivered tables (those whose markers the bucket has). */
function manifestOf(hour: number, tables: readonly (typeof CATALOG)[number][]): string {
  return JSON.stringify({
    snapshot_date: iso(hour).slice(0, 10),
    snapshot_hour: iso(hour).slice(11, 13),
    complete: tables.length === CATALOG.length,
    tables_delivered: tables.map((t) => ({ schema: t.schema, table: t.table, mode: t.mode, files: 0, rows: 0 })),
    tables_missing: CATALOG.filter((t) => !tables.includes(t)).map((t) => `${t.schema}.${t.table}`),
    tables_pending: []
  })
}

/** The hour's markers, the manifest last (the vendor's order): [key, body]. */
function hourMarkers(hour: number, all: boolean): [string, string][] {
  const [manifest, ...successes] = markerKeys(hour)
  const tables = all ? CATALOG : CATALOG.slice(0, FEW_TABLES)
  const out: [string, string][] = successes.filter((_, i) => all || i < FEW_TABLES).map((k) => [k, ''])
  out.push([manifest as string, manifestOf(hour, tables)])
  return out
}

export async function benchWatch(): Promise<void> {
  const work = await mkdtemp(join(tmpdir(), 'ee-bench-watch-'))
  const s3 = await startS3Server({ childProcess: true })
  const proxy = await startFaultProxy(s3.endpoint)
  const heard: { at: number; body: { change?: string; hour?: string | null } }[] = []
  const receiver = createServer((req, res) => {
    let body = ''
    req.setEncoding('utf8')
    req.on('data', (c: string) => (body += c))
    req.on('end', () => {
      heard.push({ at: performance.now(), body: JSON.parse(body) as { change?: string; hour?: string | null } })
      res.writeHead(200).end('ok')
    })
  })
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r))
  let watch: ChildProcess | null = null
  try {
    const hours = DAYS * 24
    let objects = 0
    const t0 = performance.now()
    for (let i = 0; i < hours; i++) {
      const at = V2_START + i * H
      for (const [key, body] of hourMarkers(at, i >= hours - FULL_DAYS * 24)) {
        await putRaw(s3.directory, BUCKET, key, body, at + 30 * 60_000)
        objects++
      }
    }
    process.stderr.write(`watch: wrote ${objects} marker objects (${DAYS} days) in ${((performance.now() - t0) / 1000).toFixed(0)} s\n`)
    const due = V2_START + hours * H
    const now = due + 50 * 60_000
    proxy.rules.latencyMs = LATENCY_MS

    // 1. The quiet check alone.
    const provider = new S3Provider({ bucket: BUCKET, endpoint: proxy.endpoint, region: 'us-east-1', credentials: { kind: 'static', ...S3_TEST_KEYS } })
    const awaiting = markerKeys(due)
    await pollMarkers(provider, awaiting, 0, now) // the client's first connection, not a check's cost
    const requests0 = proxy.stats.requests
    const t1 = performance.now()
    for (let r = 0; r < ROUNDS; r++) {
      const { seen } = await pollMarkers(provider, awaiting, r, now)
      if (seen.size > 0) throw new Error('a quiet check saw markers')
    }
    const perCheckMs = (performance.now() - t1) / ROUNDS
    const perCheckRequests = (proxy.stats.requests - requests0) / ROUNDS
    process.stdout.write(
      `watch: quiet check on ${DAYS} days at ${LATENCY_MS} ms/request: ${perCheckRequests.toFixed(1)} requests (goal ≤ 5: ${(perCheckRequests / 5).toFixed(2)}× the goal), ` +
        `${perCheckMs.toFixed(0)} ms (goal ≤ 1000: ${(perCheckMs / 1000).toFixed(2)}× the goal)\n`
    )

    // 2. A real watch: its first check (a cold listing of the year), then quiet polls; the markers land; the webhook.
    const manifestFolder = awaiting[0]?.slice(0, awaiting[0].lastIndexOf('/') + 1) as string
    let polls: { at: number; url: string }[] = []
    proxy.rules.match = (req) => {
      polls.push({ at: performance.now(), url: decodeURIComponent(req.url ?? '') })
      return true
    }
    const args = ['watch', '--bucket', `s3://${BUCKET}`, '--endpoint', proxy.endpoint, '--region', 'us-east-1']
    args.push('--webhook', `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`, '--poll', String(POLL_S), '--now', iso(now))
    const env = { ...process.env, EXPORT_EXPLORER_CACHE: join(work, 'cache'), AWS_ACCESS_KEY_ID: S3_TEST_KEYS.accessKeyId }
    const child = spawn(process.execPath, [...CLI_COMMAND, ...args], {
      env: { ...env, AWS_SECRET_ACCESS_KEY: S3_TEST_KEYS.secretAccessKey },
      stdio: ['ignore', 'ignore', 'pipe']
    })
    watch = child
    let stderr = ''
    const tStart = performance.now()
    const requestsStart = proxy.stats.requests
    const firstCheck = new Promise<number>((resolve, reject) => {
      child.stderr?.setEncoding('utf8')
      child.stderr?.on('data', (c: string) => {
        stderr += c
        if (/next check/.test(stderr)) resolve(performance.now())
      })
      child.once('exit', (code) => reject(new Error(`watch ended (${code}) before its first check: ${stderr}`)))
    })
    const tFirst = await firstCheck
    process.stdout.write(
      `watch: first check (cold listing of ${objects} objects, ${heard.length} changes told): ${((tFirst - tStart) / 1000).toFixed(1)} s, ` +
        `${proxy.stats.requests - requestsStart} requests\n`
    )
    // Quiet polls under the real watch: its requests per poll (the manifest folder is listed at every poll).
    polls = []
    const pollStarts = (): number[] => polls.flatMap((p, i) => (p.url.includes(manifestFolder) ? [i] : []))
    while (pollStarts().length < 3) await new Promise((r) => setTimeout(r, 200))
    // The requests of two whole polls: from the first poll's manifest listing to the third's.
    const quietRequests = (pollStarts()[2] as number) - (pollStarts()[0] as number)
    const heardBefore = heard.length
    for (const [key, body] of hourMarkers(due, true)) await putRaw(s3.directory, BUCKET, key, body, due + 30 * 60_000)
    const tLand = performance.now()
    polls = []
    const requestsLand = proxy.stats.requests
    const told = (): (typeof heard)[number] | undefined => heard.slice(heardBefore).find((h) => h.body.hour === iso(due))
    while (!told()) {
      if (child.exitCode !== null) throw new Error(`watch ended (${child.exitCode}): ${stderr}`)
      await new Promise((r) => setTimeout(r, 20))
    }
    const hook = told() as (typeof heard)[number]
    const tPoll = polls.find((p) => p.url.includes(manifestFolder))?.at ?? tLand
    const total = (hook.at - tLand) / 1000
    const afterPoll = (hook.at - tPoll) / 1000
    process.stdout.write(
      `watch: quiet polls under the running watch: ${(quietRequests / 2).toFixed(1)} requests each; ` +
        `markers landed → webhook (${hook.body.change}) in ${total.toFixed(2)} s = ${((tPoll - tLand) / 1000).toFixed(2)} s to the next poll ` +
        `(interval ${POLL_S} s) + ${afterPoll.toFixed(2)} s poll → full check → webhook (goal ≤ 2 s: ${(afterPoll / 2).toFixed(2)}× the goal), ` +
        `${proxy.stats.requests - requestsLand} requests\n`
    )
  } finally {
    if (watch && watch.exitCode === null) {
      const ended = new Promise((r) => watch?.once('exit', r))
      watch.kill('SIGTERM')
      await ended
    }
    await new Promise<void>((r) => receiver.close(() => r()))
    await proxy.close()
    await s3.close()
    await rm(work, { recursive: true, force: true })
  }
}
