// Where the Electron binary is, if it is installed. Never require('electron') to find out: from Electron 42 on
// that downloads it.
import { existsSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'

const require = createRequire(import.meta.url)

export function electronBinary(): string | null {
  try {
    const dir = dirname(require.resolve('electron/package.json'))
    const pathFile = join(dir, 'path.txt')
    if (!existsSync(pathFile)) return null
    const binary = join(dir, 'dist', readFileSync(pathFile, 'utf8').trim())
    return existsSync(binary) ? binary : null
  } catch {
    return null
  }
}
