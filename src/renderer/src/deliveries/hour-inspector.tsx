// The hour inspector: the findings of the hour by severity, the manifest (state, warnings, raw JSON) and one line
// per table (state, _SUCCESS time, files, rows) that opens to its folder: files, object times, storage classes,
// delivered_through, and its rows beside the table's usual band (the volume monitor's figures). A side panel beside the timeline, as wide as its edge is dragged, kept in view (sticky) and
// scrolled to when it opens; focused when opened from outside the timeline.
import { useEffect, useMemo, useRef } from 'react'
import type { HourDetail, HourTable, VolumePointView } from '../../../shared/api/views'
import type { ManifestTableEntry } from '../../../shared/manifest'
import { countText, formatBytes, numberText } from '../../../shared/counts'
import { resolutionWords } from '../../../shared/incidents'
import { bySeverity } from '../../../shared/severity-order'
import { useEscapeToClose } from '../common/escape-key'
import { timeText } from '../common/time'
import { useApp } from '../store/use-app-store'
import { tokenVar } from '../common/css-tokens'
import { STATE_STYLE } from './cell-states'
import { KIND_WORDS, MANIFEST_WORDS } from './finding-words'
import { PanelEdge } from './panel-edge'
import { TableLabel } from './table-label'
import css from './hour-inspector.module.css'

/** A state's words without the explanation in brackets ("failed", "pending"); the full words are its tooltip. */
const shortState = (label: string): string => label.replace(/ \(.*\)$/, '')

/** A manifest's tables_delivered: folded to its totals, open to one entry a line (it may break after the schema). */
function DeliveredList({ entries }: { entries: readonly ManifestTableEntry[] }): React.JSX.Element {
  if (entries.length === 0) return <span>—</span>
  const files = entries.reduce((n, e) => n + (e.files ?? 0), 0)
  const rows = entries.every((e) => e.rows !== undefined) ? entries.reduce((n, e) => n + (e.rows ?? 0), 0) : null
  return (
    <details className={css.delivered}>
      <summary>
        {countText(entries.length, 'table')} · {countText(files, 'file')}
        {rows === null ? '' : ` · ${countText(rows, 'row')}`}
      </summary>
      <ul className={css.deliveredList}>
        {entries.map((e) => {
          const dot = e.name.lastIndexOf('.') + 1
          return (
            <li key={e.name}>
              {e.name.slice(0, dot)}
              <wbr />
              {e.name.slice(dot)}
              {e.files !== undefined ? (
                <span className={css.fieldName}>
                  {' '}
                  ({countText(e.files, 'file')}
                  {e.rows !== undefined ? `, ${countText(e.rows, 'row')}` : ''})
                </span>
              ) : null}
            </li>
          )
        })}
      </ul>
    </details>
  )
}

/** The rows of a table's files, when every file's count is known. */
function rowsOf(t: HourTable): number | null {
  let sum = 0
  for (const f of t.files) {
    if (f.rows === null) return null
    sum += f.rows
  }
  return t.files.length ? sum : null
}

/** A delivery's rows beside the table's usual band (a bar: the band shaded, the figure a tick) and its bytes. */
function VolumeLine({ volume }: { volume: VolumePointView }): React.JSX.Element {
  const b = volume.rowsBand
  const bytes = volume.bytesBand
    ? `${formatBytes(volume.bytes)}; usual ${formatBytes(volume.bytesBand.low)}–${formatBytes(volume.bytesBand.high)}`
    : formatBytes(volume.bytes)
  if (!b)
    return (
      <div data-testid="volume-band" className={css.volume}>
        {countText(volume.rows, 'row')} · {bytes} · too little history yet to judge its volume
      </div>
    )
  const max = Math.max(1, volume.rows, b.high) * 1.05
  const pct = (n: number): string => `${((n / max) * 100).toFixed(1)}%`
  return (
    <div data-testid="volume-band" data-anomalous={volume.anomalous} className={volume.anomalous ? `${css.volume} ${css.volumeOut}` : css.volume}>
      <span className={css.bandTrack} aria-hidden="true">
        <span className={css.bandRange} style={{ left: pct(b.low), width: pct(b.high - b.low) }} />
        <span className={css.bandMark} style={{ left: pct(volume.rows) }} />
      </span>
      <span>
        {countText(volume.rows, 'row')}; usual {numberText(b.low)}–{numberText(b.high)} ({b.how}){volume.anomalous ? ': out of the usual band' : ''} · {bytes}
      </span>
    </div>
  )
}

export function HourInspector(props: {
  detail: HourDetail
  onClose: () => void
  /** Dragging or arrowing the panel's left edge asks for this width (px). */
  onResize: (width: number) => void
}): React.JSX.Element {
  const { detail, onClose } = props
  const panel = useRef<HTMLElement | null>(null)
  const heading = useRef<HTMLHeadingElement | null>(null)
  const zone = useApp((s) => s.zone)
  const at = (iso: string): string => timeText(iso, zone, true)
  // On the hour's own day a time needs no date (the heading has it); on another day it keeps it.
  const day = timeText(detail.start, zone).slice(0, 10)
  const short = (iso: string): string => {
    const text = at(iso)
    return text.startsWith(day) ? text.slice(11) : text
  }
  const names = useMemo(() => detail.tables.map((t) => t.table), [detail])
  useEscapeToClose(onClose)
  // Opened from an incident far down the page, it must not open out of sight; from the timeline, the keyboard
  // stays on the timeline (arrows and Enter go on working there).
  useEffect(() => {
    panel.current?.scrollIntoView({ block: 'nearest' })
    if (document.activeElement?.getAttribute('data-testid') !== 'timeline-canvas') heading.current?.focus({ preventScroll: true })
  }, [detail])
  return (
    <section ref={panel} data-testid="inspector" aria-label="hour inspector" className={css.panel}>
      <PanelEdge panel={panel} onResize={props.onResize} label="inspector width" />
      <div data-testid="inspector-body" className={css.body}>
        <div className={css.header}>
          <h2 ref={heading} tabIndex={-1} className={css.title}>
            {timeText(detail.start, zone)} · {detail.era === 'v1' ? 'v1 daily delivery' : detail.era === 'gap' ? 'switch gap' : 'v2 hourly delivery'}
          </h2>
          <button onClick={onClose}>Close</button>
        </div>
        {detail.findings.length > 0 ? (
          <ul data-testid="inspector-findings" className={css.findings}>
            {bySeverity(detail.findings).map((f, i) => (
              <li key={i} data-severity={f.severity} data-resolved={f.resolved !== null} className={f.resolved ? css.resolved : undefined}>
                <b title={f.kind}>{KIND_WORDS[f.kind].one}</b> {f.table ?? ''}
                {f.resolved ? (
                  <span data-testid="finding-resolution"> · resolved: {resolutionWords(f.resolved, (t) => timeText(new Date(t).toISOString(), zone))}</span>
                ) : null}
                : {f.message}
              </li>
            ))}
          </ul>
        ) : null}
        <h3 className={css.manifestTitle} title={detail.manifest?.state ?? undefined}>
          Manifest: {detail.manifest?.state ? MANIFEST_WORDS[detail.manifest.state].replace(/^manifest /, '') : 'none expected'}
        </h3>
        {detail.manifest?.key ? <code className={css.manifestKey}>{detail.manifest.key}</code> : null}
        {detail.manifest && detail.manifest.warnings.length > 0 ? (
          <ul data-testid="manifest-warnings" className={css.warnings}>
            {detail.manifest.warnings.map((w, i) => (
              <li key={i}>{w}</li>
            ))}
          </ul>
        ) : null}
        {detail.manifest?.parsed ? (
          <div data-testid="manifest-fields" className={css.fields}>
            <span className={css.fieldName}>snapshot</span>
            <span>
              {detail.manifest.parsed.snapshotDate ?? '?'} {detail.manifest.parsed.snapshotHour ? `${detail.manifest.parsed.snapshotHour}:00 UTC` : ''} ·
              complete: {String(detail.manifest.parsed.complete)}
            </span>
            <span className={css.fieldName}>tables_delivered</span>
            <DeliveredList entries={detail.manifest.parsed.delivered} />
            <span className={css.fieldName}>tables_missing</span>
            <span className={detail.manifest.parsed.missing.length ? css.listsMissing : undefined}>
              {detail.manifest.parsed.missing.map((e) => e.name).join(', ') || '—'}
            </span>
            <span className={css.fieldName}>tables_pending</span>
            <span className={detail.manifest.parsed.pending.length ? css.listsPending : undefined}>
              {detail.manifest.parsed.pending.map((e) => e.name).join(', ') || '—'}
            </span>
            {Object.keys(detail.manifest.parsed.extra).length ? (
              <>
                <span className={css.fieldName}>other fields</span>
                <span>{Object.keys(detail.manifest.parsed.extra).join(', ')}</span>
              </>
            ) : null}
          </div>
        ) : null}
        {detail.manifest?.raw ? (
          <details>
            <summary className={css.rawSummary}>Raw manifest</summary>
            <pre className={css.raw}>{detail.manifest.raw}</pre>
          </details>
        ) : null}
        <div className={css.tables} aria-label="tables of the hour">
          <div className={css.tablesHead} aria-hidden="true">
            <span>table</span>
            <span>state</span>
            <span>_SUCCESS</span>
            <span className={css.number}>files</span>
            <span className={css.number}>rows</span>
          </div>
          {detail.tables.map((t) => {
            const rows = rowsOf(t)
            const unread = t.files.filter((f) => f.rowsError).length
            return (
              <details key={t.table} data-inspector-table={t.table} className={css.table}>
                <summary className={css.tableLine}>
                  <span className={css.tableName} title={`${t.schema}.${t.table}`}>
                    <TableLabel name={t.table} names={names} />
                  </span>
                  <span className={css.state} title={STATE_STYLE[t.state].label}>
                    <span className={css.swatch} style={{ background: tokenVar(STATE_STYLE[t.state].token) }} />
                    <span className={css.stateWords}>{shortState(STATE_STYLE[t.state].label)}</span>
                  </span>
                  <span title={t.success ? at(t.success) : undefined}>{t.success ? short(t.success) : '—'}</span>
                  <span className={unread ? `${css.number} ${css.rowsError}` : css.number} title={unread ? `${unread} unreadable` : undefined}>
                    {t.files.length}
                  </span>
                  <span
                    className={t.volume?.anomalous ? `${css.number} ${css.rowsError}` : css.number}
                    title={t.volume?.rowsBand ? `usual ${numberText(t.volume.rowsBand.low)}–${numberText(t.volume.rowsBand.high)}` : undefined}
                  >
                    {t.volume?.anomalous ? '⚠ ' : ''}
                    {rows === null ? '—' : numberText(rows)}
                  </span>
                </summary>
                <div className={css.folder}>
                  <code className={css.prefix}>{t.prefix}</code>
                  {t.deliveredThrough ? <div title={t.deliveredThrough}>delivered through {at(t.deliveredThrough)}</div> : null}
                  {t.volume ? <VolumeLine volume={t.volume} /> : null}
                  {t.files.length === 0 ? <div className={css.noFiles}>no files</div> : null}
                  {t.files.map((f) => (
                    <div key={f.key} className={css.file}>
                      {f.key.slice(f.key.lastIndexOf('/') + 1)} · {formatBytes(f.size)} · {at(f.lastModified)} · {f.storageClass ?? 'STANDARD'}
                      {f.rows !== null ? ` · ${countText(f.rows, 'row')}` : ''}
                      {f.rowsError ? <span className={css.rowsError}> · {f.rowsError}</span> : null}
                    </div>
                  ))}
                </div>
              </details>
            )
          })}
        </div>
      </div>
    </section>
  )
}
