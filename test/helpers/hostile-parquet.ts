// Hostile Parquet files for the footer's bounds (issue 18 item 3): each has a valid frame ("PAR1" at both ends, a
// footer length) and a footer crafted to cost a naive parser gigabytes, seconds or its stack; and a bucket holding
// them where the rules read, beside real Parquet written by native DuckDB.
import { manifestKey } from '../../src/shared/bucket-key'
import { quoteLiteral } from '../../src/shared/sql-quote'
import type { Db } from './duckdb'
import { H03, bucketWriter, H04, csat03, csat04, d, h, msgs03, msgs04 } from './unreadable-bucket'

const MIN = 60_000
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

/** A schema list of `n` elements each holding one empty name: within every declared bound (2 values each), but each
 * one a JavaScript object of ten properties to hyparquet: the worker's heap limit is what stops it. */
export function heavySchemaFooter(n: number): Buffer {
  const element = Buffer.from([0x48, 0x00, 0x00])
  return Buffer.concat([Buffer.from([0x15, 0x02, 0x19, 0xfc]), varint(n), Buffer.alloc(n * element.length).fill(element), Buffer.from([0x00])])
}

/** Where each hostile file goes in the bucket written by writeHostileBucket. */
export const HOSTILE_CSAT = `${csat04}part-0.parquet`
export const HOSTILE_MSGS = [
  `${msgs04}part-1.parquet`,
  `${msgs04}part-2.parquet`,
  `${msgs04}part-3.parquet`,
  `${msgs04}part-4.parquet`,
  `${msgs04}part-5.parquet`
] as const
export const HOSTILE = [HOSTILE_CSAT, ...HOSTILE_MSGS] as const

/**
 * The layout of test/helpers/unreadable-bucket.ts with hostile footers in place of the damaged files: claudia_csat's
 * newest ready copy (04:00) holds the 4 MB struct list (its 03:00 copy is readable); claudia_messages' newest folder
 * holds one readable file (m3) and every hostile file.
 */
export async function writeHostileBucket(root: string, db: Db): Promise<void> {
  const { put, parquet } = bucketWriter(root, db)
  for (const at of [H03, H04]) {
    await put(
      manifestKey('v2', d(at), h(at)),
      at + 25 * MIN,
      JSON.stringify({ snapshot_date: d(at), snapshot_hour: h(at), complete: true, tables_delivered: [], tables_missing: [], tables_pending: [] })
    )
  }
  const files = hostileFiles()
  await parquet(`${csat03}part-0.parquet`, `SELECT 'r' || i AS csat_id, 'tnt_acme' AS tenant_id, 'h03' AS tag FROM range(3) t(i)`, H03 + 10 * MIN)
  await put(`${csat03}_SUCCESS`, H03 + 20 * MIN, '')
  await put(HOSTILE_CSAT, H04 + 10 * MIN, files['structs-4mb.parquet'])
  await put(`${csat04}_SUCCESS`, H04 + 20 * MIN, '')
  const msgRows = (keys: string[], tag: string): string =>
    `SELECT * FROM (VALUES ${keys.map((k) => `(${quoteLiteral(k)}, 'tnt_acme', ${quoteLiteral(tag)})`).join(', ')}) t(message_id, tenant_id, content)`
  await parquet(`${msgs03}part-0.parquet`, msgRows(['m1', 'm2'], 'h03'), H03 + 10 * MIN)
  await put(`${msgs03}_SUCCESS`, H03 + 20 * MIN, '')
  await parquet(`${msgs04}part-0.parquet`, msgRows(['m3'], 'h04'), H04 + 10 * MIN)
  const order = ['structs-16mb.parquet', 'claims-2g.parquet', 'length-past-file.parquet', 'nested.parquet'] as const
  for (const [i, name] of order.entries()) await put(HOSTILE_MSGS[i] as string, H04 + 10 * MIN, files[name])
  await put(HOSTILE_MSGS[4], H04 + 10 * MIN, withFooter(heavySchemaFooter(400_000)))
  await put(`${msgs04}_SUCCESS`, H04 + 20 * MIN, '')
}
