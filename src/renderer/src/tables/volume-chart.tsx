// A table's rows per delivery over the timeline's range, for the Tables view: the rows of each delivery (a line),
// the usual band each was judged against (shaded; gaps where there was too little history), and the deliveries the
// volume monitor found out of it (red dots). The figures are main's (the `tableVolume` call, from the footers and
// manifests the refresh read): the chart draws, it does not judge. Pointing at it reads out the nearest delivery.
import { useEffect, useMemo, useState } from 'react'
import type { TableVolumeView, VolumePointView } from '../../../shared/api/views'
import { countText, numberText } from '../../../shared/counts'
import { timeText } from '../common/time'
import { useApp } from '../store/use-app-store'
import { VolumeThresholds } from './volume-thresholds'
import css from './volume-chart.module.css'

const W = 600
const H = 96
const PAD = { left: 4, right: 4, top: 6, bottom: 4 }

/** The path of the band's shaded area: one closed shape per run of judged deliveries. */
function bandPath(points: readonly VolumePointView[], x: (i: number) => number, y: (v: number) => number): string {
  let d = ''
  let run: number[] = []
  const close = (): void => {
    if (run.length === 0) return
    const top = run.map((i) => `${x(i).toFixed(1)},${y(points[i]?.rowsBand?.high ?? 0).toFixed(1)}`)
    const bottom = [...run].reverse().map((i) => `${x(i).toFixed(1)},${y(points[i]?.rowsBand?.low ?? 0).toFixed(1)}`)
    // A lone judged delivery is a short vertical bar, still seen.
    if (run.length === 1) {
      const i = run[0] as number
      d += `M${(x(i) - 1).toFixed(1)},${y(points[i]?.rowsBand?.high ?? 0).toFixed(1)}h2V${y(points[i]?.rowsBand?.low ?? 0).toFixed(1)}h-2Z`
    } else d += `M${top.join('L')}L${bottom.join('L')}Z`
    run = []
  }
  points.forEach((p, i) => (p.rowsBand ? run.push(i) : close()))
  close()
  return d
}

export function VolumeChart({ table }: { table: string }): React.JSX.Element | null {
  const volume = useApp((s) => s.volume)
  const error = useApp((s) => s.volumeError)
  const loadVolume = useApp((s) => s.loadVolume)
  const timeline = useApp((s) => s.timeline)
  const rangeHours = useApp((s) => s.rangeHours)
  const zone = useApp((s) => s.filterZone)
  const [hover, setHover] = useState<number | null>(null)
  // Again after each refresh (a new timeline) and for another range or table.
  useEffect(() => {
    void loadVolume(table)
  }, [table, timeline, rangeHours, loadVolume])
  const shown: TableVolumeView | null = volume && `${volume.schema}.${volume.table}` === table ? volume : null
  const points = useMemo(() => shown?.points ?? [], [shown])
  const geometry = useMemo(() => {
    const max = Math.max(1, ...points.map((p) => Math.max(p.rows, p.rowsBand?.high ?? 0)))
    const n = points.length
    const x = (i: number): number => PAD.left + (n <= 1 ? (W - PAD.left - PAD.right) / 2 : (i / (n - 1)) * (W - PAD.left - PAD.right))
    const y = (v: number): number => PAD.top + (1 - v / max) * (H - PAD.top - PAD.bottom)
    const line = points.map((p, i) => `${i ? 'L' : 'M'}${x(i).toFixed(1)},${y(p.rows).toFixed(1)}`).join('')
    return { max, x, y, line, band: bandPath(points, x, y) }
  }, [points])
  if (error) return <p className={css.error}>Rows per delivery could not be read: {error}</p>
  if (!shown) return null
  const anomalies = points.flatMap((p, i) => (p.anomalous ? [i] : []))
  const judged = points.find((p) => p.rowsBand)?.rowsBand
  const at = hover === null ? null : points[hover]
  const days = Math.round(rangeHours / 24)
  return (
    <figure data-testid="volume-chart" data-table={table} data-points={points.length} data-anomalies={anomalies.length} className={css.chart}>
      <figcaption className={css.caption}>
        <b>Rows per delivery</b>, last {countText(days, 'day')}: {countText(points.length, 'delivery', 'deliveries')}
        {anomalies.length ? (
          <span className={css.anomalyWords}> · {countText(anomalies.length, 'volume anomaly', 'volume anomalies')}</span>
        ) : (
          ' · none out of the usual band'
        )}
        {judged ? (
          <span className={css.faint}> · shaded: each delivery's usual band (the median of its history {judged.how.match(/± [\d.]+ MAD/)?.[0] ?? ''})</span>
        ) : null}
      </figcaption>
      {points.length === 0 ? (
        <p className={css.faint}>No delivery of this table in the range has footers or manifest rows read yet.</p>
      ) : (
        <>
          <div
            className={css.plotWrap}
            onPointerMove={(e) => {
              const r = e.currentTarget.getBoundingClientRect()
              const f = (e.clientX - r.left) / Math.max(1, r.width)
              setHover(Math.max(0, Math.min(points.length - 1, Math.round(((f * W - PAD.left) / (W - PAD.left - PAD.right)) * (points.length - 1)))))
            }}
            onPointerLeave={() => setHover(null)}
          >
            <svg
              viewBox={`0 0 ${W} ${H}`}
              preserveAspectRatio="none"
              role="img"
              aria-label={`rows per delivery of ${table}: ${points.length} deliveries, ${anomalies.length} out of the usual band`}
              className={css.plot}
            >
              <path d={geometry.band} className={css.band} />
              <path d={geometry.line} className={css.line} vectorEffect="non-scaling-stroke" />
              {hover !== null ? (
                <line x1={geometry.x(hover)} x2={geometry.x(hover)} y1={0} y2={H} className={css.cursor} vectorEffect="non-scaling-stroke" />
              ) : null}
            </svg>
            {/* Round whatever the chart's width (the plot stretches): the dots sit over it. */}
            {anomalies.map((i) => (
              <span
                key={i}
                data-anomaly={points[i]?.start}
                title={`${points[i] ? timeText(points[i].start, zone) : ''}: ${countText(points[i]?.rows ?? 0, 'row')}, out of the usual band`}
                className={css.anomaly}
                style={{ left: `${(geometry.x(i) / W) * 100}%`, top: `${(geometry.y(points[i]?.rows ?? 0) / H) * 100}%` }}
              />
            ))}
          </div>
          <div className={css.axis}>
            <span>{points[0] ? timeText(points[0].start, zone) : ''}</span>
            <span>max {numberText(geometry.max)} rows</span>
            <span>{points.at(-1) ? timeText((points.at(-1) as VolumePointView).start, zone) : ''}</span>
          </div>
          <div data-testid="volume-readout" className={css.readout} aria-live="polite">
            {at
              ? `${timeText(at.start, zone)}: ${countText(at.rows, 'row')}${
                  at.rowsBand ? `; usual ${numberText(at.rowsBand.low)}–${numberText(at.rowsBand.high)}` : ' (too little history to judge)'
                }${at.anomalous ? ' · out of the usual band' : ''}`
              : 'Point at the chart to read a delivery.'}
          </div>
        </>
      )}
      <VolumeThresholds table={shown.table} />
    </figure>
  )
}
