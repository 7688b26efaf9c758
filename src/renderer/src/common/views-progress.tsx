// While the views open (the first time, every file's Parquet footer is read): which table, how many done.
import { countText } from '../../../shared/counts'
import { useApp } from '../store/use-app-store'
import css from './views-progress.module.css'

export function ViewsProgressLine(): React.JSX.Element | null {
  const p = useApp((s) => s.viewsProgress)
  if (!p || p.done >= p.total) return null
  return (
    <div data-testid="views-progress" role="status" className={css.line}>
      <progress max={p.total} value={p.done} className={css.bar} />
      Opening the tables: {p.done}/{p.total} {p.table ? `(${p.table})` : ''} — the first time, the footers of {countText(p.files, 'Parquet file')} are read;
      later only new files.
    </div>
  )
}
