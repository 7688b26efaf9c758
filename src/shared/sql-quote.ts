// Quoting for DuckDB SQL, so that no bucket key or column name can change a statement's meaning.

export function quoteIdent(name: string): string {
  if (name.includes('\u0000')) throw new Error('identifier contains NUL')
  return `"${name.replaceAll('"', '""')}"`
}

export function quoteLiteral(value: string): string {
  if (value.includes('\u0000')) throw new Error('string literal contains NUL')
  return `'${value.replaceAll("'", "''")}'`
}
