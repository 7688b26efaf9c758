// Test harness: the renderer's results grid (the SQL pane's and the table browser's) on the renderer's own
// engine (DuckDB-WASM 1.28 in a browser worker) and result set, driven by Playwright; no bucket, no API.
import '../../../src/renderer/src/common/tokens.css'
import { createRoot } from 'react-dom/client'
import { startBrowserEngine } from '../../../src/renderer/src/engine/browser-engine'
import type { BrowserEngine } from '../../../src/renderer/src/engine/wasm-engine'
import { runQueryOn } from '../../../src/renderer/src/engine/result-set'
import { ResultGrid } from '../../../src/renderer/src/common/result-grid'

declare global {
  interface Window {
    /** Runs `setup`, then `sql` as the SQL pane does, and shows the result in the grid. */
    showQuery(setup: string[], sql: string): Promise<{ rows: number; columns: { name: string; type: string }[] }>
    engineQuery(sql: string): Promise<Record<string, unknown>[]>
  }
}

const root = createRoot(document.getElementById('root') as HTMLElement)
let engine: Promise<BrowserEngine> | null = null
const started = (): Promise<BrowserEngine> => (engine ??= startBrowserEngine(() => ''))

window.engineQuery = async (sql) => (await started()).query(sql)
window.showQuery = async (setup, sql) => {
  const e = await started()
  for (const s of setup) await e.query(s)
  const result = await runQueryOn((q) => e.query(q), sql)
  root.render(<ResultGrid result={result} height={300} />)
  return { rows: result.rowCount, columns: result.columns.map((c) => ({ name: c.name, type: c.type })) }
}
