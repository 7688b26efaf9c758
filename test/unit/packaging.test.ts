// What electron-builder.yml packages: only native DuckDB's binaries outside the asar (JavaScript loaded from
// outside the integrity-checked archive would escape the asar fuses), and the fuses of the security checklist.
import { readdirSync, readFileSync } from 'node:fs'
import { join, matchesGlob } from 'node:path'
import { describe, expect, it } from 'vitest'

const yml = readFileSync('electron-builder.yml', 'utf8')
/** The "  - item" lines of a top-level list, and the "  key: value" lines of a top-level map. */
const listOf = (key: string): string[] =>
  (new RegExp(`^${key}:\\n((?:  - .*\\n)+)`, 'm').exec(yml)?.[1] ?? '')
    .split('\n')
    .filter(Boolean)
    .map((l) => l.replace(/^ {2}- /, '').replace(/^"|"$/g, ''))
const mapOf = (key: string): Record<string, string> =>
  Object.fromEntries(
    (new RegExp(`^${key}:\\n((?:  \\w+: .*\\n)+)`, 'm').exec(yml)?.[1] ?? '')
      .split('\n')
      .filter(Boolean)
      .map((l) => l.trim().split(/:\s*/) as [string, string])
  )

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

  it("ships exactly the target's native DuckDB package, and refuses a target whose package is not installed", async () => {
    // The files list holds comments, so its DuckDB patterns are read by their quoted form (either quote: Prettier's).
    const patterns = [...yml.matchAll(/^ {2}- (["'])(!?node_modules\/@duckdb\/node-bindings[^"']*)\1$/gm)].map((m) => m[2] as string)
    expect(patterns).toHaveLength(2)
    const published = Object.keys(
      (JSON.parse(readFileSync('node_modules/@duckdb/node-bindings/package.json', 'utf8')) as { optionalDependencies: Record<string, string> })
        .optionalDependencies
    )
    const targets = [
      ['linux', 'x64'],
      ['linux', 'arm64'],
      ['darwin', 'x64'],
      ['darwin', 'arm64'],
      ['win32', 'x64']
    ] as const
    for (const [platform, arch] of targets) {
      // electron-builder's order: the last pattern that matches decides; ${platform} and ${arch} are the target's.
      const kept = published.filter((pkg) => {
        let keep = true
        for (const p of patterns.map((x) => x.replace('${platform}', platform).replace('${arch}', arch))) {
          const negated = p.startsWith('!')
          if (matchesGlob(`node_modules/${pkg}/duckdb.node`, negated ? p.slice(1) : p)) keep = !negated
        }
        return keep
      })
      expect(kept, `${platform}-${arch}`).toEqual([`@duckdb/node-bindings-${platform}-${arch}`])
    }
    expect(/^beforePack: (\S+)$/m.exec(yml)?.[1]).toBe('./scripts/check-duckdb-binding.mjs')
    // A plain ES module run by electron-builder (no types): imported by a path TypeScript does not resolve.
    const hookPath = '../../scripts/check-duckdb-binding.mjs'
    const hook = ((await import(hookPath)) as { default: (c: unknown) => Promise<void> }).default
    const context = (platform: string, arch: number) => ({ electronPlatformName: platform, arch, packager: { projectDir: process.cwd() } })
    // This machine's package is installed (linux x64 here: Arch.x64 is 1); another target's is not.
    await expect(hook(context(process.platform, ['ia32', 'x64', 'armv7l', 'arm64'].indexOf(process.arch)))).resolves.toBeUndefined()
    const other = process.platform === 'win32' ? 'darwin' : 'win32'
    await expect(hook(context(other, 3))).rejects.toThrow(`npm install --no-save --force @duckdb/node-bindings-${other}-arm64@`)
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
