// Column widths sized to what the grid shows: the longest of the header (name and type) and the values of the
// first page, in the grid's monospace font, within limits (a long text column does not push the others away;
// a timestamp is never cut). Pure.
const CHAR_PX = 7.3
const PAD_PX = 18
export const MIN_COLUMN_PX = 64
export const MAX_COLUMN_PX = 420

export function contentWidths(columns: readonly { name: string; type: string }[], rows: readonly (readonly (string | null | undefined)[])[]): number[] {
  return columns.map((c, i) => {
    // The header shows the name, the type in lower case and room for the sort arrow.
    let chars = c.name.length + 1 + c.type.length + 2
    for (const r of rows) chars = Math.max(chars, (r[i] ?? 'NULL').length)
    return Math.round(Math.min(MAX_COLUMN_PX, Math.max(MIN_COLUMN_PX, chars * CHAR_PX + PAD_PX)))
  })
}
