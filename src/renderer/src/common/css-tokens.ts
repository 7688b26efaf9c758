// The design tokens' values for code that cannot use CSS (the timeline's canvas): read from the custom properties
// tokens.css defines, so each colour has one definition. Importing this module loads tokens.css.
import './tokens.css'

const cache = new Map<string, string>()

/** The value of a token (`--cell-ready`) as the page's stylesheet gives it; `fallback` until the stylesheet has loaded. */
export function cssToken(name: `--${string}`, fallback = 'transparent'): string {
  const known = cache.get(name)
  if (known !== undefined) return known
  const value = getComputedStyle(document.documentElement).getPropertyValue(name).trim()
  // Not cached while empty: a read before the stylesheet applied must not stick.
  if (value) cache.set(name, value)
  return value || fallback
}

/** A CSS value that refers to the token, for an element whose colour comes from data (a legend swatch). */
export const tokenVar = (name: `--${string}`): string => `var(${name})`
