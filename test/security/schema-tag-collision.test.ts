// A bucket file crafted so that a parser's decoding of its schema matches another file's while its bytes differ: the
// mirror's build reads files of one schema tag as one schema (DuckDB binds the first file's and casts the others), so
// the tag must tell them apart. Here two column names whose first byte is invalid UTF-8 (0xFF, 0xFE): the footer parser
// decodes both to the same name, and the tags, a hash of the schema's own bytes, still differ.
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FooterParser, type FooterResult, readParquetFooter } from '../../src/main/store/parquet-footer'
import { quoteLiteral } from '../../src/shared/sql-quote'
import { openDb } from '../helpers/duckdb'

let work: string
let file: Uint8Array
const parser = new FooterParser({ workers: 1 })

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'ee-tag-collision-'))
  const db = await openDb()
  try {
    const path = join(work, 'real.parquet')
    await db.run(`COPY (SELECT 1::BIGINT AS xcolumn_to_forge, 'a' AS name) TO ${quoteLiteral(path)} (FORMAT parquet)`)
    file = new Uint8Array(await readFile(path))
  } finally {
    db.close()
  }
})
afterAll(async () => {
  await parser.close()
  await rm(work, { recursive: true, force: true })
})

/** The real file with the first byte of its column's name in the footer replaced (the same length: still a footer). */
function forged(byte: number): Uint8Array {
  const copy = new Uint8Array(file)
  const name = new TextEncoder().encode('xcolumn_to_forge')
  const length = new DataView(copy.buffer).getUint32(copy.length - 8, true)
  const footerStart = copy.length - 8 - length
  for (let i = footerStart; i < copy.length - name.length; i++) {
    if (name.every((b, k) => copy[i + k] === b)) {
      copy[i] = byte
      return copy
    }
  }
  throw new Error('the column name is not in the footer')
}

const read = (bytes: Uint8Array): Promise<FooterResult> => readParquetFooter(bytes.length, async (start, end) => bytes.subarray(start, end + 1), { parser })

describe('a schema tag against footers crafted to decode alike', () => {
  it('differs for two names of invalid UTF-8 that the parser reads as the same name', async () => {
    const [a, b] = [await read(forged(0xff)), await read(forged(0xfe))]
    if (!a.ok || !b.ok) throw new Error('the forged footers should parse')
    // The parser's view of the two is the same (the attack) ...
    expect(a.footer.columns).toEqual(b.footer.columns)
    expect(a.footer.columns[0]?.name).toContain('\uFFFD')
    // ... and the tags are not: the mirror reads the two files by name, each with its own schema.
    expect(a.footer.schemaTag).not.toBe(b.footer.schemaTag)
    const real = await read(file)
    expect(real.ok && real.footer.schemaTag).not.toBe(a.footer.schemaTag)
  })
})
