// electron-builder's beforePack hook: refuses to package a target whose native DuckDB binary is not installed
// (npm installs only this machine's @duckdb/node-bindings-<os>-<arch>; without it the app fails on its first query).
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'

// electron-builder's Arch enum, by value.
const ARCH = ['ia32', 'x64', 'armv7l', 'arm64', 'universal']

/** @param {{ electronPlatformName: string, arch: number, packager: { projectDir: string } }} context */
export default async function checkDuckdbBinding(context) {
  const platform = context.electronPlatformName
  const arch = ARCH[context.arch] ?? String(context.arch)
  const pkg = `@duckdb/node-bindings-${platform}-${arch}`
  const modules = join(context.packager.projectDir, 'node_modules')
  const version = JSON.parse(readFileSync(join(modules, '@duckdb/node-bindings/package.json'), 'utf8')).version
  if (!existsSync(join(modules, pkg, 'duckdb.node'))) {
    throw new Error(
      `${pkg} is not installed, so a ${platform} ${arch} build would have no native DuckDB. Install it first: npm install --no-save --force ${pkg}@${version}`
    )
  }
}
