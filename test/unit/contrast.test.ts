// Text reads at WCAG AA (4.5:1) wherever it can sit: every text token on every surface and message background of
// the tokens, every colour/background pair a CSS module sets together, and the timeline's axis text on its bands.
import { readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'

const ROOT = join(import.meta.dirname, '../../src/renderer/src')
const tokens = new Map(
  [...readFileSync(join(ROOT, 'common/tokens.css'), 'utf8').matchAll(/(--[a-z0-9-]+):\s*(#[0-9a-f]{3,6})\s*;/gi)].map((m) => [m[1]!, m[2]!])
)

const TEXT = ['--color-text', '--color-text-strong', '--color-muted', '--color-faint', '--color-quiet', '--color-null', '--color-link']
const MESSAGE_TEXT = ['--color-danger', '--color-warning', '--color-ok', '--color-note']
const SURFACES = ['--color-surface', '--color-surface-alt', '--color-surface-code', '--color-selected']
const MESSAGE_BACKGROUNDS = ['--color-danger-bg', '--color-warning-bg', '--color-ok-bg', '--color-warning-surface', '--color-ok-surface']

function luminance(hex: string): number {
  const h = hex.length === 4 ? [...hex.slice(1)].map((c) => c + c).join('') : hex.slice(1)
  const [r, g, b] = [0, 2, 4].map((i) => parseInt(h.slice(i, i + 2), 16) / 255).map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4))
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!
}
const ratio = (a: string, b: string): number => {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x)
  return (hi! + 0.05) / (lo! + 0.05)
}
const value = (token: string): string => {
  const v = tokens.get(token)
  if (!v) throw new Error(`${token} is not a colour of tokens.css`)
  return v
}

/** Rules of every CSS module that set a token colour and a token background together. */
function modulePairs(): [string, string, string][] {
  const out: [string, string, string][] = []
  const walk = (dir: string): void => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name)
      if (e.isDirectory()) walk(p)
      else if (e.name.endsWith('.module.css'))
        for (const rule of readFileSync(p, 'utf8').matchAll(/([^{}]+)\{([^}]*)\}/g)) {
          const color = /(?:^|[\s;])color:\s*var\((--[a-z0-9-]+)\)/.exec(rule[2]!)?.[1]
          const bg = /background(?:-color)?:\s*var\((--[a-z0-9-]+)\)/.exec(rule[2]!)?.[1]
          if (color && bg && tokens.has(color) && tokens.has(bg)) out.push([`${e.name} ${rule[1]!.trim()}`, color, bg])
        }
    }
  }
  walk(ROOT)
  return out
}

describe('contrast', () => {
  it('every text token on every surface and message background, and each message colour on its own, is at least 4.5:1', () => {
    const low: string[] = []
    for (const t of [...TEXT, ...MESSAGE_TEXT])
      for (const b of [...SURFACES, ...MESSAGE_BACKGROUNDS])
        if (ratio(value(t), value(b)) < 4.5) low.push(`${t} on ${b}: ${ratio(value(t), value(b)).toFixed(2)}`)
    expect(low).toEqual([])
  })

  it('every colour/background pair a CSS module sets together, and the axis text on the era bands', () => {
    const pairs = modulePairs()
    expect(pairs.length).toBeGreaterThan(3)
    const bands: [string, string, string][] = ['--era-v1', '--era-v2', '--era-gap', '--color-surface'].map((b) => ['timeline axis', '--timeline-axis-text', b])
    const low = [...pairs, ...bands]
      .filter(([, c, b]) => ratio(value(c), value(b)) < 4.5)
      .map(([w, c, b]) => `${w}: ${c} on ${b} ${ratio(value(c), value(b)).toFixed(2)}`)
    expect(low).toEqual([])
  })
})
