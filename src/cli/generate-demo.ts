// npm run demo:generate -- --out DIR [--seed N] [--days N] [--scale N] [--start ISO] [--anomalies] [--if-missing]
// Writes a synthetic bucket (DIR/bucket) and the truth it planted (DIR/expected.json).
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { DEFAULT_DEMO_OPTIONS } from '../main/demo-bucket/demo-plan'
import { writeDemoBucket } from '../main/demo-bucket/write-demo-bucket'
import { errorMessage } from '../shared/error-message'

const usage =
  "usage: npm run demo:generate -- --out DIR [--seed N] [--days N (>= 8)] [--scale N] [--start ISO (the export's first delivery, a v2 hour such as 2026-11-03T14:00:00Z)] [--anomalies (plant a shrunken copy, an hour with no rows and a dropped column for the monitors)] [--if-missing]"

async function main(): Promise<number> {
  let values
  try {
    ;({ values } = parseArgs({
      options: {
        out: { type: 'string' },
        seed: { type: 'string' },
        days: { type: 'string' },
        scale: { type: 'string' },
        start: { type: 'string' },
        'if-missing': { type: 'boolean' },
        anomalies: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' }
      }
    }))
  } catch (e) {
    process.stderr.write(`${errorMessage(e)}\n${usage}\n`)
    return 2
  }
  if (values.help) {
    process.stdout.write(`${usage}\n`)
    return 0
  }
  if (!values.out) {
    process.stderr.write(`--out is required\n${usage}\n`)
    return 2
  }
  const num = (name: string, raw: string | undefined, fallback: number): number => {
    if (raw === undefined) return fallback
    const n = Number(raw)
    if (!Number.isFinite(n)) throw new Error(`--${name} must be a number, not "${raw}"`)
    return n
  }
  const instant = (name: string, raw: string): number => {
    const t = Date.parse(raw)
    if (!/^\d{4}-\d{2}-\d{2}T\d{2}:00(:00)?(\.0+)?Z$/.test(raw) || Number.isNaN(t))
      throw new Error(`--${name} must be a whole UTC hour such as 2026-11-03T14:00:00Z, not "${raw}"`)
    return t
  }
  if (values['if-missing'] && existsSync(join(values.out, 'expected.json'))) {
    process.stderr.write(`demo bucket already at ${values.out}; leaving it\n`)
    return 0
  }
  const options = {
    ...DEFAULT_DEMO_OPTIONS,
    seed: num('seed', values.seed, DEFAULT_DEMO_OPTIONS.seed),
    days: num('days', values.days, DEFAULT_DEMO_OPTIONS.days),
    scale: num('scale', values.scale, DEFAULT_DEMO_OPTIONS.scale),
    ...(values.start !== undefined ? { start: instant('start', values.start) } : {}),
    ...(values.anomalies ? { anomalies: true } : {})
  }
  const started = Date.now()
  const tty = process.stderr.isTTY
  const written = await writeDemoBucket(values.out, options, (done, total) => {
    if (tty && (done % 50 === 0 || done === total)) process.stderr.write(`\rwriting folders ${done}/${total}`)
  })
  if (tty) process.stderr.write('\n')
  const seconds = ((Date.now() - started) / 1000).toFixed(1)
  process.stdout.write(
    `bucket:   ${written.bucketDir}\nexpected: ${written.expectedPath}\nfolders:  ${written.plan.folders.length}, evaluated as of ${written.plan.expected.now} (${seconds}s)\n`
  )
  return 0
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    process.stderr.write(`demo:generate failed: ${errorMessage(e)}\n`)
    process.exit(1)
  }
)
