// `watch`, run as a user would (the tool as a child process): a webhook receiver on 127.0.0.1 and a command target
// told each incident change once, across restarts; a dead webhook said and passed over; a corrupt state file kept
// aside; a running watch that sees the due hour land (only its prefixes polled) and ends cleanly on SIGTERM.
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { cp, mkdir, mkdtemp, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, relative, sep } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseKey } from '../../src/shared/bucket-key'
import { markerPrefixes } from '../../src/shared/follow/check-schedule'
import type { IncidentPayload } from '../../src/shared/follow/incident-payload'
import { CLI_COMMAND, runCli } from '../helpers/cli'
import { copyPaths } from '../helpers/copy-tree'
import { type Demo, readDemo } from '../helpers/demo'
import { startGcsServer } from '../helpers/gcs-server'
import { S3_TEST_KEYS, startS3Server } from '../helpers/s3-server'
import { RECEIVER_TOKEN, type WebhookReceiver, closedPort, startWebhookReceiver } from '../helpers/webhook-receiver'

let demo: Demo
const caches: string[] = []
const receivers: WebhookReceiver[] = []

beforeAll(async () => {
  // The run's shared demo, read in place: each test copies what it changes.
  demo = await readDemo({ days: 8 })
}, 300_000)
afterAll(async () => {
  await Promise.all(receivers.map((r) => r.close()))
  await demo?.cleanup()
  await Promise.all(caches.map((c) => rm(c, { recursive: true, force: true })))
})

const newCache = async (): Promise<string> => {
  const c = await mkdtemp(join(tmpdir(), 'ee-watch-'))
  caches.push(c)
  return c
}

/** The file's receivers, closed after all. */
const startReceiver = async (): Promise<WebhookReceiver> => {
  const r = await startWebhookReceiver()
  receivers.push(r)
  return r
}

const NOW = (): string => demo.expected.now
/** The command target: appends its stdin (one JSON line) and EE_KIND/EE_HOUR to a file. */
const execTo = (file: string): string =>
  `node -e "let s='';process.stdin.on('data',d=>s+=d).on('end',()=>require('fs').appendFileSync(process.argv[1],JSON.stringify({body:JSON.parse(s),kind:process.env.EE_KIND,hour:process.env.EE_HOUR,status:process.env.EE_STATUS,tables:process.env.EE_TABLES})+'\\n'))" ${file}`
const execLines = async (file: string): Promise<{ body: IncidentPayload; kind: string; hour: string; status: string; tables: string }[]> =>
  existsSync(file)
    ? (await readFile(file, 'utf8'))
        .trim()
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l))
    : []

describe('watch --once', () => {
  // The bucket these read (none writes it): the last day with its due hour missing, so an incident is always open.
  let bucket: string
  beforeAll(async () => {
    bucket = (await bucketWithoutDueHour(await newCache())).bucket
  })

  it('tells the webhook and the command each open incident once; a restart repeats nothing; exit code as doctor', async () => {
    const cache = await newCache()
    const hook = await startReceiver()
    const out = join(cache, 'exec.jsonl')
    const args = ['watch', '--bucket', bucket, '--now', NOW(), '--once', '--webhook', hook.url, '--exec', execTo(out)]
    const first = await runCli(args, cache)
    expect(first.stderr).toMatch(/checked \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC: \d+ changes told/)
    expect(first.code).toBe(1)
    expect(hook.bodies.length).toBeGreaterThan(0)
    expect(hook.bodies.every((b) => b.change === 'opened' && b.status === 'open' && typeof b.text === 'string' && b.text.length > 0)).toBe(true)
    expect(new Set(hook.bodies.map((b) => b.fingerprint)).size).toBe(hook.bodies.length)
    const missing = hook.bodies.find((b) => b.kind === 'missing')
    expect(missing?.tables.length).toBeGreaterThan(0)
    expect(missing?.headline?.hour).toBeTruthy()
    const lines = await execLines(out)
    expect(lines.map((l) => l.body.fingerprint)).toEqual(hook.bodies.map((b) => b.fingerprint))
    expect(lines[0]?.kind).toBe(lines[0]?.body.kind)
    expect(lines[0]?.tables).toBe(lines[0]?.body.tables.join(','))
    // The state file: private, and no webhook URL (a secret) in it.
    const [stateName] = await readdir(join(cache, 'state'))
    const stateText = await readFile(join(cache, 'state', stateName as string), 'utf8')
    expect(stateText).not.toContain(RECEIVER_TOKEN)
    const { mode } = await stat(join(cache, 'state', stateName as string))
    expect(mode & 0o777).toBe(0o600)

    const told = hook.bodies.length
    const again = await runCli(args, cache)
    expect(again.code).toBe(1)
    expect(again.stderr).toContain(': 0 changes told')
    expect(hook.bodies.length).toBe(told)
    expect((await execLines(out)).length).toBe(told)
  }, 120_000)

  it('a dead webhook: retried, said with its origin and path only, and the command is still told', async () => {
    const cache = await newCache()
    const out = join(cache, 'exec.jsonl')
    const dead = `http://127.0.0.1:${await closedPort()}/hooks/dead?token=${RECEIVER_TOKEN}`
    const r = await runCli(['watch', '--bucket', bucket, '--now', NOW(), '--once', '--webhook', dead, '--exec', execTo(out)], cache, {
      EXPORT_EXPLORER_WEBHOOK_RETRIES: '2'
    })
    expect(r.code).toBe(1)
    expect(r.stderr).toMatch(/the webhook http:\/\/127\.0\.0\.1:\d+\/hooks\/dead could not be told after 3 attempts: ECONNREFUSED/)
    expect(r.stderr).not.toContain(RECEIVER_TOKEN)
    expect((await execLines(out)).length).toBeGreaterThan(0)
  }, 120_000)

  it('a command that fails is told again next time', async () => {
    const cache = await newCache()
    const out = join(cache, 'exec.jsonl')
    const flag = join(cache, 'fail')
    await writeFile(flag, '')
    // Fails while the flag file exists.
    const cmd = `node -e "if(require('fs').existsSync(process.argv[1]))process.exit(3)" ${flag} && ${execTo(out)}`
    const args = ['watch', '--bucket', bucket, '--now', NOW(), '--once', '--exec', cmd]
    const failed = await runCli(args, cache)
    expect(failed.stderr).toMatch(/ended with exit code 3; the watch goes on and tells it again at the next check/)
    expect(await execLines(out)).toEqual([])
    await rm(flag)
    const ok = await runCli(args, cache)
    expect(ok.stderr).not.toContain('ended with exit code')
    expect((await execLines(out)).length).toBeGreaterThan(0)
  }, 120_000)

  it('a corrupt state file is kept aside, said, and the watch starts afresh', async () => {
    const cache = await newCache()
    const out = join(cache, 'exec.jsonl')
    const args = ['watch', '--bucket', bucket, '--now', NOW(), '--once', '--exec', execTo(out)]
    await runCli(args, cache)
    const told = (await execLines(out)).length
    const [stateName] = await readdir(join(cache, 'state'))
    await writeFile(join(cache, 'state', stateName as string), '{"known": {"cut short')
    const r = await runCli(args, cache)
    expect(r.stderr).toMatch(/could not be read \(not valid JSON/)
    expect(r.stderr).toMatch(/was kept as watch-[0-9a-f]+\.json\.corrupt-/)
    expect((await readdir(join(cache, 'state'))).some((n) => n.includes('.corrupt-'))).toBe(true)
    expect((await execLines(out)).length).toBe(2 * told)
  }, 120_000)
})

/**
 * The bucket's last day and the hours since (its v2 files delivered from the day before "now"), the due hour taken out: its
 * folders and manifest put aside, to land while the watch runs. A day of history is all a due hour needs (its tables
 * are the ones the hours before delivered); the whole 8 days cost a running watch over S3 or GCS ~10 s more to list.
 */
async function bucketWithoutDueHour(cache: string): Promise<{ bucket: string; aside: string; moved: string[]; due: number }> {
  const bucket = join(cache, 'bucket')
  const since = new Date(Date.parse(NOW()) - 86_400_000).toISOString().slice(0, 10)
  // Each file's delivery date as the rules read its key (an initial load has none: left out).
  const dateOf = (key: string): string | undefined => {
    const r = parseKey(key)
    if (r.kind === 'manifest') return r.date
    if (!('folder' in r)) return undefined
    const p = r.folder.partition
    return p.kind === 'etl' && p.initial ? undefined : p.date
  }
  const recent = (await readdir(join(demo.bucketDir, 'v2'), { recursive: true, withFileTypes: true }))
    .filter((e) => e.isFile())
    .map((e) => relative(demo.bucketDir, join(e.parentPath, e.name)).split(sep).join('/'))
    .filter((key) => (dateOf(key) ?? '') >= since)
  expect(recent.length).toBeGreaterThan(10)
  await copyPaths(demo.bucketDir, bucket, recent)
  const due = Math.floor((Date.parse(NOW()) - 40 * 60_000) / 3_600_000) * 3_600_000
  const aside = join(cache, 'aside')
  const moved: string[] = []
  for (const prefix of markerPrefixes(due)) {
    if (!existsSync(join(bucket, prefix))) continue
    await mkdir(join(aside, prefix, '..'), { recursive: true })
    await rename(join(bucket, prefix), join(aside, prefix))
    moved.push(prefix)
  }
  return { bucket, aside, moved, due }
}

/** Runs a watch, waits for its first check, lands the due hour, and checks the change is told once; then SIGTERM. */
/** The files of the hour set aside, as the vendor writes them: data files, then _SUCCESS, then the manifest last. */
async function landingOrder(aside: string, moved: readonly string[]): Promise<{ key: string; path: string }[]> {
  const files: { key: string; path: string }[] = []
  for (const prefix of moved)
    for (const name of await readdir(join(aside, prefix), { recursive: true }))
      if (!(await stat(join(aside, prefix, name))).isDirectory()) files.push({ key: `${prefix}${name}`, path: join(aside, prefix, name) })
  const rank = (k: string): number => (k.endsWith('manifest.json') ? 2 : k.endsWith('_SUCCESS') ? 1 : 0)
  return files.sort((a, b) => rank(a.key) - rank(b.key))
}

async function watchSeesTheHourLand(cache: string, bucketArgs: string[], env: Record<string, string>, due: number, land: () => Promise<void>): Promise<void> {
  const hook = await startReceiver()
  const child = spawn(process.execPath, [...CLI_COMMAND, 'watch', ...bucketArgs, '--now', NOW(), '--poll', '1', '--webhook', hook.url], {
    env: { ...process.env, ...env, EXPORT_EXPLORER_CACHE: cache },
    stdio: ['ignore', 'pipe', 'pipe']
  })
  let stderr = ''
  const lineWaiters: { re: RegExp; resolve: () => void }[] = []
  child.stderr.on('data', (d: Buffer) => {
    stderr += d.toString()
    for (const w of [...lineWaiters])
      if (w.re.test(stderr)) {
        lineWaiters.splice(lineWaiters.indexOf(w), 1)
        w.resolve()
      }
  })
  const stderrMatches = (re: RegExp): Promise<void> => (re.test(stderr) ? Promise.resolve() : new Promise((resolve) => lineWaiters.push({ re, resolve })))
  const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)))
  try {
    const dueId = `missing|${due}`
    await hook.waitFor((b) => b.some((x) => x.id === dueId && x.change === 'opened'))
    await stderrMatches(/next check \d{2}:\d{2}/)
    const before = hook.bodies.find((x) => x.id === dueId && x.change === 'opened') as IncidentPayload
    await land()
    await hook.waitFor((b) => b.some((x) => x.id === dueId && x.change !== 'opened'))
    const after = hook.bodies.find((x) => x.id === dueId && x.change !== 'opened') as IncidentPayload
    expect(after.tables.length).toBeLessThan(before.tables.length)
    // A second check (its line follows what it told), started by the markers landing, not by a due time (--now stands still).
    await stderrMatches(/checked [^\n]*\n[\s\S]*checked /)
    expect(new Set(hook.bodies.map((b) => b.fingerprint)).size).toBe(hook.bodies.length)
    child.kill('SIGTERM')
    expect(await exited).toBe(1)
  } finally {
    child.kill('SIGKILL')
  }
}

describe('watch, running', () => {
  it('a local folder: sees the due hour land by polling its prefixes, tells the change, and ends on SIGTERM', async () => {
    const cache = await newCache()
    const { bucket, aside, moved, due } = await bucketWithoutDueHour(cache)
    expect(moved.length).toBeGreaterThan(1)
    await watchSeesTheHourLand(cache, ['--bucket', bucket], {}, due, async () => {
      for (const prefix of moved) await cp(join(aside, prefix), join(bucket, prefix), { recursive: true, preserveTimestamps: true })
    })
  }, 180_000)

  it('the S3 server: the same hour lands, uploaded while the watch runs', async () => {
    const cache = await newCache()
    const { bucket, aside, moved, due } = await bucketWithoutDueHour(cache)
    const s3 = await startS3Server()
    try {
      await s3.seed('watch-bucket', bucket, 'export/')
      const env = { AWS_ACCESS_KEY_ID: S3_TEST_KEYS.accessKeyId, AWS_SECRET_ACCESS_KEY: S3_TEST_KEYS.secretAccessKey, AWS_REGION: 'us-east-1' }
      await watchSeesTheHourLand(cache, ['--bucket', 's3://watch-bucket/export', '--endpoint', s3.endpoint], env, due, async () => {
        for (const f of await landingOrder(aside, moved)) await s3.put('watch-bucket', `export/${f.key}`, await readFile(f.path), (await stat(f.path)).mtime)
      })
    } finally {
      await s3.close()
    }
  }, 240_000)

  it('the GCS emulator: the same hour lands, uploaded while the watch runs', async () => {
    const cache = await newCache()
    const { bucket, aside, moved, due } = await bucketWithoutDueHour(cache)
    const gcs = await startGcsServer()
    try {
      await gcs.seed('watch-gcs', bucket, 'export/')
      await watchSeesTheHourLand(cache, ['--bucket', 'gs://watch-gcs/export', '--endpoint', gcs.endpoint], {}, due, async () => {
        for (const f of await landingOrder(aside, moved)) await gcs.put('watch-gcs', `export/${f.key}`, await readFile(f.path), (await stat(f.path)).mtime)
      })
    } finally {
      await gcs.close()
    }
  }, 240_000)
})
