// The renderer's colours have one definition, common/tokens.css: no colour literal in a component, a CSS module or
// the canvas code; every token a stylesheet or the code names is defined there; every cell and manifest state has one.
import { readFile, readdir } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { CELL_STATES } from '../../src/shared/timeline'
import { ERA_TOKEN, MANIFEST_CELLS, MANIFEST_STYLE, STATE_STYLE } from '../../src/renderer/src/deliveries/cell-states'

const RENDERER = 'src/renderer/src'
const TOKENS = join(RENDERER, 'common/tokens.css')
const COLOUR = /#[0-9a-f]{3,8}\b|\brgba?\(|\bhsla?\(/gi

async function rendererFiles(): Promise<{ path: string; text: string }[]> {
  const names = (await readdir(RENDERER, { recursive: true })).filter((f) => /\.(tsx?|css)$/.test(f))
  return Promise.all(names.map(async (f) => ({ path: join(RENDERER, f), text: await readFile(join(RENDERER, f), 'utf8') })))
}

async function definedTokens(): Promise<Set<string>> {
  return new Set([...(await readFile(TOKENS, 'utf8')).matchAll(/^\s*(--[\w-]+)\s*:/gm)].map((m) => m[1] as string))
}

describe('design tokens', () => {
  it('keeps every colour literal in tokens.css', async () => {
    const found = (await rendererFiles())
      .filter((f) => f.path !== TOKENS)
      .flatMap((f) => [...f.text.replace(/\/\*[\s\S]*?\*\//g, '').matchAll(COLOUR)].map((m) => `${f.path}: ${m[0]}`))
    expect(found).toEqual([])
  })

  it('defines every token a stylesheet or the code names', async () => {
    const defined = await definedTokens()
    // A stylesheet's own custom property (set and read inside it, e.g. the verdict's colour) is not a token.
    const local = (text: string): Set<string> => new Set([...text.matchAll(/^\s*(--[\w-]+)\s*:/gm)].map((m) => m[1] as string))
    const used = new Set(
      (await rendererFiles()).flatMap((f) => {
        const own = f.path === TOKENS ? new Set<string>() : local(f.text)
        return [...f.text.matchAll(/var\((--[\w-]+)|cssToken\('(--[\w-]+)'/g)].map((m) => (m[1] ?? m[2]) as string).filter((t) => !own.has(t))
      })
    )
    for (const s of CELL_STATES) used.add(STATE_STYLE[s].token)
    for (const m of MANIFEST_CELLS) used.add(MANIFEST_STYLE[m].token)
    for (const t of Object.values(ERA_TOKEN)) used.add(t)
    expect(used.size).toBeGreaterThan(40)
    expect([...used].filter((t) => !defined.has(t))).toEqual([])
  })

  it('gives each cell state and manifest state a colour of its own token', () => {
    expect(new Set(CELL_STATES.map((s) => STATE_STYLE[s].token)).size).toBe(CELL_STATES.length)
    expect(new Set(MANIFEST_CELLS.map((m) => MANIFEST_STYLE[m].token)).size).toBe(MANIFEST_CELLS.length)
  })
})
