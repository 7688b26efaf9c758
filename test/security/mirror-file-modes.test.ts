// Attack: the mirror's segments were written 0644 by DuckDB's COPY (the umask), so any local user could read a
// connection's compacted history even inside 0700 folders once a folder's mode slipped. Every file the mirror
// writes (segments, their type-unified rewrites, the superseded lists, the index) must be 0600, every folder 0700.
import { lstat, mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { refreshBucketIndex } from '../../src/main/bucket/bucket-index'
import { LocalFolderProvider } from '../../src/main/bucket/local-provider'
import { fileStoreFor } from '../../src/main/store/connection-files'
import { Mirror } from '../../src/main/mirror/mirror'
import { buildInventory } from '../../src/shared/inventory'
import { type Demo, readDemo } from '../helpers/demo'

let demo: Demo
let work: string
beforeAll(async () => {
  demo = await readDemo({ days: 8 })
  work = await mkdtemp(join(tmpdir(), 'ee-mirror-modes-'))
}, 300_000)
afterAll(async () => {
  await demo?.cleanup()
  await rm(work, { recursive: true, force: true })
})

/** Every entry under `dir` with its permission bits, folders marked with a trailing slash. */
async function modes(dir: string): Promise<Map<string, number>> {
  const out = new Map<string, number>()
  for (const name of await readdir(dir, { recursive: true })) {
    const st = await lstat(join(dir, name))
    out.set(st.isDirectory() ? `${name}/` : name, st.mode & 0o777)
  }
  return out
}

it('writes every mirror file 0600 and every mirror folder 0700, whatever the umask', async () => {
  const old = process.umask(0o022)
  try {
    const now = Date.parse(demo.expected.now)
    const provider = new LocalFolderProvider(demo.bucketDir)
    const { index } = await refreshBucketIndex(provider, null, { now })
    const dir = join(work, 'mirror')
    const mirror = new Mirror(dir, fileStoreFor(provider, join(work, 'data'), 'c'))
    const r = await mirror.refresh(buildInventory(index.objects.values(), { now }), now)
    expect(r.problems).toEqual([])
    const segments = await mirror.segments()
    // The demo changes a column's type part-way: some segments were rewritten by the type unification.
    expect(segments.some((s) => /-u[0-9a-z]+\.parquet$/.test(s.file))).toBe(true)
    const seen = await modes(dir)
    expect(seen.get('index.json')).toBe(0o600)
    expect([...seen.keys()].filter((k) => k.endsWith('.parquet')).length).toBeGreaterThan(3)
    // The keyed tables' superseded lists are written by DuckDB's COPY too.
    expect([...seen.keys()].filter((k) => k.startsWith('superseded/') && k.endsWith('.parquet')).length).toBe(2)
    const wrong = [...seen].filter(([k, m]) => m !== (k.endsWith('/') ? 0o700 : 0o600))
    expect(wrong.map(([k, m]) => `${k} ${m.toString(8)}`)).toEqual([])
    expect((await lstat(dir)).mode & 0o777).toBe(0o700)
  } finally {
    process.umask(old)
  }
}, 300_000)
