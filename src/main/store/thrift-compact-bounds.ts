// A cheap walk over a Parquet footer (Thrift compact protocol) that allocates nothing per element, run before any
// parser sees it: a footer whose lists claim more elements than the bytes left could hold, more values in all than
// any real footer has, or a nesting deeper than Parquet's own metadata, is refused before it can cost memory.

export interface ThriftBounds {
  /** Values in the whole footer (fields and list elements). Arrow caps one container at 1,000,000; a real vendor
   * footer (a few row groups × tens of columns × ~20 values) has thousands. */
  readonly maxValues: number
  /** Struct/list nesting. Parquet's metadata nests about 8 deep (FileMetaData → row group → column → stats); Thrift's
   * own C++ reader refuses beyond 64. */
  readonly maxDepth: number
}

export const FOOTER_BOUNDS: ThriftBounds = { maxValues: 1_000_000, maxDepth: 32 }

// Compact protocol types.
const BOOL_TRUE = 1
const BOOL_FALSE = 2
const BYTE = 3
const I16 = 4
const I32 = 5
const I64 = 6
const DOUBLE = 7
const BINARY = 8
const LIST = 9
const SET = 10
const MAP = 11
const STRUCT = 12

class Refused extends Error {}

/**
 * Null when the bytes hold one well-formed Thrift struct within the bounds (a parser then reads it at a known cost),
 * else why not, in words for the user ("a list claims 16777216 elements in 3 bytes"). `fields`, when given, gets the
 * byte range [start, end) of each of the struct's own fields by its id (FileMetaData's schema is field 2).
 */
export function checkThriftBounds(bytes: Uint8Array, bounds: ThriftBounds = FOOTER_BOUNDS, fields?: Map<number, readonly [number, number]>): string | null {
  let at = 0
  let values = 0
  const byte = (): number => {
    if (at >= bytes.length) throw new Refused(`it ends in the middle of a value (at byte ${at} of ${bytes.length})`)
    return bytes[at++] as number
  }
  const varint = (): number => {
    let result = 0
    let scale = 1
    for (let k = 0; k < 10; k++) {
      const b = byte()
      result += (b & 0x7f) * scale
      if ((b & 0x80) === 0) return result
      scale *= 128
    }
    throw new Refused(`a number at byte ${at} is longer than 10 bytes`)
  }
  const skip = (n: number): void => {
    if (n > bytes.length - at) throw new Refused(`a value claims ${n} bytes where ${bytes.length - at} are left`)
    at += n
  }
  const count = (n: number): void => {
    values += n
    if (values > bounds.maxValues) throw new Refused(`it holds more than ${bounds.maxValues} values`)
  }
  const container = (n: number, elementType: number, depth: number): void => {
    // Every element takes at least one byte (a double eight): a size the bytes left cannot hold is a lie, refused
    // before anything is counted or allocated.
    const least = elementType === DOUBLE ? 8 : 1
    if (n * least > bytes.length - at) throw new Refused(`a list claims ${n} elements where ${bytes.length - at} bytes are left`)
    count(n)
    for (let i = 0; i < n; i++) {
      if (elementType === BOOL_TRUE || elementType === BOOL_FALSE) skip(1)
      else value(elementType, depth)
    }
  }
  const value = (type: number, depth: number): void => {
    switch (type) {
      case BOOL_TRUE:
      case BOOL_FALSE:
        return
      case BYTE:
        return skip(1)
      case I16:
      case I32:
      case I64:
        varint()
        return
      case DOUBLE:
        return skip(8)
      case BINARY:
        return skip(varint())
      case LIST:
      case SET: {
        if (depth >= bounds.maxDepth) throw new Refused(`it nests deeper than ${bounds.maxDepth} levels`)
        const header = byte()
        const short = header >> 4
        container(short === 15 ? varint() : short, header & 0x0f, depth + 1)
        return
      }
      case MAP: {
        if (depth >= bounds.maxDepth) throw new Refused(`it nests deeper than ${bounds.maxDepth} levels`)
        const n = varint()
        if (n === 0) return
        const kinds = byte()
        if (n * 2 > bytes.length - at) throw new Refused(`a map claims ${n} entries where ${bytes.length - at} bytes are left`)
        count(n * 2)
        for (let i = 0; i < n; i++) {
          value(kinds >> 4, depth + 1)
          value(kinds & 0x0f, depth + 1)
        }
        return
      }
      case STRUCT:
        return struct(depth + 1)
      default:
        throw new Refused(`byte ${at - 1} holds an unknown Thrift type (${type})`)
    }
  }
  const struct = (depth: number): void => {
    if (depth > bounds.maxDepth) throw new Refused(`it nests deeper than ${bounds.maxDepth} levels`)
    let id = 0
    for (;;) {
      const header = byte()
      const type = header & 0x0f
      if (type === 0) return
      // A field's id: the last one's plus the header's delta, or a zigzag varint after it.
      if (header >> 4 === 0) {
        const z = varint()
        id = z % 2 === 0 ? z / 2 : -(z + 1) / 2
      } else id += header >> 4
      count(1)
      const start = at
      value(type, depth)
      if (depth === 1) fields?.set(id, [start, at])
    }
  }
  try {
    struct(1)
    return null
  } catch (e) {
    if (e instanceof Refused) return e.message
    throw e
  }
}
