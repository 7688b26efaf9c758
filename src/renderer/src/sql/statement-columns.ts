// Completion of a bare column name (`... WHERE ten` -> `tenant_id`) from the tables the statement under the cursor
// reads (FROM and JOIN), which @codemirror/lang-sql's schema completion offers only after a qualifier (`t.`).
import type { Completion, CompletionContext, CompletionResult, CompletionSource } from '@codemirror/autocomplete'
import { quoteIdent } from '../../../shared/sql-quote'

/** Views and their columns, as the pane's schema holds them ("schema.table" or a bare name). */
export type ColumnSchema = Readonly<Record<string, readonly string[]>>

const IDENT = String.raw`(?:"(?:[^"]|"")+"|[A-Za-z_][\w$]*)`
const NAME = new RegExp(String.raw`${IDENT}(?:\s*\.\s*${IDENT})?`, 'y')
const AFTER = new RegExp(String.raw`\b(?:FROM|JOIN)\s+`, 'gi')
// After a table: its alias (optional AS), then a comma that names the next one.
const ALIAS = new RegExp(
  String.raw`\s*(?:AS\s+)?(?!(?:WHERE|JOIN|ON|USING|GROUP|ORDER|LIMIT|LEFT|RIGHT|INNER|OUTER|FULL|CROSS|NATURAL|UNION|EXCEPT|INTERSECT|HAVING|WINDOW|QUALIFY|SELECT)\b)${IDENT}`,
  'iy'
)
const COMMA = /\s*,\s*/y

/** The text with strings, quoted names' insides kept, and comments blanked (same length), so offsets still hold. */
function blankStringsAndComments(text: string): string {
  return text.replace(/'(?:[^']|'')*'?|--[^\n]*|\/\*[\s\S]*?(?:\*\/|$)/g, (m) => ' '.repeat(m.length))
}

/** The statement around `pos`: from after the `;` before it to the `;` after it (outside strings and comments). */
export function statementAt(text: string, pos: number): { readonly from: number; readonly to: number } {
  const plain = blankStringsAndComments(text)
  const from = plain.lastIndexOf(';', pos - 1) + 1
  const end = plain.indexOf(';', pos)
  return { from, to: end < 0 ? text.length : end }
}

const unquote = (part: string): string => (part.startsWith('"') ? part.slice(1, -1).replaceAll('""', '"') : part)

/** The tables a statement names after FROM and JOIN (and the commas of a FROM list), as written, unquoted. */
export function statementTableNames(statement: string): string[] {
  const plain = blankStringsAndComments(statement)
  const names: string[] = []
  for (const m of plain.matchAll(AFTER)) {
    let at = (m.index ?? 0) + m[0].length
    for (;;) {
      NAME.lastIndex = at
      const name = NAME.exec(plain)
      if (!name) break
      names.push(
        name[0]
          .split(/\s*\.\s*/)
          .map(unquote)
          .join('.')
      )
      at = NAME.lastIndex
      ALIAS.lastIndex = at
      if (ALIAS.exec(plain)) at = ALIAS.lastIndex
      COMMA.lastIndex = at
      if (!COMMA.exec(plain)) break
      at = COMMA.lastIndex
    }
  }
  return names
}

/** The schema's entry a name written in SQL means: the same key, else the one table of that name in any schema. */
function schemaKey(schema: ColumnSchema, written: string): string | null {
  const lower = written.toLowerCase()
  const keys = Object.keys(schema)
  const exact = keys.find((k) => k.toLowerCase() === lower)
  if (exact) return exact
  if (lower.includes('.')) return null
  const byTable = keys.filter((k) => k.toLowerCase().endsWith(`.${lower}`))
  return byTable.length === 1 ? (byTable[0] as string) : null
}

const PLAIN_NAME = /^[a-z_][a-z0-9_]*$/

/** The columns of the tables in the statement around `pos`, each once, with the tables it is in. */
export function statementColumns(schema: ColumnSchema, text: string, pos: number): Completion[] {
  const { from, to } = statementAt(text, pos)
  const byColumn = new Map<string, string[]>()
  for (const written of statementTableNames(text.slice(from, to))) {
    const key = schemaKey(schema, written)
    if (!key) continue
    for (const c of schema[key] ?? []) {
      const tables = byColumn.get(c) ?? []
      if (!tables.includes(key)) tables.push(key)
      byColumn.set(c, tables)
    }
  }
  return [...byColumn].map(([c, tables]) => ({
    label: c,
    type: 'property',
    detail: tables.join(', '),
    // A name that is not plain lower-case (DuckDB would fold it) goes in quoted.
    ...(PLAIN_NAME.test(c) ? {} : { apply: quoteIdent(c) }),
    boost: 1
  }))
}

/** The completion source: a bare word (not after `.`, nor in a string or comment) gets the statement's columns. */
export function statementColumnsSource(schema: ColumnSchema): CompletionSource {
  return (context: CompletionContext): CompletionResult | null => {
    const word = context.matchBefore(/[\w$]*/)
    if (!word) return null
    if (word.from === word.to && !context.explicit) return null
    const text = context.state.doc.toString()
    if (text[word.from - 1] === '.' || text[word.from - 1] === '"') return null
    // In a string or a comment: the character before the cursor is blanked there.
    const before = text[context.pos - 1] ?? ' '
    if (/\S/.test(before) && blankStringsAndComments(text.slice(0, context.pos))[context.pos - 1] === ' ') return null
    const options = statementColumns(schema, text, context.pos)
    return options.length ? { from: word.from, options, validFor: /^[\w$]*$/ } : null
  }
}
