// DuckDB type names as DESCRIBE prints them (`STRUCT("a b" INTEGER, c VARCHAR[])`, `MAP(VARCHAR, INTEGER)[]`),
// read into the nesting the grid needs to render a value the way DuckDB does, and the same nesting with every
// leaf VARCHAR: the type a value is cast to so that DuckDB itself writes each leaf.
import { type DuckDbType, parseDuckDbTypeName } from '../../../shared/duckdb-type-name'

export type TypeShape =
  | { readonly kind: 'leaf'; readonly name: string; /** UNION: rendered like a nested value (never quoted inside one). */ readonly nested: boolean }
  | { readonly kind: 'list'; readonly child: TypeShape }
  | { readonly kind: 'struct'; readonly fields: readonly { readonly name: string; readonly type: TypeShape }[] }
  | { readonly kind: 'map'; readonly key: TypeShape; readonly value: TypeShape }

/** Reads a DuckDB type name (src/shared's reader). Anything it does not understand is a leaf (cast to VARCHAR as a whole). */
export function parseDuckDbType(text: string): TypeShape {
  const shapeOf = (t: DuckDbType): TypeShape => {
    switch (t.kind) {
      case 'scalar':
        return { kind: 'leaf', name: t.name, nested: t.name === 'UNION' }
      case 'decimal':
        return { kind: 'leaf', name: 'DECIMAL', nested: false }
      case 'list':
        return { kind: 'list', child: shapeOf(t.element) }
      case 'struct':
        return { kind: 'struct', fields: t.fields.map((f) => ({ name: f.name, type: shapeOf(f.type) })) }
      case 'map':
        return { kind: 'map', key: shapeOf(t.key), value: shapeOf(t.value) }
    }
  }
  const parsed = parseDuckDbTypeName(text)
  return parsed ? shapeOf(parsed) : { kind: 'leaf', name: text, nested: false }
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
