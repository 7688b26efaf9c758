// The frame check's answers kept in memory after this process read or wrote them (the mirror's build asks right after
// the check): used only while the file is still that version; once another process replaced it, it is read again.
import { mkdtemp, rename, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { knownFiles, recordUnreadable } from '../../src/main/store/frame-answers'
import { objectIdentity } from '../../src/shared/identity-tag'
import type { ListedObject } from '../../src/shared/listing'

let dir: string
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ee-frame-memory-'))
})
afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

const file: ListedObject = { key: 'v2/s/t/etl_date=2027-01-01/etl_hour=01/part-0.parquet', size: 100, lastModified: '2027-01-01T01:10:00.000Z', etag: 'e1' }

describe('frame check answers in memory', () => {
  it('answers from what this process wrote, and from the file again once another process replaced it', async () => {
    const cacheFile = join(dir, 'frames', 'c.json')
    await recordUnreadable(cacheFile, [{ object: file, why: 'its pages cannot be read (first)' }])
    expect((await knownFiles(cacheFile, [file])).unreadable.get(file.key)).toBe('its pages cannot be read (first)')
    // Another process writes the file anew (as every writer does: a new file renamed over it).
    const other = join(dir, 'frames', 'other.tmp')
    await writeFile(other, JSON.stringify({ format: 3, columnSets: [[{ name: 'message_id', type: 'VARCHAR' }]], files: { [objectIdentity(file)]: [4, 0] } }))
    await rename(other, cacheFile)
    const known = await knownFiles(cacheFile, [file])
    expect(known.unreadable.has(file.key)).toBe(false)
    expect(known.columns.get(file.key)).toEqual(['message_id'])
  })
})
