// A statement that writes a file (COPY … TO, EXPORT DATABASE) run in the SQL pane would write into the query
// engine's own memory and say "Done": nothing the user can open. The pane refuses it with the way that works.

/** The statement's first keyword, after comments and white space, upper-cased ('' when there is none). */
export function firstKeyword(sql: string): string {
  let s = sql
  for (;;) {
    const t = s.replace(/^\s+/, '')
    if (t.startsWith('--')) s = t.slice(t.indexOf('\n') < 0 ? t.length : t.indexOf('\n'))
    else if (t.startsWith('/*')) s = t.slice(t.indexOf('*/') < 0 ? t.length : t.indexOf('*/') + 2)
    else return (/^[A-Za-z_]+/.exec(t)?.[0] ?? '').toUpperCase()
  }
}

/** Why the pane will not run a statement that writes a file, or null for any other statement. */
export function fileWritingStatement(sql: string): string | null {
  const k = firstKeyword(sql)
  if (k !== 'COPY' && k !== 'EXPORT') return null
  return `${k === 'COPY' ? 'COPY … TO' : 'EXPORT DATABASE'} would write into the query engine's memory, not a file you can open, so it is not run. Run the SELECT here and use Export… (CSV or Parquet) to save its rows.`
}
