// The results grid: @tanstack/react-table for the columns (sizes, resizing, sort state) and
// @tanstack/react-virtual for rows and columns, so only what is on screen is in the DOM. Rows come a page at a
// time from the materialized result as the user scrolls (the renderer keeps a bounded number of pages).
// Sort is done in SQL. Click selects a cell, Shift+click a range; Ctrl/⌘+C copies it as tab-separated text.
// Values are the text DuckDB writes (see engine/result-set.ts), instants on the zone's clock the header names
// (UTC unless a zone is given); copy gives exactly what is shown, NULL empty.
import { type ColumnDef, type ColumnSizingState, type SortingState, getCoreRowModel, useReactTable } from '@tanstack/react-table'
import { useVirtualizer } from '@tanstack/react-virtual'
import { useEffect, useEffectEvent, useMemo, useReducer, useRef, useState } from 'react'
import { countText } from '../../../shared/counts'
import { durationText } from '../../../shared/durations'
import { contentWidths } from './column-widths'
import { BLOB_NOTE, NULL_NOTE, isInstantType, isNumericType, shownValue, toTsv } from './format-value'
import { type AxisZone, ZONE_LABEL } from './time'
import css from './result-grid.module.css'
import { type DisplayRow, ResultSet } from '../engine/result-set'

const ROW_H = 24
type Cell = { row: number; col: number }

/** Without a height, the grid fills the window below where it starts (at least 300 px). Times read in `zone` (UTC). */
export function ResultGrid({
  result,
  onSort,
  height: fixedHeight,
  zone = 'utc',
  emptyText = 'No rows: the query ran and returned none.'
}: {
  result: ResultSet
  onSort?: (column: string, desc: boolean) => void
  height?: number
  zone?: AxisZone
  /** Said under the header when the result has no rows. */
  emptyText?: string
}): React.JSX.Element {
  const [fill, setFill] = useState(420)
  // No rows: the header and the words under it, not a window's height of nothing.
  const height = result.rowCount === 0 ? ROW_H * 4 : (fixedHeight ?? fill)
  const scrollRef = useRef<HTMLDivElement | null>(null)
  const [, redraw] = useReducer((n: number) => n + 1, 0)
  const loaded = useRef(new Map<number, DisplayRow[]>())
  const [anchor, setAnchor] = useState<Cell | null>(null)
  const [focus, setFocus] = useState<Cell | null>(null)
  const [sorting, setSorting] = useState<SortingState>([])
  const [columnSizing, setColumnSizing] = useState<ColumnSizingState>({})
  const [copied, setCopied] = useState<string | null>(null)
  /** A column's type as its header says it: an instant's with the zone its values are read in. */
  const typeLabel = (type: string): string => (isInstantType(type) ? `${type.toLowerCase()} · ${ZONE_LABEL[zone]}` : type.toLowerCase())

  const columns = useMemo<ColumnDef<Record<string, unknown>>[]>(
    () => result.columns.map((c) => ({ id: c.name, header: c.name, size: Math.min(320, Math.max(90, c.name.length * 9 + 30)), meta: { type: c.type } })),
    [result]
  )
  const table = useReactTable({
    data: [],
    columns,
    getCoreRowModel: getCoreRowModel(),
    columnResizeMode: 'onChange',
    manualSorting: true,
    state: { sorting, columnSizing },
    onSortingChange: setSorting,
    onColumnSizingChange: setColumnSizing
  })
  const headers = table.getFlatHeaders()

  // The height left in the window below the grid's top (as laid out with the page scrolled to the top).
  useEffect(() => {
    if (fixedHeight !== undefined) return
    const measure = (): void => {
      const el = scrollRef.current
      if (!el || el.offsetParent === null) return
      const top = el.getBoundingClientRect().top + window.scrollY
      setFill(Math.max(300, Math.round(window.innerHeight - (top > window.innerHeight * 0.6 ? window.innerHeight * 0.3 : top) - 16)))
    }
    measure()
    window.addEventListener('resize', measure)
    const ro = new ResizeObserver(measure)
    if (scrollRef.current) ro.observe(scrollRef.current)
    return () => {
      window.removeEventListener('resize', measure)
      ro.disconnect()
    }
  }, [fixedHeight, result])

  // Widths from the header and the first page's values, once per result (set when that page arrives, below);
  // a column the user resizes afterwards keeps its width.
  const sized = useRef<ResultSet | null>(null)
  // An effect event: the page loader calls it with the first page, for the result current then.
  const sizeFrom = useEffectEvent((rows: readonly DisplayRow[]): void => {
    if (sized.current === result) return
    sized.current = result
    const widths = contentWidths(
      result.columns.map((c) => ({ name: c.name, type: typeLabel(c.type) })),
      rows
    )
    setColumnSizing(Object.fromEntries(result.columns.map((c, i) => [c.name, widths[i] ?? 120])))
  })

  useEffect(() => {
    loaded.current = new Map()
    setAnchor(null)
    setFocus(null)
    scrollRef.current?.scrollTo({ top: 0 })
    redraw()
  }, [result])

  const rows = useVirtualizer({ count: result.rowCount, getScrollElement: () => scrollRef.current, estimateSize: () => ROW_H, overscan: 20 })
  const cols = useVirtualizer({
    horizontal: true,
    count: headers.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: (i) => headers[i]?.getSize() ?? 120,
    overscan: 3
  })
  const sizes = headers.map((h) => h.getSize()).join(',')
  useEffect(() => cols.measure(), [sizes, cols])

  // Fetch the pages under the visible rows; keep only those (and their neighbours) in memory.
  const items = rows.getVirtualItems()
  const first = items[0]?.index ?? 0
  const last = items[items.length - 1]?.index ?? 0
  useEffect(() => {
    const p0 = Math.floor(first / ResultSet.PAGE)
    const p1 = Math.floor(last / ResultSet.PAGE)
    for (let p = p0; p <= p1; p++) {
      if (loaded.current.has(p)) continue
      void result.page(p).then(
        (r) => {
          if (p === 0) sizeFrom(r)
          loaded.current.set(p, r)
          for (const k of [...loaded.current.keys()]) if (k < p0 - 2 || k > p1 + 2) loaded.current.delete(k)
          redraw()
        },
        () => {}
      )
    }
  }, [first, last, result])

  const PAGE = ResultSet.PAGE
  const rowAt = (i: number): DisplayRow | undefined => loaded.current.get(Math.floor(i / PAGE))?.[i % PAGE]

  const sel =
    anchor && focus
      ? { r0: Math.min(anchor.row, focus.row), r1: Math.max(anchor.row, focus.row), c0: Math.min(anchor.col, focus.col), c1: Math.max(anchor.col, focus.col) }
      : null

  const copy = async (what: 'selection' | 'rows'): Promise<void> => {
    if (!sel) return
    const c0 = what === 'rows' ? 0 : sel.c0
    const c1 = what === 'rows' ? result.columns.length - 1 : sel.c1
    const n = sel.r1 - sel.r0 + 1
    if (n > 100_000) {
      setCopied('Select at most 100,000 rows to copy; export larger results.')
      return
    }
    const data = await result.rows(sel.r0, sel.r1)
    const cs = result.columns.slice(c0, c1 + 1)
    const text = toTsv(data.map((r) => r.slice(c0, c1 + 1).map((v, i) => shownValue(v, cs[i]?.type ?? '', zone))))
    await navigator.clipboard.writeText(text).then(
      () => setCopied(`Copied ${n} row${n === 1 ? '' : 's'} × ${cs.length} column${cs.length === 1 ? '' : 's'}`),
      () => setCopied('The clipboard is not available here.')
    )
  }

  const onKeyDown = (e: React.KeyboardEvent): void => {
    if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 'c') {
      e.preventDefault()
      void copy('selection')
      return
    }
    const f = focus ?? { row: 0, col: 0 }
    const move = (dr: number, dc: number): void => {
      const next = { row: Math.max(0, Math.min(result.rowCount - 1, f.row + dr)), col: Math.max(0, Math.min(result.columns.length - 1, f.col + dc)) }
      setFocus(next)
      if (!e.shiftKey) setAnchor(next)
      rows.scrollToIndex(next.row)
      cols.scrollToIndex(next.col)
      e.preventDefault()
    }
    if (e.key === 'ArrowDown') move(1, 0)
    else if (e.key === 'ArrowUp') move(-1, 0)
    else if (e.key === 'ArrowRight') move(0, 1)
    else if (e.key === 'ArrowLeft') move(0, -1)
    else if (e.key === 'PageDown') move(20, 0)
    else if (e.key === 'PageUp') move(-20, 0)
    else if (e.key === 'End' && (e.ctrlKey || e.metaKey)) move(result.rowCount, 0)
    else if (e.key === 'Home' && (e.ctrlKey || e.metaKey)) move(-result.rowCount, 0)
  }

  const hasInstants = result.columns.some((c) => isInstantType(c.type))
  const totalW = cols.getTotalSize()
  const colItems = cols.getVirtualItems()
  const NUM_W = 70

  return (
    <div data-testid="result-grid" data-rows={result.rowCount} data-loaded-pages={loaded.current.size} className={css.grid}>
      <div className={css.toolbar}>
        <span data-testid="result-count">
          {countText(result.rowCount, 'row')} · {countText(result.columns.length, 'column')} · {durationText(result.ms)}
        </span>
        {hasInstants ? (
          <span data-testid="grid-zone" title="Timestamps are UTC instants in the bucket; the grid reads them on this clock (copied as shown).">
            times in {ZONE_LABEL[zone]}
          </span>
        ) : null}
        <span className={css.spacer} />
        <button disabled={!sel} onClick={() => void copy('selection')}>
          {sel && sel.r0 === sel.r1 && sel.c0 === sel.c1 ? 'Copy cell' : 'Copy selection'}
        </button>
        <button disabled={!sel} onClick={() => void copy('rows')}>
          Copy row{sel && sel.r1 > sel.r0 ? 's' : ''}
        </button>
        {copied ? <span role="status">{copied}</span> : null}
      </div>
      <div ref={scrollRef} data-testid="grid-scroll" tabIndex={0} onKeyDown={onKeyDown} className={css.scroll} style={{ height }}>
        <div className={css.canvas} style={{ width: totalW + NUM_W, height: rows.getTotalSize() + ROW_H }}>
          <div className={css.head} style={{ height: ROW_H, width: totalW + NUM_W }}>
            <div className={css.corner} style={{ width: NUM_W, height: ROW_H }} />
            {colItems.map((ci) => {
              const h = headers[ci.index]
              if (!h) return null
              const type = result.columns[ci.index]?.type ?? ''
              const s = sorting.find((x) => x.id === h.id)
              return (
                <div
                  key={h.id}
                  role="columnheader"
                  data-column={h.id}
                  title={`${h.id} · ${type}${/\bBLOB\b/.test(type) ? `\n${BLOB_NOTE}` : ''}\n${NULL_NOTE}\nClick to sort (on the typed values, in SQL).`}
                  data-type={type}
                  onClick={() => {
                    const desc = s ? !s.desc : false
                    setSorting([{ id: h.id, desc }])
                    onSort?.(h.id, desc)
                  }}
                  className={css.columnHeader}
                  style={{ left: NUM_W + ci.start, width: ci.size, height: ROW_H, lineHeight: `${ROW_H}px` }}
                >
                  {h.id} <span className={css.type}>{typeLabel(type)}</span> {s ? (s.desc ? '▼' : '▲') : ''}
                  <span
                    onMouseDown={h.getResizeHandler()}
                    onClick={(e) => e.stopPropagation()}
                    data-resizing={h.column.getIsResizing()}
                    className={css.resizer}
                    style={{ height: ROW_H }}
                  />
                </div>
              )
            })}
          </div>
          {items.map((ri) => {
            const row = rowAt(ri.index)
            return (
              <div
                key={ri.key}
                data-row-index={ri.index}
                className={ri.index % 2 ? `${css.row} ${css.odd}` : css.row}
                style={{ top: ri.start + ROW_H, height: ROW_H, width: totalW + NUM_W }}
              >
                <div className={css.rowNumber} style={{ width: NUM_W, height: ROW_H, lineHeight: `${ROW_H}px` }}>
                  {ri.index + 1}
                </div>
                {colItems.map((ci) => {
                  const c = result.columns[ci.index]
                  if (!c) return null
                  const v = row ? shownValue(row[ci.index] ?? null, c.type, zone) : undefined
                  const selected = sel && ri.index >= sel.r0 && ri.index <= sel.r1 && ci.index >= sel.c0 && ci.index <= sel.c1
                  return (
                    <div
                      key={ci.key}
                      data-cell={`${ri.index}:${ci.index}`}
                      onMouseDown={(e) => {
                        const cell = { row: ri.index, col: ci.index }
                        setFocus(cell)
                        if (!e.shiftKey || !anchor) setAnchor(cell)
                        scrollRef.current?.focus()
                      }}
                      data-selected={selected ? 'true' : undefined}
                      data-numeric={isNumericType(c.type) ? 'true' : undefined}
                      className={css.cell}
                      style={{ left: NUM_W + ci.start, width: ci.size, height: ROW_H, lineHeight: `${ROW_H}px` }}
                      {...(v === null ? { 'data-null': 'true', title: 'NULL (no value)' } : {})}
                    >
                      {row === undefined ? '…' : v === null || v === undefined ? 'NULL' : v}
                    </div>
                  )
                })}
              </div>
            )
          })}
        </div>
        {result.rowCount === 0 ? (
          <p data-testid="grid-empty" className={css.empty}>
            {emptyText}
          </p>
        ) : null}
      </div>
    </div>
  )
}
