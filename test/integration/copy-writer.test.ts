// The file store's copy writer (src/main/store/copy-writer.ts): its worker thread writes, renames and reports each
// write's own error with its code, leaves no temporary file behind a failure, and keeps the files private.
import { mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { copyWriter } from '../../src/main/store/copy-writer'

let dir: string
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ee-copy-writer-'))
})
afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

describe('the copy writer', () => {
  it('writes many files at once, each renamed to its name, with its bytes, private, in folders it makes', async () => {
    const files = Array.from({ length: 300 }, (_, i) => ({ target: join(dir, 'a', String(i % 7), `f${i}`), bytes: Buffer.from(`bytes of ${i}`) }))
    await Promise.all(files.map((f) => copyWriter().write(`${f.target}.tmp`, f.bytes, { target: f.target })))
    for (const f of files) expect(await readFile(f.target)).toEqual(f.bytes)
    expect((await stat(files[0]!.target)).mode & 0o777).toBe(0o600)
    expect((await stat(join(dir, 'a', '0'))).mode & 0o777).toBe(0o700)
    const names = (await readdir(join(dir, 'a'), { recursive: true })).filter((n) => n.endsWith('.tmp'))
    expect(names).toEqual([])
  })

  it("answers each write's own error with its code; the others of the same batch are written", async () => {
    const taken = join(dir, 'taken')
    await writeFile(taken, 'already here')
    // A folder where a file is: renaming into it fails, and its temporary file is removed.
    const blocked = join(dir, 'taken', 'under')
    const writes = [
      copyWriter().write(join(dir, 'ok1'), Buffer.from('one')),
      copyWriter().write(taken, Buffer.from('over it'), { flag: 'wx' }),
      copyWriter().write(join(dir, 'under.tmp'), Buffer.from('x'), { target: blocked }),
      copyWriter().write(join(dir, 'ok2'), Buffer.from('two'))
    ]
    const settled = await Promise.allSettled(writes)
    expect(settled.map((s) => (s.status === 'fulfilled' ? 'ok' : (s.reason as NodeJS.ErrnoException).code))).toEqual(['ok', 'EEXIST', 'ENOTDIR', 'ok'])
    expect(await readFile(taken, 'utf8')).toBe('already here')
    expect(await readFile(join(dir, 'ok2'), 'utf8')).toBe('two')
    await expect(stat(join(dir, 'under.tmp'))).rejects.toMatchObject({ code: 'ENOENT' })
    // 'w' replaces (the store's not-Parquet mark).
    await copyWriter().write(taken, Buffer.alloc(0), { flag: 'w' })
    expect((await stat(taken)).size).toBe(0)
  })
})
