// The command line read before anything heavy loads: what it accepts, what it refuses, and the range each
// command judges. Runs without a bucket: these are the checks that exit 2 with the usage.
import { describe, expect, it } from 'vitest'
import { UsageError, parseCommandLine } from '../../src/cli/cli-request'

const NOW = Date.parse('2026-11-13T02:50:00Z')
const parse = (...argv: string[]) => parseCommandLine(argv, () => NOW)

describe('parseCommandLine', () => {
  it('answers --help and no command with the usage, exit 0 and 2', () => {
    expect(parse('--help')).toEqual({ help: true, exitCode: 0 })
    expect(parse()).toEqual({ help: true, exitCode: 2 })
  })

  it('refuses an unknown command, a query without SQL, a misnamed export and a bad instant', () => {
    expect(() => parse('nope', '--bucket', '/b')).toThrow(/unknown command "nope"/)
    expect(() => parse('query', '--bucket', '/b')).toThrow(/query needs the SQL/)
    expect(() => parse('export', '--table', 'claudia_csat', '--out', 'x.csv', '--format', 'parquet', '--bucket', '/b')).toThrow(UsageError)
    expect(() => parse('export', '--table', 'no_such_table', '--out', 'x.csv', '--bucket', '/b')).toThrow(/not a table of the catalog/)
    expect(() => parse('doctor', '--bucket', '/b', '--now', 'yesterday')).toThrow(/--now must be an ISO-8601 instant/)
    expect(() => parse('doctor', '--bucket', '/b', '--since', '11/01/2026')).toThrow(/--since must be a date/)
    expect(() => parse('status')).toThrow(/--bucket is required/)
  })

  it('takes --since-last with one table and a cursor name; watch --export-dir with its table and format', () => {
    const r = parse('export', '--table', 'claudia_messages', '--where', 'tokens > 3', '--since-last', '--cursor', 'hourly', '--out', 'x.csv', '--bucket', '/b')
    expect(r.help === false && r.sinceLast).toMatchObject({ cursor: 'hourly', where: 'tokens > 3', table: { table: 'claudia_messages' } })
    expect(() => parse('export', '--sql', 'SELECT 1', '--since-last', '--out', 'x.csv', '--bucket', '/b')).toThrow(/--since-last needs --table/)
    expect(() => parse('export', '--table', 'claudia_csat', '--since-last', '--as-of', '2026-11-12T00:00:00Z', '--out', 'x.csv', '--bucket', '/b')).toThrow(
      /leave --as-of out/
    )
    expect(() => parse('export', '--table', 'claudia_csat', '--cursor', 'c', '--out', 'x.csv', '--bucket', '/b')).toThrow(/goes with export --since-last/)
    const w = parse('watch', '--export-dir', 'd', '--table', 'claudia_csat', '--format', 'parquet', '--bucket', '/b')
    expect(w.help === false && w.watch?.export).toMatchObject({ dir: 'd', format: 'parquet', table: { table: 'claudia_csat' } })
    expect(() => parse('watch', '--export-dir', 'd', '--bucket', '/b')).toThrow(/--export-dir needs --table/)
    expect(() => parse('watch', '--export-dir', 'd', '--table', 'claudia_csat', '--format', 'json', '--bucket', '/b')).toThrow(/--format is csv, parquet/)
  })

  it('refuses an engine that does not fit the bucket before opening it', () => {
    expect(() => parse('ddl', '--engine', 'athena', '--bucket', 'gs://vendor/exports')).toThrow(UsageError)
    expect(() => parse('ddl', '--bucket', '/b')).toThrow(/--engine athena/)
  })

  it('builds the export statement from --table and --where, and takes its format from the name', () => {
    const r = parse('export', '--table', 'claudia_csat', '--where', 'score > 3', '--out', 'x.parquet', '--bucket', '/b')
    if (r.help) throw new Error('not a request')
    expect(r.sql).toBe('SELECT * FROM "datamart_claudia"."claudia_csat" WHERE score > 3')
    expect(r.format).toBe('parquet')
    expect(r.conn.provider).toBe('local')
  })

  it('judges the last 7 days in doctor and the last 48 hours in timeline, as of --now', () => {
    const d = parse('doctor', '--bucket', '/b')
    const t = parse('timeline', '--bucket', '/b', '--now', '2026-11-10T05:10:00Z')
    if (d.help || t.help) throw new Error('not a request')
    expect(new Date(d.since).toISOString()).toBe('2026-11-06T02:00:00.000Z')
    expect(new Date(t.since).toISOString()).toBe('2026-11-08T06:00:00.000Z')
    expect(t.until).toBe(Date.parse('2026-11-10T05:10:00Z'))
    const ranged = parse('timeline', '--bucket', 's3://vendor/exports', '--from', '2026-11-01', '--to', '2026-11-02')
    if (ranged.help) throw new Error('not a request')
    expect([new Date(ranged.since).toISOString(), new Date(ranged.until).toISOString()]).toEqual(['2026-11-01T00:00:00.000Z', '2026-11-02T23:00:00.000Z'])
    expect(ranged.conn.provider).toBe('s3')
  })

  it('watch: needs a target, checks each webhook URL and the poll interval; the range of doctor', () => {
    expect(() => parse('watch', '--bucket', '/b')).toThrow(/watch needs a target/)
    expect(() => parse('watch', '--bucket', '/b', '--webhook', 'ftp://x/y')).toThrow(/--webhook must be an http\(s\) URL/)
    expect(() => parse('watch', '--bucket', '/b', '--exec', ' ')).toThrow(/--exec needs a command/)
    expect(() => parse('watch', '--bucket', '/b', '--exec', 'true', '--poll', '0')).toThrow(/--poll is a number of seconds/)
    const r = parse('watch', '--bucket', '/b', '--webhook', 'https://h/a', '--webhook', 'http://127.0.0.1:9/b', '--exec', 'cat', '--once', '--poll', '5')
    if (r.help) throw new Error('not a request')
    expect(r.watch).toEqual({ webhooks: ['https://h/a', 'http://127.0.0.1:9/b'], exec: 'cat', once: true, pollMs: 5000, export: null })
    expect(r.since).toBe(Math.floor((NOW - 7 * 24 * 3_600_000) / 3_600_000) * 3_600_000)
    const d = parse('watch', '--bucket', '/b', '--exec', 'cat')
    if (d.help) throw new Error('not a request')
    expect(d.watch).toMatchObject({ webhooks: [], once: false, pollMs: 60_000 })
  })

  it("--timeout: the idle timeout of every request, in seconds from 1 to 600; absent, the providers' default", () => {
    expect(() => parse('status', '--bucket', '/b', '--timeout', '0')).toThrow(/--timeout is a number of seconds from 1 to 600/)
    expect(() => parse('status', '--bucket', '/b', '--timeout', 'soon')).toThrow(/--timeout is a number of seconds/)
    const r = parse('status', '--bucket', '/b', '--timeout', '2.5')
    if (r.help) throw new Error('not a request')
    expect(r.idleMs).toBe(2500)
    const d = parse('status', '--bucket', '/b')
    if (d.help) throw new Error('not a request')
    expect(d.idleMs).toBeUndefined()
  })
})
