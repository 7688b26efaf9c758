// npm run bench -- cli
// The command's start, what a cron job or a user at a terminal pays before any answer: the packaged command
// (out/main/export-explorer.js, built by `npm run build`) against node's own start (`node -e 0`, the reference), and
// warm doctor and query runs on the demo bucket (seed 7, 8 days) with the cache filled. Median of 7 runs each.
import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { writeDemoBucket } from '../../src/main/demo-bucket/write-demo-bucket'
// @ts-expect-error: a plain ES module of the scripts folder, without types
import { currentBuiltCli } from '../../scripts/cli.mjs'

const RUNS = 7
const BIN = resolve('out/main/export-explorer.js')

/** The middle of these times (the upper one of the two middles for an even count). */
export const middle = (times: readonly number[]): number => [...times].sort((a, b) => a - b)[Math.floor(times.length / 2)] as number

/** The median wall time of `runs` runs, one after the other. */
export async function median(run: () => Promise<unknown>, runs = RUNS): Promise<number> {
  const times: number[] = []
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now()
    await run()
    times.push(performance.now() - t0)
  }
  return middle(times)
}

export async function benchCli(): Promise<void> {
  if (!existsSync(BIN) || !currentBuiltCli()) throw new Error(`${BIN} is missing or older than its sources: run npm run build first`)
  const work = await mkdtemp(join(tmpdir(), 'ee-bench-cli-'))
  try {
    const demo = await writeDemoBucket(join(work, 'demo'), { seed: 7, days: 8, scale: 1, v1Days: 5 })
    const env = { ...process.env, EXPORT_EXPLORER_CACHE: join(work, 'cache') }
    const node = (args: string[]) => promisify(execFile)(process.execPath, args, { env, maxBuffer: 64 * 1024 * 1024 }).catch((e: { code?: number }) => e)
    const bucket = ['--bucket', demo.bucketDir, '--now', demo.plan.expected.now]
    // Fill the cache once (listing, frames, the mirror) so the runs below are warm.
    await node([BIN, 'query', 'SELECT count(*) FROM claudia_messages', ...bucket])
    const reference = await median(() => node(['-e', '0']))
    const help = await median(() => node([BIN, '--help']))
    const doctor = await median(() => node([BIN, 'doctor', '--json', ...bucket]))
    const query = await median(() => node([BIN, 'query', 'SELECT count(*) FROM claudia_messages', ...bucket]))
    const launcher = await median(() => node(['scripts/cli.mjs', '--help']))
    const line = (what: string, ms: number): string => `  ${what.padEnd(58)} ${(ms / 1000).toFixed(2)} s  ${(ms / reference).toFixed(1)}× node's start`
    console.log(
      [
        `CLI start (median of ${RUNS}; node -e 0 = ${(reference / 1000).toFixed(2)} s here)`,
        line('export-explorer --help', help),
        line('scripts/cli.mjs --help (npm run cli without npm)', launcher),
        line('doctor --json, demo bucket, warm cache', doctor),
        line('query "SELECT count(*) FROM claudia_messages", warm', query)
      ].join('\n')
    )
  } finally {
    await rm(work, { recursive: true, force: true })
  }
}
