// What electron-builder.yml packages: only native DuckDB's binaries outside the asar (JavaScript loaded from
// outside the integrity-checked archive would escape the asar fuses), and the fuses of the security checklist.
import { readdirSync, readFileSync } from 'node:fs'
import { join, matchesGlob } from 'node:path'
import { describe, expect, it } from 'vitest'

const yml = readFileSync('electron-builder.yml', 'utf8')
/** The "  - item" lines of a top-level list, and the "  key: value" lines of a top-level map. */
const listOf = (key: string): string[] => (new RegExp(`^${key}:\\n((?:  - .*\\n)+)`, 'm').exec(yml)?.[1] ?? '').split('\n').filter(Boolean).map((l) => l.replace(/^ {2}- /, '').replace(/^"|"$/g, ''))
const mapOf = (key: string): Record<string, string> => Object.fromEntries((new RegExp(`^${key}:\\n((?:  \\w+: .*\\n)+)`, 'm').exec(yml)?.[1] ?? '').split('\n').filter(Boolean).map((l) => l.trim().split(/:\s*/) as [string, string]))

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : [join(dir, e.name)]))
}

describe('packaging', () => {
  it('unpacks only the native DuckDB binaries from the asar, no JavaScript', () => {
    const patterns = listOf('asarUnpack')
    expect(patterns.length).toBeGreaterThan(0)
    const installed = files('node_modules/@duckdb')
    const unpacked = installed.filter((f) => patterns.some((p) => matchesGlob(f, p)))
    // The addon this machine loads is among them, with the library it links.
    expect(unpacked.some((f) => f.endsWith('/duckdb.node'))).toBe(true)
    expect(unpacked.some((f) => /libduckdb\.(so|dylib)$|duckdb\.dll$/.test(f))).toBe(true)
    for (const f of unpacked) expect(f, f).toMatch(/\.(node|so|dylib|dll)$/)
    expect(installed.filter((f) => f.endsWith('.js')).length).toBeGreaterThan(0)
  })

  it('builds on a current Electron (45 or later), pinned exactly', () => {
    const pinned = (JSON.parse(readFileSync('package.json', 'utf8')) as { devDependencies: Record<string, string> }).devDependencies['electron'] ?? ''
    expect(pinned).toMatch(/^\d+\.\d+\.\d+$/)
    expect(Number(pinned.split('.')[0])).toBeGreaterThanOrEqual(45)
  })

  it('sets the Electron fuses of the security checklist', () => {
    expect(mapOf('electronFuses')).toEqual({
      runAsNode: 'false',
      enableCookieEncryption: 'true',
      enableNodeOptionsEnvironmentVariable: 'false',
      enableNodeCliInspectArguments: 'false',
      enableEmbeddedAsarIntegrityValidation: 'true',
      onlyLoadAppFromAsar: 'true',
      grantFileProtocolExtraPrivileges: 'false'
    })
  })
})
