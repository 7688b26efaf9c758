// Every value right in the results grid, in a real browser (Debian's Chromium): one query returns a row of
// HUGEINT, DECIMAL, INTERVAL, TIME, TIMESTAMP(TZ), far dates, UUID, ENUM, BLOB, LIST, STRUCT, MAP, NaN/±Infinity
// and text that looks like NULL, and a row of NULLs; what the grid shows (DOM text) and what "Copy rows" puts on
// the clipboard must be native DuckDB 1.5's own text for the same values (`CAST(x AS VARCHAR)`, TimeZone UTC).
//
// Where DuckDB-WASM 0.9.1 (the grid's engine) and 1.5 write a type differently, the grid follows 1.5:
// - strings inside LIST/STRUCT/MAP: 1.5 quotes one that could be misread ('x,y', '', 'NULL'); 0.9.1 writes
//   [x,y, , NULL], the same text as a list of three elements, one NULL. The grid writes nested values itself
//   from VARCHAR leaves, as 1.5 does (asserted below: 0.9.1's own cast differs, the grid does not).
// - TIMESTAMP WITH TIME ZONE: 0.9.1 in the browser has no ICU and writes UTC (+00) always; 1.5 writes the
//   session's TimeZone, so the comparison sets UTC, the app's time zone for values.
// - TIMESTAMP_NS: 0.9.1 keeps microseconds only (the nanoseconds are gone once read); not a grid choice.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import react from '@vitejs/plugin-react'
import type { Browser, Page } from 'playwright-core'
import { build } from 'vite'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launchChromium } from '../helpers/chromium'
import { openDb } from '../helpers/duckdb'
import { serveFolder } from '../helpers/static-server'

// name → SQL expression; one column each.
const VALUES: [string, string][] = [
  ['sum_int', `(SELECT sum(x) FROM (VALUES (2147483647), (2147483647), (7)) v(x))`],
  ['sum_big', `(SELECT sum(x) FROM (VALUES (9223372036854775807::BIGINT), (9223372036854775807::BIGINT)) v(x))`],
  ['huge_max', `170141183460469231731687303715884105727::HUGEINT`],
  ['above_2_53', `9007199254740993::HUGEINT`],
  ['dec18', `123456789012345.678::DECIMAL(18,3)`],
  ['dec38', `-1234567890123456789012345678.0123456789::DECIMAL(38,10)`],
  ['iv', `INTERVAL '1 year 2 months 3 days 04:05:06.789'`],
  ['iv_neg', `INTERVAL '-3 days -00:00:01'`],
  ['t', `TIME '23:59:59.123456'`],
  ['ts', `TIMESTAMP '2026-11-03 03:04:05.123456'`],
  ['tstz', `TIMESTAMPTZ '2026-11-03 05:04:05.5+02'`],
  ['d1969', `DATE '1969-07-20'`],
  ['d2150', `DATE '2150-01-01'`],
  ['ts1969', `TIMESTAMP '1969-07-20 20:17:40'`],
  ['u', `'550e8400-e29b-41d4-a716-446655440000'::UUID`],
  ['e', `'happy'::ENUM('sad', 'ok', 'happy')`],
  ['b', `'\\xAA\\x00ab'::BLOB`],
  ['l', `[1, 2, NULL]`],
  ['l_text', `['a', 'x,y', NULL, '', 'NULL', 'it''s']`],
  ['s', `{'a': 1, 'b': 'x y', 'c': [1.5, NULL], 'd': 'NULL'}`],
  ['m', `MAP {'k': 1, 'j,2': NULL}`],
  ['nan', `'nan'::DOUBLE`],
  ['inf', `'inf'::DOUBLE`],
  ['ninf', `'-inf'::DOUBLE`],
  ['dbl', `0.1::DOUBLE`],
  ['text_null', `'NULL'`],
  ['text_empty', `''`],
  ['text_tab', `'a' || chr(9) || 'b "c"'`],
  ['none', `NULL::INTEGER`]
]
// Row 1 is all NULL, each cast to its column's type (a bare NULL would turn the ENUM column into VARCHAR).
const sql = (): string =>
  `SELECT ${VALUES.map(([n, x]) => `${x} AS ${n}`).join(', ')}\nUNION ALL SELECT ${VALUES.map(([n, x]) => `CAST(NULL AS ${typeofSql(x)}) AS ${n}`).join(', ')}`
/** Each value's type, as native typeof() names it (computed in beforeAll). */
const types = new Map<string, string>()
function typeofSql(x: string): string {
  const t = types.get(x)
  if (!t) throw new Error(`no type for ${x}`)
  return t
}

let work: string
let site: { origin: string; close(): Promise<void> }
let browser: Browser
let page: Page
/** Native DuckDB 1.5's text of each value (null for NULL). */
let want: Record<string, string | null>

beforeAll(async () => {
  const db = await openDb()
  try {
    await db.run(`SET TimeZone = 'UTC'`)
    for (const [, x] of VALUES) types.set(x, String((await db.rows(`SELECT typeof(${x}) AS t`))[0]?.['t']))
    want = (await db.rows(`SELECT ${VALUES.map(([n, x]) => `CAST(${x} AS VARCHAR) AS ${n}`).join(', ')}`))[0] as Record<string, string | null>
  } finally {
    db.close()
  }
  work = await mkdtemp(join(tmpdir(), 'ee-grid-'))
  await build({
    root: join(import.meta.dirname, 'grid-page'),
    plugins: [react()],
    logLevel: 'silent',
    build: { outDir: join(work, 'page'), emptyOutDir: true }
  })
  site = await serveFolder(join(work, 'page'))
  browser = await launchChromium()
  // Wide enough that every column is drawn (the grid virtualizes columns too).
  const context = await browser.newContext({ viewport: { width: 6000, height: 700 }, permissions: ['clipboard-read', 'clipboard-write'] })
  page = await context.newPage()
  page.on('pageerror', (e) => process.stderr.write(`page error: ${e.message}\n`))
  await page.goto(`${site.origin}/index.html`)
  await page.waitForFunction(() => typeof window.showQuery === 'function')
}, 300_000)
afterAll(async () => {
  await browser?.close()
  await site?.close()
  if (work) await rm(work, { recursive: true, force: true })
})

const cellText = (row: number): Promise<(string | null)[]> =>
  page.evaluate(
    ([r, n]) =>
      Array.from({ length: n }, (_, c) => {
        const el = document.querySelector(`[data-cell="${r}:${c}"]`) as HTMLElement | null
        return el === null ? '<missing>' : el.dataset['null'] === 'true' ? null : el.textContent
      }),
    [row, VALUES.length] as const
  )

describe('results grid values in Chromium, against native DuckDB 1.5', () => {
  it('shows every value as native DuckDB writes it, NULL apart from the text "NULL", and types in the header', async () => {
    const out = await page.evaluate((q) => window.showQuery([], q), sql())
    expect(out.rows).toBe(2)
    expect(out.columns.map((c) => c.name)).toEqual(VALUES.map(([n]) => n))
    await page.waitForFunction(
      (n) => document.querySelectorAll('[data-cell^="1:"]').length === n && !document.querySelector('[data-cell="0:0"]')?.textContent?.includes('…'),
      VALUES.length
    )
    const shown = await cellText(0)
    expect(Object.fromEntries(VALUES.map(([n], i) => [n, shown[i]]))).toEqual(want)
    // A few of them spelled out, so that a change in both engines cannot pass unseen.
    expect(want['sum_int']).toBe('4294967301')
    expect(want['sum_big']).toBe('18446744073709551614')
    expect(want['above_2_53']).toBe('9007199254740993')
    expect(want['tstz']).toBe('2026-11-03 03:04:05.5+00')
    expect(want['l_text']).toBe(`[a, 'x,y', NULL, '', 'NULL', 'it\\'s']`)
    expect(want['b']).toBe('\\xAA\\x00ab')
    expect(want['none']).toBeNull()
    // The NULL row: every cell is NULL, drawn as such; the text 'NULL' in row 0 is not.
    expect(await cellText(1)).toEqual(VALUES.map(() => null))
    expect(await page.locator('[data-cell="0:25"]').getAttribute('data-null')).toBeNull()
    expect(await page.locator('[data-cell="1:25"]').textContent()).toBe('NULL')
    // Column types in the header tooltip (DuckDB-WASM's DESCRIBE, the same names as native typeof()); BLOB says how it is written.
    const headers = await page
      .locator('[role=columnheader]')
      .evaluateAll((hs) => hs.map((h) => ({ column: h.getAttribute('data-column'), type: h.getAttribute('data-type'), title: h.getAttribute('title') })))
    expect(headers.map((h) => [h.column, h.type])).toEqual(VALUES.map(([n, x]) => [n, typeofSql(x)]))
    expect(headers.find((h) => h.column === 'b')?.title).toMatch(/BLOB values as DuckDB writes them: printable ASCII as is, every other byte as \\xNN/)
    expect(headers.filter((h) => /\\xNN/.test(h.title ?? '')).map((h) => h.column)).toEqual(['b'])
  })

  it('follows DuckDB 1.5 where 0.9.1 writes nested text ambiguously (a deliberate choice)', async () => {
    const [old] = await page.evaluate(() => window.engineQuery(`SELECT CAST(['a', 'x,y', NULL, '', 'NULL', 'it''s'] AS VARCHAR) AS v, version() AS version`))
    expect(old).toEqual({ v: `[a, x,y, NULL, , NULL, it's]`, version: 'v0.9.1' })
    expect((await cellText(0))[VALUES.findIndex(([n]) => n === 'l_text')]).toBe(want['l_text'])
  })

  it('"Copy rows" puts exactly the shown text on the clipboard: tab-separated, NULL empty, a field with a tab quoted', async () => {
    await page.locator('[data-cell="0:0"]').click()
    await page.locator('[data-cell="1:3"]').click({ modifiers: ['Shift'] })
    await page.getByRole('button', { name: 'Copy rows' }).click()
    await expect.poll(() => page.getByRole('status').textContent()).toMatch(/Copied 2 rows × 29 columns/)
    const clip = await page.evaluate(() => navigator.clipboard.readText())
    const field = (v: string | null): string => (v === null ? '' : /[\t\n\r"]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v)
    const row0 = VALUES.map(([n]) => field(want[n] ?? null)).join('\t')
    expect(clip).toBe(`${row0}\n${VALUES.map(() => '').join('\t')}`)
    expect(clip).toContain('\t"a\tb ""c"""\t')
    // Ctrl/⌘+C on one cell: that cell's text, as shown.
    await page.locator('[data-cell="0:0"]').click()
    await page.keyboard.press('ControlOrMeta+c')
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe('4294967301')
  })
})
