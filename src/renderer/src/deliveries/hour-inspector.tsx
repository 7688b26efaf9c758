// The hour inspector: the manifest (state, warnings, raw JSON) and, per table, the folder with its files,
// object times, storage classes and delivered_through, with the findings of the hour. A side panel beside the
// timeline, kept in view (sticky) and scrolled to when it opens; focused when opened from outside the timeline.
import { useEffect, useRef } from 'react'
import type { HourDetail } from '../../../shared/api-contract'
import { countText } from '../../../shared/counts'
import { timeText } from '../common/time'
import { useApp } from '../store/use-app-store'
import { STATE_STYLE } from './cell-states'
import { KIND_WORDS, MANIFEST_WORDS } from './finding-words'

const kb = (n: number): string => (n < 1024 ? `${n} B` : `${(n / 1024).toFixed(1)} KB`)

export function HourInspector({ detail, onClose }: { detail: HourDetail; onClose: () => void }): React.JSX.Element {
  const panel = useRef<HTMLElement | null>(null)
  const heading = useRef<HTMLHeadingElement | null>(null)
  const zone = useApp((s) => s.zone)
  const at = (iso: string): string => timeText(iso, zone, true)
  // Opened from an incident far down the page, it must not open out of sight; from the timeline, the keyboard
  // stays on the timeline (arrows and Enter go on working there).
  useEffect(() => {
    panel.current?.scrollIntoView({ block: 'nearest' })
    if (document.activeElement?.getAttribute('data-testid') !== 'timeline-canvas') heading.current?.focus({ preventScroll: true })
  }, [detail])
  return (
    <section
      ref={panel}
      data-testid="inspector"
      aria-label="hour inspector"
      style={{ marginTop: 12, border: '1px solid #dde1e6', borderRadius: 6, padding: 12, position: 'sticky', top: 8, maxHeight: 'calc(100vh - 16px)', overflow: 'auto', boxSizing: 'border-box', background: '#fff' }}
    >
      <div style={{ display: 'flex', justifyContent: 'space-between' }}>
        <h2 ref={heading} tabIndex={-1} style={{ fontSize: 16, margin: 0, outline: 'none' }}>
          {timeText(detail.start, zone)} · {detail.era === 'v1' ? 'v1 daily delivery' : detail.era === 'gap' ? 'switch gap' : 'v2 hourly delivery'}
        </h2>
        <button onClick={onClose}>Close</button>
      </div>
      {detail.findings.length > 0 ? (
        <ul data-testid="inspector-findings" style={{ fontSize: 13 }}>
          {detail.findings.map((f, i) => (
            <li key={i}>
              <b title={f.kind}>{KIND_WORDS[f.kind].one}</b> {f.table ?? ''}: {f.message}
            </li>
          ))}
        </ul>
      ) : null}
      <h3 style={{ fontSize: 14 }} title={detail.manifest?.state ?? undefined}>Manifest: {detail.manifest?.state ? MANIFEST_WORDS[detail.manifest.state].replace(/^manifest /, '') : 'none expected'}</h3>
      {detail.manifest?.key ? <code style={{ fontSize: 12 }}>{detail.manifest.key}</code> : null}
      {detail.manifest && detail.manifest.warnings.length > 0 ? (
        <ul data-testid="manifest-warnings" style={{ fontSize: 13, color: '#9a6700' }}>
          {detail.manifest.warnings.map((w, i) => (
            <li key={i}>{w}</li>
          ))}
        </ul>
      ) : null}
      {detail.manifest?.parsed ? (
        <div data-testid="manifest-fields" style={{ fontSize: 12, display: 'grid', gridTemplateColumns: '150px 1fr', gap: '2px 8px', margin: '6px 0' }}>
          <span style={{ color: '#555' }}>snapshot</span>
          <span>
            {detail.manifest.parsed.snapshotDate ?? '?'} {detail.manifest.parsed.snapshotHour ? `${detail.manifest.parsed.snapshotHour}:00 UTC` : ''} · complete: {String(detail.manifest.parsed.complete)}
          </span>
          <span style={{ color: '#555' }}>tables_delivered ({detail.manifest.parsed.delivered.length})</span>
          <span>{detail.manifest.parsed.delivered.map((e) => `${e.name}${e.files !== undefined ? ` (${e.files} file${e.files === 1 ? '' : 's'}${e.rows !== undefined ? `, ${countText(e.rows, 'row')}` : ''})` : ''}`).join(', ') || '—'}</span>
          <span style={{ color: '#555' }}>tables_missing</span>
          <span style={{ color: detail.manifest.parsed.missing.length ? '#b3261e' : undefined }}>{detail.manifest.parsed.missing.map((e) => e.name).join(', ') || '—'}</span>
          <span style={{ color: '#555' }}>tables_pending</span>
          <span style={{ color: detail.manifest.parsed.pending.length ? '#6b3fa0' : undefined }}>{detail.manifest.parsed.pending.map((e) => e.name).join(', ') || '—'}</span>
          {Object.keys(detail.manifest.parsed.extra).length ? (
            <>
              <span style={{ color: '#555' }}>other fields</span>
              <span>{Object.keys(detail.manifest.parsed.extra).join(', ')}</span>
            </>
          ) : null}
        </div>
      ) : null}
      {detail.manifest?.raw ? (
        <details>
          <summary style={{ fontSize: 13 }}>Raw manifest</summary>
          <pre style={{ fontSize: 11, maxHeight: 240, overflow: 'auto', background: '#f6f8fa', padding: 8 }}>{detail.manifest.raw}</pre>
        </details>
      ) : null}
      <table style={{ fontSize: 12, borderCollapse: 'collapse', marginTop: 8, width: '100%' }}>
        <thead>
          <tr style={{ textAlign: 'left' }}>
            <th>table</th>
            <th>state</th>
            <th>_SUCCESS</th>
            <th>delivered through</th>
            <th>files</th>
          </tr>
        </thead>
        <tbody>
          {detail.tables.map((t) => (
            <tr key={t.table} data-inspector-table={t.table} style={{ borderTop: '1px solid #eee', verticalAlign: 'top' }}>
              <td>{t.table}</td>
              <td>
                <span style={{ background: STATE_STYLE[t.state].color, padding: '0 4px' }}>{STATE_STYLE[t.state].label}</span>
              </td>
              <td>{t.success ? at(t.success) : '—'}</td>
              <td title={t.deliveredThrough ?? undefined}>{t.deliveredThrough ? at(t.deliveredThrough) : '—'}</td>
              <td>
                {t.files.length === 0 ? <span style={{ color: '#777' }}>{t.prefix} (no files)</span> : null}
                {t.files.map((f) => (
                  <div key={f.key}>
                    {f.key.slice(f.key.lastIndexOf('/') + 1)} · {kb(f.size)} · {at(f.lastModified)} · {f.storageClass ?? 'STANDARD'}
                    {f.rows !== null ? ` · ${countText(f.rows, 'row')}` : ''}
                    {f.rowsError ? <span style={{ color: '#b3261e' }}> · {f.rowsError}</span> : null}
                  </div>
                ))}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  )
}
