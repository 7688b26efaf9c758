// The byte server serves the mirror's files by the keys its indexes name: now, since a rebuild, the index before the
// last too (readers with older views read on). That widening stops there: a file in the mirror's folder that no index
// named (a crash's leftover, or one another local user planted under a segment's name) is never served, before or
// after a rebuild, and neither is a key that climbs out of the folder.
import { copyFile, readdir } from 'node:fs/promises'
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

describe("the mirror's files the byte server serves", () => {
  it('are the files its indexes named, never another file of its folder', async () => {
    const named = await f.buildAt(now())
    const segment = named.find((k) => k.startsWith(`${MIRROR_KEY_PREFIX}segments/`))!
    const folder = join(f.mirrorDir, segment.slice(MIRROR_KEY_PREFIX.length, segment.lastIndexOf('/')))
    const planted = `${segment.slice(0, segment.lastIndexOf('/'))}/planted-0000.parquet`
    await copyFile(join(f.mirrorDir, segment.slice(MIRROR_KEY_PREFIX.length)), join(folder, 'planted-0000.parquet'))
    expect((await readdir(folder)).includes('planted-0000.parquet')).toBe(true)
    const refused = [planted, `${MIRROR_KEY_PREFIX}index.json`, `${MIRROR_KEY_PREFIX}../frames.json`, `${MIRROR_KEY_PREFIX}segments/../../c.json`]
    for (const k of refused) expect([k, (await f.get(k)).status]).toEqual([k, 404])
    expect((await f.get(segment)).status).toBe(206)
    // A rebuild as of a later instant keeps the earlier index's files served, and still not the planted one.
    await f.buildAt(now() + 50 * 60_000)
    for (const k of refused) expect([k, (await f.get(k)).status]).toEqual([k, 404])
    expect((await f.get(segment)).status).toBe(206)
  })
})
