// A column's distribution as 20 bars, for the column statistics.
import css from './column-histogram.module.css'

export function ColumnHistogram({ bins }: { bins: number[] }): React.JSX.Element {
  const max = Math.max(1, ...bins)
  return (
    <svg width={100} height={20} role="img" aria-label="histogram">
      {bins.map((n, i) => (
        <rect key={i} x={i * 5} y={20 - (n / max) * 20} width={4} height={(n / max) * 20} className={css.bar} />
      ))}
    </svg>
  )
}
