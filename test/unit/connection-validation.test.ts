// Saved connections at the boundary: rebuilt from known fields only (an unknown field, a secret in the wrong
// place, a nested blob never reach connections.json), ids that cannot name a folder outside ours, and
// arguments too deep or too large refused before their shape is even looked at.
import { describe, expect, it } from 'vitest'
import { ARG_LIMITS, validateArgs } from '../../src/shared/api/validate-args'
import { validateConnection } from '../../src/shared/connection-config'

const s3 = {
  id: 'c1',
  name: 'prod',
  provider: 's3',
  bucket: 'b',
  prefix: 'exports/',
  region: 'us-east-1',
  auth: { kind: 'static', accessKeyId: 'AKIAEXAMPLE', secretRef: 's3-secret-c1' }
}

const nested = (levels: number): unknown => {
  let v: unknown = 'x'
  for (let i = 0; i < levels; i++) v = { a: v }
  return v
}

describe('saved connection', () => {
  it('is rebuilt from its known fields: unknown ones, at any level, are dropped', () => {
    const r = validateConnection({ ...s3, notes: 'x', extra: nested(3000), auth: { ...s3.auth, comment: 'y' } })
    expect(r.ok).toBe(true)
    if (r.ok) expect(r.value).toEqual(s3)
    const local = validateConnection({ id: 'l', name: 'copy', provider: 'local', path: '/data/x', bucket: 'ignored' })
    expect(local.ok && local.value).toEqual({ id: 'l', name: 'copy', provider: 'local', path: '/data/x' })
    const gcs = validateConnection({
      id: 'g',
      name: 'g',
      provider: 'gcs',
      bucket: 'b',
      prefix: '',
      auth: { kind: 'key_file', keyFile: '/k.json', privateKey: 'leak' }
    })
    expect(gcs.ok && gcs.value).toEqual({ id: 'g', name: 'g', provider: 'gcs', bucket: 'b', prefix: '', auth: { kind: 'key_file', keyFile: '/k.json' } })
  })

  it('takes only ids that are safe as a folder or secret name', () => {
    for (const id of ['..', '.', '../x', 'a/b', 'a\\b', '.hidden', 'a.b', '', 'a'.repeat(65), 'é', 'a b']) {
      const r = validateConnection({ ...s3, id })
      expect(r.ok, JSON.stringify(id)).toBe(false)
      expect(validateArgs('connectionOpen', { id }).ok, JSON.stringify(id)).toBe(false)
    }
    for (const id of ['demo', 'c1', '0b7f5a8e-3c1d-4f5e-9a2b-1c2d3e4f5a6b', 'a'.repeat(64)]) expect(validateConnection({ ...s3, id }).ok, id).toBe(true)
  })

  it('refuses an endpoint holding a user name or password, and oversized fields', () => {
    const withPassword = validateConnection({ ...s3, endpoint: 'https://AKIA:hunter2@s3.example.com/' })
    expect(withPassword).toEqual({ ok: false, reason: expect.stringMatching(/must not hold a user name or password/) })
    expect(validateConnection({ ...s3, endpoint: 'https://s3.example.com/path@x' }).ok).toBe(true)
    expect(validateConnection({ ...s3, name: 'n'.repeat(201) }).ok).toBe(false)
    expect(validateConnection({ ...s3, bucket: 'b'.repeat(256) }).ok).toBe(false)
  })
})

describe('call arguments at the boundary', () => {
  const save = (connection: unknown, extra: Record<string, unknown> = {}) => validateArgs('connectionSave', { connection, ...extra })

  it('refuses a secret-looking field anywhere in a connection, naming it', () => {
    for (const [field, c] of [
      ['secretAccessKey', { ...s3, secretAccessKey: 'wJalr' }],
      ['auth.secretAccessKey', { ...s3, auth: { kind: 'static', accessKeyId: 'AK', secretAccessKey: 'wJalr' } }],
      ['auth.password', { ...s3, auth: { kind: 'default', password: 'p' } }],
      ['sessionToken', { ...s3, sessionToken: 't' }],
      ['meta.private_key', { id: 'l', name: 'l', provider: 'local', path: '/x', meta: { private_key: '-----BEGIN' } }]
    ] as const) {
      const r = save(c)
      expect(r.ok, field).toBe(false)
      if (!r.ok) expect(r.reason).toContain(`the field ${field} looks like a secret`)
    }
    // The secret's own place is accepted.
    expect(save({ ...s3, auth: { kind: 'static', accessKeyId: 'AK' } }, { secretAccessKey: 'wJalr' }).ok).toBe(true)
  })

  it('refuses 3,000 levels of nesting and oversized arguments, whatever the call', () => {
    const deep = save({ ...s3, extra: nested(3000) })
    expect(deep).toEqual({ ok: false, reason: `connectionSave: arguments are nested more than ${ARG_LIMITS.depth} levels deep` })
    expect(validateArgs('overview', { x: nested(50) }).ok).toBe(false)
    const wide = save({ ...s3, extra: Array.from({ length: 5000 }, (_, i) => i) })
    expect(wide.ok).toBe(false)
    if (!wide.ok) expect(wide.reason).toMatch(/more than 2000 values/)
    const long = validateArgs('historyAdd', { sql: 'x'.repeat(1_000_000), asOf: null, rows: null, ms: null, error: 'e'.repeat(200_000) })
    expect(long.ok).toBe(false)
    if (!long.ok) expect(long.reason).toMatch(/more than 1100000 characters/)
    // A cycle (IPC's structured clone can carry one) ends at the limits instead of hanging.
    const cyclic: Record<string, unknown> = { name: 'x' }
    cyclic['self'] = cyclic
    expect(save(cyclic).ok).toBe(false)
  })

  it('still admits the largest legitimate arguments', () => {
    expect(
      validateArgs('exportStart', { sql: `SELECT '${'€'.repeat(999_991)}'`, format: 'csv', path: '/home/ana/Downloads/x.csv', overwrite: false, asOf: null }).ok
    ).toBe(true)
    expect(
      save(
        { name: 'new', provider: 's3', bucket: 'b', prefix: '', endpoint: 'http://127.0.0.1:9000', auth: { kind: 'static', accessKeyId: 'AK' } },
        { secretAccessKey: 'k' }
      ).ok
    ).toBe(true)
  })
})
