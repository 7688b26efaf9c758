// Hostile Parquet files for the footer's bounds (issue 18 item 3): each has a valid frame ("PAR1" at both ends, a
// footer length) and a footer crafted to cost a naive parser gigabytes, seconds or its stack.

const MAGIC = Buffer.from('PAR1', 'latin1')

/** A file of `body` bytes of padding, then `footer` as its footer, its length, and "PAR1". */
export function withFooter(footer: Buffer, declaredLength = footer.length): Buffer {
  const len = Buffer.alloc(4)
  len.writeUInt32LE(declaredLength >>> 0)
  return Buffer.concat([MAGIC, Buffer.alloc(16), footer, len, MAGIC])
}

/** A Thrift compact varint. */
function varint(n: number): Buffer {
  const out: number[] = []
  while (n >= 0x80) {
    out.push((n & 0x7f) | 0x80)
    n = Math.floor(n / 128)
  }
  out.push(n)
  return Buffer.from(out)
}

/** FileMetaData whose field 2 (schema) is a list header claiming `n` structs, followed by `n` empty structs (one STOP
 * byte each) when `filled`, or by nothing (the list lies about its size). */
export function structListFooter(n: number, filled: boolean): Buffer {
  // Field 1 (version, i32 = 1), then field 2: a list (type 9) of structs (type 12) with a long size.
  const head = Buffer.concat([Buffer.from([0x15, 0x02, 0x19, 0xfc]), varint(n)])
  return Buffer.concat([head, filled ? Buffer.alloc(n, 0) : Buffer.alloc(0), Buffer.from([0x00])])
}

/** A footer nesting `depth` structs inside each other (field 1 of each is the next), then closing them all. */
export function nestedFooter(depth: number): Buffer {
  return Buffer.concat([Buffer.alloc(depth, 0x1c), Buffer.alloc(depth + 1, 0x00)])
}

/** The hostile files, by name: what each claims. */
export function hostileFiles(): Record<string, Buffer> {
  return {
    // 2^24 empty structs, really there: a 16 MB footer (over the length cap).
    'structs-16mb.parquet': withFooter(structListFooter(2 ** 24, true)),
    // 2^22 empty structs (4 MB, under the length cap): refused by the count of values.
    'structs-4mb.parquet': withFooter(structListFooter(2 ** 22, true)),
    // 2^31 elements claimed in a few bytes.
    'claims-2g.parquet': withFooter(structListFooter(2 ** 31, false)),
    // A footer length larger than the file.
    'length-past-file.parquet': withFooter(Buffer.from([0x15, 0x02, 0x00]), 10_000_000),
    // 100,000 structs deep: a recursive parser's stack.
    'nested.parquet': withFooter(nestedFooter(100_000))
  }
}
