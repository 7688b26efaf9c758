// What tells a table's name apart from its neighbours': the name split where it stops sharing words with any other
// table (`cloud_chat_conversations_` + `custom_fields`), so a narrow label can elide the shared head and keep the
// tail whole. Pure, so it is unit-tested.

export interface LabelParts {
  /** The words it shares with another table (elided first when the label is narrow); may be empty. */
  readonly head: string
  /** The rest: what only this table's name says. Never empty. */
  readonly tail: string
}

/** Splits `name` after the longest run of whole words (ending in `_`) it shares with any of `names`. */
export function labelParts(name: string, names: readonly string[]): LabelParts {
  let shared = 0
  for (const other of names) {
    if (other === name) continue
    let k = 0
    while (k < name.length && k < other.length && name[k] === other[k]) k++
    // Back to the end of the last whole word both share (all of `other`, when this name goes on after it).
    const cut = k === other.length && name[k] === '_' ? k + 1 : name.lastIndexOf('_', k - 1) + 1
    if (cut > shared && cut < name.length) shared = cut
  }
  return { head: name.slice(0, shared), tail: name.slice(shared) }
}
