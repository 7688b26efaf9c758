// The hour inspector: the manifest (state, warnings, raw JSON) and, per table, the folder with its files,
// object times, storage classes and delivered_through, with the findings of the hour. A side panel beside the
// timeline, kept in view (sticky) and scrolled to when it opens; focused when opened from outside the timeline.
import { useEffect, useRef } from 'react'
import type { HourDetail } from '../../../shared/api/views'
import { countText, formatBytes } from '../../../shared/counts'
import { resolutionWords } from '../../../shared/incidents'
import type { Finding } from '../../../shared/timeline'
import { useEscapeToClose } from '../common/escape-key'
import { timeText } from '../common/time'
import { useApp } from '../store/use-app-store'
import { tokenVar } from '../common/css-tokens'
import { STATE_STYLE } from './cell-states'
import { KIND_WORDS, MANIFEST_WORDS } from './finding-words'
import css from './hour-inspector.module.css'

const SEVERITY_RANK = { error: 0, warning: 1, info: 2 } as const

/** What still needs someone first, by severity; what resolved itself last. */
function byUrgency(findings: readonly Finding[]): Finding[] {
  return [...findings].sort((a, b) => Number(a.resolved !== null) - Number(b.resolved !== null) || SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity])
}

export function HourInspector({ detail, onClose }: { detail: HourDetail; onClose: () => void }): React.JSX.Element {
  const panel = useRef<HTMLElement | null>(null)
  const heading = useRef<HTMLHeadingElement | null>(null)
  const zone = useApp((s) => s.zone)
  const at = (iso: string): string => timeText(iso, zone, true)
  useEscapeToClose(onClose)
  // Opened from an incident far down the page, it must not open out of sight; from the timeline, the keyboard
  // stays on the timeline (arrows and Enter go on working there).
  useEffect(() => {
    panel.current?.scrollIntoView({ block: 'nearest' })
    if (document.activeElement?.getAttribute('data-testid') !== 'timeline-canvas') heading.current?.focus({ preventScroll: true })
  }, [detail])
  return (
    <section ref={panel} data-testid="inspector" aria-label="hour inspector" className={css.panel}>
      <div className={css.header}>
        <h2 ref={heading} tabIndex={-1} className={css.title}>
          {timeText(detail.start, zone)} · {detail.era === 'v1' ? 'v1 daily delivery' : detail.era === 'gap' ? 'switch gap' : 'v2 hourly delivery'}
        </h2>
        <button onClick={onClose}>Close</button>
      </div>
      {detail.findings.length > 0 ? (
        <ul data-testid="inspector-findings" className={css.findings}>
          {byUrgency(detail.findings).map((f, i) => (
            <li key={i} data-resolved={f.resolved !== null} className={f.resolved ? css.resolved : undefined}>
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
          <span className={css.fieldName}>tables_delivered ({detail.manifest.parsed.delivered.length})</span>
          <span>
            {detail.manifest.parsed.delivered
              .map(
                (e) =>
                  `${e.name}${e.files !== undefined ? ` (${e.files} file${e.files === 1 ? '' : 's'}${e.rows !== undefined ? `, ${countText(e.rows, 'row')}` : ''})` : ''}`
              )
              .join(', ') || '—'}
          </span>
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
      <table className={css.tables}>
        <thead>
          <tr>
            <th>table</th>
            <th>state</th>
            <th>_SUCCESS</th>
            <th>delivered through</th>
            <th>files</th>
          </tr>
        </thead>
        <tbody>
          {detail.tables.map((t) => (
            <tr key={t.table} data-inspector-table={t.table}>
              <td>{t.table}</td>
              <td>
                <span className={css.state} style={{ background: tokenVar(STATE_STYLE[t.state].token) }}>
                  {STATE_STYLE[t.state].label}
                </span>
              </td>
              <td>{t.success ? at(t.success) : '—'}</td>
              <td title={t.deliveredThrough ?? undefined}>{t.deliveredThrough ? at(t.deliveredThrough) : '—'}</td>
              <td>
                {t.files.length === 0 ? <span className={css.noFiles}>{t.prefix} (no files)</span> : null}
                {t.files.map((f) => (
                  <div key={f.key}>
                    {f.key.slice(f.key.lastIndexOf('/') + 1)} · {formatBytes(f.size)} · {at(f.lastModified)} · {f.storageClass ?? 'STANDARD'}
                    {f.rows !== null ? ` · ${countText(f.rows, 'row')}` : ''}
                    {f.rowsError ? <span className={css.rowsError}> · {f.rowsError}</span> : null}
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
