// The file store over a local folder reads it in place and never writes into it: a file changed or removed since
// the listing is reported (refresh), not "downloaded" onto itself, and no folder of the bucket is made again.
import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { listAll } from '../../src/main/bucket/bucket-provider'
import { LocalFolderProvider } from '../../src/main/bucket/local-provider'
import { FileStore } from '../../src/main/store/file-store'
import type { ListedObject } from '../../src/shared/listing'
import { openDb } from '../helpers/duckdb'

let work: string
let root: string
const listed = new Map<string, ListedObject>()
const A = 'v2/datamart_claudia/claudia_csat/snapshot_date=2026-11-03/snapshot_hour=03/part-0.parquet'
const B = 'v2/datamart_claudia/claudia_csat/snapshot_date=2026-11-03/snapshot_hour=04/part-0.parquet'

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'ee-store-local-'))
  root = join(work, 'bucket')
  const db = await openDb()
  for (const k of [A, B]) {
    await mkdir(join(root, k, '..'), { recursive: true })
    await db.run(`COPY (SELECT range AS i FROM range(100)) TO '${join(root, k)}' (FORMAT parquet)`)
  }
  db.close()
  for await (const o of listAll(new LocalFolderProvider(root), '')) listed.set(o.key, o)
})
afterAll(() => rm(work, { recursive: true, force: true }))

describe('file store over a local folder', () => {
  it('answers the files in place, and reports one changed or removed since the listing without writing anything', async () => {
    const store = new FileStore(join(work, 'store'), new LocalFolderProvider(root))
    const a = listed.get(A) as ListedObject
    const b = listed.get(B) as ListedObject
    const before = await readFile(join(root, A))
    await writeFile(join(root, A), Buffer.concat([before, Buffer.from('more')]))
    await rm(join(root, B, '..'), { recursive: true })
    const r = await store.ensure([a, b])
    expect(r.paths.size).toBe(0)
    expect(r.failures.map((f) => [f.key, f.error.kind, f.unreadable ?? false])).toEqual([
      [A, 'not_found', false],
      [B, 'not_found', false]
    ])
    expect(r.failures[0]?.error.userMessage).toMatch(/changed or removed since the folder was listed.*Refresh/)
    // The changed file is left as it is, the removed folder stays removed, and the store holds nothing.
    expect((await readFile(join(root, A))).length).toBe(before.length + 4)
    expect(existsSync(join(root, B, '..'))).toBe(false)
    expect((await readdir(join(root, A, '..'))).sort()).toEqual(['part-0.parquet'])
    expect(existsSync(join(work, 'store'))).toBe(false)
  })
})
