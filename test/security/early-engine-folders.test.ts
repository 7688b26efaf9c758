// The CLI starts DuckDB before the bucket's refresh (src/cli/commands/engine-commands.ts, startEngineEarly). That
// engine must read only the folders the command's tables need, as one started after the refresh did: a statement
// that names no parts table is not allowed the mirror's folder, one that names one is (its views read the segments).
import { mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { quoteLiteral } from '../../src/shared/sql-quote'
import { runCli } from '../helpers/cli'
import { type Demo, readDemo } from '../helpers/demo'

let demo: Demo
let cache: string

beforeAll(async () => {
  demo = await readDemo({ days: 8 })
  cache = await mkdtemp(join(tmpdir(), 'ee-early-engine-'))
}, 300_000)
afterAll(async () => {
  await demo?.cleanup()
  await rm(cache, { recursive: true, force: true })
})

describe("the CLI's engine started before the refresh", () => {
  it("reads the mirror's segments only for a statement naming a parts table", async () => {
    const bucket = ['--bucket', demo.bucketDir, '--now', demo.expected.now, '--format', 'json']
    // A first query builds the mirror of claudia_messages.
    const built = await runCli(['query', 'SELECT count(*) AS n FROM claudia_messages', ...bucket], cache)
    expect(built.code).toBe(0)
    const [id] = await readdir(join(cache, 'mirror'))
    const segments = join(cache, 'mirror', id as string, 'segments')
    const tables = await readdir(segments)
    expect(tables.length).toBeGreaterThan(0)
    const direct = `SELECT count(*) AS n FROM read_parquet(${quoteLiteral(join(segments, '*', '*.parquet'))})`

    // Naming only a full table: the mirror's folder is not the engine's to read.
    const refused = await runCli(['query', `${direct} UNION ALL SELECT count(*) FROM claudia_csat`, ...bucket], cache)
    expect(refused.code).toBe(1)
    expect(refused.stderr).toMatch(/Permission Error/)
    expect(refused.stdout).toBe('')

    // Naming a parts table: its views read the segments, so the folder is allowed.
    const allowed = await runCli(['query', `${direct} UNION ALL SELECT count(*) FROM claudia_messages`, ...bucket], cache)
    expect(allowed.code).toBe(0)
    expect((JSON.parse(allowed.stdout) as { n: number }[]).length).toBe(2)
    // No engine is left behind by either.
    expect(await readdir(join(cache, 'engine'))).toEqual([])
  }, 300_000)

  it('is closed when the command fails after the mirror was brought up to date, before any opening took it', async () => {
    const bucket = ['--bucket', demo.bucketDir, '--now', demo.expected.now]
    const exported = (where: string, out: string) =>
      runCli(['export', '--table', 'claudia_messages', '--since-last', '--cursor', 'c1', '--where', where, '--out', join(cache, out), ...bucket], cache)
    expect((await exported('true', 'first.csv')).code).toBe(0)
    // The same cursor with another filter is refused once the mirror's refresh (which the engine was lent to) is done.
    const refused = await exported('false', 'second.csv')
    expect(refused.code).toBe(2)
    expect(refused.stderr).toMatch(/cursor/)
    expect(await readdir(join(cache, 'engine'))).toEqual([])
  }, 300_000)
})
