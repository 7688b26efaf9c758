// A table's name where room is short (timeline rows, the inspector's lines): the words it shares with other tables
// elide first, the words that tell it apart stay; the full name is the tooltip.
import { useMemo } from 'react'
import { labelParts } from './table-label-parts'
import css from './table-label.module.css'

export function TableLabel({ name, names }: { name: string; names: readonly string[] }): React.JSX.Element {
  const { head, tail } = useMemo(() => labelParts(name, names), [name, names])
  return (
    <span className={css.label}>
      {head ? <span className={css.head}>{head}</span> : null}
      <span className={css.tail}>{tail}</span>
    </span>
  )
}
