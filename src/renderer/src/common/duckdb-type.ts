// DuckDB type names as DESCRIBE prints them (`STRUCT("a b" INTEGER, c VARCHAR[])`, `MAP(VARCHAR, INTEGER)[]`),
// read into the nesting the grid needs to render a value the way DuckDB does, and the same nesting with every
// leaf VARCHAR: the type a value is cast to so that DuckDB itself writes each leaf.

export type TypeShape =
  | { readonly kind: 'leaf'; readonly name: string; /** UNION: rendered like a nested value (never quoted inside one). */ readonly nested: boolean }
  | { readonly kind: 'list'; readonly child: TypeShape }
  | { readonly kind: 'struct'; readonly fields: readonly { readonly name: string; readonly type: TypeShape }[] }
  | { readonly kind: 'map'; readonly key: TypeShape; readonly value: TypeShape }

/** Reads a DuckDB type name. Anything it does not understand is a leaf (cast to VARCHAR as a whole). */
export function parseDuckDbType(text: string): TypeShape {
  let at = 0
  const space = (): void => {
    while (at < text.length && /\s/.test(text[at] as string)) at++
  }
  const peek = (s: string): boolean => text.startsWith(s, at)
  const expect = (s: string): void => {
    space()
    if (!peek(s)) throw new Error(`expected ${s} at ${at} in ${text}`)
    at += s.length
  }
  const word = (): string => {
    space()
    const m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(text.slice(at))
    if (!m) throw new Error(`expected a name at ${at} in ${text}`)
    at += m[0].length
    return m[0]
  }
  const quoted = (): string => {
    // "a ""b""" → a "b"
    let out = ''
    at++
    for (;;) {
      const c = text[at++]
      if (c === undefined) throw new Error(`unterminated name in ${text}`)
      if (c === '"') {
        if (text[at] === '"') {
          out += '"'
          at++
        } else return out
      } else out += c
    }
  }
  /** Skips a parenthesized argument list (DECIMAL(18,3), ENUM('a', 'b')), string literals included. */
  const skipArgs = (): void => {
    let depth = 0
    for (; at < text.length; at++) {
      const c = text[at]
      if (c === "'") {
        for (at++; at < text.length && !(text[at] === "'" && text[at + 1] !== "'"); at++) if (text[at] === "'") at++
      } else if (c === '(') depth++
      else if (c === ')' && --depth === 0) {
        at++
        return
      }
    }
  }
  const type = (): TypeShape => {
    const name = word().toUpperCase()
    // TIMESTAMP WITH TIME ZONE, TIME WITH TIME ZONE
    const zone = /^\s+WITH(OUT)?\s+TIME\s+ZONE\b/i.exec(text.slice(at))
    if (zone) at += zone[0].length
    space()
    let shape: TypeShape
    if (name === 'STRUCT' && peek('(')) {
      expect('(')
      const fields: { name: string; type: TypeShape }[] = []
      for (;;) {
        space()
        const field = peek('"') ? quoted() : word()
        fields.push({ name: field, type: type() })
        space()
        if (peek(',')) at++
        else break
      }
      expect(')')
      shape = { kind: 'struct', fields }
    } else if (name === 'MAP' && peek('(')) {
      expect('(')
      const key = type()
      expect(',')
      const value = type()
      expect(')')
      shape = { kind: 'map', key, value }
    } else {
      if (peek('(')) skipArgs()
      shape = { kind: 'leaf', name, nested: name === 'UNION' }
    }
    for (space(); peek('['); space()) {
      // LIST is `[]`; a fixed-size ARRAY (`[3]`, DuckDB ≥ 0.10) renders the same way.
      at = text.indexOf(']', at) + 1
      shape = { kind: 'list', child: shape }
    }
    return shape
  }
  try {
    const shape = type()
    space()
    return at === text.length ? shape : { kind: 'leaf', name: text, nested: false }
  } catch {
    return { kind: 'leaf', name: text, nested: false }
  }
}

const quoteName = (s: string): string => `"${s.replace(/"/g, '""')}"`

/** The same nesting with VARCHAR leaves, as SQL (a nested value cast to it keeps its shape; DuckDB writes the leaves). */
export function varcharShapeSql(shape: TypeShape): string {
  switch (shape.kind) {
    case 'leaf':
      return 'VARCHAR'
    case 'list':
      return `${varcharShapeSql(shape.child)}[]`
    case 'struct':
      return `STRUCT(${shape.fields.map((f) => `${quoteName(f.name)} ${varcharShapeSql(f.type)}`).join(', ')})`
    case 'map':
      return `MAP(${varcharShapeSql(shape.key)}, ${varcharShapeSql(shape.value)})`
  }
}
