// DuckDB's type names, as DESCRIBE and the engines' column types print them (`DECIMAL(18,3)`,
// `STRUCT("a b" INTEGER, c VARCHAR[])`, `MAP(VARCHAR, INTEGER)[]`, `TIMESTAMP WITH TIME ZONE`), read into a tree.
// The one reader: the renderer's grid (how to cast and show a value) and the warehouse DDL (how to declare it).
// Hand-written: a type name is a small grammar and no maintained package reads DuckDB's.

export type DuckDbType =
  /** Every other type; `ENUM(…)`, `UNION(…)` and the like keep only their name. */
  | { readonly kind: 'scalar'; readonly name: string }
  | { readonly kind: 'decimal'; readonly width: number; readonly scale: number }
  /** `T[]` (a list) or `T[n]` (a fixed-size array, DuckDB ≥ 0.10). */
  | { readonly kind: 'list'; readonly element: DuckDbType }
  | { readonly kind: 'struct'; readonly fields: readonly { readonly name: string; readonly type: DuckDbType }[] }
  | { readonly kind: 'map'; readonly key: DuckDbType; readonly value: DuckDbType }

/** Reads a DuckDB type name; null when it is not one (the caller says so, or treats the value as text). */
export function parseDuckDbTypeName(text: string): DuckDbType | null {
  const s = text.trim()
  let i = 0
  const space = (): void => {
    while (i < s.length && /\s/.test(s[i] as string)) i++
  }
  const peek = (c: string): boolean => {
    space()
    return s[i] === c
  }
  const take = (c: string): boolean => {
    if (!peek(c)) return false
    i++
    return true
  }
  const word = (): string | null => {
    space()
    const m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(s.slice(i))
    if (!m) return null
    i += m[0].length
    return m[0]
  }
  /** A field name: bare, or quoted with "" for a quote inside. */
  const ident = (): string | null => {
    if (!peek('"')) return word()
    let out = ''
    for (i++; i < s.length; i++) {
      if (s[i] === '"' && s[i + 1] === '"') {
        out += '"'
        i++
      } else if (s[i] === '"') {
        i++
        return out
      } else out += s[i]
    }
    return null
  }
  /** Reads over a parenthesized argument list (ENUM('a', 'b)'), VARCHAR(10)), string literals ('' inside) included. */
  const skipArgs = (): boolean => {
    let depth = 0
    for (; i < s.length; i++) {
      const c = s[i]
      if (c === "'") {
        for (i++; i < s.length && !(s[i] === "'" && s[i + 1] !== "'"); i++) if (s[i] === "'") i++
      } else if (c === '(') depth++
      else if (c === ')' && --depth === 0) {
        i++
        return true
      }
    }
    return false
  }
  const type = (): DuckDbType | null => {
    const w = word()
    if (w === null) return null
    const upper = w.toUpperCase()
    let t: DuckDbType | null
    if (upper === 'STRUCT' && peek('(')) {
      i++
      const fields: { name: string; type: DuckDbType }[] = []
      do {
        const name = ident()
        const ft = name === null ? null : type()
        if (name === null || ft === null) return null
        fields.push({ name, type: ft })
      } while (take(','))
      t = take(')') ? { kind: 'struct', fields } : null
    } else if (upper === 'MAP' && peek('(')) {
      i++
      const key = type()
      const value = key && take(',') ? type() : null
      t = key && value && take(')') ? { kind: 'map', key, value } : null
    } else if (upper === 'DECIMAL' || upper === 'NUMERIC') {
      const m = /^\s*\(\s*(\d+)\s*,\s*(\d+)\s*\)/.exec(s.slice(i))
      if (m) i += m[0].length
      // DuckDB's default DECIMAL is (18,3).
      t = { kind: 'decimal', width: m ? Number(m[1]) : 18, scale: m ? Number(m[2]) : 3 }
    } else {
      // Multi-word names: TIMESTAMP WITH TIME ZONE, TIME WITH TIME ZONE, DOUBLE PRECISION (WITHOUT TIME ZONE is the plain type).
      const zone = /^\s+WITH(OUT)?\s+TIME\s+ZONE\b/i.exec(s.slice(i))
      const precision = zone ? null : /^\s+PRECISION\b/i.exec(s.slice(i))
      if (zone) i += zone[0].length
      if (precision) i += precision[0].length
      const name = zone && !zone[1] ? `${upper} WITH TIME ZONE` : precision ? `${upper} PRECISION` : upper
      if (peek('(') && !skipArgs()) return null
      t = { kind: 'scalar', name }
    }
    for (let m = /^\s*\[\d*\]/.exec(s.slice(i)); t && m; m = /^\s*\[\d*\]/.exec(s.slice(i))) {
      i += m[0].length
      t = { kind: 'list', element: t }
    }
    return t
  }
  const t = type()
  space()
  return t && i === s.length ? t : null
}
