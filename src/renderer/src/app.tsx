import { APP_NAME } from '../../shared/app-info'
import { CATALOG } from '../../shared/catalog'

export function App(): React.JSX.Element {
  return (
    <main style={{ fontFamily: 'system-ui, sans-serif', padding: 24 }}>
      <h1>{APP_NAME}</h1>
      <p>{CATALOG.length} tables in the vendor catalog.</p>
      <ul>
        {CATALOG.map((t) => (
          <li key={`${t.schema}.${t.table}`}>
            <code>{t.schema}.{t.table}</code> — {t.mode === 'full' ? 'rewritten in full' : 'delivered in parts'}
          </li>
        ))}
      </ul>
    </main>
  )
}
