// The app's frame: the open connection, refresh with progress and cancel, the three views (deliveries,
// tables, SQL; each stays mounted once opened), the connection manager, and the menu's commands.
import { useEffect } from 'react'
import { APP_NAME } from '../../shared/app-info'
import type { MenuCommand } from '../../shared/menu-commands'
import css from './app.module.css'
import { AsOfBanner } from './common/as-of-banner'
import { ExportDialog } from './common/export-dialog'
import { refreshProgressText } from './common/refresh-progress'
import { shortcutCommand } from './common/menu-shortcuts'
import { wallClock } from './common/time'
import { whenQuiet } from './common/when-quiet'
import { ConnectionManager } from './connections/connection-manager'
import { DeliveriesView } from './deliveries/deliveries-view'
import { windowTitle } from './follow/desktop-notifications'
import { SqlPane } from './sql/sql-pane'
import { appStore, useApp } from './store/use-app-store'
import { TableBrowser } from './tables/table-browser'

/** How long Deliveries is left alone before the query engine starts (its start would slow the timeline drawn meanwhile). */
const WARM_ENGINE_QUIET_MS = 2_000

const TABS = [
  ['deliveries', 'Deliveries'],
  ['tables', 'Tables'],
  ['sql', 'SQL']
] as const

function runMenuCommand(c: MenuCommand): void {
  const s = appStore.getState()
  if (c === 'refresh') void s.refresh(false)
  else if (c === 'connections') s.setManagerOpen(true)
  else if (c === 'findings') document.querySelector('[data-testid=findings]')?.scrollIntoView()
  else if (c === 'zoom-in' || c === 'zoom-out') s.zoom(c === 'zoom-in' ? 1 : -1)
}

export function App(): React.JSX.Element {
  const connections = useApp((s) => s.connections)
  const managerOpen = useApp((s) => s.managerOpen)
  const status = useApp((s) => s.refreshStatus)
  const error = useApp((s) => s.error)
  const tab = useApp((s) => s.tab)
  const visited = useApp((s) => s.visited)
  const overview = useApp((s) => s.overview)
  const { openConnection, setManagerOpen, refresh, cancelRefresh, show, fail } = appStore.getState()

  // The window's title (the tab's, in a browser) counts the open connection's open errors.
  const openErrors = useApp((s) => s.openErrors)
  const activeName = connections?.connections.find((c) => c.id === connections.active)?.name ?? null
  useEffect(() => {
    document.title = windowTitle(APP_NAME, activeName, openErrors)
  }, [activeName, openErrors])

  useEffect(() => {
    void appStore.getState().loadConnections()
    return appStore.getState().followEvents()
  }, [])

  // Once the first overview is shown, the query engine starts ahead of the first query, in Tables or SQL, which then
  // does not wait the ~1.4 s DuckDB-WASM takes to compile: at once on those tabs, and on Deliveries once the user has
  // left the window alone for WARM_ENGINE_QUIET_MS (when-quiet.ts says why), then when it is idle.
  const shown = overview !== null
  useEffect(() => {
    if (!shown) return
    let idle: number | undefined
    const warm = (): void => {
      idle = requestIdleCallback(() => appStore.getState().warmQueryEngine(), { timeout: 5_000 })
    }
    let cancelQuiet = (): void => {}
    if (tab === 'deliveries') cancelQuiet = whenQuiet(window, WARM_ENGINE_QUIET_MS, warm)
    else warm()
    return () => {
      cancelQuiet()
      if (idle !== undefined) cancelIdleCallback(idle)
    }
  }, [shown, tab])

  // Menu commands from the Electron shell; in a browser, which has no such menu, its shortcuts.
  useEffect(() => {
    const bridge = window.exportExplorer as unknown as { onMenu?: (l: (c: MenuCommand) => void) => void } | undefined
    if (bridge?.onMenu) {
      bridge.onMenu(runMenuCommand)
      return
    }
    const onKey = (e: KeyboardEvent): void => {
      const c = shortcutCommand(e)
      if (!c) return
      e.preventDefault()
      runMenuCommand(c)
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [])

  const p = status?.progress
  return (
    <main className={css.app}>
      <header className={css.header}>
        <h1 className={css.title}>{APP_NAME}</h1>
        <label className={css.connection}>
          Connection{' '}
          <select aria-label="connection" value={connections?.active ?? ''} onChange={(e) => void openConnection(e.target.value).catch(fail)}>
            {connections?.active ? null : <option value="">{error ? '(none open)' : '(opening…)'}</option>}
            {connections?.connections.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
              </option>
            ))}
          </select>
        </label>
        <button className={css.button} onClick={() => setManagerOpen(true)}>
          Connections…
        </button>
        <span className={css.spacer} />
        {status?.running ? (
          <>
            <span data-testid="refresh-progress" className={css.progressText}>
              Refreshing… {refreshProgressText(p)}
            </span>
            <progress max={p?.prefixesTotal || 1} value={p?.prefixesDone ?? 0} className={css.progress} />
            <button className={css.button} onClick={() => void cancelRefresh()}>
              Cancel
            </button>
          </>
        ) : (
          <>
            <span data-testid="refresh-status" data-failed={Boolean(status?.lastError)} className={css.refreshStatus}>
              {status?.lastError ?? (status?.lastRefreshed ? `Refreshed ${wallClock(Date.parse(status.lastRefreshed), 'local').slice(11)} local` : '')}
              {status?.nextAuto ? ` · next check ${wallClock(Date.parse(status.nextAuto), 'local').slice(11)}` : ''}
            </span>
            <button className={css.button} onClick={() => void refresh(false)} title="List what changed since the last refresh">
              Refresh
            </button>
            <button
              className={css.button}
              onClick={() => void refresh(true)}
              title="Forget the saved listing and list the whole bucket again (slower; use it when something looks missing)"
            >
              Full refresh
            </button>
          </>
        )}
      </header>
      {error ? (
        <p role="alert" className={css.error}>
          {error}
        </p>
      ) : null}
      <AsOfBanner />
      <nav role="tablist" aria-label="views" className={css.tabs}>
        {TABS.map(([id, label]) => (
          <button key={id} role="tab" aria-selected={tab === id} onClick={() => show(id)} className={css.tab}>
            {label}
          </button>
        ))}
      </nav>
      {visited.tables && overview ? (
        <div className={css.view} data-shown={tab === 'tables'}>
          <TableBrowser overview={overview} />
        </div>
      ) : null}
      {visited.sql && overview ? (
        <div className={css.sqlView} data-shown={tab === 'sql'}>
          <SqlPane />
        </div>
      ) : null}
      <div className={css.view} data-shown={tab === 'deliveries'}>
        <DeliveriesView />
      </div>
      {managerOpen && connections ? <ConnectionManager view={connections} /> : null}
      <ExportDialog />
    </main>
  )
}
