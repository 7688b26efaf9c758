// A GCS key file that is missing, not JSON or not a service-account key is said by name, before any request.
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BucketError } from '../../src/main/bucket/bucket-errors'
import { GcsProvider } from '../../src/main/bucket/gcs-provider'

let dir: string
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ee-keyfile-'))
})
afterAll(() => rm(dir, { recursive: true, force: true }))

async function listWith(keyFile: string): Promise<BucketError> {
  // Port 9 (discard) on loopback: no request may be needed to say what is wrong with the file.
  const p = new GcsProvider({ bucket: 'b', credentials: { kind: 'key_file', keyFile }, endpoint: 'http://127.0.0.1:9', projectId: 'p' })
  try {
    for await (const _ of p.list('')) void _
  } catch (e) {
    if (e instanceof BucketError) return e
    throw e
  }
  throw new Error('listed with a bad key file')
}

describe('a GCS key file', () => {
  it('that does not exist, is not JSON, or is not a service-account key: an auth error naming the file and the fix', async () => {
    const missing = await listWith(join(dir, 'nope.json'))
    expect([missing.kind, missing.message]).toEqual(['auth', `The key file ${join(dir, 'nope.json')} does not exist`])
    expect(missing.userMessage).toMatch(/service account/)
    await writeFile(join(dir, 'text.json'), 'not json')
    expect((await listWith(join(dir, 'text.json'))).message).toBe(`The key file ${join(dir, 'text.json')} is not JSON`)
    await writeFile(join(dir, 'user.json'), JSON.stringify({ type: 'authorized_user', client_id: 'x' }))
    expect((await listWith(join(dir, 'user.json'))).message).toMatch(/user\.json is not a service-account key/)
  })
})
