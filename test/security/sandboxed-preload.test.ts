// The window's preload runs sandboxed: Electron lets it require only 'electron' and a few Node built-ins. A bundle that
// requires a package (valibot, the contract's schemas) throws as it loads, the bridge is never exposed, and every call
// the renderer makes fails unseen. The built preload (npm test builds out/ first) must require nothing else.
import { existsSync, readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

// What a sandboxed preload may require (Electron's docs, "Process Sandboxing").
const SANDBOX_MODULES = new Set(['electron', 'events', 'timers', 'url'])
const PRELOAD = resolve('out/preload/index.cjs')

const required = (code: string): string[] => [...code.matchAll(/\brequire\(\s*["']([^"']+)["']\s*\)/g)].map((m) => m[1] as string)

describe('the sandboxed preload', () => {
  it('requires only what a sandboxed preload can load', () => {
    if (!existsSync(PRELOAD)) throw new Error(`${PRELOAD} is missing: npm test builds it (npm run build)`)
    const code = readFileSync(PRELOAD, 'utf8')
    expect(required(code).filter((m) => !SANDBOX_MODULES.has(m.replace(/^node:/, '')))).toEqual([])
    // The bridge it exposes is in the bundle itself.
    expect(code).toContain('exposeInMainWorld')
  })

  it('the check finds a package required from a bundle', () => {
    expect(required('const v = require("valibot"); const e = require("electron")').filter((m) => !SANDBOX_MODULES.has(m))).toEqual(['valibot'])
  })
})
