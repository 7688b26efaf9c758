// A rebuild of the mirror under a reader: the query pane's DuckDB-WASM reads the mirror's files through the byte server
// with views it opened before (and an export's native engine with its own), so the files a rebuild replaces stay
// served, byte for byte, until the build after it; then they are removed and no longer served.
import { cp, readdir, readFile, utimes, writeFile } from 'node:fs/promises'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MIRROR_KEY_PREFIX } from '../../src/shared/mirror-sql'
import { type MirrorFixture, startMirrorFixture } from '../helpers/mirror-fixture'

let f: MirrorFixture
const now = (): number => Date.parse(f.demo.expected.now)

beforeAll(async () => {
  f = await startMirrorFixture()
}, 300_000)
afterAll(async () => {
  await f?.close()
})

/**
 * claudia_messages' newest hour of the demo's last day delivered again at `at`, its file replaced by the day's `n`th
 * hour's: the hour's segment is rebuilt and the table's superseded list made anew (a new hour replaces no file: its
 * segment and its list's new versions are files of their own).
 */
async function redeliver(at: Date, n: number): Promise<void> {
  const day = join(f.bucket, 'v2/datamart_claudia/claudia_messages', `etl_date=${f.demo.expected.now.slice(0, 10)}`)
  const hours = (await readdir(day)).sort()
  const folder = join(day, hours[hours.length - 1]!)
  await cp(join(day, hours[n]!, 'part-00000.parquet'), join(folder, 'part-00000.parquet'))
  await writeFile(join(folder, '_SUCCESS'), '')
  for (const name of ['part-00000.parquet', '_SUCCESS']) await utimes(join(folder, name), at, at)
}

const fileOf = (key: string): string => join(f.mirrorDir, key.slice(MIRROR_KEY_PREFIX.length))

describe('a rebuild under a reader', () => {
  it('serves the files it replaced, byte for byte, until the build after; then removes them', async () => {
    const first = await f.buildAt(now())
    const before = new Map<string, Buffer>()
    for (const k of first) before.set(k, Buffer.from(await (await f.get(k)).arrayBuffer()))

    await redeliver(new Date(now() + 10 * 60_000), 0)
    const second = await f.buildAt(now() + 50 * 60_000)
    const replaced = first.filter((k) => !second.includes(k))
    // At least the hour's segment and claudia_messages' list of superseded versions.
    expect(replaced.length).toBeGreaterThan(1)
    for (const k of first) {
      const r = await f.get(k)
      expect([k, r.status]).toEqual([k, 206])
      expect(Buffer.from(await r.arrayBuffer()).equals(before.get(k)!), k).toBe(true)
    }

    await redeliver(new Date(now() + 70 * 60_000), 1)
    const third = await f.buildAt(now() + 110 * 60_000)
    const gone = replaced.filter((x) => !third.includes(x))
    expect(gone.length).toBeGreaterThan(0)
    for (const k of gone) {
      expect([k, (await f.get(k)).status]).toEqual([k, 404])
      expect(existsSync(fileOf(k)), k).toBe(false)
    }
    for (const k of second) expect([k, (await f.get(k)).status]).toEqual([k, 206])
    // What the index names now reads as the files on disk.
    for (const k of third) expect(Buffer.from(await (await f.get(k)).arrayBuffer()).equals(await readFile(fileOf(k))), k).toBe(true)
  })
})
