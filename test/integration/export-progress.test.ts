// An export's progress moves while DuckDB writes (issue 11): DuckDB's own query progress stays at 0 or -1 for most
// COPYs of the logical tables (a window, a join), so the export reports the bytes of the file written so far.
import { mkdtemp, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { NativeEngine, type QueryProgress } from '../../src/main/engine/native-engine'
import { exportQuery } from '../../src/main/export/export-to-file'

let work: string
let engine: NativeEngine
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'ee-export-progress-'))
  engine = await NativeEngine.open({ workDir: join(work, 'engine'), readableRoots: [] })
})
afterAll(async () => {
  await engine?.close()
  await rm(work, { recursive: true, force: true })
})

// A window over every row, as a keyed parts table's logical view has: DuckDB cannot tell how far along it is.
// The hashes computed above the window run while the file is written, so that writing lasts several of the 250 ms
// reports even on a fast machine (with the window alone, Parquet's write took one report on CI).
const SQL = `SELECT i, h, rn, md5(h || rn) AS h2, md5(md5(h) || i) AS h3
  FROM (SELECT i, md5(i::VARCHAR) AS h, row_number() OVER (PARTITION BY i % 1000 ORDER BY i DESC) AS rn FROM range(3000000) t(i))`

describe('export progress', () => {
  it.each(['csv', 'parquet'] as const)(
    "%s: reports the bytes written while it runs, growing, up to the file's size",
    async (format) => {
      const seen: QueryProgress[] = []
      const target = join(work, `out.${format}`)
      const { rows } = await exportQuery(engine, SQL, target, { format, onProgress: (p) => seen.push(p) })
      expect(rows).toBe(3_000_000)
      const bytes = seen.map((p) => p.bytesWritten ?? -1)
      const moving = bytes.filter((b) => b > 0)
      // Several reports while the file grew, never going back, never past the finished file.
      expect(new Set(moving).size, JSON.stringify(seen.slice(0, 10))).toBeGreaterThan(1)
      expect(bytes).toEqual([...bytes].sort((a, b) => a - b))
      expect(Math.max(...bytes)).toBeLessThanOrEqual((await stat(target)).size)
    },
    120_000
  )
})
