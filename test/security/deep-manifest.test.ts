// Attack: a manifest nested 100,000 levels deep (about 200 KB). JSON.parse takes it, but what is kept of it (an
// unknown field) overflowed JSON.stringify when the web host encoded the `hour` answer, after the headers: the
// client got an empty reply; nested inside a table list it overflowed the parser's own warning and the CLI crashed.
// Now the parser refuses it before JSON.parse (malformed, with a warning), and an answer that cannot be encoded is a
// 500 with words.
import { mkdtemp, readdir, rm, stat, utimes, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { dispatch, encodeReply } from '../../src/main/api-handlers'
import { MemorySecretStore } from '../../src/main/connections/secret-store'
import { Workspace } from '../../src/main/workspace/workspace'
import type { HourDetail } from '../../src/shared/api/views'
import { MAX_MANIFEST_DEPTH, nestingDepth, parseManifest } from '../../src/shared/manifest'
import { runCli } from '../helpers/cli'
import { copyTree } from '../helpers/copy-tree'
import { type Demo, readDemo } from '../helpers/demo'

const LEVELS = 100_000
const deep = `${'['.repeat(LEVELS)}${']'.repeat(LEVELS)}`

let demo: Demo
let work: string
/** The planted hours: an unknown field 100,000 deep, and a table list 100,000 deep. */
const planted: { key: string; date: string; hour: string; text: string }[] = []

beforeAll(async () => {
  demo = await readDemo({ days: 8 })
  work = await mkdtemp(join(tmpdir(), 'ee-deep-manifest-'))
  await copyTree(demo.bucketDir, join(work, 'bucket'))
  const root = join(work, 'bucket', 'v2', '_manifests')
  const dates = (await readdir(root)).filter((d) => d.startsWith('snapshot_date=')).sort()
  const date = dates[dates.length - 2] as string
  const hours = (await readdir(join(root, date))).sort()
  for (const [i, field] of ['x_vendor_note', 'tables_delivered'].entries()) {
    const hourDir = hours[i] as string
    const file = join(root, date, hourDir, 'manifest.json')
    const d = date.slice('snapshot_date='.length)
    const h = hourDir.slice('snapshot_hour='.length)
    const text = `{"snapshot_date":"${d}","snapshot_hour":"${h}","complete":true,"${field}":${deep}}`
    const was = await stat(file)
    await writeFile(file, text)
    // Written when the original was: an object newer than the demo's "now" does not exist yet.
    await utimes(file, was.atime, was.mtime)
    planted.push({ key: `v2/_manifests/${date}/${hourDir}/manifest.json`, date: d, hour: h, text })
  }
}, 300_000)
afterAll(async () => {
  await demo?.cleanup()
  await rm(work, { recursive: true, force: true })
})

describe('a manifest nested 100,000 levels deep', () => {
  it('is malformed with a warning that says why, in the pure parser (no stack overflow)', () => {
    for (const p of planted) {
      expect(p.text.length).toBeGreaterThan(200_000)
      const r = parseManifest(p.text, { version: 'v2', date: p.date, hour: p.hour })
      expect(r.state).toBe('malformed')
      expect(r.warnings.join(' ')).toContain(`nested more than ${MAX_MANIFEST_DEPTH} levels deep`)
    }
    // Brackets inside strings are text, not nesting: a manifest quoting them is still read.
    const quoted = `{"snapshot_date":"2026-11-03","snapshot_hour":"03","complete":true,"note":"${'['.repeat(1000)}\\"{"}`
    expect(nestingDepth(quoted, MAX_MANIFEST_DEPTH)).toBe(1)
    expect(parseManifest(quoted, { version: 'v2', date: '2026-11-03', hour: '03' }).state).toBe('complete')
  })

  it("gives the web host's hour answer as JSON with the warning, not an empty reply", async () => {
    const w = new Workspace({
      dataDir: join(work, 'data'),
      secrets: new MemorySecretStore(),
      demo: { bucketDir: join(work, 'bucket'), now: Date.parse(demo.expected.now) },
      autoRefresh: false
    })
    try {
      for (const p of planted) {
        const start = `${p.date}T${p.hour}:00:00.000Z`
        const { status, body } = encodeReply('hour', await dispatch(w, 'hour', { start }))
        expect([p.key, status]).toEqual([p.key, 200])
        const answer = (JSON.parse(body) as { result: HourDetail }).result
        expect(answer.manifest?.key).toBe(p.key)
        expect(answer.manifest?.state).toBe('malformed')
        expect(answer.manifest?.parsed).toBeNull()
        expect(answer.manifest?.warnings.join(' ')).toContain('levels deep')
        // The raw text is still there to show (a string: it encodes at any depth).
        expect(answer.manifest?.raw?.length).toBe(p.text.length)
      }
    } finally {
      await w.dispose()
    }
  }, 120_000)

  it('an answer that JSON cannot encode becomes a 500 with words', () => {
    let nested: unknown = 1
    for (let i = 0; i < LEVELS; i++) nested = [nested]
    const { status, body } = encodeReply('hour', { ok: true, result: { nested } })
    expect(status).toBe(500)
    expect((JSON.parse(body) as { error: string }).error).toMatch(/answer to hour could not be encoded/)
  })

  it('the CLI reports it as manifest_malformed and does not crash', async () => {
    const r = await runCli(
      ['doctor', '--bucket', join(work, 'bucket'), '--now', demo.expected.now, '--json', '--since', planted[0]!.date],
      join(work, 'cli-cache')
    )
    expect(r.stderr).not.toMatch(/RangeError|Maximum call stack/)
    const out = JSON.parse(r.stdout) as { findings: { kind: string; key: string; message: string }[] }
    for (const p of planted) {
      const f = out.findings.find((x) => x.key === p.key)
      expect([p.key, f?.kind]).toEqual([p.key, 'manifest_malformed'])
      expect(f?.message).toContain('levels deep')
    }
  }, 120_000)
})
